//! `ply._ply`: the Rust half of the `ply` Python package (the Python half,
//! `python/ply/__init__.py`, gives the functions their signatures and
//! docstrings).
//!
//! Two entry points, both over ply-service's one dispatch. [`call`] runs
//! a built-in game's command ([`ply_service::run`]), so the dicts Python
//! gets are exactly `ply ... --json`; the search runs on its own thread
//! without the GIL, and Ctrl-C stops it. [`search_game`] runs ply's
//! searches on a game written in Python ([`pygame::PyGame`],
//! [`ply_service::run_on`]), holding the GIL, since every node calls the
//! game's functions.

mod pygame;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use ply_service::{Cancel, Command, Error, ErrorKind, Limits, Report, Request};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::pygame::{PyGame, PyState};

/// How often a waiting call looks for Ctrl-C.
const SIGNAL_EVERY: Duration = Duration::from_millis(50);

/// A service error as a Python exception: bad input, a cap passed and
/// searches that disagree are `ValueError`s (the caller's to act on);
/// the rest `RuntimeError`s.
fn py_error(e: Error) -> PyErr {
    match e.kind {
        ErrorKind::Input | ErrorKind::Limit | ErrorKind::Disagreement => {
            PyValueError::new_err(e.message)
        }
        ErrorKind::Stopped | ErrorKind::Internal => PyRuntimeError::new_err(e.message),
    }
}

/// The command and request Python sent.
fn read(command: &str, request: &str) -> PyResult<(Command, Request)> {
    let command = command.parse::<Command>().map_err(py_error)?;
    let request = Request::from_json(request.as_bytes()).map_err(py_error)?;
    Ok((command, request))
}

/// A report as the JSON Python reads.
fn json(report: &Report) -> String {
    serde_json::to_string(report).expect("reports always serialise")
}

/// Runs `command` (solve, analyze, compare, trace, show, count, perft) of
/// a built-in game on the JSON request `request` (the command line's flags
/// as fields); returns the JSON `ply COMMAND ... --json` prints. Raises
/// `ValueError` with the service's message; Ctrl-C stops the search.
#[pyfunction]
fn call(py: Python<'_>, command: &str, request: &str) -> PyResult<String> {
    let (command, request) = read(command, request)?;
    let flag = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let stop = Arc::clone(&flag);
    ply_service::spawn("ply-search", move || {
        let mut cancel = Cancel::new(stop, None);
        let _ = tx.send(ply_service::run(
            command,
            &request,
            &Limits::NONE,
            &mut cancel,
        ));
    })
    .map_err(py_error)?;
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
    answer.map(|r| json(&r)).map_err(py_error)
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
    let (command, request) = read(command, request)?;
    if !matches!(
        command,
        Command::Solve | Command::Analyze | Command::Compare | Command::Trace
    ) {
        return Err(PyValueError::new_err(format!(
            "{command} is not a search of a Python game"
        )));
    }
    let mut cancel = Cancel::new(Arc::clone(&game.failed), None);
    let report = ply_service::run_on(
        &game,
        &pygame::SPEC,
        &state,
        command,
        &request,
        &Limits::NONE,
        &mut cancel,
    );
    // An exception in the game's functions comes first: it is why the
    // search stopped (or what made its answer meaningless).
    if let Some(e) = game.take_error() {
        return Err(e);
    }
    report.map(|r| json(&r)).map_err(py_error)
}

/// The built-in games and the algorithms: what `ply list --json` prints.
#[pyfunction]
fn games() -> String {
    serde_json::to_string(&ply_service::report::list_report()).expect("the list serialises")
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
