//! `plysearch._ply`: the Rust half of the `plysearch` Python package (the Python half,
//! `python/plysearch/__init__.py`, gives the functions their signatures and
//! docstrings).
//!
//! Two entry points, both over ply-service's one dispatch. [`call`] runs
//! a built-in game's command ([`ply_service::run`]), so the dicts Python
//! gets are exactly `ply ... --json`. [`search_game`] runs ply's searches
//! on a game written in Python ([`pygame::PyGame`],
//! [`ply_service::run_on`]). Both run the search on a search thread, whose
//! stack holds a line as deep as any search goes (a Python game's
//! 30,000-ply line overflowed the caller's 8 MiB and killed the
//! interpreter), while the caller waits without the GIL, so Ctrl-C stops
//! the search; a Python game's functions take the GIL call by call. A
//! third, [`learn_game`], runs ply-learn's AlphaZero loop on a Python game
//! that a network can see ([`pylearn`]) the same way.

mod pygame;
mod pylearn;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use ply_service::error::Words;
use ply_service::{Cancel, Command, Error, ErrorKind, Limits, Report, Request};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::pygame::{PyGame, PyState};

/// How often a waiting call looks for Ctrl-C.
const SIGNAL_EVERY: Duration = Duration::from_millis(50);

/// A service error as a Python exception: bad input, a cap passed and
/// searches that disagree are `ValueError`s (the caller's to act on);
/// the rest `RuntimeError`s.
/// The message names the request's fields as Python's keywords
/// (`time_ms=`, `moves=`).
fn py_error(e: Error) -> PyErr {
    let message = e.message(Words::Keywords);
    match e.kind {
        ErrorKind::Input | ErrorKind::Limit | ErrorKind::Disagreement => {
            PyValueError::new_err(message)
        }
        ErrorKind::Stopped | ErrorKind::Internal => PyRuntimeError::new_err(message),
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

/// Runs `work` on a search thread (ply-service's stack, deep enough for
/// any line a search follows) while this thread waits without the GIL,
/// looking for Ctrl-C every [`SIGNAL_EVERY`]. On Ctrl-C it raises `stop`,
/// waits for the search to notice, and raises `KeyboardInterrupt`. A game
/// written in Python runs on that thread too: each of its functions takes
/// the GIL for the call, which this thread has let go.
fn on_search_thread<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        ply_service::spawn_scoped(scope, "ply-search", move || {
            let _ = tx.send(work());
        })
        .map_err(py_error)?;
        // Waiting releases the GIL (`detach` wants what it borrows to be
        // Sync, which a receiver is not: hence the lock).
        let rx = Mutex::new(rx);
        let wait = |timeout: Option<Duration>| {
            let rx = rx.lock().expect("only this thread waits");
            match timeout {
                Some(t) => rx.recv_timeout(t),
                None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            }
        };
        loop {
            match py.detach(|| wait(Some(SIGNAL_EVERY))) {
                Ok(answer) => return Ok(answer),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        let _ = py.detach(|| wait(None));
                        return Err(interrupt);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the search thread failed"));
                }
            }
        }
    })
}

/// Runs `command` (solve, analyze, compare, trace, show, count, perft) of
/// a built-in game on the JSON request `request` (the command line's flags
/// as fields); returns the JSON `ply COMMAND ... --json` prints. Raises
/// `ValueError` with the service's message; Ctrl-C stops the search.
#[pyfunction]
fn call(py: Python<'_>, command: &str, request: &str) -> PyResult<String> {
    let (command, request) = read(command, request)?;
    let flag = Arc::new(AtomicBool::new(false));
    let mut cancel = Cancel::new(Arc::clone(&flag), None);
    let answer = on_search_thread(py, &flag, || {
        ply_service::run(command, &request, &Limits::NONE, &mut cancel)
    })?;
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
    // The search thread holds the GIL for the whole search: taking it for
    // each of the game's calls instead made minimax on tic-tac-toe half as
    // slow again (21.6 s against 14 s). Python's own switching still hands
    // it to this thread every few milliseconds, between the game's calls,
    // to look for Ctrl-C.
    let report = on_search_thread(py, &game.failed, || {
        Python::attach(|_| {
            ply_service::run_on(
                &game,
                &pygame::SPEC,
                &state,
                command,
                &request,
                &Limits::NONE,
                &mut cancel,
            )
        })
    })?;
    // An exception in the game's functions comes first: it is why the
    // search stopped (or what made its answer meaningless).
    if let Some(e) = game.take_error() {
        return Err(e);
    }
    report.map(|r| json(&r)).map_err(py_error)
}

/// `ply.learn`: the AlphaZero loop (`ply learn`'s) on `game`, a game
/// written in Python with `encode`, `action_index` and `policy_size`.
/// `options` is a JSON object of the loop's numbers (the Python wrapper
/// checks them; absent ones take tic-tac-toe's recipe). After each
/// generation the network is saved to `out` and a line is printed to
/// `sys.stderr` (unless `quiet`). Returns each generation's figures as
/// JSON. Ctrl-C ends the games in play at once and stops the run, the
/// last generation saved standing.
#[pyfunction]
fn learn_game(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    out: std::path::PathBuf,
    options: &str,
) -> PyResult<String> {
    let game = PyGame::new(game)?;
    if !ply_core::Learn::learnable(&game) {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "to be learned, a game needs encode(state) (the state as planes of numbers, [planes][rows][columns], from the view of the player to move), action_index(state, action) and policy_size",
        ));
    }
    let o: serde_json::Value = serde_json::from_str(options)
        .map_err(|e| PyValueError::new_err(format!("the options: {e}")))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (settings, shape, quiet) = pylearn::settings(&game, &o, threads);
    let network = ply_learn::Network::random(shape, settings.seed);
    let mut figures = Vec::new();
    let mut failure = None;
    let stop = Arc::clone(&game.failed);
    let ran = on_search_thread(py, &stop, || {
        let mut progress = |p: ply_learn::learn::Progress<'_, PyState>| {
            if let ply_learn::learn::Progress::Generation(g, net, _) = p {
                if game.failed.load(Ordering::Relaxed) {
                    return;
                }
                let line = ply_service::learned::generation_json(g, None);
                if let Err(e) = pylearn::save(net, g, &out) {
                    failure = Some(e);
                    game.failed.store(true, Ordering::Relaxed);
                }
                if !quiet {
                    pylearn::say(g, settings.generations);
                }
                figures.push(line);
            }
        };
        let start = ply_learn::learn::Start::new();
        ply_learn::learn::learn(&game, network, &settings, start, &stop, &mut progress);
    });
    ran?;
    if let Some(e) = game.take_error() {
        return Err(e);
    }
    if let Some(e) = failure {
        return Err(PyRuntimeError::new_err(e));
    }
    Ok(serde_json::Value::Array(figures).to_string())
}

/// The built-in games and the algorithms: what `ply list --json` prints.
#[pyfunction]
fn games() -> String {
    serde_json::to_string(&ply_service::report::list_report()).expect("the list serialises")
}

/// The module: `plysearch._ply`.
#[pymodule]
fn _ply(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(search_game, m)?)?;
    m.add_function(wrap_pyfunction!(learn_game, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
