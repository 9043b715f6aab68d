//! `ply compare`: every exact search on one position, in one table.

use ply_core::Notation;
use ply_core::Searchable;
use ply_core::search::comparison_set;
use ply_games::{GameInfo, GameVisitor};
use serde_json::json;

use crate::args::CompareArgs;
use crate::commands::describe;
use crate::commands::solve::run_search;
use crate::output::{params, print_json, score_json, score_text, setup, thousands};
use crate::{CliError, CliResult};

struct Compare<'a>(&'a CompareArgs);

impl GameVisitor for Compare<'_> {
    type Output = CliResult;
    fn visit<G: Notation + Searchable>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let mut rows = Vec::new();
        for (algo, opts) in comparison_set(a.depth, a.tt_mb) {
            let (out, stats, elapsed) = run_search(&game, &state, algo, &opts, true)?;
            let d = f64::from(stats.max_ply.max(1));
            let ebf = (stats.nodes as f64).powf(1.0 / d);
            rows.push((describe(algo, &opts), out, stats, elapsed, ebf));
        }
        let agree = rows.iter().all(|r| r.1.value == rows[0].1.value);
        let base_nodes = rows[1].2.nodes.max(1) as f64;
        if a.game.json {
            let searches: Vec<_> = rows
                .iter()
                .map(|(name, out, st, t, ebf)| {
                    json!({
                        "search": name,
                        "value": score_json(out.value),
                        "best_move": out.best_move.map(|m| game.format_move(&state, m)),
                        "nodes": st.nodes,
                        "leaves": st.leaves,
                        "cutoffs": st.cutoffs,
                        "tt_hits": st.tt_hits,
                        "time_ms": (t.as_secs_f64() * 1e6).round() / 1e3,
                        "ebf": (ebf * 1000.0).round() / 1000.0,
                        "nodes_vs_alphabeta": (st.nodes as f64 / base_nodes * 1e4).round() / 1e4,
                    })
                })
                .collect();
            print_json(&json!({
                "game": info.name,
                "position": game.format_position(&state),
                "depth_limit": a.depth,
                "agree": agree,
                "searches": searches,
            }));
        } else {
            println!("{}", game.draw(&state).trim_end());
            println!(
                "{:<34} {:>7} {:>6} {:>12} {:>10} {:>10} {:>10} {:>10} {:>6} {:>8}",
                "search",
                "value",
                "move",
                "nodes",
                "leaves",
                "cutoffs",
                "tt hits",
                "time ms",
                "ebf",
                "vs a-b"
            );
            for (name, out, st, t, ebf) in &rows {
                println!(
                    "{:<34} {:>7} {:>6} {:>12} {:>10} {:>10} {:>10} {:>10.3} {:>6.2} {:>8.3}",
                    name,
                    score_text(out.value),
                    out.best_move
                        .map_or("-".to_string(), |m| game.format_move(&state, m)),
                    thousands(st.nodes),
                    thousands(st.leaves),
                    thousands(st.cutoffs),
                    thousands(st.tt_hits),
                    t.as_secs_f64() * 1e3,
                    ebf,
                    st.nodes as f64 / base_nodes
                );
            }
            if agree {
                println!("all searches agree: value {}", score_text(rows[0].1.value));
            }
        }
        if !agree {
            let values: Vec<String> = rows
                .iter()
                .map(|r| format!("{} = {}", r.0, score_text(r.1.value)))
                .collect();
            return Err(CliError::failure(format!(
                "THE SEARCHES DISAGREE: {}. This is a bug; please report it with the position.",
                values.join(", ")
            )));
        }
        Ok(())
    }
}

pub fn run(args: &CompareArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Compare(args))?
}
