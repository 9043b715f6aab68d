//! `count` and `perft`: the rules, without scoring.

use std::time::Instant;

use ply_core::Notation;
use ply_core::explore::{CountEnded, count_positions_until, perft_divide_until, perft_until};

use crate::control::Control;
use crate::error::{Error, field};
use crate::report::{CountReport, PerftMove, PerftReport, thousands};

/// The default cap of `ply count`: ten million positions, about 2 GiB for
/// chess, far less for the small games counting is for.
pub const MAX_POSITIONS: u64 = 10_000_000;

/// The error of a walk `stop` ended.
fn stopped(what: &str) -> Error {
    Error::stopped(format!("the {what} was stopped before it finished"))
}

/// The distinct positions reachable from `state`, or an error past `max`;
/// `stop` may end the count.
pub fn count_report<G: Notation, C: Control>(
    game: &G,
    state: &G::State,
    max: u64,
    stop: &mut C,
) -> Result<CountReport, Error> {
    let c = count_positions_until(game, state, max, &mut || stop.should_stop()).map_err(
        |ended| match ended {
            CountEnded::Stopped => stopped("count"),
            CountEnded::Cap => Error::limit(format!(
                "more than {} distinct positions: the count stops at its cap ({}; each position is kept in memory)",
                thousands(max),
                field("max_positions")
            )),
        },
    )?;
    Ok(CountReport {
        positions: c.positions,
        terminal: c.terminal,
        start: game.format_position(state),
    })
}

/// The move sequences of length `depth` from `state`, per first move if
/// `divide`; `stop` may end the walk.
pub fn perft_report<G: Notation, C: Control>(
    game: &G,
    state: &G::State,
    depth: u32,
    divide: bool,
    stop: &mut C,
) -> Result<PerftReport, Error> {
    let start = Instant::now();
    let mut ask = || stop.should_stop();
    let divide: Option<Vec<PerftMove>> = if divide {
        let counts =
            perft_divide_until(game, state, depth, &mut ask).ok_or_else(|| stopped("perft"))?;
        Some(
            counts
                .into_iter()
                .map(|(m, n)| PerftMove {
                    mv: game.format_move(state, m),
                    nodes: n,
                })
                .collect(),
        )
    } else {
        None
    };
    let nodes = match &divide {
        Some(_) if depth == 0 => 1,
        Some(d) => d.iter().map(|m| m.nodes).sum(),
        None => perft_until(game, state, depth, &mut ask).ok_or_else(|| stopped("perft"))?,
    };
    Ok(PerftReport {
        nodes,
        divide,
        depth,
        elapsed: start.elapsed(),
    })
}
