//! `ply list`: the games and the algorithms.

use ply_core::search::Algorithm;
use ply_games::GAMES;
use serde_json::json;

use crate::CliResult;
use crate::args::ListArgs;
use crate::output::print_json;

/// Every algorithm the CLI offers, with a line on each.
fn algorithms() -> Vec<(&'static str, &'static str)> {
    let mut v: Vec<(&'static str, &'static str)> = Algorithm::ALL
        .iter()
        .map(|a| (a.name(), a.description()))
        .collect();
    v.push((
        "expectiminimax",
        "MAX takes the max, MIN the min, a chance node the probability-weighted mean; --depth, --star1 prunes chance nodes",
    ));
    v.push((
        "mcts",
        "Monte Carlo tree search (UCT): --iterations, --time-ms, --seed, --c (default sqrt 2), --threads (root parallelism)",
    ));
    v.push((
        "score",
        "the exact solver: null-window alpha-beta probes bisecting the score range (table, ordering, the game's shortcuts); --weak for win/draw/loss; --batch FILE",
    ));
    v
}

pub fn run(args: &ListArgs) -> CliResult {
    if args.json {
        let games: Vec<_> = GAMES
            .iter()
            .map(|g| {
                json!({
                    "name": g.name,
                    "rules": g.rules,
                    "params": g.params.iter().map(|p| json!({
                        "name": p.name, "default": p.default, "meaning": p.meaning
                    })).collect::<Vec<_>>(),
                    "positions": g.positions,
                    "moves": g.moves,
                    "default_position": g.default_position,
                })
            })
            .collect();
        let algos: Vec<_> = algorithms()
            .iter()
            .map(|(name, description)| json!({"name": name, "description": description}))
            .collect();
        print_json(&json!({"games": games, "algorithms": algos}));
        return Ok(());
    }
    println!("GAMES");
    for g in GAMES {
        println!("\n  {}: {}", g.name, g.rules);
        if g.params.is_empty() {
            println!("    parameters: none");
        } else {
            println!("    parameters (--param key=value):");
            for p in g.params {
                let setting = format!("{}={}", p.name, p.default);
                println!("      {setting:<14} {}", p.meaning);
            }
        }
        println!("    positions:  {}", g.positions);
        println!("    moves:      {}", g.moves);
        let start = if g.default_position.is_empty() {
            "(the empty board)"
        } else {
            g.default_position
        };
        println!("    start:      {start}");
    }
    println!("\nALGORITHMS (--algo)");
    for (name, description) in algorithms() {
        println!("  {name:<15} {description}");
    }
    println!("\n  without --algo: the engine (id with a table, ordering, PVS and fast wins) for");
    println!(
        "  deterministic games, expectiminimax for games with chance (pig, trees with [...]),"
    );
    println!("  the score search for connect4.");
    Ok(())
}
