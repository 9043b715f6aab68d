//! A game written in Python, as a ply [`Game`]: the lesson's six functions
//! (`initial_state`, `player`, `actions`, `result`, `terminal`, `utility`),
//! optionally `evaluate` and `key`, called from Rust's searches.
//!
//! The [`Game`] methods cannot fail, but Python functions can: the first
//! exception is kept, a stop flag is raised (the searches ask it through
//! their observer and stop), and from then on every method answers a
//! harmless default without calling Python, so the search unwinds at once.
//! The caller then raises the kept exception, traceback and all.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use ply_core::registry::GameSpec;
use ply_core::{Evaluation, Game, MaxScore, Notation, ParseError, Player, no_hooks};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// How many moves have `result` checked for changing the state it was
/// given (by comparing its `repr` before and after): a game that does it
/// does it from the first move, and the check costs two `repr`s.
const CHECKED_PLAYS: u64 = 2_000;

/// A Python state, shared (cloning a state costs no Python call), with what
/// the searches ask of it more than once kept beside it.
#[derive(Clone)]
pub struct PyState(Arc<Inner>);

pub struct Inner {
    obj: Py<PyAny>,
    actions: OnceLock<Vec<Py<PyAny>>>,
    terminal: OnceLock<bool>,
}

impl PyState {
    pub fn new(obj: Py<PyAny>) -> Self {
        PyState(Arc::new(Inner {
            obj,
            actions: OnceLock::new(),
            terminal: OnceLock::new(),
        }))
    }
}

impl PartialEq for PyState {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || Python::attach(|py| {
                self.0
                    .obj
                    .bind(py)
                    .eq(other.0.obj.bind(py))
                    .unwrap_or(false)
            })
    }
}

impl Eq for PyState {}

impl Hash for PyState {
    /// Python's hash; an unhashable state hashes to 0 here (tables use
    /// [`Game::hash_key`], which says so instead).
    fn hash<H: Hasher>(&self, h: &mut H) {
        Python::attach(|py| self.0.obj.bind(py).hash().unwrap_or(0)).hash(h);
    }
}

impl fmt::Debug for PyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Python::attach(|py| repr(self.0.obj.bind(py))))
    }
}

fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable>".into())
}

/// The game's functions, and what a search has learned of it.
pub struct PyGame {
    initial_state: Py<PyAny>,
    player: Py<PyAny>,
    actions: Py<PyAny>,
    result: Py<PyAny>,
    terminal: Py<PyAny>,
    utility: Py<PyAny>,
    evaluate: Option<Py<PyAny>>,
    key: Option<Py<PyAny>>,
    /// The first mover's symbol (MAX), and the other once seen.
    symbols: Mutex<(Option<String>, Option<String>)>,
    /// The first exception a function raised (or a broken rule found).
    error: Mutex<Option<PyErr>>,
    /// Raised with the error: the search's observer stops on it.
    pub failed: Arc<AtomicBool>,
    plays: AtomicU64,
}

impl PyGame {
    /// The game `obj` describes: an object or a module with the six
    /// functions. A missing one is a `TypeError` naming it.
    pub fn new(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let get = |name: &str| -> PyResult<Py<PyAny>> {
            match obj.getattr(name) {
                Ok(f) if f.is_callable() => Ok(f.unbind()),
                _ => Err(PyTypeError::new_err(format!(
                    "a game needs {name}(...): initial_state(), player(state), actions(state), result(state, action), terminal(state) and utility(state); evaluate(state) and key(state) are optional"
                ))),
            }
        };
        let optional = |name: &str| {
            obj.getattr(name)
                .ok()
                .filter(|f| f.is_callable())
                .map(Bound::unbind)
        };
        let game = PyGame {
            initial_state: get("initial_state")?,
            player: get("player")?,
            actions: get("actions")?,
            result: get("result")?,
            terminal: get("terminal")?,
            utility: get("utility")?,
            evaluate: optional("evaluate"),
            key: optional("key"),
            symbols: Mutex::new((None, None)),
            error: Mutex::new(None),
            failed: Arc::new(AtomicBool::new(false)),
            plays: AtomicU64::new(0),
        };
        Ok(game)
    }

    /// The exception that stopped the search, if one did.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().expect("no panic holds the lock").take()
    }

    /// Keeps the first error and raises the stop flag.
    fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().expect("no panic holds the lock");
        if slot.is_none() {
            *slot = Some(e);
        }
        self.failed.store(true, Ordering::Relaxed);
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Calls a function of the game; on an exception keeps it and answers `default`.
    fn call<T>(
        &self,
        f: &Py<PyAny>,
        args: &[&Py<PyAny>],
        default: T,
        convert: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>,
    ) -> T {
        if self.failed() {
            return default;
        }
        Python::attach(|py| {
            let args: Vec<Bound<'_, PyAny>> = args.iter().map(|a| a.bind(py).clone()).collect();
            let result = pyo3::types::PyTuple::new(py, args)
                .and_then(|args| f.bind(py).call1(args))
                .and_then(|r| convert(&r));
            result.unwrap_or_else(|e| {
                self.fail(e);
                default
            })
        })
    }

    /// The state's actions, asked once.
    fn actions_of<'a>(&self, state: &'a PyState) -> &'a [Py<PyAny>] {
        state.0.actions.get_or_init(|| {
            self.call(&self.actions, &[&state.0.obj], Vec::new(), |r| {
                r.try_iter()?
                    .map(|a| a.map(Bound::unbind))
                    .collect::<PyResult<Vec<_>>>()
            })
        })
    }

    /// A score from Python: an integer, or a float with no fraction.
    fn score(r: &Bound<'_, PyAny>, what: &str) -> PyResult<MaxScore> {
        if let Ok(i) = r.extract::<i64>() {
            return i32::try_from(i)
                .map(MaxScore)
                .map_err(|_| PyValueError::new_err(format!("{what} returned {i}, beyond ±2^31")));
        }
        match r.extract::<f64>() {
            Ok(x) if x.fract() == 0.0 && x.abs() < 1e9 => Ok(MaxScore(x as i32)),
            _ => Err(PyValueError::new_err(format!(
                "{what} must return an integer, got {}",
                repr(r)
            ))),
        }
    }

    /// The state `moves` (action objects) lead to from `state`; an action
    /// not in `actions(state)` is a `ValueError` naming it and the state.
    pub fn play_actions(
        &self,
        py: Python<'_>,
        mut state: PyState,
        moves: &[Bound<'_, PyAny>],
    ) -> PyResult<PyState> {
        for (i, action) in moves.iter().enumerate() {
            let actions = self.actions_of(&state);
            if let Some(e) = self.take_error() {
                return Err(e);
            }
            let found = actions
                .iter()
                .position(|a| a.bind(py).eq(action).unwrap_or(false));
            let Some(index) = found else {
                return Err(PyValueError::new_err(format!(
                    "move {} ({}) is not in actions(state) for state {}",
                    i + 1,
                    repr(action),
                    repr(state.0.obj.bind(py))
                )));
            };
            state = self.play(&state, index as u32);
            if let Some(e) = self.take_error() {
                return Err(e);
            }
        }
        Ok(state)
    }
}

impl Game for PyGame {
    type State = PyState;
    /// An index into the state's actions.
    type Move = u32;

    fn initial_state(&self) -> PyState {
        let obj = Python::attach(|py| {
            self.initial_state
                .bind(py)
                .call0()
                .map(Bound::unbind)
                .unwrap_or_else(|e| {
                    self.fail(e);
                    py.None()
                })
        });
        PyState::new(obj)
    }

    fn to_move(&self, state: &PyState) -> Player {
        let symbol = self.call(&self.player, &[&state.0.obj], None, |r| {
            Ok(Some(r.str()?.to_string()))
        });
        let Some(symbol) = symbol else {
            return Player::Max;
        };
        match symbol.as_str() {
            "MAX" => return Player::Max,
            "MIN" => return Player::Min,
            _ => {}
        }
        let mut symbols = self.symbols.lock().expect("no panic holds the lock");
        if symbols.0.is_none() {
            // The first mover is MAX: ask the start position.
            let start = self.initial_state();
            drop(symbols);
            let first = self.call(&self.player, &[&start.0.obj], None, |r| {
                Ok(Some(r.str()?.to_string()))
            });
            symbols = self.symbols.lock().expect("no panic holds the lock");
            symbols.0 = first;
        }
        match (&symbols.0, &symbols.1) {
            (Some(max), _) if *max == symbol => Player::Max,
            (_, Some(min)) if *min == symbol => Player::Min,
            (_, None) => {
                symbols.1 = Some(symbol);
                Player::Min
            }
            (max, Some(min)) => {
                let max = max.clone().unwrap_or_default();
                let min = min.clone();
                drop(symbols);
                self.fail(PyValueError::new_err(format!(
                    "player(state) returned '{symbol}', neither '{max}' (the first mover, MAX) nor '{min}'; state {state:?}"
                )));
                Player::Max
            }
        }
    }

    fn legal_moves(&self, state: &PyState, moves: &mut Vec<u32>) {
        if self.is_terminal(state) {
            return;
        }
        let n = self.actions_of(state).len() as u32;
        moves.extend(0..n);
    }

    fn play(&self, state: &PyState, mv: u32) -> PyState {
        if self.failed() {
            return state.clone();
        }
        let Some(action) = self.actions_of(state).get(mv as usize) else {
            return state.clone();
        };
        let check = self.plays.fetch_add(1, Ordering::Relaxed) < CHECKED_PLAYS;
        Python::attach(|py| {
            let before = check.then(|| repr(state.0.obj.bind(py)));
            match self
                .result
                .bind(py)
                .call1((state.0.obj.bind(py), action.bind(py)))
            {
                Ok(next) => {
                    if let Some(before) = before {
                        let after = repr(state.0.obj.bind(py));
                        if after != before {
                            self.fail(PyValueError::new_err(format!(
                                "result(state, action) changed the state it was given (action {}): it was {before}, now {after}; return a new state instead (copy the board first)",
                                repr(action.bind(py))
                            )));
                        }
                    }
                    PyState::new(next.unbind())
                }
                Err(e) => {
                    self.fail(e);
                    state.clone()
                }
            }
        })
    }

    fn is_terminal(&self, state: &PyState) -> bool {
        if self.failed() {
            return true;
        }
        *state
            .0
            .terminal
            .get_or_init(|| self.call(&self.terminal, &[&state.0.obj], true, |r| r.is_truthy()))
    }

    fn utility(&self, state: &PyState) -> MaxScore {
        self.call(&self.utility, &[&state.0.obj], MaxScore::ZERO, |r| {
            Self::score(r, "utility(state)")
        })
    }

    fn hash_key(&self, state: &PyState) -> u64 {
        if self.failed() {
            return 0;
        }
        Python::attach(|py| {
            let obj = state.0.obj.bind(py);
            let key = match &self.key {
                Some(key) => key.bind(py).call1((obj,)),
                None => Ok(obj.clone()),
            };
            match key.and_then(|k| k.hash()) {
                Ok(h) => h as u64,
                Err(e) => {
                    let what = if self.key.is_some() {
                        "key(state)"
                    } else {
                        "the state"
                    };
                    self.fail(PyTypeError::new_err(format!(
                        "{what} is not hashable ({e}), and a table needs a key: give the game key(state) returning something hashable (a tuple or a string), or search without a table; state {}",
                        repr(obj)
                    )));
                    0
                }
            }
        })
    }
}

impl Evaluation for PyGame {
    fn evaluate(&self, state: &PyState) -> MaxScore {
        if self.is_terminal(state) {
            return self.utility(state);
        }
        match &self.evaluate {
            Some(f) => self.call(f, &[&state.0.obj], MaxScore::ZERO, |r| {
                Self::score(r, "evaluate(state)")
            }),
            None => MaxScore::ZERO,
        }
    }
}

no_hooks!(PyGame: Shortcuts, EngineHooks, Chance, Playouts, Impartial);

impl Notation for PyGame {
    fn parse_position(&self, _text: &str) -> Result<PyState, ParseError> {
        Err(ParseError::new(
            "a Python game's positions are states: pass state=... (and moves=[...])",
        ))
    }

    fn format_position(&self, state: &PyState) -> String {
        format!("{state:?}")
    }

    fn parse_move(&self, state: &PyState, text: &str) -> Result<u32, ParseError> {
        (0..self.actions_of(state).len() as u32)
            .find(|&m| self.format_move(state, m) == text)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not one of actions(state)")))
    }

    fn format_move(&self, state: &PyState, mv: u32) -> String {
        Python::attach(|py| match self.actions_of(state).get(mv as usize) {
            Some(a) => a.bind(py).str().map(|s| s.to_string()).unwrap_or_default(),
            None => format!("#{mv}"),
        })
    }
}

/// What a Python game declares: its name in reports, and no default
/// depth or exact solver (the searches' defaults apply).
pub const SPEC: GameSpec = GameSpec::new(
    "python",
    "a game written in Python: initial_state, player, actions, result, terminal, utility",
    "states (Python objects)",
    "actions, as str() prints them",
);
