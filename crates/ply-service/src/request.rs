//! What a front end asks: a [`Command`] and a [`Request`] (the game, its
//! parameters, the position, the search), within [`Limits`].
//!
//! A request is one flat record whose fields are the command line's flags
//! (`--tt-mb` is `tt_mb`): the server reads it from a JSON body, Python
//! from keyword arguments, the command line from clap's arguments. It
//! reads and writes JSON both ways; an unknown field is refused.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use ply_core::registry::Params;

use crate::algo::Algo;
use crate::error::Error;

/// What to do with the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// The value, the best move and the line.
    Solve,
    /// Every move's value.
    Analyze,
    /// Every exact search, side by side.
    Compare,
    /// A search step by step.
    Trace,
    /// The position as a player meets it.
    Show,
    /// The distinct positions reachable.
    Count,
    /// The move sequences of a given length.
    Perft,
}

impl Command {
    /// Every command, in the order the command line lists them.
    pub const ALL: [Command; 7] = [
        Command::Solve,
        Command::Analyze,
        Command::Compare,
        Command::Trace,
        Command::Show,
        Command::Count,
        Command::Perft,
    ];

    /// Its name (`ply NAME`, `/api/NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Command::Solve => "solve",
            Command::Analyze => "analyze",
            Command::Compare => "compare",
            Command::Trace => "trace",
            Command::Show => "show",
            Command::Count => "count",
            Command::Perft => "perft",
        }
    }

    /// Whether it searches (and so takes a turn of the server's searches).
    pub fn searches(self) -> bool {
        !matches!(self, Command::Show)
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Command {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self, Error> {
        Command::ALL
            .into_iter()
            .find(|c| c.name() == text)
            .ok_or_else(|| {
                let names = Command::ALL.map(Command::name).join(", ");
                Error::input(format!("'{text}' is not a command: give one of {names}"))
            })
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A request: the fields of the command line's flags. Every field is
/// optional; a command ignores the ones that are not its own, and
/// [`crate::configure`] refuses options that do not apply to the search.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The game's registered name (`ply list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The start position in the game's notation (default: its start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Moves played from the position first, in the game's notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
    /// The game's parameters (`{"m": 4}`); numbers and words alike.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<BTreeMap<String, Value>>,
    /// For a trace: a tree written out, instead of a game and position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    /// The search (default: the game's engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algo: Option<Algo>,
    /// A depth limit (perft: the length of the sequences).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// A time budget in milliseconds (iterative deepening, MCTS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// The table's size in MiB (0: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tt_mb: Option<usize>,
    /// Move ordering.
    #[serde(default, skip_serializing_if = "is_false")]
    pub order: bool,
    /// Principal-variation search.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pvs: bool,
    /// Distance-to-end scores.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fast_win: bool,
    /// A seed: MCTS's, or for breaking ties at random.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// MCTS iterations (default 10,000); CFR's (default 1,000; MCCFR's
    /// 100,000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u64>,
    /// MCTS's exploration constant (default √2; PUCT's 1.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c: Option<f64>,
    /// PUCT's simulations (default 800; 0: the network alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulations: Option<u64>,
    /// PUCT's network: a safetensors file `ply learn` saved (default: the
    /// game's built-in network).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub net: Option<String>,
    /// Threads (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Expectiminimax: Star1 pruning at chance nodes.
    #[serde(default, skip_serializing_if = "is_false")]
    pub star1: bool,
    /// The score search: win, draw or loss only.
    #[serde(default, skip_serializing_if = "is_false")]
    pub weak: bool,
    /// Solve: the game's threat search alone (gomoku's VCF).
    #[serde(default, skip_serializing_if = "is_false")]
    pub vcf: bool,
    /// Perft: also count per first move.
    #[serde(default, skip_serializing_if = "is_false")]
    pub divide: bool,
    /// Count: the most distinct positions kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_positions: Option<u64>,
    /// Trace: the tree as Graphviz DOT instead of the steps.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dot: bool,
    /// CFR: the one information set to report (`K:pb`), not every one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infoset: Option<String>,
}

impl Request {
    /// A request about `game` with every other field at its default.
    pub fn game(name: &str) -> Self {
        Request {
            game: Some(name.to_string()),
            ..Request::default()
        }
    }

    /// Reads a request from JSON; a mistake is an input error that says where.
    pub fn from_json(text: &[u8]) -> Result<Self, Error> {
        serde_json::from_slice(text)
            .map_err(|e| Error::input(format!("the request body is not the JSON expected: {e}")))
    }

    /// The game's parameters, checked for their form (`key=value`); the
    /// game checks their names and values when it is built.
    pub fn params(&self) -> Result<Params, Error> {
        let items: Vec<String> = self
            .params
            .iter()
            .flatten()
            .map(|(k, value)| match value {
                Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect();
        Ok(Params::parse(&items)?)
    }

    /// The moves, blanks dropped.
    pub fn move_list(&self) -> Vec<&str> {
        self.moves
            .iter()
            .flatten()
            .map(|m| m.trim())
            .filter(|m| !m.is_empty())
            .collect()
    }
}

/// The caps a front end puts on every request, applied the same way
/// whichever front end it is: the server sets them, a local caller
/// (the command line, Python) has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The longest a search may run: searches under a clock are clamped
    /// to it (and finish with their best so far); the others are stopped
    /// at it with an error.
    pub max_time: Option<Duration>,
    /// The largest table, in MiB: a bigger `tt_mb` is cut to it.
    pub max_tt_mb: Option<usize>,
    /// The largest tree a trace may be given written out, in nodes.
    pub max_tree_nodes: Option<u64>,
    /// The most threads one search may use: more is cut to it.
    pub max_threads: Option<usize>,
    /// Whether a request may name a file to read (`net`, a network): a
    /// local caller's own files, yes; a server's, no, or any client could
    /// make it read whatever its user can and say whether it parsed.
    pub files: bool,
}

impl Limits {
    /// No caps: a local caller's.
    pub const NONE: Limits = Limits {
        max_time: None,
        max_tt_mb: None,
        max_tree_nodes: None,
        max_threads: None,
        files: true,
    };

    /// A server's caps: `max_time` a search, 256 MiB a table, 10,000
    /// nodes a tree, a thread a search, no files (the built-in networks).
    pub fn server(max_time: Duration) -> Self {
        Limits {
            max_time: Some(max_time),
            max_tt_mb: Some(256),
            max_tree_nodes: Some(10_000),
            max_threads: Some(1),
            files: false,
        }
    }

    /// `request` with its table, time and threads cut to these caps.
    pub fn apply(&self, request: &Request) -> Request {
        let cut = |v: Option<usize>, max: Option<usize>| match (v, max) {
            (Some(v), Some(max)) => Some(v.min(max)),
            (v, _) => v,
        };
        Request {
            tt_mb: cut(request.tt_mb, self.max_tt_mb),
            threads: cut(request.threads, self.max_threads),
            time_ms: match (request.time_ms, self.max_time) {
                (Some(t), Some(max)) => Some(t.min(max.as_millis() as u64)),
                (t, _) => t,
            },
            ..request.clone()
        }
    }
}
