//! `ply learn GAME --supervised`: the network of self-play trained on
//! positions the exact solver has graded ([`ply_learn::supervised`]),
//! the upper bound a self-play network of its size is compared with.
//! Positions are labelled on every core with a progress bar; each epoch
//! has its line and saves the network, like a generation of self-play.

use std::io::IsTerminal as _;
use std::path::Path;
use std::time::Instant;

use ply_core::Game;
use ply_core::registry::{GameSpec, Registered};
use ply_learn::grade::{self, Graded};
use ply_learn::learn::{Recipe, Supervised};
use ply_learn::selfplay::Sample;
use ply_learn::supervised::{Epoch, FitOptions, FitProgress, fit, random_positions, sample};

use super::{
    GRADE_LIMIT, accuracies, accuracy_about, accuracy_json, accuracy_text, bar, finish,
    grading_sets, learning_rate, out_path, positive, save, show, start,
};
use crate::args::LearnArgs;

/// Positions with their grades.
type Labels<G> = Vec<Graded<<G as Game>::State, <G as Game>::Move>>;
use crate::{CliError, CliResult};

/// Flags that only self-play reads, refused with --supervised so that a
/// run does not silently ignore them.
fn refuse_selfplay_flags(a: &LearnArgs) -> Result<(), CliError> {
    let given = [
        ("generations", a.generations.is_some()),
        ("games", a.games.is_some()),
        ("simulations", a.simulations.is_some()),
        ("exploring-moves", a.exploring_moves.is_some()),
        ("steps", a.steps.is_some()),
        ("window", a.window.is_some()),
        ("match-games", a.match_games.is_some()),
    ];
    match given.iter().find(|(_, g)| *g) {
        Some((flag, _)) => Err(CliError::input(format!(
            "--{flag} is for self-play; --supervised trains on positions the solver labels (--positions, --epochs, --minibatch, --learning-rate)"
        ))),
        None => Ok(()),
    }
}

/// Labels (or reads) the positions, then fits the network an epoch at a
/// time, grading and saving it after each.
pub(super) fn run<G: Registered>(
    game: &G,
    spec: &'static GameSpec,
    a: &LearnArgs,
    recipe: &Recipe,
) -> CliResult {
    refuse_selfplay_flags(a)?;
    let r = recipe.supervised;
    let positions = positive("positions", a.positions, r.positions)?;
    let threads = positive("threads", a.threads, recipe.options.threads)?;
    let out = out_path(a, spec);
    let (network, _) = start(game, spec, a, recipe, &out)?;
    let done = if a.resume {
        network
            .about
            .get("ply.epoch")
            .and_then(|e| e.parse::<usize>().ok())
            .unwrap_or(0)
    } else {
        0
    };
    let options = FitOptions {
        first: done + 1,
        epochs: positive("epochs", a.epochs, r.epochs)?,
        minibatch: positive("minibatch", a.minibatch, recipe.options.minibatch)?,
        learning_rate: learning_rate(a, recipe.options.learning_rate)?,
        seed: a.seed,
    };
    if done >= options.epochs {
        return Err(CliError::input(format!(
            "--resume: {} has all {done} epochs already; ask for more with --epochs",
            out.display()
        )));
    }
    let bar = bar(a.quiet || !std::io::stderr().is_terminal());
    let sets = grading_sets(game, spec, a, threads, &bar);

    let graded = labelled(game, a, &r, positions, threads, &bar)?;
    let samples: Vec<Sample<G::State>> = graded.iter().map(|g| sample(game, g)).collect();
    let mut failure = None;
    fit(game, &network, &samples, &options, &mut |p| match p {
        FitProgress::Step {
            epoch,
            done,
            of,
            losses,
        } => show(
            &bar,
            done,
            of,
            format!(
                "epoch {}: loss {:.3} + {:.3}",
                epoch, losses.policy, losses.value
            ),
        ),
        FitProgress::Epoch(e, network) => {
            if failure.is_some() {
                return;
            }
            let number = e.number;
            let accuracy = accuracies(game, network, &sets);
            bar.suspend(|| say(number, e, samples.len(), &accuracy, a.json));
            let mut figures = vec![
                ("ply.supervised".to_string(), "true".to_string()),
                ("ply.epoch".into(), number.to_string()),
                ("ply.positions".into(), samples.len().to_string()),
                ("ply.policy_loss".into(), format!("{:.4}", e.losses.policy)),
                ("ply.value_loss".into(), format!("{:.4}", e.losses.value)),
            ];
            figures.extend(accuracy_about(&accuracy));
            failure = save(network, spec, figures, &out).err();
        }
    });
    finish(&bar, failure, &out, a.json)
}

/// The labelled positions: read from --labels when it exists, else
/// labelled by the solver (and written to --labels when given).
fn labelled<G: Registered>(
    game: &G,
    a: &LearnArgs,
    r: &Supervised,
    positions: usize,
    threads: usize,
    bar: &indicatif::ProgressBar,
) -> Result<Labels<G>, CliError> {
    let node_limit = match a.node_limit {
        Some(0) => return Err(CliError::input("--node-limit must be at least 1")),
        v => v.unwrap_or(r.node_limit),
    };
    Ok(match &a.labels {
        Some(path) if path.exists() => {
            let graded = read_labels(game, path)?;
            if a.json {
                let line = serde_json::json!({"labelled": graded.len(), "read": path});
                println!("{line}");
            } else {
                println!(
                    "read {} labelled positions from {}",
                    graded.len(),
                    path.display()
                );
            }
            graded
        }
        _ => {
            let graded = label(
                game,
                a,
                positions,
                r.plies.0..=r.plies.1,
                node_limit,
                threads,
                bar,
            );
            if let Some(path) = &a.labels {
                write_labels(game, &graded, path)?;
            }
            graded
        }
    })
}

/// Positions from random games (a small game's every open one), each
/// graded by the exact solver on `threads` threads, with a line saying
/// how many and how fast.
fn label<G: Registered>(
    game: &G,
    a: &LearnArgs,
    positions: usize,
    plies: std::ops::RangeInclusive<usize>,
    node_limit: u64,
    threads: usize,
    bar: &indicatif::ProgressBar,
) -> Labels<G> {
    let started = Instant::now();
    let states = grade::reachable(game, GRADE_LIMIT)
        .unwrap_or_else(|| random_positions(game, positions, plies, a.seed));
    let graded = grade::grade_parallel(game, &states, Some(node_limit), threads, 64, &mut |k| {
        show(
            bar,
            k,
            states.len(),
            "labelling positions by the exact solver".into(),
        )
    });
    let seconds = started.elapsed().as_secs_f64();
    let rate = states.len() as f64 / seconds.max(1e-9);
    let left_out = states.len() - graded.len();
    bar.suspend(|| {
        if a.json {
            let line = serde_json::json!({
                "labelled": graded.len(),
                "left_out": left_out,
                "node_limit": node_limit,
                "positions_per_second": rate,
                "seconds": seconds,
            });
            println!("{line}");
        } else {
            println!(
                "labelled {} positions by the exact solver ({left_out} left out, over {node_limit} nodes); {rate:.0} positions/s; {seconds:.1} s",
                graded.len(),
            );
        }
    });
    graded
}

/// One line per position: the position, its outcome for the mover, its
/// optimal moves; tab-separated, in the game's notation.
fn write_labels<G: Registered>(
    game: &G,
    graded: &[Graded<G::State, G::Move>],
    path: &Path,
) -> Result<(), CliError> {
    let mut text = String::new();
    for g in graded {
        let moves: Vec<String> = g
            .optimal
            .iter()
            .map(|&m| game.format_move(&g.state, m))
            .collect();
        text += &format!(
            "{}\t{}\t{}\n",
            game.format_position(&g.state),
            g.outcome,
            moves.join(" ")
        );
    }
    std::fs::write(path, text)
        .map_err(|e| CliError::failure(format!("--labels: cannot write {}: {e}", path.display())))
}

/// The labels [`write_labels`] wrote; a line that does not parse is an
/// error naming the file and the line.
fn read_labels<G: Registered>(game: &G, path: &Path) -> Result<Labels<G>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("--labels: cannot read {}: {e}", path.display())))?;
    let bad = |n: usize, what: String| {
        CliError::input(format!("--labels: {}: line {n}: {what}", path.display()))
    };
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [position, outcome, moves] = fields[..] else {
            return Err(bad(
                i + 1,
                "expected position, outcome and moves, tab-separated".into(),
            ));
        };
        let state = game
            .parse_position(position)
            .map_err(|e| bad(i + 1, e.to_string()))?;
        let outcome: i32 = match outcome.parse() {
            Ok(o @ -1..=1) => o,
            _ => return Err(bad(i + 1, format!("outcome '{outcome}' is not -1, 0 or 1"))),
        };
        let optimal = moves
            .split_whitespace()
            .map(|m| game.parse_move(&state, m))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(i + 1, e.to_string()))?;
        out.push(Graded {
            state,
            outcome,
            optimal,
        });
    }
    Ok(out)
}

/// An epoch's line: text, or JSON with `json`.
fn say(
    number: usize,
    e: &Epoch,
    positions: usize,
    accuracy: &[(&str, grade::Accuracy)],
    json: bool,
) {
    if json {
        let line = serde_json::json!({
            "epoch": number,
            "positions": positions,
            "policy_loss": e.losses.policy,
            "value_loss": e.losses.value,
            "accuracy": accuracy_json(accuracy),
            "samples_per_second": e.samples_per_second,
            "seconds": e.seconds,
        });
        println!("{line}");
        return;
    }
    let mut line = format!(
        "epoch {number}: {positions} positions; loss {:.3} policy + {:.3} value ({:.0} samples/s)",
        e.losses.policy, e.losses.value, e.samples_per_second
    );
    if !accuracy.is_empty() {
        line += &format!("; {}", accuracy_text(accuracy));
    }
    println!("{line}; {:.1} s", e.seconds);
}
