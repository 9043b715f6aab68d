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
use ply_core::score::MAX_GAME_SCORE;
use ply_core::{Evaluation, Game, MaxScore, Notation, ParseError, Player, no_hooks};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::pylearn::Learning;

/// How many moves have `result` checked for changing the state it was
/// given (by comparing its `repr` before and after): a game that does it
/// does it from the first move, and the check costs two `repr`s.
const CHECKED_PLAYS: u64 = 2_000;

/// A Python state, shared (cloning a state costs no Python call), with what
/// the searches ask of it more than once kept beside it.
#[derive(Clone)]
pub struct PyState(Arc<Inner>);

/// A state and what its game's functions said of it: each is asked once
/// per state, as the textbook algorithm asks it, however often the search
/// needs the answer.
pub struct Inner {
    obj: Py<PyAny>,
    player: OnceLock<Player>,
    actions: OnceLock<Vec<Py<PyAny>>>,
    terminal: OnceLock<bool>,
    /// Its actions' places in a network's policy (`action_index`).
    indices: OnceLock<Vec<usize>>,
    /// The player after the move into this state (the other one), for a
    /// terminal state: see [`Game::to_move`] for [`PyGame`].
    after_move: Option<Player>,
}

impl PyState {
    pub fn new(obj: Py<PyAny>) -> Self {
        Self::after(obj, None)
    }

    /// A state reached by a move of `mover` (if known).
    fn after(obj: Py<PyAny>, mover: Option<Player>) -> Self {
        PyState(Arc::new(Inner {
            obj,
            player: OnceLock::new(),
            actions: OnceLock::new(),
            terminal: OnceLock::new(),
            indices: OnceLock::new(),
            after_move: mover.map(Player::opponent),
        }))
    }

    /// The Python object.
    pub(crate) fn obj(&self) -> &Py<PyAny> {
        &self.0.obj
    }

    /// Its actions' policy indices, once asked.
    pub(crate) fn indices(&self) -> &OnceLock<Vec<usize>> {
        &self.0.indices
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
    /// Python's hash, or for an unhashable state (a list of lists) its
    /// [`structural_hash`]: equal states hash alike either way.
    fn hash<H: Hasher>(&self, h: &mut H) {
        Python::attach(|py| structural_hash(self.0.obj.bind(py), 0)).hash(h);
    }
}

/// How deep [`structural_hash`] looks into nested containers before it
/// hashes the `repr` of what is left.
const HASH_NESTING: u32 = 32;

/// A hash of `obj` that equal values share, hashable or not: Python's own
/// hash when it has one; for a list, a tuple or a dict (the CS50 board is
/// a list of lists), one made from its items' hashes, in order for a
/// sequence and in any order for a dict or a set; for anything else, the
/// hash of its `repr`. Unhashable states then work with the tables without
/// a `key(state)`: a table keys positions by 64 bits whatever the game.
fn structural_hash(obj: &Bound<'_, PyAny>, nesting: u32) -> u64 {
    use pyo3::types::{PyDict, PyList, PySet, PyTuple};
    if let Ok(h) = obj.hash() {
        return h as u64;
    }
    // Sequences fold their items in order; sets and dicts sum them, so
    // that the order they were built in does not matter.
    let mix = |h: u64, x: u64| (h ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29);
    let item = |x: &Bound<'_, PyAny>| structural_hash(x, nesting + 1);
    if nesting < HASH_NESTING {
        if let Ok(list) = obj.cast::<PyList>() {
            return list.iter().fold(0x6c69_7374, |h, x| mix(h, item(&x)));
        }
        if let Ok(tuple) = obj.cast::<PyTuple>() {
            return tuple.iter().fold(0x7475_706c, |h, x| mix(h, item(&x)));
        }
        if let Ok(set) = obj.cast::<PySet>() {
            let sum = set
                .iter()
                .fold(0u64, |h, x| h.wrapping_add(mix(1, item(&x))));
            return mix(0x0073_6574, sum);
        }
        if let Ok(dict) = obj.cast::<PyDict>() {
            let sum = dict.iter().fold(0u64, |h, (k, v)| {
                h.wrapping_add(mix(mix(2, item(&k)), item(&v)))
            });
            return mix(0x6469_6374, sum);
        }
    }
    obj.repr().and_then(|r| r.hash()).map_or(0, |h| h as u64)
}

impl fmt::Debug for PyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Python::attach(|py| repr(self.0.obj.bind(py))))
    }
}

/// The name of `obj`'s type, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

pub(crate) fn repr(obj: &Bound<'_, PyAny>) -> String {
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
    /// The objects `player` returned for MAX and MIN, once known: a
    /// later answer that *is* one of them (the module's `X`, an interned
    /// string) is read without converting it to text.
    seen: [OnceLock<Py<PyAny>>; 2],
    /// The first exception a function raised (or a broken rule found).
    error: Mutex<Option<PyErr>>,
    /// Raised with the error: the search's observer stops on it.
    pub failed: Arc<AtomicBool>,
    plays: AtomicU64,
    /// Python's `sorted`, for a set of actions.
    sorted: Py<PyAny>,
    /// How a network sees it, when it has `encode`.
    learning: Option<Learning>,
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
        let mut game = PyGame {
            initial_state: get("initial_state")?,
            player: get("player")?,
            actions: get("actions")?,
            result: get("result")?,
            terminal: get("terminal")?,
            utility: get("utility")?,
            evaluate: optional("evaluate"),
            key: optional("key"),
            symbols: Mutex::new((None, None)),
            seen: [OnceLock::new(), OnceLock::new()],
            error: Mutex::new(None),
            failed: Arc::new(AtomicBool::new(false)),
            plays: AtomicU64::new(0),
            sorted: obj.py().import("builtins")?.getattr("sorted")?.unbind(),
            learning: None,
        };
        game.learning = if optional("encode").is_some() {
            let start = game.initial_state();
            if let Some(e) = game.take_error() {
                return Err(e);
            }
            Learning::read(obj, start.obj().bind(obj.py()))?
        } else {
            None
        };
        Ok(game)
    }

    /// How a network sees the game, if it can.
    pub(crate) fn learning(&self) -> Option<&Learning> {
        self.learning.as_ref()
    }

    /// The exception that stopped the search, if one did.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().expect("no panic holds the lock").take()
    }

    /// Keeps the first error and raises the stop flag.
    pub(crate) fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().expect("no panic holds the lock");
        if slot.is_none() {
            *slot = Some(e);
        }
        self.failed.store(true, Ordering::Relaxed);
    }

    pub(crate) fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Calls a function of the game on `state`; on an exception keeps it
    /// and answers `default`. (One argument, passed as a Rust tuple:
    /// pyo3 makes that a vectorcall, with no argument tuple built.)
    fn call<T>(
        &self,
        f: &Py<PyAny>,
        state: &Py<PyAny>,
        default: T,
        convert: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>,
    ) -> T {
        if self.failed() {
            return default;
        }
        Python::attach(|py| {
            let result = f
                .bind(py)
                .call1((state.bind(py),))
                .and_then(|r| convert(&r));
            result.unwrap_or_else(|e| {
                self.fail(e);
                default
            })
        })
    }

    /// The state's actions, asked once. A set's actions are sorted (when
    /// they can be compared), so the order a search tries them in, and so
    /// alpha-beta's node count, does not depend on how Python happens to
    /// lay out a set: the CS50 module's set of `(i, j)` is tried row by
    /// row, as the textbook counts (18,297 nodes on the empty board).
    pub(crate) fn actions_of<'a>(&self, state: &'a PyState) -> &'a [Py<PyAny>] {
        state.0.actions.get_or_init(|| {
            self.call(&self.actions, &state.0.obj, Vec::new(), |r| {
                let py = r.py();
                if r.is_none() {
                    return Err(PyTypeError::new_err(format!(
                        "actions(state) returned None: it must return the actions possible in the state (a list or a set), an empty one only when terminal(state) is true (is a `return` missing?); state {}",
                        repr(state.0.obj.bind(py))
                    )));
                }
                use pyo3::types::{PyFrozenSet, PyList, PySet};
                // A list is read as it is; a set through `sorted()`, one
                // call in C (building a list from the set in Rust and
                // sorting that cost minimax 0.3 s on tic-tac-toe).
                let unordered = r.is_instance_of::<PySet>() || r.is_instance_of::<PyFrozenSet>();
                let sorted = if unordered {
                    self.sorted.bind(py).call1((r,)).ok()
                } else {
                    None
                };
                let list = sorted.as_ref().unwrap_or(r);
                if let Ok(list) = list.cast::<PyList>() {
                    return Ok(list.iter().map(Bound::unbind).collect());
                }
                let items = r.try_iter().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "actions(state) returned {} ({}), which is not a collection of actions: return a list or a set; state {}",
                        repr(r),
                        type_name(r),
                        repr(state.0.obj.bind(py))
                    ))
                })?;
                items
                    .map(|a| a.map(Bound::unbind))
                    .collect::<PyResult<Vec<_>>>()
            })
        })
    }

    /// A score from Python: an integer, or a float with no fraction,
    /// inside the range every game's scores keep to (magnitude below
    /// [`MAX_GAME_SCORE`]: the engine keeps the scores beyond it for
    /// proven wins and for infinity, so a larger one would be read as one
    /// of those, or overflow). `what` names the function and `state` the
    /// state it was asked about, for the message.
    fn score(r: &Bound<'_, PyAny>, what: &str, state: &Bound<'_, PyAny>) -> PyResult<MaxScore> {
        let value = match r.extract::<i64>() {
            Ok(i) => Some(i),
            Err(_) => match r.extract::<f64>() {
                Ok(x) if x.fract() == 0.0 && x.abs() < 1e15 => Some(x as i64),
                _ => None,
            },
        };
        let Some(value) = value else {
            return Err(PyTypeError::new_err(format!(
                "{what} must return an integer (or a float with no fraction), got {}; state {}",
                repr(r),
                repr(state)
            )));
        };
        let limit = i64::from(MAX_GAME_SCORE);
        if value.abs() >= limit {
            return Err(PyValueError::new_err(format!(
                "{what} returned {value}, outside the scores a game may give (-{m} to {m}): scale it down; state {}",
                repr(state),
                m = limit - 1
            )));
        }
        Ok(MaxScore(value as i32))
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

    /// `player(state)` as MAX or MIN: "MAX" and "MIN", or the game's two
    /// symbols, the first mover's being MAX.
    fn ask_player(&self, state: &PyState) -> Player {
        let symbol = self.call(&self.player, &state.0.obj, Err(None), |r| {
            for (i, player) in [Player::Max, Player::Min].into_iter().enumerate() {
                if self.seen[i].get().is_some_and(|s| s.bind(r.py()).is(r)) {
                    return Ok(Ok(player));
                }
            }
            Ok(Err(Some((r.str()?.to_string(), r.clone().unbind()))))
        });
        let (symbol, object) = match symbol {
            Ok(player) => return player,
            Err(None) => return Player::Max,
            Err(Some(answer)) => answer,
        };
        let player = self.name_player(state, symbol);
        if !self.failed() {
            let _ = self.seen[player as usize].set(object);
        }
        player
    }

    /// The player `player(state)` named by `symbol`, the first time a
    /// symbol object is seen.
    fn name_player(&self, state: &PyState, symbol: String) -> Player {
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
            let first = self.call(&self.player, &start.0.obj, None, |r| {
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

    /// `player(state)`, asked once, and only of states that are not
    /// terminal, as the textbook's minimax asks it: at the end of the game
    /// nobody moves, and a search asks only to keep its books (a trace's
    /// player column, a negamax sign), for which the other player than the
    /// one who moved in serves. Asking the course's `player` at the
    /// 255,168 leaves of tic-tac-toe too made ply's minimax 8% slower than
    /// the learner's own.
    fn to_move(&self, state: &PyState) -> Player {
        *state.0.player.get_or_init(|| match state.0.after_move {
            Some(player) if self.is_terminal(state) => player,
            _ => self.ask_player(state),
        })
    }

    fn legal_moves(&self, state: &PyState, moves: &mut Vec<u32>) {
        if self.is_terminal(state) {
            return;
        }
        let n = self.actions_of(state).len() as u32;
        if n == 0 && !self.failed() {
            self.fail(PyValueError::new_err(format!(
                "actions(state) returned no actions, but terminal(state) is False: a state with no move must be terminal (check terminal(), or actions()); state {state:?}"
            )));
        }
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
                Ok(next) if next.is_none() => {
                    self.fail(PyTypeError::new_err(format!(
                        "result(state, action) returned None (action {}): it must return the state after the action (is a `return` missing?); state {}",
                        repr(action.bind(py)),
                        repr(state.0.obj.bind(py))
                    )));
                    state.clone()
                }
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
                    PyState::after(next.unbind(), state.0.player.get().copied())
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
            .get_or_init(|| self.call(&self.terminal, &state.0.obj, true, |r| r.is_truthy()))
    }

    fn utility(&self, state: &PyState) -> MaxScore {
        self.call(&self.utility, &state.0.obj, MaxScore::ZERO, |r| {
            Self::score(r, "utility(state)", state.0.obj.bind(r.py()))
        })
    }

    fn hash_key(&self, state: &PyState) -> u64 {
        if self.failed() {
            return 0;
        }
        Python::attach(|py| {
            let obj = state.0.obj.bind(py);
            let Some(key) = &self.key else {
                return structural_hash(obj, 0);
            };
            match key.bind(py).call1((obj,)) {
                Ok(k) => structural_hash(&k, 0),
                Err(e) => {
                    self.fail(e);
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
            Some(f) => self.call(f, &state.0.obj, MaxScore::ZERO, |r| {
                Self::score(r, "evaluate(state)", state.0.obj.bind(r.py()))
            }),
            None => MaxScore::ZERO,
        }
    }
}

// Learn is the game's own when it has `encode` (crate::pylearn).
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
