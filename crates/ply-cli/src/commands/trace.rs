//! `ply trace`: a search on an explicit tree, step by step.

use ply_core::explore::{leaf_paths, reaches_chance};
use ply_core::observe::{StepKind, Trace, path_name, tree_dot, value_text};
use ply_core::search::{Algorithm, SearchOptions, expectiminimax};
use ply_core::{Notation, Window};
use ply_games::Tree;
use serde_json::json;

use crate::args::{AlgoArg, TraceArgs};
use crate::output::{num_json, print_json, score_json, score_text};
use crate::{CliError, CliResult};

fn node_name(path: &str) -> String {
    if path.is_empty() {
        "root".to_string()
    } else {
        path.to_string()
    }
}

fn signed(v: f64) -> String {
    if v > 0.0 && v.is_finite() {
        format!("+{}", value_text(v))
    } else {
        value_text(v)
    }
}

pub fn run(args: &TraceArgs) -> CliResult {
    let state = Tree
        .parse_position(&args.tree)
        .map_err(|e| CliError::input(format!("invalid tree '{}': {e}", args.tree)))?;
    let chance = reaches_chance(&Tree, &state, usize::MAX);
    let algo = args.algo.unwrap_or(if chance {
        AlgoArg::Expectiminimax
    } else {
        AlgoArg::Alphabeta
    });
    let mut trace = Trace::new();
    let (name, value) = match algo {
        AlgoArg::Minimax | AlgoArg::Alphabeta => {
            if chance {
                return Err(CliError::input(
                    "this tree has chance nodes: trace it with --algo expectiminimax",
                ));
            }
            if args.star1 {
                return Err(CliError::input("--star1 applies to expectiminimax"));
            }
            let a = if algo == AlgoArg::Minimax {
                Algorithm::Minimax
            } else {
                Algorithm::AlphaBeta
            };
            let out = a.run(&Tree, &state, &SearchOptions::exact(), &mut trace)?;
            (a.name().to_string(), score_json(out.value))
        }
        AlgoArg::Expectiminimax => {
            let out = expectiminimax(
                &Tree,
                &state,
                &SearchOptions::exact(),
                args.star1,
                &mut trace,
            );
            let name = if args.star1 {
                "expectiminimax+star1"
            } else {
                "expectiminimax"
            };
            (name.to_string(), num_json(out.value))
        }
        AlgoArg::Id | AlgoArg::Mcts | AlgoArg::Score => {
            return Err(CliError::input(
                "trace shows minimax, alphabeta or expectiminimax on an explicit tree",
            ));
        }
    };
    let pruned: Vec<String> = leaf_paths(&Tree, &state, None)
        .iter()
        .map(|p| path_name(p))
        .filter(|p| !trace.evaluated.contains(p))
        .collect();

    if args.dot {
        print!("{}", tree_dot(&Tree, &state, &trace));
        return Ok(());
    }
    if args.json {
        let steps: Vec<_> = trace
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut v = json!({
                    "step": i + 1,
                    "event": s.kind.name(),
                    "node": s.path,
                    "player": s.node.name(),
                    "alpha": s.window.map(|w| score_json(w.alpha)),
                    "beta": s.window.map(|w| score_json(w.beta)),
                    "value": num_json(s.value),
                });
                if let Some((p, cv, prob)) = &s.child {
                    v["child"] = json!(p);
                    v["child_value"] = num_json(*cv);
                    if let Some(prob) = prob {
                        v["probability"] = json!(prob);
                    }
                }
                if s.kind == StepKind::Cutoff {
                    v["pruned_children"] = json!(s.pruned);
                }
                v
            })
            .collect();
        print_json(&json!({
            "algo": name,
            "tree": Tree.format_position(&state),
            "value": value,
            "evaluated": trace.evaluated,
            "pruned": pruned,
            "steps": steps,
        }));
        return Ok(());
    }

    let bound = |w: Option<Window>, alpha: bool| {
        w.map_or("-".to_string(), |w| {
            score_text(if alpha { w.alpha } else { w.beta })
        })
    };
    println!("{name} on {}", Tree.format_position(&state));
    println!(
        "{:>4}  {:<8} {:<6} {:>6} {:>6} {:>8}  event",
        "step", "node", "player", "alpha", "beta", "value"
    );
    for (i, s) in trace.steps.iter().enumerate() {
        let event = match s.kind {
            StepKind::Update => {
                let (p, v, prob) = s.child.as_ref().expect("update steps name their child");
                match prob {
                    Some(prob) => format!(
                        "outcome {p} (p={}) returned {}",
                        value_text(*prob),
                        signed(*v)
                    ),
                    None => format!("child {p} returned {}", signed(*v)),
                }
            }
            StepKind::Cutoff => match s.window {
                Some(b) => format!(
                    "CUTOFF (alpha {} >= beta {}): {} child{} pruned",
                    score_text(b.alpha),
                    score_text(b.beta),
                    s.pruned,
                    if s.pruned == 1 { "" } else { "ren" }
                ),
                None => format!(
                    "CUTOFF (Star1: the bounds decide the node): {} pruned",
                    s.pruned
                ),
            },
            k => k.name().to_string(),
        };
        println!(
            "{:>4}  {:<8} {:<6} {:>6} {:>6} {:>8}  {event}",
            i + 1,
            node_name(&s.path),
            s.node.name(),
            bound(s.window, true),
            bound(s.window, false),
            signed(s.value),
        );
    }
    println!();
    println!("value: {}", value);
    println!(
        "evaluated ({}): {}",
        trace.evaluated.len(),
        trace.evaluated.join(" ")
    );
    println!(
        "pruned ({}): {}",
        pruned.len(),
        if pruned.is_empty() {
            "none".to_string()
        } else {
            pruned.join(" ")
        }
    );
    Ok(())
}
