//! `ply._ply`: the Rust half of the `ply` Python package (the Python half,
//! `python/ply/__init__.py`, gives the functions their signatures and
//! docstrings).
//!
//! Two entry points. [`call`] runs a built-in game's command through the
//! command line's own parser and report functions ([`ply_cli::api`]), so
//! the dicts Python gets are exactly `ply ... --json` and the errors carry
//! the CLI's messages; the search runs on its own thread without the GIL,
//! and Ctrl-C stops it. [`search_game`] runs ply's searches on a game
//! written in Python ([`pygame::PyGame`]), holding the GIL, since every
//! node calls the game's functions.

mod pygame;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use ply_cli::CliError;
use ply_cli::api::erased::Json as ReportJson;
use ply_cli::api::{self, Cancel};
use ply_cli::args::Command;
use ply_cli::commands::compare::{compare_report, disagreement};
use ply_cli::commands::configure;
use ply_cli::commands::solve::{SOLVE_TIME_MS, analyze_report, solve_report};
use ply_cli::commands::trace::trace_report;
use ply_core::registry::Registered;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::Value;

use crate::pygame::{PyGame, PyState};

/// The stack of a search thread: searches recurse once per ply.
const SEARCH_STACK: usize = 256 << 20;
/// How often a waiting call looks for Ctrl-C.
const SIGNAL_EVERY: Duration = Duration::from_millis(50);

fn value_error(e: CliError) -> PyErr {
    PyValueError::new_err(e.message)
}

/// Runs `command` (solve, analyze, compare, trace, show, count, perft) of
/// a built-in game on the JSON request `request` (the command line's flags
/// as fields); returns the JSON `ply COMMAND ... --json` prints. Raises
/// `ValueError` with the CLI's message; Ctrl-C stops the search.
#[pyfunction]
fn call(py: Python<'_>, command: &str, request: &str) -> PyResult<String> {
    let flag = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let (command, body, stop) = (
        command.to_string(),
        request.as_bytes().to_vec(),
        Arc::clone(&flag),
    );
    std::thread::Builder::new()
        .name("ply-search".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            let _ = tx.send(api::call(&command, &body, Cancel::new(stop, None, None)));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
    // Waiting releases the GIL (`detach` wants what it borrows to be Sync).
    let rx = Mutex::new(rx);
    let wait = |timeout: Option<Duration>| {
        let rx = rx.lock().expect("only this thread waits");
        match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        }
    };
    let answer = loop {
        match py.detach(|| wait(Some(SIGNAL_EVERY))) {
            Ok(answer) => break answer,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    flag.store(true, Ordering::Relaxed);
                    let _ = py.detach(|| wait(None));
                    return Err(interrupt);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err("the search thread failed"));
            }
        }
    };
    answer.map(|v| v.to_string()).map_err(value_error)
}

/// Runs `command` (solve, analyze, compare, trace) on `game`, a game
/// written in Python, from `state` (default: its initial state) after
/// `moves` (action objects), with the options of the JSON `request` (the
/// command line's flags as fields). Returns the report's JSON.
#[pyfunction]
#[pyo3(signature = (game, command, request, state=None, moves=None))]
fn search_game(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    command: &str,
    request: &str,
    state: Option<Bound<'_, PyAny>>,
    moves: Option<Vec<Bound<'_, PyAny>>>,
) -> PyResult<String> {
    let game = PyGame::new(game)?;
    let start = match state {
        Some(s) => PyState::new(s.unbind()),
        None => {
            let s = ply_core::Game::initial_state(&game);
            if let Some(e) = game.take_error() {
                return Err(e);
            }
            s
        }
    };
    let state = game.play_actions(py, start, moves.as_deref().unwrap_or(&[]))?;
    let cli = api::parse(command, request.as_bytes(), None).map_err(value_error)?;
    let mut cancel = Cancel::new(Arc::clone(&game.failed), None, None);
    let spec = &PyGame::SPEC;
    let report: Result<Value, CliError> = (|| {
        let json = |r: &dyn ReportJson| r.value();
        Ok(match &cli.command {
            Command::Solve(a) | Command::Analyze(a) => {
                let plan = configure(&a.search, &game, &state, spec, SOLVE_TIME_MS)?;
                if matches!(cli.command, Command::Solve(_)) {
                    json(&solve_report(
                        spec.name,
                        &game,
                        &state,
                        &plan,
                        true,
                        &mut cancel,
                    )?)
                } else {
                    json(&analyze_report(
                        spec.name,
                        &game,
                        &state,
                        &plan,
                        &mut cancel,
                    )?)
                }
            }
            Command::Compare(a) => {
                let r = compare_report(spec.name, &game, &state, a.depth, a.tt_mb, &mut cancel)?;
                if !r.agree && !game.failed.load(Ordering::Relaxed) {
                    return Err(disagreement(&r));
                }
                json(&r)
            }
            Command::Trace(a) => json(&trace_report(&game, spec, &state, a, &mut cancel)?),
            _ => {
                return Err(CliError::input(format!(
                    "{command} is not a search of a Python game"
                )));
            }
        })
    })();
    // An exception in the game's functions comes first: it is why the
    // search stopped (or what made its answer meaningless).
    if let Some(e) = game.take_error() {
        return Err(e);
    }
    report.map(|v| v.to_string()).map_err(value_error)
}

/// The built-in games and the algorithms: what `ply list --json` prints.
#[pyfunction]
fn games() -> String {
    ply_cli::commands::list::report_value().to_string()
}

/// The module: `ply._ply`.
#[pymodule]
fn _ply(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(search_game, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
