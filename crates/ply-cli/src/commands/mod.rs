//! One module per command.

pub mod explore;
pub mod list;
pub mod solve;
pub mod trace;

use ply_core::search::Algorithm;

use crate::args::AlgoArg;

/// The library algorithm an `--algo` value names.
pub fn algorithm(a: AlgoArg) -> Algorithm {
    match a {
        AlgoArg::Minimax => Algorithm::Minimax,
        AlgoArg::Alphabeta => Algorithm::AlphaBeta,
    }
}
