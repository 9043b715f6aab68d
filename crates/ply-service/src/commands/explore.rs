//! `count` and `perft`: the rules, without scoring.

use std::time::Instant;

use ply_core::Notation;
use ply_core::explore::{count_positions_within, perft, perft_divide};

use crate::error::Error;
use crate::report::{CountReport, PerftMove, PerftReport, thousands};

/// The default cap of `ply count`: ten million positions, about 2 GiB for
/// chess, far less for the small games counting is for.
pub const MAX_POSITIONS: u64 = 10_000_000;

/// The distinct positions reachable from `state`, or an error past `max`.
pub fn count_report<G: Notation>(
    game: &G,
    state: &G::State,
    max: u64,
) -> Result<CountReport, Error> {
    let c = count_positions_within(game, state, max).ok_or_else(|| {
        Error::limit(format!(
            "more than {} distinct positions: the count stops at its cap (--max-positions; each position is kept in memory)",
            thousands(max)
        ))
    })?;
    Ok(CountReport {
        positions: c.positions,
        terminal: c.terminal,
        start: game.format_position(state),
    })
}

/// The move sequences of length `depth` from `state`, per first move if `divide`.
pub fn perft_report<G: Notation>(
    game: &G,
    state: &G::State,
    depth: u32,
    divide: bool,
) -> PerftReport {
    let start = Instant::now();
    let divide: Option<Vec<PerftMove>> = divide.then(|| {
        perft_divide(game, state, depth)
            .into_iter()
            .map(|(m, n)| PerftMove {
                mv: game.format_move(state, m),
                nodes: n,
            })
            .collect()
    });
    let nodes = match &divide {
        Some(_) if depth == 0 => 1,
        Some(d) => d.iter().map(|m| m.nodes).sum(),
        None => perft(game, state, depth),
    };
    PerftReport {
        nodes,
        divide,
        depth,
        elapsed: start.elapsed(),
    }
}
