//! One module per command, and the search configuration they share.

pub mod compare;
pub mod explore;
pub mod list;
pub mod play;
pub mod solve;
pub mod trace;

use std::time::Duration;

use ply_core::search::{Algorithm, DEFAULT_TT_MB, SearchOptions, TieBreak};

use crate::CliError;
use crate::args::{AlgoArg, SearchArgs};

/// The library algorithm an `--algo` value names.
pub fn algorithm(a: AlgoArg) -> Algorithm {
    match a {
        AlgoArg::Minimax => Algorithm::Minimax,
        AlgoArg::Alphabeta => Algorithm::AlphaBeta,
        AlgoArg::Id => Algorithm::Id,
    }
}

/// The algorithm and options the search flags ask for. Without `--algo`,
/// the engine: iterative deepening with every feature on, for
/// `default_time_ms` unless `--time-ms` or `--depth` says otherwise.
pub fn configure(
    args: &SearchArgs,
    default_time_ms: u64,
) -> Result<(Algorithm, SearchOptions), CliError> {
    let tie_break = args.seed.map_or(TieBreak::First, TieBreak::Random);
    let time = |default: Option<u64>| args.time_ms.or(default).map(Duration::from_millis);
    let features = |o: SearchOptions| SearchOptions {
        ordering: o.ordering || args.order,
        pvs: o.pvs || args.pvs,
        fast_win: o.fast_win || args.fast_win,
        depth: args.depth,
        tie_break,
        ..o
    };
    Ok(match args.algo {
        None => {
            let default_time = args.depth.is_none().then_some(default_time_ms);
            let o = features(SearchOptions::engine());
            (
                Algorithm::Id,
                SearchOptions {
                    tt_mb: args.tt_mb.unwrap_or(DEFAULT_TT_MB),
                    time_limit: time(default_time),
                    ..o
                },
            )
        }
        Some(AlgoArg::Minimax) => {
            if args.tt_mb.is_some_and(|m| m > 0) || args.order || args.pvs {
                return Err(CliError::input(
                    "minimax is the unpruned reference: --tt-mb, --order and --pvs apply to alphabeta and id",
                ));
            }
            if args.time_ms.is_some() {
                return Err(CliError::input(
                    "--time-ms applies to id and the engine (no --algo)",
                ));
            }
            (Algorithm::Minimax, features(SearchOptions::default()))
        }
        Some(AlgoArg::Alphabeta) => {
            if args.time_ms.is_some() {
                return Err(CliError::input(
                    "--time-ms applies to id and the engine (no --algo)",
                ));
            }
            let o = features(SearchOptions::default());
            (
                Algorithm::AlphaBeta,
                SearchOptions {
                    tt_mb: args.tt_mb.unwrap_or(0),
                    ..o
                },
            )
        }
        Some(AlgoArg::Id) => {
            let default_time = args.depth.is_none().then_some(default_time_ms);
            let o = features(SearchOptions::default());
            (
                Algorithm::Id,
                SearchOptions {
                    tt_mb: args.tt_mb.unwrap_or(DEFAULT_TT_MB),
                    time_limit: time(default_time),
                    ..o
                },
            )
        }
    })
}

pub use ply_core::search::describe;
