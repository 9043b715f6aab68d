//! What the searches found, as types: each result the command line prints
//! (solve, analyze, compare, trace, count, perft, batch lines) is a
//! serialisable report with a `Display` for its text form, so the CLI, the
//! web API and the Python bindings all emit the same JSON from one place.
//!
//! A report is built from a search's outcome and the game's notation (moves
//! and positions as text), then holds only text and numbers: it outlives the
//! game it came from.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use ply_core::game::{Chance, Game};
use ply_core::notation::Notation;
use ply_core::score::MaxScore;
use ply_core::search::{MctsMove, MctsResult};

mod analyze;
mod batch;
mod cfr;
mod compare;
mod explore;
mod list;
mod mcts_trace;
mod puct_trace;
mod show;
mod solve;
mod threat;
mod trace;

pub use analyze::*;
pub use batch::*;
pub use cfr::*;
pub use compare::*;
pub use explore::*;
pub use list::*;
pub use mcts_trace::*;
pub use puct_trace::*;
pub use show::*;
pub use solve::*;
pub use threat::*;
pub use trace::*;

/// Any command's report, in JSON with a `kind` naming the command
/// (`"kind": "solve"`) beside the report's own fields, so a client reads
/// it back into this type; its text is its own. Read back from JSON, a
/// report has everything but the pictures its text form draws from the
/// game (the board, who is to move), which the JSON does not carry.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Report {
    /// `solve`.
    Solve(SolveReport),
    /// `analyze`.
    Analyze(AnalyzeReport),
    /// `compare`.
    Compare(CompareReport),
    /// `trace`.
    Trace(TraceReport),
    /// `trace --algo mcts`.
    #[serde(rename = "mcts_trace")]
    MctsTrace(MctsTraceReport),
    /// `trace --algo puct`.
    #[serde(rename = "puct_trace")]
    PuctTrace(PuctTraceReport),
    /// `trace --dot`.
    Dot(DotReport),
    /// `show`.
    Show(ShowReport),
    /// `count`.
    Count(CountReport),
    /// `perft`.
    Perft(PerftReport),
    /// `solve --vcf`.
    Threat(ThreatReport),
    /// `list`.
    List(ListReport),
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::Solve(r) => r.fmt(f),
            Report::Analyze(r) => r.fmt(f),
            Report::Compare(r) => r.fmt(f),
            Report::Trace(r) => r.fmt(f),
            Report::MctsTrace(r) => r.fmt(f),
            Report::PuctTrace(r) => r.fmt(f),
            Report::Dot(r) => r.fmt(f),
            Report::Show(r) => r.fmt(f),
            Report::Count(r) => r.fmt(f),
            Report::Perft(r) => r.fmt(f),
            Report::Threat(r) => r.fmt(f),
            Report::List(r) => r.fmt(f),
        }
    }
}

/// A score in JSON: an integer, or `"+inf"` / `"-inf"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score(pub MaxScore);

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_infinite() {
            s.serialize_str(&self.0.to_string())
        } else {
            s.serialize_i32(self.0.0)
        }
    }
}

/// A score or a mean as JSON writes it: a number, or `"+inf"` / `"-inf"`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Written {
    Number(f64),
    Word(String),
}

impl Written {
    fn read<E: serde::de::Error>(self) -> Result<f64, E> {
        match self {
            Written::Number(v) => Ok(v),
            Written::Word(w) if w == "+inf" => Ok(f64::INFINITY),
            Written::Word(w) if w == "-inf" => Ok(f64::NEG_INFINITY),
            Written::Word(w) => Err(E::custom(format!(
                "'{w}' is not a score: a number, \"+inf\" or \"-inf\""
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Written::deserialize(d)?.read()?;
        Ok(Score(if v.is_infinite() {
            if v > 0.0 {
                MaxScore::INF
            } else {
                MaxScore::NEG_INF
            }
        } else if v.fract() == 0.0 && v.abs() <= i32::MAX as f64 {
            MaxScore(v as i32)
        } else {
            return Err(serde::de::Error::custom(format!(
                "{v} is not a whole score"
            )));
        }))
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Number(Written::deserialize(d)?.read()?))
    }
}

impl fmt::Display for Score {
    /// Signed, infinities spelled out: `+3`, `0`, `-1`, `+inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.0 > 0 && !self.0.is_infinite() {
            write!(f, "+{}", self.0.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// An `f64` value in JSON: an integer when it is one, `"+inf"` / `"-inf"`
/// for the infinities, else rounded to nine decimals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(pub f64);

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_infinite() {
            s.serialize_str(if v > 0.0 { "+inf" } else { "-inf" })
        } else if v.fract() == 0.0 && v.abs() < 9e15 {
            s.serialize_i64(v as i64)
        } else {
            s.serialize_f64((v * 1e9).round() / 1e9)
        }
    }
}

/// Writes a count with thousands separators: `549,946`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A line of moves in the game's notation, each written in the position it
/// is played in.
pub fn line<G: Notation>(game: &G, state: &G::State, moves: &[G::Move]) -> Vec<String> {
    walk(game, state, moves, G::format_move)
}

/// `moves` from `state` as players write them ([`Notation::display_move`]:
/// SAN in chess), for a person to read; [`line`] is for a program.
pub fn display_line<G: Notation>(game: &G, state: &G::State, moves: &[G::Move]) -> Vec<String> {
    walk(game, state, moves, G::display_move)
}

/// Each of `moves` written by `write` in the position it is played in.
fn walk<G: Notation>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    write: fn(&G, &G::State, G::Move) -> String,
) -> Vec<String> {
    let mut s = state.clone();
    let mut out = Vec::new();
    for &m in moves {
        out.push(write(game, &s, m));
        s = game.play(&s, m);
    }
    out
}

/// A verdict in words: who wins, and how soon when known.
pub fn verdict(proven: bool, value: MaxScore, distance: Option<u32>) -> String {
    if !proven && distance.is_none() {
        return "estimate, evaluation units, MAX's view".to_string();
    }
    let when = match distance {
        Some(1) => " in 1 ply".to_string(),
        Some(d) => format!(" in {d} plies"),
        None => String::new(),
    };
    // A decided score from a depth-limited search: every reply within the
    // search leads to the end, but the rest of the tree was estimated.
    let found = if proven {
        ""
    } else {
        ", a forced line found by the search"
    };
    match value.0.signum() {
        1 => format!("MAX (the first player) wins{when}{found}"),
        -1 => format!("MIN (the second player) wins{when}{found}"),
        _ => "draw".to_string(),
    }
}

/// Who moves in `state`: `MAX`, `MIN` or `chance`; nobody once the game
/// is over.
pub fn to_move_name<G: Chance>(game: &G, state: &G::State) -> Option<&'static str> {
    if game.is_terminal(state) {
        None
    } else if game.is_chance(state) {
        Some("chance")
    } else {
        Some(game.to_move(state).name())
    }
}

/// The game, the position and the search a report is about, and the
/// position's picture for the text form.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header {
    /// The game's registered name.
    pub game: String,
    /// The position in the game's notation.
    pub position: String,
    /// The search, named by its features (`alphabeta+order+tt64`).
    pub algo: String,
    /// Who is to move: `MAX`, `MIN` or `chance`; absent once the game is
    /// over.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub to_move: Option<String>,
    /// The board as the game draws it (text form only: the JSON does not
    /// carry it, and a report read back has none).
    #[serde(skip)]
    pub board: String,
}

impl Header {
    /// The header for `state` of `game` (registered as `name`), searched by `algo`.
    pub fn new<G: Notation + Chance>(name: &str, game: &G, state: &G::State, algo: String) -> Self {
        Header {
            game: name.to_string(),
            position: game.format_position(state),
            algo,
            board: game.draw(state).trim_end().to_string(),
            to_move: to_move_name(game, state).map(str::to_string),
        }
    }

    /// Who is to move, for people.
    fn mover(&self) -> &str {
        self.to_move
            .as_deref()
            .unwrap_or("nobody (the game is over)")
    }

    /// The same header with the board annotated: each of `notes` written on
    /// its move's place where the game can, with a line saying `what` they are.
    fn annotated<G: Notation>(
        mut self,
        game: &G,
        state: &G::State,
        notes: &[(G::Move, String)],
        what: &str,
    ) -> Self {
        if let Some(board) = game.draw_annotated(state, notes) {
            self.board = format!("{}\n(each empty square shows {what})", board.trim_end());
        }
        self
    }
}

/// What a search cost.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct StatsReport {
    /// Positions visited, root and terminals included.
    pub nodes: u64,
    /// Positions scored by utility or evaluation.
    pub leaves: u64,
    /// Nodes that returned before trying all their moves.
    pub cutoffs: u64,
    /// The deepest ply visited.
    pub depth: u32,
    /// Table look-ups, hits, and nodes the table decided.
    pub tt_probes: u64,
    /// Look-ups that found an entry.
    pub tt_hits: u64,
    /// Nodes that returned at once on a table entry.
    pub tt_cutoffs: u64,
    /// Wall-clock time in milliseconds (to the microsecond).
    pub time_ms: f64,
    /// Nodes per second, 0 when too quick to time.
    pub nodes_per_second: f64,
    /// The score search's null-window probes.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub probes: Option<u32>,
}

impl StatsReport {
    /// The report of `stats` over `elapsed`.
    pub fn new(stats: &ply_core::observe::Stats, elapsed: Duration) -> Self {
        let secs = elapsed.as_secs_f64();
        StatsReport {
            nodes: stats.nodes,
            leaves: stats.leaves,
            cutoffs: stats.cutoffs,
            depth: stats.max_ply,
            tt_probes: stats.tt_probes,
            tt_hits: stats.tt_hits,
            tt_cutoffs: stats.tt_cutoffs,
            time_ms: (secs * 1e6).round() / 1e3,
            nodes_per_second: if secs > 0.0 {
                (stats.nodes as f64 / secs).round()
            } else {
                0.0
            },
            probes: None,
        }
    }
}

impl fmt::Display for StatsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {}, leaves {}, cutoffs {}, depth {}",
            thousands(self.nodes),
            thousands(self.leaves),
            thousands(self.cutoffs),
            self.depth
        )?;
        if self.tt_probes > 0 {
            write!(
                f,
                ", table hits {} of {} probes ({} cutoffs)",
                thousands(self.tt_hits),
                thousands(self.tt_probes),
                thousands(self.tt_cutoffs)
            )?;
        }
        write!(f, ", time {:.3} ms", self.time_ms)?;
        if self.time_ms > 0.0 {
            write!(f, ", {:.2} M nodes/s", self.nodes_per_second / 1e6)?;
        }
        Ok(())
    }
}

/// What MCTS cost.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct MctsStats {
    /// Iterations (playouts) run.
    pub iterations: u64,
    /// Nodes in the tree(s).
    pub tree_nodes: u64,
    /// Playouts a second.
    pub simulations_per_second: f64,
    /// Wall-clock time in milliseconds.
    pub time_ms: f64,
}

impl MctsStats {
    fn new<M>(r: &MctsResult<M>) -> Self {
        MctsStats {
            iterations: r.iterations,
            tree_nodes: r.tree_nodes,
            simulations_per_second: r.simulations_per_second().round(),
            time_ms: (r.elapsed.as_secs_f64() * 1e6).round() / 1e3,
        }
    }
}

impl fmt::Display for MctsStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stats:     {} iterations, {} tree nodes, {:.0} simulations/s, {:.1} ms",
            thousands(self.iterations),
            thousands(self.tree_nodes),
            self.simulations_per_second,
            self.time_ms
        )
    }
}

/// A root move's MCTS statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MctsMoveReport {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// How often it was visited.
    pub visits: u64,
    /// Its mean result for the player to move at the root, in [0, 1]
    /// (a win 1, a draw 1/2, a loss 0): the rate UCT selects by.
    pub mean: f64,
    /// The same mean as MAX's value in [-1, 1] (a win for MAX 1, a loss
    /// -1), the scale of the report's `value` and of the other searches'
    /// values of games scored +1/0/-1: the best move's `value` is the
    /// report's.
    pub value: f64,
    /// PUCT: the network's prior probability of the move (what steered
    /// the search toward it before any visit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<f64>,
}

/// PUCT's priors, in the order of the moves, written into their reports.
pub(crate) fn set_priors(moves: &mut [MctsMoveReport], priors: &[f32]) {
    for (m, &p) in moves.iter_mut().zip(priors) {
        m.prior = Some(round6(f64::from(p)));
    }
}

/// A root move's MCTS mean (the mover's, in [0, 1]) as MAX's value in [-1, 1].
pub fn mcts_value<G: Game>(game: &G, state: &G::State, mean: f64) -> f64 {
    game.to_move(state).view(2.0 * mean - 1.0)
}

/// `x` rounded to six decimal places, as reports print means.
pub(crate) fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// MCTS's root moves in the game's notation, means rounded to six places.
pub fn mcts_moves<G: Notation>(
    game: &G,
    state: &G::State,
    moves: &[MctsMove<G::Move>],
) -> Vec<MctsMoveReport> {
    moves
        .iter()
        .map(|m| MctsMoveReport {
            mv: game.format_move(state, m.mv),
            visits: m.visits,
            mean: round6(m.mean),
            value: round6(mcts_value(game, state, m.mean)),
            prior: None,
        })
        .collect()
}
