//! `ply list`: the games and the algorithms.

use ply_core::search::Algorithm;
use ply_games::GAMES;
use serde_json::json;

use crate::CliResult;
use crate::args::ListArgs;
use crate::output::print_json;

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
        let algos: Vec<_> = Algorithm::ALL
            .iter()
            .map(|a| json!({"name": a.name(), "description": a.description()}))
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
                println!("      {}={:<6} {}", p.name, p.default, p.meaning);
            }
        }
        println!("    positions:  {}", g.positions);
        println!("    moves:      {}", g.moves);
        println!("    start:      {}", g.default_position);
    }
    println!("\nALGORITHMS (--algo)");
    for a in Algorithm::ALL {
        println!("  {:<10} {}", a.name(), a.description());
    }
    Ok(())
}
