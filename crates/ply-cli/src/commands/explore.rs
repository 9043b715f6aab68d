//! `ply show`, `ply count` and `ply perft`: the rules, without scoring.

use std::time::Instant;

use ply_core::explore::{count_positions_within, perft, perft_divide};
use ply_service::report::{CountReport, PerftMove, PerftReport, ShowReport, thousands};

use ply_core::registry::{GameSpec, GameVisitor, Registered};

use crate::args::{CountArgs, PerftArgs, ShowArgs};
use crate::output::{emit, params, setup};
use crate::{CliError, CliResult};

/// The default cap of `ply count`: ten million positions, about 2 GiB for
/// chess, far less for the small games counting is for.
pub const MAX_POSITIONS: u64 = 10_000_000;

/// The distinct positions reachable from `state`, or an error past `max`.
pub fn count_report<G: Registered>(
    game: &G,
    state: &G::State,
    max: u64,
) -> Result<CountReport, CliError> {
    let c = count_positions_within(game, state, max).ok_or_else(|| {
        CliError::failure(format!(
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
pub fn perft_report<G: Registered>(
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

struct Show<'a>(&'a ShowArgs);

impl GameVisitor for Show<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> CliResult {
        let args = &self.0.game;
        let state = setup(&game, args)?;
        emit(&ShowReport::new(spec.name, &game, &state), args.json);
        Ok(())
    }
}

pub fn run_show(args: &ShowArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Show(args))?
}

struct Count<'a>(&'a CountArgs);

impl GameVisitor for Count<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, _: &'static GameSpec) -> CliResult {
        let args = &self.0.game;
        let state = setup(&game, args)?;
        emit(
            &count_report(&game, &state, self.0.max_positions)?,
            args.json,
        );
        Ok(())
    }
}

pub fn run_count(args: &CountArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Count(args))?
}

struct Perft<'a>(&'a PerftArgs);

impl GameVisitor for Perft<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, _: &'static GameSpec) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        emit(&perft_report(&game, &state, a.depth, a.divide), a.game.json);
        Ok(())
    }
}

pub fn run_perft(args: &PerftArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Perft(args))?
}
