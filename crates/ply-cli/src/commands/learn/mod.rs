//! `ply learn GAME`: AlphaZero's loop ([`ply_learn::learn`]) with a
//! progress bar, a line per generation, and the network saved after each
//! one (safetensors, with the command, the commit and the generation's
//! figures in its metadata), so a run can be stopped and resumed.
//! `--supervised` learns from the exact solver instead ([`supervised`]).
//!
//! Each network is graded by the exact solver as it is made: a small
//! game's every open position, Connect Four's samples of the public test
//! sets (end, middle and beginning positions).

mod supervised;
mod window;

use std::collections::HashMap;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ply_core::Game;
use ply_core::registry::{GameSpec, GameVisitor, Params, Registered};
use ply_learn::grade::{self, Accuracy, Graded};
use ply_learn::learn::{Generation, LearnOptions, Progress, Recipe, Start, learn, recipe};
use ply_learn::selfplay::SelfPlay;
use ply_learn::{Network, Shape, check_fits};

use crate::args::LearnArgs;
use crate::{CliError, CliResult};

/// Games with at most this many positions are graded against the exact
/// solver after every generation (tic-tac-toe has 4,520 open ones).
const GRADE_LIMIT: usize = 20_000;

/// Positions taken from each test set (every tenth of its 1,000), so
/// that grading each network takes a moment.
const PER_SET: usize = 100;

/// Positions graded by the exact solver, by set.
type Sets<G> = Vec<(
    &'static str,
    Vec<Graded<<G as Game>::State, <G as Game>::Move>>,
)>;

/// What each network is graded on: a small game's every open position;
/// standard Connect Four's samples of the public test sets (a minute or
/// two of the solver, counted on `bar`); else nothing.
fn grading_sets<G: Registered>(
    game: &G,
    spec: &GameSpec,
    a: &LearnArgs,
    threads: usize,
    bar: &ProgressBar,
) -> Sets<G> {
    bar.set_message("grading the test positions by the exact solver");
    if let Some(states) = grade::reachable(game, GRADE_LIMIT) {
        return vec![("all", grade::grade(game, &states))];
    }
    if spec.name != "connect4" || !a.params.is_empty() {
        return Vec::new();
    }
    let of = grade::CONNECT4_SETS.len() * PER_SET;
    let mut graded_before = 0;
    grade::CONNECT4_SETS
        .iter()
        .map(|&(name, text)| {
            // The sets are built in and parse (ply-learn's tests read them).
            let states: Vec<G::State> = grade::test_positions(game, text, 1000 / PER_SET)
                .unwrap_or_default()
                .into_iter()
                .map(|(state, _)| state)
                .collect();
            let graded = grade::grade_parallel(game, &states, None, threads, 64, &mut |done| {
                let what = format!("grading the test positions by the exact solver: {name}");
                show(bar, graded_before + done, of, what);
            });
            graded_before += states.len();
            (name, graded)
        })
        .collect()
}

/// `network`'s accuracy on each set.
fn accuracies<G: Registered>(
    game: &G,
    network: &Network,
    sets: &Sets<G>,
) -> Vec<(&'static str, Accuracy)> {
    sets.iter()
        .map(|(name, graded)| (*name, grade::accuracy(game, network, graded)))
        .collect()
}

/// The accuracies as text ("optimal moves 81.0% (end 90.0%, ...), values
/// 70.0%") and as JSON ({"moves": .., "values": .., "sets": {..}}).
fn accuracy_text(sets: &[(&str, Accuracy)]) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let (moves, values) = overall(sets);
    let mut text = format!("optimal moves {}", pct(moves));
    if sets.len() > 1 {
        let each: Vec<String> = sets
            .iter()
            .map(|(n, acc)| format!("{n} {}", pct(acc.moves)))
            .collect();
        text += &format!(" ({})", each.join(", "));
    }
    text + &format!(", values {}", pct(values))
}

fn accuracy_json(sets: &[(&str, Accuracy)]) -> serde_json::Value {
    if sets.is_empty() {
        return serde_json::Value::Null;
    }
    let (moves, values) = overall(sets);
    let each: serde_json::Map<String, serde_json::Value> = sets
        .iter()
        .map(|(n, acc)| {
            let v = serde_json::json!({"moves": acc.moves, "values": acc.values});
            ((*n).to_string(), v)
        })
        .collect();
    serde_json::json!({"moves": moves, "values": values, "sets": each})
}

/// The mean of the sets' move and value accuracies (the sets are the
/// same size, or only one).
fn overall(sets: &[(&str, Accuracy)]) -> (f64, f64) {
    let n = sets.len().max(1) as f64;
    (
        sets.iter().map(|(_, a)| a.moves).sum::<f64>() / n,
        sets.iter().map(|(_, a)| a.values).sum::<f64>() / n,
    )
}

/// The accuracies as the network file's metadata.
fn accuracy_about(sets: &[(&str, Accuracy)]) -> Vec<(String, String)> {
    if sets.is_empty() {
        return Vec::new();
    }
    let (moves, values) = overall(sets);
    let mut about = vec![
        ("ply.accuracy".to_string(), format!("{moves:.4}")),
        ("ply.value_accuracy".to_string(), format!("{values:.4}")),
    ];
    if sets.len() > 1 {
        for (n, acc) in sets {
            about.push((format!("ply.accuracy {n}"), format!("{:.4}", acc.moves)));
        }
    }
    about
}

/// A count's flag, or `default` when it is not given; zero is refused by
/// the flag's name.
fn positive(flag: &str, v: Option<usize>, default: usize) -> Result<usize, CliError> {
    match v {
        Some(0) => Err(CliError::input(format!("--{flag} must be at least 1"))),
        v => Ok(v.unwrap_or(default)),
    }
}

/// Adam's step size: --learning-rate, or `default`; refused outside
/// (0, 1).
fn learning_rate(a: &LearnArgs, default: f64) -> Result<f64, CliError> {
    let rate = a.learning_rate.unwrap_or(default);
    if rate > 0.0 && rate < 1.0 {
        Ok(rate)
    } else {
        Err(CliError::input(
            "--learning-rate must be above 0 and below 1 (e.g. 0.002)",
        ))
    }
}

/// A run's end: the bar cleared, then the failure to save, if one
/// stopped it, else where the network is (in text; JSON says no more).
fn finish(bar: &ProgressBar, failure: Option<CliError>, out: &Path, json: bool) -> CliResult {
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    if !json {
        println!("saved {}", out.display());
    }
    Ok(())
}

/// The options: the recipe's, each overridden by its flag; zero where a
/// count must be positive is refused by the flag's name.
fn options(a: &LearnArgs, recipe: &Recipe) -> Result<LearnOptions, CliError> {
    let r = recipe.options;
    let simulations = match a.simulations {
        Some(0) => return Err(CliError::input("--simulations must be at least 1")),
        v => v.unwrap_or(r.selfplay.simulations),
    };
    let learning_rate = learning_rate(a, r.learning_rate)?;
    Ok(LearnOptions {
        generations: positive("generations", a.generations, r.generations)?,
        games: positive("games", a.games, r.games)?,
        selfplay: SelfPlay {
            simulations,
            exploring_moves: a.exploring_moves.unwrap_or(r.selfplay.exploring_moves),
            ..r.selfplay
        },
        window: positive("window", a.window, r.window)?,
        steps: positive("steps", a.steps, r.steps)?,
        minibatch: positive("minibatch", a.minibatch, r.minibatch)?,
        learning_rate,
        match_games: a.match_games.unwrap_or(r.match_games),
        threads: positive("threads", a.threads, r.threads)?,
        seed: a.seed,
    })
}

struct Learn<'a>(&'a LearnArgs);

impl GameVisitor for Learn<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> CliResult {
        let a = self.0;
        if !game.learnable() {
            return Err(CliError::input(format!(
                "{} cannot be learned: it does not say how a network sees its positions (games that can: tictactoe, connect4)",
                spec.name
            )));
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let recipe = recipe(spec.name, threads);
        if a.supervised {
            return supervised::run(&game, spec, a, &recipe);
        }
        let options = options(a, &recipe)?;
        let out = out_path(a, spec);
        let (network, first) = start(&game, spec, a, &recipe, &out)?;
        if first > options.generations {
            return Err(CliError::input(format!(
                "--resume: {} has all {} generations already; ask for more with --generations",
                out.display(),
                first - 1
            )));
        }
        let window_path = window::path(&out);
        let window = if first > 1 {
            window::read(&game, &window_path, first - 1, options.window)?
        } else {
            Vec::new()
        };
        let bar = bar(a.quiet || !std::io::stderr().is_terminal());
        let sets = grading_sets(&game, spec, a, options.threads, &bar);
        let stop = AtomicBool::new(false);
        let mut failure = None;
        let start = Start { first, window };
        learn(&game, network, &options, start, &stop, &mut |p| match p {
            Progress::Game {
                generation,
                done,
                of,
                positions,
            } => show(
                &bar,
                done,
                of,
                format!("generation {generation}: self-play, {positions} positions"),
            ),
            Progress::Training {
                generation,
                done,
                of,
                losses,
            } => show(
                &bar,
                done,
                of,
                format!(
                    "generation {generation}: training, loss {:.3} + {:.3}",
                    losses.policy, losses.value
                ),
            ),
            Progress::Matches { generation } => {
                bar.set_message(format!("generation {generation}: match games"));
            }
            Progress::Generation(g, network, games) => {
                let accuracy = accuracies(&game, network, &sets);
                bar.suspend(|| say(g, &accuracy, a.json));
                let mut figures = vec![
                    ("ply.generation".to_string(), g.number.to_string()),
                    ("ply.policy_loss".into(), format!("{:.4}", g.losses.policy)),
                    ("ply.value_loss".into(), format!("{:.4}", g.losses.value)),
                ];
                figures.extend(accuracy_about(&accuracy));
                // The games first: a window ahead of its network is cut
                // back on resume, one behind it would lose a generation.
                let fresh = g.number == 1;
                let saved = window::append(&game, g.number, games, &window_path, fresh)
                    .and_then(|()| save(network, spec, figures, &out));
                if let Err(e) = saved {
                    failure = Some(e);
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        });
        finish(&bar, failure, &out, a.json)
    }
}

/// The network to start from and its first generation: the saved one
/// with `--resume`, else a new one of the recipe's (or the flags') size.
fn start<G: Registered>(
    game: &G,
    spec: &GameSpec,
    a: &LearnArgs,
    recipe: &Recipe,
    out: &Path,
) -> Result<(Network, usize), CliError> {
    if a.resume {
        let bytes = std::fs::read(out).map_err(|e| {
            CliError::input(format!("--resume: cannot read {}: {e}", out.display()))
        })?;
        let network = Network::from_bytes(&bytes)
            .map_err(|e| CliError::input(format!("--resume: {}: {e}", out.display())))?;
        if network.about.get("ply.game").map(String::as_str) != Some(spec.name) {
            return Err(CliError::input(format!(
                "--resume: {} is a network for {}, not {}",
                out.display(),
                network
                    .about
                    .get("ply.game")
                    .map_or("no game", |s| s.as_str()),
                spec.name
            )));
        }
        check_fits(game, &network)
            .map_err(|e| CliError::input(format!("--resume: {}: {e}", out.display())))?;
        let done: usize = network
            .about
            .get("ply.generation")
            .and_then(|g| g.parse().ok())
            .unwrap_or(0);
        return Ok((network, done + 1));
    }
    let shape = Shape {
        planes: game.planes(),
        policy: game.policy_size(),
        channels: a.channels.unwrap_or(recipe.channels).max(1),
        blocks: a.blocks.unwrap_or(recipe.blocks),
    };
    Ok((Network::random(shape, a.seed), 1))
}

/// The bar at `done` of `of`, saying `what`.
fn show(bar: &ProgressBar, done: usize, of: usize, what: String) {
    bar.set_length(of as u64);
    bar.set_position(done as u64);
    bar.set_message(what);
}

fn bar(hidden: bool) -> ProgressBar {
    if hidden {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

/// A generation's line: text, or JSON with `json`.
fn say(g: &Generation, accuracy: &[(&str, Accuracy)], json: bool) {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    if json {
        let line = ply_service::learned::generation_json(g, Some(accuracy_json(accuracy)));
        println!("{line}");
        return;
    }
    let mut line = format!(
        "generation {}: {} games, {} positions ({:.0}/s); loss {:.3} policy + {:.3} value ({:.0} samples/s)",
        g.number,
        g.games,
        g.positions,
        g.positions_per_second,
        g.losses.policy,
        g.losses.value,
        g.samples_per_second
    );
    if let (Some(p), Some(m)) = (g.vs_previous, g.vs_mcts) {
        line += &format!(
            "; scores {} against the last, {} against MCTS",
            pct(p),
            pct(m)
        );
    }
    if !accuracy.is_empty() {
        line += &format!("; {}", accuracy_text(accuracy));
    }
    println!("{line}; {:.1} s", g.seconds);
}

/// Saves `network` with what made it: the game, the command, the commit,
/// and `figures` (the generation or epoch, its losses and accuracy).
fn save(
    network: &Network,
    spec: &GameSpec,
    figures: Vec<(String, String)>,
    out: &Path,
) -> Result<(), CliError> {
    let mut about: HashMap<String, String> = network.about.clone();
    let command: Vec<String> = std::iter::once("ply".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    about.insert("ply.game".into(), spec.name.into());
    about.insert("ply.command".into(), command.join(" "));
    about.insert("ply.commit".into(), commit());
    about.extend(figures);
    let network = Network {
        about,
        ..network.clone()
    };
    let bytes = network.to_bytes().map_err(CliError::failure)?;
    let tmp = out.with_extension("safetensors.part");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| {
            CliError::failure(format!("cannot save the network to {}: {e}", out.display()))
        })
}

/// Where the network goes: --out, or ply-GAME.safetensors.
fn out_path(a: &LearnArgs, spec: &GameSpec) -> PathBuf {
    a.out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("ply-{}.safetensors", spec.name)))
}

/// The commit the binary runs from, when it runs in its repository.
fn commit() -> String {
    std::process::Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=8"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "unknown".into(),
            |o| String::from_utf8_lossy(&o.stdout).trim().to_string(),
        )
}

pub fn run(args: &LearnArgs) -> CliResult {
    let params = Params::parse(&args.params).map_err(|e| CliError::input(e.0))?;
    ply_games::visit(&args.game, &params, Learn(args))?
}
