//! `ply trace`: a search on an explicit tree, step by step.

use ply_core::Notation;
use ply_core::explore::{leaf_paths, reaches_chance};
use ply_core::observe::{Trace, tree_dot};
use ply_core::report::{Number, Score, TraceReport, TraceValue};
use ply_core::search::{Algorithm, SearchOptions, expectiminimax};
use ply_games::Tree;

use crate::args::{AlgoArg, TraceArgs};
use crate::output::emit;
use crate::{CliError, CliResult};

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
            (a.name().to_string(), TraceValue::Score(Score(out.value)))
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
            (name.to_string(), TraceValue::Mean(Number(out.value)))
        }
        AlgoArg::Id | AlgoArg::Mcts | AlgoArg::Score | AlgoArg::Nimber => {
            return Err(CliError::input(
                "trace shows minimax, alphabeta or expectiminimax on an explicit tree",
            ));
        }
    };
    if args.dot {
        print!("{}", tree_dot(&Tree, &state, &trace));
        return Ok(());
    }
    let leaves = leaf_paths(&Tree, &state, None);
    let report = TraceReport::new(&Tree, &state, &name, value, &trace, &leaves);
    emit(&report, args.json);
    Ok(())
}
