//! How a network sees a game written in Python ([`Learn`] for
//! [`PyGame`]): the game's `encode(state)` gives the input planes, from the
//! view of the player to move, and `action_index(state, action)` each
//! action's place among the network's `policy_size` outputs. A game with
//! them can be searched by PUCT (`algo="puct"`) and learned (`ply.learn`).
//!
//! The shape is read once, from the initial state's encoding, when the game
//! is read ([`Learning::read`]): a missing piece or a malformed answer is
//! an exception then, before any search. Later answers that break the
//! contract (another shape, an index out of range, two actions of a state
//! sharing an index) stop the search like any exception of the game's.

use std::sync::OnceLock;

use ply_core::Learn;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::pygame::{PyGame, PyState, repr};

/// A game's learning functions and the shape its encoding has.
pub struct Learning {
    encode: Py<PyAny>,
    action_index: Py<PyAny>,
    policy_size: usize,
    shape: [usize; 3],
}

/// The planes `r` (an `encode` answer) holds, flattened, and their shape;
/// an error in the game's terms when it is not `[planes][rows][columns]`
/// of numbers with every row as long.
fn planes_of(r: &Bound<'_, PyAny>, state: &Bound<'_, PyAny>) -> PyResult<([usize; 3], Vec<f32>)> {
    let bad = |why: &str| {
        PyTypeError::new_err(format!(
            "encode(state) must return planes: a list of planes, each a list of rows of numbers ([planes][rows][columns]); {why}; state {}",
            repr(state)
        ))
    };
    let nested: Vec<Vec<Vec<f32>>> = r.extract().map_err(|_| bad(&format!("got {}", repr(r))))?;
    let planes = nested.len();
    let rows = nested.first().map_or(0, Vec::len);
    let columns = nested.first().and_then(|p| p.first()).map_or(0, Vec::len);
    if planes == 0 || rows == 0 || columns == 0 {
        return Err(bad("got an empty one"));
    }
    if nested
        .iter()
        .any(|p| p.len() != rows || p.iter().any(|row| row.len() != columns))
    {
        return Err(bad(&format!(
            "its planes are not all {rows} rows of {columns}"
        )));
    }
    let flat: Vec<f32> = nested.into_iter().flatten().flatten().collect();
    if flat.iter().any(|x| !x.is_finite()) {
        return Err(bad("it holds a NaN or an infinity"));
    }
    Ok(([planes, rows, columns], flat))
}

impl Learning {
    /// The learning functions of `obj` (a game object or module), if it
    /// has `encode`: then `action_index` and `policy_size` (an int, or a
    /// function of no argument answering one) are needed too, and the
    /// initial state `initial` must encode.
    pub fn read(obj: &Bound<'_, PyAny>, initial: &Bound<'_, PyAny>) -> PyResult<Option<Learning>> {
        let callable = |name: &str| obj.getattr(name).ok().filter(|f| f.is_callable());
        let Some(encode) = callable("encode") else {
            return Ok(None);
        };
        let needs = || {
            PyTypeError::new_err(
                "a game with encode(state) needs action_index(state, action) (each action's place in the network's output, from 0) and policy_size (how many places) too",
            )
        };
        let action_index = callable("action_index").ok_or_else(needs)?;
        let size = obj.getattr("policy_size").map_err(|_| needs())?;
        let size = if size.is_callable() {
            size.call0()?
        } else {
            size
        };
        let policy_size = match size.extract::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "policy_size must be a whole number of at least 1 (how many places the network's output has), not {}",
                    repr(&size)
                )));
            }
        };
        let (shape, _) = planes_of(&encode.call1((initial,))?, initial)?;
        Ok(Some(Learning {
            encode: encode.unbind(),
            action_index: action_index.unbind(),
            policy_size,
            shape,
        }))
    }
}

impl PyGame {
    /// The policy indices of `state`'s actions, in their order: asked of
    /// `action_index` once per state, each checked to be in range and
    /// distinct from the others.
    fn indices(&self, l: &Learning, state: &PyState) -> Vec<usize> {
        let actions = self.actions_of(state);
        let n = actions.len();
        if self.failed() {
            return vec![0; n];
        }
        Python::attach(|py| {
            let s = state.obj().bind(py);
            let mut seen = vec![None; l.policy_size];
            let mut out = Vec::with_capacity(n);
            for a in actions {
                let a = a.bind(py);
                let index = l
                    .action_index
                    .bind(py)
                    .call1((s, a))
                    .and_then(|r| {
                        r.extract::<usize>().map_err(|_| {
                            PyTypeError::new_err(format!(
                                "action_index(state, action) must return a whole number from 0, not {} (action {}); state {}",
                                repr(&r),
                                repr(a),
                                repr(s)
                            ))
                        })
                    })
                    .and_then(|i| {
                        if i >= l.policy_size {
                            return Err(PyValueError::new_err(format!(
                                "action_index(state, action) returned {i} for action {}, past policy_size ({}): indices run from 0 to {}; state {}",
                                repr(a),
                                l.policy_size,
                                l.policy_size - 1,
                                repr(s)
                            )));
                        }
                        if let Some(other) = &seen[i] {
                            return Err(PyValueError::new_err(format!(
                                "action_index(state, action) gave {i} to both {other} and {}: two actions of a state need two places; state {}",
                                repr(a),
                                repr(s)
                            )));
                        }
                        seen[i] = Some(repr(a));
                        Ok(i)
                    });
                match index {
                    Ok(i) => out.push(i),
                    Err(e) => {
                        self.fail(e);
                        return vec![0; n];
                    }
                }
            }
            out
        })
    }
}

impl Learn for PyGame {
    fn learnable(&self) -> bool {
        self.learning().is_some()
    }

    fn planes(&self) -> [usize; 3] {
        self.learning().map_or([0; 3], |l| l.shape)
    }

    fn encode(&self, state: &PyState, out: &mut [f32]) {
        let Some(l) = self.learning() else { return };
        if self.failed() {
            return;
        }
        Python::attach(|py| {
            let s = state.obj().bind(py);
            let got = l.encode.bind(py).call1((s,)).and_then(|r| planes_of(&r, s));
            match got {
                Ok((shape, values)) if shape == l.shape && values.len() == out.len() => {
                    out.copy_from_slice(&values);
                }
                Ok((shape, _)) => self.fail(PyValueError::new_err(format!(
                    "encode(state) returned {shape:?} (planes, rows, columns), but the initial state's encoding is {:?}: every state must encode to one shape; state {}",
                    l.shape,
                    repr(s)
                ))),
                Err(e) => self.fail(e),
            }
        });
    }

    fn policy_size(&self) -> usize {
        self.learning().map_or(0, |l| l.policy_size)
    }

    fn policy_index(&self, state: &PyState, mv: u32) -> usize {
        let Some(l) = self.learning() else { return 0 };
        let indices: &OnceLock<Vec<usize>> = state.indices();
        indices
            .get_or_init(|| self.indices(l, state))
            .get(mv as usize)
            .copied()
            .unwrap_or(0)
    }
}

/// The loop's numbers from the JSON `o` (absent ones: tic-tac-toe's
/// recipe on `threads` threads), the network's shape, and whether to keep
/// quiet.
pub fn settings(
    game: &PyGame,
    o: &serde_json::Value,
    threads: usize,
) -> (ply_learn::learn::LearnOptions, ply_learn::Shape, bool) {
    let recipe = ply_learn::learn::recipe("tictactoe", threads);
    let r = recipe.options;
    let n = |k: &str, d: usize| {
        o.get(k)
            .and_then(serde_json::Value::as_u64)
            .map_or(d, |v| v as usize)
    };
    let options = ply_learn::learn::LearnOptions {
        generations: n("generations", r.generations),
        games: n("games", r.games),
        selfplay: ply_learn::selfplay::SelfPlay {
            simulations: n("simulations", r.selfplay.simulations as usize) as u64,
            ..r.selfplay
        },
        window: n("window", r.window),
        steps: n("steps", r.steps),
        minibatch: n("minibatch", r.minibatch),
        learning_rate: o
            .get("learning_rate")
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(r.learning_rate),
        match_games: n("match_games", r.match_games),
        threads: n("threads", r.threads),
        seed: o
            .get("seed")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(r.seed),
    };
    let shape = ply_learn::Shape {
        planes: game.planes(),
        policy: game.policy_size(),
        channels: n("channels", recipe.channels),
        blocks: n("blocks", recipe.blocks),
    };
    let quiet = o
        .get("quiet")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    (options, shape, quiet)
}

/// Saves `network` to `out` (written beside it, then renamed), marked as
/// a Python game's network of generation `g`.
pub fn save(
    network: &ply_learn::Network,
    g: &ply_learn::learn::Generation,
    out: &std::path::Path,
) -> Result<(), String> {
    let mut network = network.clone();
    network.about.insert("ply.game".into(), "python".into());
    network
        .about
        .insert("ply.generation".into(), g.number.to_string());
    network
        .about
        .insert("ply.policy_loss".into(), format!("{:.4}", g.losses.policy));
    network
        .about
        .insert("ply.value_loss".into(), format!("{:.4}", g.losses.value));
    let bytes = network.to_bytes()?;
    let tmp = out.with_extension("safetensors.part");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| format!("cannot save the network to {}: {e}", out.display()))
}

/// One line on `sys.stderr` for generation `g` of `of`.
pub fn say(g: &ply_learn::learn::Generation, of: usize) {
    let mut line = format!(
        "generation {}/{of}: {} games, {} positions; loss {:.3} + {:.3}",
        g.number, g.games, g.positions, g.losses.policy, g.losses.value
    );
    if let (Some(p), Some(m)) = (g.vs_previous, g.vs_mcts) {
        line += &format!(
            "; scores {:.0}% against the last, {:.0}% against MCTS",
            100.0 * p,
            100.0 * m
        );
    }
    line += &format!("; {:.1} s", g.seconds);
    Python::attach(|py| {
        let _ = py
            .import("sys")
            .and_then(|sys| sys.getattr("stderr"))
            .and_then(|err| {
                err.call_method1("write", (line + "\n",))?;
                err.call_method0("flush")
            });
    });
}
