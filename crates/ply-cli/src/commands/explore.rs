//! `ply count` and `ply perft`: walking the game without scoring it.

use std::time::Instant;

use ply_core::Notation;
use ply_core::Searchable;
use ply_core::explore::{count_positions, perft, perft_divide};
use ply_games::{GameInfo, GameVisitor};
use serde_json::json;

use crate::CliResult;
use crate::args::{CountArgs, PerftArgs};
use crate::output::{params, print_json, setup, thousands};

struct Count<'a>(&'a CountArgs);

impl GameVisitor for Count<'_> {
    type Output = CliResult;
    fn visit<G: Notation + Searchable>(self, game: G, _: &'static GameInfo) -> CliResult {
        let args = &self.0.game;
        let state = setup(&game, args)?;
        let c = count_positions(&game, &state);
        if args.json {
            print_json(&json!({"positions": c.positions, "terminal": c.terminal}));
        } else {
            println!(
                "{} distinct positions reachable from {} (the start included), {} of them terminal",
                thousands(c.positions),
                game.format_position(&state),
                thousands(c.terminal)
            );
        }
        Ok(())
    }
}

pub fn run_count(args: &CountArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Count(args))?
}

struct Perft<'a>(&'a PerftArgs);

impl GameVisitor for Perft<'_> {
    type Output = CliResult;
    fn visit<G: Notation + Searchable>(self, game: G, _: &'static GameInfo) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let start = Instant::now();
        let divide = if a.divide {
            perft_divide(&game, &state, a.depth)
                .into_iter()
                .map(|(m, n)| (game.format_move(&state, m), n))
                .collect()
        } else {
            Vec::new()
        };
        let nodes = if a.divide {
            if a.depth == 0 {
                1
            } else {
                divide.iter().map(|(_, n)| n).sum()
            }
        } else {
            perft(&game, &state, a.depth)
        };
        let elapsed = start.elapsed();
        if a.game.json {
            let mut v = json!({"nodes": nodes});
            if a.divide {
                v["divide"] = divide
                    .iter()
                    .map(|(m, n)| json!({"move": m, "nodes": n}))
                    .collect();
            }
            print_json(&v);
        } else {
            for (m, n) in &divide {
                println!("{m}: {n}");
            }
            if a.divide {
                println!();
            }
            println!(
                "perft({}) = {} ({:.3} s)",
                a.depth,
                thousands(nodes),
                elapsed.as_secs_f64()
            );
        }
        Ok(())
    }
}

pub fn run_perft(args: &PerftArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Perft(args))?
}
