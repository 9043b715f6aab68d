//! The commands: those the service answers (`solve`, `analyze`,
//! `compare`, `trace`, `show`, `count`, `perft`, `list`) go through
//! [`run`]; the command line's own (`play`, `uci`, `gomocup`, `serve`,
//! `tune`, `learn`, `solve --batch`) have a module each.

pub mod gomocup;
pub mod gtp;
#[cfg(feature = "learn")]
pub mod learn;
pub mod play;
pub mod serve;
pub mod solve;
pub mod tune;
pub mod uci;

use ply_service::{Command, Limits, Request};

use crate::args::{CompareArgs, CountArgs, PerftArgs, ShowArgs, TraceArgs, param_map};
use crate::output::emit;
use crate::progress::Watch;
use crate::{CliError, CliResult};

/// The text of a file the user named, or an input error that names it.
pub fn read_input(path: &std::path::Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))
}

/// Runs `command` on `request` through the service, with no limits, and
/// prints its report (as JSON with `json`); progress goes to stderr
/// unless `quiet`. Searches that disagree print their comparison, then
/// the error.
pub fn run(command: Command, request: Request, json: bool, quiet: bool) -> CliResult {
    let mut watch = Watch::new(quiet);
    let result = ply_service::run(command, &request, &Limits::NONE, &mut watch);
    watch.finish();
    match result {
        Ok(report) => {
            emit(&report, json);
            Ok(())
        }
        Err(e) => {
            if let Some(report) = &e.report {
                emit(report.as_ref(), json);
            }
            Err(e.into())
        }
    }
}

/// `ply compare`.
pub fn compare(a: &CompareArgs) -> CliResult {
    let request = Request {
        depth: a.depth,
        tt_mb: Some(a.tt_mb),
        ..a.game.request()?
    };
    run(Command::Compare, request, a.game.json, true)
}

/// `ply show`.
pub fn show(a: &ShowArgs) -> CliResult {
    run(Command::Show, a.game.request()?, a.game.json, true)
}

/// `ply count`.
pub fn count(a: &CountArgs) -> CliResult {
    let request = Request {
        max_positions: Some(a.max_positions),
        ..a.game.request()?
    };
    run(Command::Count, request, a.game.json, true)
}

/// `ply perft`.
pub fn perft(a: &PerftArgs) -> CliResult {
    let request = Request {
        depth: Some(a.depth),
        divide: a.divide,
        ..a.game.request()?
    };
    run(Command::Perft, request, a.game.json, true)
}

/// `ply trace TARGET`: a game (then `--position`), or a tree written out.
pub fn trace(a: &TraceArgs) -> CliResult {
    let is_game = ply_games::spec(&a.target).is_ok();
    if !is_game && a.position.is_some() {
        return Err(CliError::input(format!(
            "'{}' is not a game (see `ply list`): trace GAME --position P, or a tree alone",
            a.target
        )));
    }
    let (game, tree) = if is_game {
        (Some(a.target.clone()), None)
    } else {
        (None, Some(a.target.clone()))
    };
    let request = Request {
        game,
        tree,
        position: a.position.clone(),
        params: param_map(&a.params)?,
        algo: a.algo,
        depth: a.depth,
        star1: a.star1,
        dot: a.dot,
        iterations: a.iterations,
        simulations: a.simulations,
        net: a.net.clone(),
        seed: a.seed,
        c: a.c,
        ..Request::default()
    };
    run(Command::Trace, request, a.json, true)
}
