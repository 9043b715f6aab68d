//! `ply learn GAME`: AlphaZero's loop ([`ply_learn::learn`]) with a
//! progress bar, a line per generation, and the network saved after each
//! one (safetensors, with the command, the commit and the generation's
//! figures in its metadata), so a run can be stopped and resumed.

use std::collections::HashMap;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ply_core::registry::{GameSpec, GameVisitor, Params, Registered};
use ply_learn::grade;
use ply_learn::learn::{Generation, LearnOptions, Progress, Recipe, learn, recipe};
use ply_learn::selfplay::SelfPlay;
use ply_learn::{Network, Shape, check_fits};

use crate::args::LearnArgs;
use crate::{CliError, CliResult};

/// Games with at most this many positions are graded against the exact
/// solver after every generation (tic-tac-toe has 4,520 open ones).
const GRADE_LIMIT: usize = 20_000;

/// The options: the recipe's, each overridden by its flag; zero where a
/// count must be positive is refused by the flag's name.
fn options(a: &LearnArgs, recipe: &Recipe) -> Result<LearnOptions, CliError> {
    let r = recipe.options;
    let positive = |flag: &str, v: Option<usize>, default: usize| match v {
        Some(0) => Err(CliError::input(format!("--{flag} must be at least 1"))),
        v => Ok(v.unwrap_or(default)),
    };
    let simulations = match a.simulations {
        Some(0) => return Err(CliError::input("--simulations must be at least 1")),
        v => v.unwrap_or(r.selfplay.simulations),
    };
    let learning_rate = a.learning_rate.unwrap_or(r.learning_rate);
    if !(learning_rate > 0.0 && learning_rate < 1.0) {
        return Err(CliError::input(
            "--learning-rate must be above 0 and below 1 (e.g. 0.002)",
        ));
    }
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
        if !G::LEARNABLE {
            return Err(CliError::input(format!(
                "{} cannot be learned: it does not say how a network sees its positions (games that can: tictactoe, connect4)",
                spec.name
            )));
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let recipe = recipe(spec.name, threads);
        let options = options(a, &recipe)?;
        let out = a
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("ply-{}.safetensors", spec.name)));
        let (network, first) = start(&game, spec, a, &recipe, &out)?;
        let graded = grade::reachable(&game, GRADE_LIMIT).map(|s| grade::grade(&game, &s));
        let bar = bar(a.quiet || !std::io::stderr().is_terminal());
        let stop = AtomicBool::new(false);
        let mut failure = None;
        learn(&game, network, &options, first, &stop, &mut |p| match p {
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
            Progress::Generation(g, network) => {
                let accuracy = graded
                    .as_ref()
                    .map(|gr| grade::raw_accuracy(&game, network, gr));
                bar.suspend(|| say(g, accuracy, a.json));
                let saved = save(network, spec, g, accuracy, &out);
                if let Err(e) = saved {
                    failure = Some(e);
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        });
        bar.finish_and_clear();
        if let Some(e) = failure {
            return Err(e);
        }
        if !a.json {
            println!("saved {}", out.display());
        }
        Ok(())
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
fn say(g: &Generation, accuracy: Option<f64>, json: bool) {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    if json {
        let line = serde_json::json!({
            "generation": g.number,
            "games": g.games,
            "positions": g.positions,
            "window": g.window,
            "policy_loss": g.losses.policy,
            "value_loss": g.losses.value,
            "vs_previous": g.vs_previous,
            "vs_mcts": g.vs_mcts,
            "accuracy": accuracy,
            "positions_per_second": g.positions_per_second,
            "samples_per_second": g.samples_per_second,
            "seconds": g.seconds,
        });
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
    if let Some(acc) = accuracy {
        line += &format!("; optimal moves {}", pct(acc));
    }
    println!("{line}; {:.1} s", g.seconds);
}

/// Saves `network` with what made it: the game, the generation, the
/// command, the commit, and the generation's figures.
fn save(
    network: &Network,
    spec: &GameSpec,
    g: &Generation,
    accuracy: Option<f64>,
    out: &Path,
) -> Result<(), CliError> {
    let mut about: HashMap<String, String> = network.about.clone();
    let command: Vec<String> = std::iter::once("ply".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    about.insert("ply.game".into(), spec.name.into());
    about.insert("ply.generation".into(), g.number.to_string());
    about.insert("ply.command".into(), command.join(" "));
    about.insert("ply.commit".into(), commit());
    about.insert("ply.policy_loss".into(), format!("{:.4}", g.losses.policy));
    about.insert("ply.value_loss".into(), format!("{:.4}", g.losses.value));
    if let Some(acc) = accuracy {
        about.insert("ply.accuracy".into(), format!("{acc:.4}"));
    }
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
