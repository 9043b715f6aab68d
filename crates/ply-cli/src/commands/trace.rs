//! `ply trace`: a search on an explicit tree, step by step.

use ply_core::explore::leaf_paths;
use ply_core::observe::{StepKind, Trace, path_name, tree_dot};
use ply_core::search::SearchOptions;
use ply_core::{MaxScore, Notation};
use ply_games::Tree;
use serde_json::json;

use crate::args::TraceArgs;
use crate::commands::algorithm;
use crate::output::{print_json, score_json, score_text};
use crate::{CliError, CliResult};

fn node_name(path: &str) -> String {
    if path.is_empty() {
        "root".to_string()
    } else {
        path.to_string()
    }
}

pub fn run(args: &TraceArgs) -> CliResult {
    let state = Tree
        .parse_position(&args.tree)
        .map_err(|e| CliError::input(format!("invalid tree '{}': {e}", args.tree)))?;
    let algo = algorithm(args.algo);
    if algo == ply_core::search::Algorithm::Id {
        return Err(CliError::input(
            "trace shows minimax or alphabeta on an explicit tree; choose --algo minimax or --algo alphabeta",
        ));
    }
    let mut trace = Trace::new();
    let out = algo.run(&Tree, &state, &SearchOptions::exact(), &mut trace);
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
                    "player": s.player.name(),
                    "alpha": s.window.map(|w| score_json(w.alpha)),
                    "beta": s.window.map(|w| score_json(w.beta)),
                    "value": score_json(s.value),
                });
                if let Some((p, cv)) = &s.child {
                    v["child"] = json!(p);
                    v["child_value"] = score_json(*cv);
                }
                if s.kind == StepKind::Cutoff {
                    v["pruned_children"] = json!(s.pruned);
                }
                v
            })
            .collect();
        print_json(&json!({
            "algo": algo.name(),
            "tree": Tree.format_position(&state),
            "value": score_json(out.value),
            "evaluated": trace.evaluated,
            "pruned": pruned,
            "steps": steps,
        }));
        return Ok(());
    }

    let bound = |v: Option<MaxScore>| v.map_or("-".to_string(), score_text);
    println!("{} on {}", algo.name(), Tree.format_position(&state));
    println!(
        "{:>4}  {:<8} {:<6} {:>6} {:>6} {:>6}  event",
        "step", "node", "player", "alpha", "beta", "value"
    );
    for (i, s) in trace.steps.iter().enumerate() {
        let event = match s.kind {
            StepKind::Update => {
                let (p, v) = s.child.as_ref().expect("update steps name their child");
                format!("child {p} returned {}", score_text(*v))
            }
            StepKind::Cutoff => {
                let b = s.window.expect("cutoffs happen in windowed searches");
                format!(
                    "CUTOFF (alpha {} >= beta {}): {} child{} pruned",
                    score_text(b.alpha),
                    score_text(b.beta),
                    s.pruned,
                    if s.pruned == 1 { "" } else { "ren" }
                )
            }
            k => k.name().to_string(),
        };
        println!(
            "{:>4}  {:<8} {:<6} {:>6} {:>6} {:>6}  {event}",
            i + 1,
            node_name(&s.path),
            s.player.name(),
            bound(s.window.map(|w| w.alpha)),
            bound(s.window.map(|w| w.beta)),
            score_text(s.value),
        );
    }
    println!();
    println!("value: {}", score_text(out.value));
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
