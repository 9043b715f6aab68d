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

use serde::{Serialize, Serializer};

use crate::game::Chance;
use crate::notation::Notation;
use crate::observe::{StepKind, Trace, path_name, value_text};
use crate::score::{MaxScore, Player, Window};
use crate::search::{
    Algorithm, Analysis, ExpectAnalysis, MctsMove, MctsReport, Outcome, SearchOptions,
};

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
    let mut s = state.clone();
    let mut out = Vec::new();
    for &m in moves {
        out.push(game.format_move(&s, m));
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

/// Who moves in `state`, for people.
pub fn to_move_name<G: Chance>(game: &G, state: &G::State) -> &'static str {
    if game.is_terminal(state) {
        "nobody (the game is over)"
    } else if game.is_chance(state) {
        "chance"
    } else {
        game.to_move(state).name()
    }
}

/// The game, the position and the search a report is about, and the
/// position's picture for the text form.
#[derive(Clone, Debug, Serialize)]
pub struct Header {
    /// The game's registered name.
    pub game: String,
    /// The position in the game's notation.
    pub position: String,
    /// The search, named by its features (`alphabeta+order+tt64`).
    pub algo: String,
    /// The board as the game draws it (text form only).
    #[serde(skip)]
    pub board: String,
    /// Who is to move, in words (text form only).
    #[serde(skip)]
    pub to_move: String,
}

impl Header {
    /// The header for `state` of `game` (registered as `name`), searched by `algo`.
    pub fn new<G: Notation + Chance>(name: &str, game: &G, state: &G::State, algo: String) -> Self {
        Header {
            game: name.to_string(),
            position: game.format_position(state),
            algo,
            board: game.draw(state).trim_end().to_string(),
            to_move: to_move_name(game, state).to_string(),
        }
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
#[derive(Clone, Copy, Debug, Serialize)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probes: Option<u32>,
    #[serde(skip)]
    elapsed: Duration,
}

impl StatsReport {
    /// The report of `stats` over `elapsed`.
    pub fn new(stats: &crate::observe::Stats, elapsed: Duration) -> Self {
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
            elapsed,
        }
    }
}

impl fmt::Display for StatsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
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
        write!(f, ", time {:.3} ms", secs * 1e3)?;
        if secs > 0.0 {
            write!(f, ", {:.2} M nodes/s", self.nodes as f64 / secs / 1e6)?;
        }
        Ok(())
    }
}

/// What MCTS cost.
#[derive(Clone, Copy, Debug, Serialize)]
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
    fn new<M>(r: &MctsReport<M>) -> Self {
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
#[derive(Clone, Debug, Serialize)]
pub struct MctsMoveReport {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// How often it was visited.
    pub visits: u64,
    /// Its mean result for the player to move at the root, in [0, 1].
    pub mean: f64,
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
            mean: (m.mean * 1e6).round() / 1e6,
        })
        .collect()
}

/// The result of `solve`: the value, the best move and line, what it cost.
#[derive(Clone, Debug, Serialize)]
pub struct SolveReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// What was found, by the kind of search.
    #[serde(flatten)]
    pub result: SolveResult,
}

/// What each kind of search finds at the root.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SolveResult {
    /// Minimax, alpha-beta, iterative deepening.
    Search(SearchSolve),
    /// Expectiminimax.
    Expecti(ExpectSolve),
    /// The exact score search.
    Score(ScoreSolve),
    /// Monte Carlo tree search.
    Mcts(MctsSolve),
    /// The nimber search of an impartial game.
    Nimber(NimberSolve),
}

/// A nimber-search result.
#[derive(Clone, Debug, Serialize)]
pub struct NimberSolve {
    /// The position's Sprague-Grundy value: 0 exactly when the mover loses.
    pub nimber: u32,
    /// The value, MAX's view: +1 or -1.
    pub value: Score,
    /// A move to nimber 0 (a winning move) when there is one.
    #[serde(flatten)]
    pub line: BestLine,
    /// What it cost (nodes: positions visited, memo hits included).
    pub stats: StatsReport,
}

/// The move a search chose and the line it expects.
#[derive(Clone, Debug, Serialize)]
pub struct BestLine {
    /// The best move, `None` when there is none (the game is over; a chance
    /// root).
    pub best_move: Option<String>,
    /// The principal variation, starting with the best move (the best move
    /// alone for searches with no line through chance or a tree of visits).
    pub pv: Vec<String>,
}

impl BestLine {
    /// The best move alone, as its line.
    fn alone(best_move: Option<String>) -> Self {
        BestLine {
            pv: best_move.iter().cloned().collect(),
            best_move,
        }
    }
}

/// A minimax, alpha-beta or iterative-deepening result.
#[derive(Clone, Debug, Serialize)]
pub struct SearchSolve {
    /// The depth limit, if any.
    pub depth_limit: Option<u32>,
    /// The value, MAX's view.
    pub value: Score,
    /// Whether it is proven (independent of the depth limit).
    pub proven: bool,
    /// Plies to the end under best play, for a decided value.
    pub distance: Option<u32>,
    /// For games that count wins in moves (chess): mate in this many moves,
    /// positive when MAX mates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The best move and line.
    #[serde(flatten)]
    pub line: BestLine,
    /// What it cost.
    pub stats: StatsReport,
}

/// An expectiminimax result.
#[derive(Clone, Debug, Serialize)]
pub struct ExpectSolve {
    /// The depth limit, if any.
    pub depth_limit: Option<u32>,
    /// The value, MAX's view (a probability-weighted mean).
    pub value: Number,
    /// The probability that MAX wins, for games whose evaluation is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability: Option<f64>,
    /// The best move and line.
    #[serde(flatten)]
    pub line: BestLine,
    /// What it cost.
    pub stats: StatsReport,
}

/// A score-search result.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreSolve {
    /// The score from the view of the side to move.
    pub score: i32,
    /// The value, MAX's view.
    pub value: Score,
    /// Whether only win, draw or loss was asked for.
    pub weak: bool,
    /// The best move and line.
    #[serde(flatten)]
    pub line: BestLine,
    /// What it cost, with the probes.
    pub stats: StatsReport,
    /// What the score means, in the game's words.
    #[serde(skip)]
    pub note: Option<String>,
}

/// An MCTS result.
#[derive(Clone, Debug, Serialize)]
pub struct MctsSolve {
    /// The most visited move's mean as a value from MAX's view in [-1, 1].
    pub value: Option<f64>,
    /// The best move and line.
    #[serde(flatten)]
    pub line: BestLine,
    /// Every root move, most visited first.
    pub moves: Vec<MctsMoveReport>,
    /// What it cost.
    pub stats: MctsStats,
}

impl SolveReport {
    /// The report of a minimax, alpha-beta or iterative-deepening search.
    pub fn search<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        options: &SearchOptions,
        out: &Outcome<G::Move>,
        stats: StatsReport,
    ) -> Self {
        SolveReport {
            header,
            result: SolveResult::Search(SearchSolve {
                depth_limit: options.depth,
                value: Score(out.value),
                proven: out.proven,
                distance: out.distance,
                mate: out.distance.and_then(|d| game.mate_moves(out.value, d)),
                line: BestLine {
                    best_move: out.best_move.map(|m| game.format_move(state, m)),
                    pv: line(game, state, &out.pv),
                },
                stats,
            }),
        }
    }

    /// The report of an expectiminimax search.
    pub fn expecti<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        out: &crate::search::ExpectOutcome<G::Move>,
        stats: StatsReport,
    ) -> Self {
        let best = out.best_move.map(|m| game.format_move(state, m));
        SolveReport {
            header,
            result: SolveResult::Expecti(ExpectSolve {
                depth_limit: depth,
                value: Number(out.value),
                win_probability: game.win_probability(out.value),
                line: BestLine::alone(best),
                stats,
            }),
        }
    }

    /// The report of a score search.
    pub fn score<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        solved: &crate::search::Solved<G::Move>,
        weak: bool,
        mut stats: StatsReport,
    ) -> Self {
        let r = solved.result;
        let score = r.value.for_player(game.to_move(state)).0;
        stats.probes = Some(r.probes);
        SolveReport {
            header,
            result: SolveResult::Score(ScoreSolve {
                score,
                value: Score(r.value),
                weak,
                line: BestLine {
                    best_move: solved.best_move.map(|m| game.format_move(state, m)),
                    pv: line(game, state, &solved.pv),
                },
                stats,
                note: game.score_note(state, score),
            }),
        }
    }

    /// The report of an MCTS search.
    pub fn mcts<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        r: &MctsReport<G::Move>,
    ) -> Self {
        let best = r.best_move.map(|m| game.format_move(state, m));
        // The best move's mean, for the mover in [0, 1], as MAX's value in [-1, 1].
        let value = r.moves.first().map(|m| {
            let mover = game.to_move(state);
            mover.view(2.0 * m.mean - 1.0)
        });
        SolveReport {
            header,
            result: SolveResult::Mcts(MctsSolve {
                value,
                line: BestLine::alone(best),
                moves: mcts_moves(game, state, &r.moves),
                stats: MctsStats::new(r),
            }),
        }
    }
}

impl fmt::Display for BestLine {
    /// The `best move:` and `pv:` lines of a solve.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let best = self
            .best_move
            .as_deref()
            .unwrap_or("none (the game is over)");
        writeln!(f, "best move: {best}")?;
        write!(f, "pv:        {}", self.pv.join(" "))
    }
}

impl SolveReport {
    /// The report of the nimber search.
    pub fn nimber<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        r: &crate::search::NimberResult<G::Move>,
    ) -> Self {
        SolveReport {
            header,
            result: SolveResult::Nimber(NimberSolve {
                nimber: r.nimber,
                value: Score(r.value),
                line: BestLine::alone(r.best_move.map(|m| game.format_move(state, m))),
                stats: StatsReport::new(&r.stats(), r.elapsed),
            }),
        }
    }
}

/// An expectiminimax value for people, with the win probability where the
/// game's evaluation is one: "+0.0612 (P(MAX wins) = 0.531)".
pub fn expect_text(v: f64, win_probability: Option<f64>) -> String {
    let sign = if v > 0.0 { "+" } else { "" };
    match win_probability {
        Some(p) => format!("{sign}{} (P(MAX wins) = {p:.4})", value_text(v)),
        None => format!("{sign}{}", value_text(v)),
    }
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        writeln!(f, "{}", h.board)?;
        match &self.result {
            SolveResult::Search(r) => {
                let depth = r
                    .depth_limit
                    .map_or(String::new(), |d| format!(" to depth {d}"));
                writeln!(f, "{} to move; {}{depth}", h.to_move, h.algo)?;
                let v = r.value;
                writeln!(f, "value:     {v} ({})", verdict(r.proven, v.0, r.distance))?;
                if let Some(m) = r.mate {
                    let side = if m > 0 { "MAX" } else { "MIN" };
                    writeln!(f, "mate:      {side} mates in {}", m.abs())?;
                }
                writeln!(f, "{}", r.line)?;
                writeln!(f, "stats:     {}", r.stats)
            }
            SolveResult::Expecti(r) => {
                writeln!(f, "{} to move; {}", h.to_move, h.algo)?;
                let v = expect_text(r.value.0, r.win_probability);
                writeln!(f, "value:     {v} (MAX's view)")?;
                let best = r.line.best_move.as_deref().unwrap_or("none");
                writeln!(f, "best move: {best}")?;
                writeln!(f, "stats:     {}", r.stats)
            }
            SolveResult::Score(r) => {
                writeln!(f, "{} to move; {}", h.to_move, h.algo)?;
                let meaning = match (&r.note, r.score.signum()) {
                    (Some(note), _) if !r.weak => format!("the side to move: {note}"),
                    (_, 1) => "the side to move wins".to_string(),
                    (_, -1) => "the side to move loses".to_string(),
                    _ => "a draw".to_string(),
                };
                writeln!(
                    f,
                    "score:     {} ({meaning}; value {} from MAX's view)",
                    r.score, r.value
                )?;
                writeln!(f, "{}", r.line)?;
                let probes = r.stats.probes.unwrap_or(0);
                writeln!(f, "stats:     {} ({probes} null-window probes)", r.stats)
            }
            SolveResult::Nimber(r) => {
                writeln!(f, "{} to move; {}", h.to_move, h.algo)?;
                let meaning = if r.nimber == 0 {
                    "the side to move loses: every move leads to a nonzero nimber"
                } else {
                    "the side to move wins: a move to nimber 0"
                };
                writeln!(f, "nimber:    {} ({meaning})", r.nimber)?;
                writeln!(f, "value:     {} (MAX's view)", r.value)?;
                writeln!(f, "{}", r.line)?;
                writeln!(f, "stats:     {}", r.stats)
            }
            SolveResult::Mcts(r) => {
                writeln!(f, "{} to move; {}", h.to_move, h.algo)?;
                match r.moves.first() {
                    Some(m) => writeln!(
                        f,
                        "best move: {} ({} visits, mean result {:.3} for the player to move)",
                        m.mv, m.visits, m.mean
                    )?,
                    None => writeln!(f, "best move: none")?,
                }
                writeln!(f, "{}", r.stats)
            }
        }
    }
}

/// The result of `analyze`: every legal move with its value, best first.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// The moves' values, by the kind of search.
    #[serde(flatten)]
    pub result: AnalyzeResult,
}

/// Every move's value, by the kind of search.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum AnalyzeResult {
    /// Minimax, alpha-beta, iterative deepening.
    Search {
        /// The depth limit, if any.
        depth_limit: Option<u32>,
        /// Best first for the player to move.
        moves: Vec<SearchMove>,
        /// What the searches cost, summed.
        stats: StatsReport,
    },
    /// Expectiminimax.
    Expecti {
        /// The depth limit, if any.
        depth_limit: Option<u32>,
        /// The position's value, MAX's view.
        value: Number,
        /// Best first for the player to move (outcomes in order at chance).
        moves: Vec<ExpectMove>,
        /// What the searches cost, summed.
        stats: StatsReport,
    },
    /// The score search.
    Score {
        /// Best first for the player to move.
        moves: Vec<ScoreMove>,
        /// What the solves cost, summed.
        stats: StatsReport,
    },
    /// The nimber search.
    Nimber {
        /// Every move with the nimber of the position it leads to.
        moves: Vec<NimberMove>,
        /// What it cost.
        stats: StatsReport,
    },
    /// Monte Carlo tree search.
    Mcts {
        /// Most visited first.
        moves: Vec<MctsMoveReport>,
        /// What it cost.
        stats: MctsStats,
    },
}

/// A move's value by minimax, alpha-beta or iterative deepening.
#[derive(Clone, Debug, Serialize)]
pub struct SearchMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The value after it, MAX's view.
    pub value: Score,
    /// Whether it is proven (reported with distance scores or iterative
    /// deepening, where it can be false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven: Option<bool>,
    /// Plies from before the move to the end, for a decided value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<Option<u32>>,
    /// The verdict in words (text form only).
    #[serde(skip)]
    pub verdict: String,
}

/// A move's expectiminimax value.
#[derive(Clone, Debug, Serialize)]
pub struct ExpectMove {
    /// The move (or outcome).
    #[serde(rename = "move")]
    pub mv: String,
    /// The value after it, MAX's view.
    pub value: Number,
    /// The probability that the player to move wins after it, where the
    /// evaluation is a win probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_probability: Option<f64>,
    /// The same in words, for the text form.
    #[serde(skip)]
    pub probability_text: String,
}

/// A move's resulting nimber.
#[derive(Clone, Debug, Serialize)]
pub struct NimberMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The nimber of the position after it: 0 for a winning move.
    pub nimber: u32,
    /// The value after it, MAX's view.
    pub value: Score,
}

/// A move's exact score.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The score after it for the side to move before it.
    pub score: i32,
    /// The value after it, MAX's view.
    pub value: i32,
}

impl AnalyzeReport {
    /// The report of [`crate::search::analyze`].
    pub fn search<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        algorithm: Algorithm,
        options: &SearchOptions,
        a: &Analysis<G::Move>,
    ) -> Self {
        // Proofs and distances are reported where a search can tell them.
        let proofs = options.fast_win || algorithm == Algorithm::Id;
        let moves: Vec<SearchMove> = a
            .moves
            .iter()
            .map(|m| SearchMove {
                mv: game.format_move(state, m.mv),
                value: Score(m.value),
                proven: proofs.then_some(m.proven),
                distance: proofs.then_some(m.distance),
                verdict: verdict(m.proven, m.value, m.distance),
            })
            .collect();
        let notes: Vec<_> = a
            .moves
            .iter()
            .map(|m| (m.mv, Score(m.value).to_string()))
            .collect();
        let what = "the value of playing there, MAX's view";
        AnalyzeReport {
            header: header.annotated(game, state, &notes, what),
            result: AnalyzeResult::Search {
                depth_limit: options.depth,
                moves,
                stats: StatsReport::new(&a.stats, a.elapsed),
            },
        }
    }

    /// The report of [`crate::search::analyze_expecti`].
    pub fn expecti<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        a: &ExpectAnalysis<G::Move>,
    ) -> Self {
        let mover = game.to_move(state);
        let moves = a
            .moves
            .iter()
            .map(|&(m, v)| {
                let p = game
                    .win_probability(v)
                    .map(|p| if mover == Player::Max { p } else { 1.0 - p });
                ExpectMove {
                    mv: game.format_move(state, m),
                    value: Number(v),
                    win_probability: p.map(|p| (p * 1e6).round() / 1e6),
                    probability_text: p.map_or(String::new(), |p| {
                        format!("  estimated win probability for {} {p:.4}", mover.name())
                    }),
                }
            })
            .collect();
        let notes: Vec<_> = a.moves.iter().map(|&(m, v)| (m, value_text(v))).collect();
        let what = "the value of playing there, MAX's view";
        AnalyzeReport {
            header: header.annotated(game, state, &notes, what),
            result: AnalyzeResult::Expecti {
                depth_limit: depth,
                value: Number(a.value),
                moves,
                stats: StatsReport::new(&a.stats, a.elapsed),
            },
        }
    }

    /// The report of [`crate::search::analyze_score`].
    pub fn score<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        moves: &[(G::Move, MaxScore)],
        stats: StatsReport,
    ) -> Self {
        let mover = game.to_move(state);
        let list = moves
            .iter()
            .map(|&(m, v)| ScoreMove {
                mv: game.format_move(state, m),
                score: v.for_player(mover).0,
                value: v.0,
            })
            .collect();
        let notes: Vec<_> = moves
            .iter()
            .map(|&(m, v)| (m, v.for_player(mover).0.to_string()))
            .collect();
        let what = "the score of playing there, for the side to move";
        AnalyzeReport {
            header: header.annotated(game, state, &notes, what),
            result: AnalyzeResult::Score { moves: list, stats },
        }
    }

    /// The report of [`crate::search::analyze_nimbers`]: each move's
    /// resulting nimber, winning moves (nimber 0) first.
    pub fn nimber<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        a: &crate::search::NimberAnalysis<G::Move>,
    ) -> Self {
        let moves = &a.moves;
        // After a move the opponent is to move: it wins on a nonzero nimber.
        let opponent = game.to_move(state).opponent();
        let mut list: Vec<NimberMove> = moves
            .iter()
            .map(|&(m, g)| NimberMove {
                mv: game.format_move(state, m),
                nimber: g,
                value: Score(MaxScore(if g != 0 {
                    opponent.sign()
                } else {
                    -opponent.sign()
                })),
            })
            .collect();
        list.sort_by_key(|m| m.nimber != 0);
        let notes: Vec<_> = moves.iter().map(|&(m, g)| (m, format!("*{g}"))).collect();
        let what = "the nimber after playing there";
        AnalyzeReport {
            header: header.annotated(game, state, &notes, what),
            result: AnalyzeResult::Nimber {
                moves: list,
                stats: StatsReport::new(&a.stats(), a.elapsed),
            },
        }
    }

    /// The report of an MCTS search's root moves.
    pub fn mcts<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        r: &MctsReport<G::Move>,
    ) -> Self {
        let notes: Vec<_> = r
            .moves
            .iter()
            .map(|m| (m.mv, m.visits.to_string()))
            .collect();
        let what = "how often MCTS visited that move";
        AnalyzeReport {
            header: header.annotated(game, state, &notes, what),
            result: AnalyzeResult::Mcts {
                moves: mcts_moves(game, state, &r.moves),
                stats: MctsStats::new(r),
            },
        }
    }
}

impl fmt::Display for AnalyzeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        writeln!(f, "{}", h.board)?;
        match &self.result {
            AnalyzeResult::Search { moves, stats, .. } => {
                if moves.is_empty() {
                    writeln!(f, "no legal moves: the game is over")?;
                } else {
                    writeln!(f, "{} to move; {} values, best first:", h.to_move, h.algo)?;
                    writeln!(f, "  {:<8} {:>7}  result", "move", "value")?;
                    for m in moves {
                        let v = m.value.to_string();
                        writeln!(f, "  {:<8} {:>7}  {}", m.mv, v, m.verdict)?;
                    }
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Expecti { moves, stats, .. } => {
                writeln!(f, "{} to move; {} values, best first:", h.to_move, h.algo)?;
                for m in moves {
                    let (v, p) = (value_text(m.value.0), &m.probability_text);
                    writeln!(f, "  {:<8} {:>10}{p}", m.mv, v)?;
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Score { moves, stats } => {
                writeln!(f, "{} to move; {}, best first:", h.to_move, h.algo)?;
                for m in moves {
                    writeln!(f, "  {:<8} {:>4}", m.mv, m.score)?;
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Nimber { moves, stats } => {
                writeln!(f, "{} to move; {}, winning moves first:", h.to_move, h.algo)?;
                writeln!(f, "  {:<10} {:>6}  value", "move", "nimber")?;
                for m in moves {
                    writeln!(f, "  {:<10} {:>6}  {}", m.mv, m.nimber, m.value)?;
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Mcts { moves, stats } => {
                writeln!(f, "{} to move; {}, most visited first:", h.to_move, h.algo)?;
                writeln!(f, "  {:<8} {:>10} {:>8}", "move", "visits", "mean")?;
                for m in moves {
                    writeln!(f, "  {:<8} {:>10} {:>8.3}", m.mv, m.visits, m.mean)?;
                }
                writeln!(f, "{stats}")
            }
        }
    }
}

/// The result of `compare`: every exact search on one position.
#[derive(Clone, Debug, Serialize)]
pub struct CompareReport {
    /// The game's registered name.
    pub game: String,
    /// The position in the game's notation.
    pub position: String,
    /// The depth limit, if any.
    pub depth_limit: Option<u32>,
    /// Whether every search found the same value.
    pub agree: bool,
    /// One row a search, from the reference to the engine.
    pub searches: Vec<CompareRow>,
    /// The board (text form only).
    #[serde(skip)]
    pub board: String,
}

/// One search in a comparison.
#[derive(Clone, Debug, Serialize)]
pub struct CompareRow {
    /// The search, named by its features.
    pub search: String,
    /// Its value, MAX's view.
    pub value: Score,
    /// Its best move.
    pub best_move: Option<String>,
    /// Nodes visited.
    pub nodes: u64,
    /// Leaves scored.
    pub leaves: u64,
    /// Nodes cut off.
    pub cutoffs: u64,
    /// Table hits.
    pub tt_hits: u64,
    /// Wall-clock time in milliseconds.
    pub time_ms: f64,
    /// The effective branching factor: nodes to the power 1/depth (to
    /// three decimals in JSON).
    #[serde(serialize_with = "round3")]
    pub ebf: f64,
    /// Nodes as a fraction of plain alpha-beta's (to four decimals in JSON).
    #[serde(serialize_with = "round4")]
    pub nodes_vs_alphabeta: f64,
}

fn round3<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1e3).round() / 1e3)
}

fn round4<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1e4).round() / 1e4)
}

impl CompareReport {
    /// The report of a comparison: `rows` (name, outcome, stats) in the
    /// order run; the second is plain alpha-beta, the baseline.
    pub fn new<G: Notation>(
        name: &str,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        rows: &[(String, Outcome<G::Move>, StatsReport)],
    ) -> Self {
        let base = rows.get(1).map_or(1, |r| r.2.nodes.max(1)) as f64;
        let searches = rows
            .iter()
            .map(|(search, out, st)| {
                let ebf = (st.nodes as f64).powf(1.0 / f64::from(st.depth.max(1)));
                CompareRow {
                    search: search.clone(),
                    value: Score(out.value),
                    best_move: out.best_move.map(|m| game.format_move(state, m)),
                    nodes: st.nodes,
                    leaves: st.leaves,
                    cutoffs: st.cutoffs,
                    tt_hits: st.tt_hits,
                    time_ms: st.time_ms,
                    ebf,
                    nodes_vs_alphabeta: st.nodes as f64 / base,
                }
            })
            .collect();
        CompareReport {
            game: name.to_string(),
            position: game.format_position(state),
            depth_limit: depth,
            agree: rows.iter().all(|r| r.1.value == rows[0].1.value),
            searches,
            board: game.draw(state).trim_end().to_string(),
        }
    }
}

impl fmt::Display for CompareReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.board)?;
        writeln!(
            f,
            "{:<34} {:>7} {:>6} {:>12} {:>10} {:>10} {:>10} {:>10} {:>6} {:>8}",
            "search",
            "value",
            "move",
            "nodes",
            "leaves",
            "cutoffs",
            "tt hits",
            "time ms",
            "ebf",
            "vs a-b"
        )?;
        for r in &self.searches {
            writeln!(
                f,
                "{:<34} {:>7} {:>6} {:>12} {:>10} {:>10} {:>10} {:>10.3} {:>6.2} {:>8.3}",
                r.search,
                r.value.to_string(),
                r.best_move.as_deref().unwrap_or("-"),
                thousands(r.nodes),
                thousands(r.leaves),
                thousands(r.cutoffs),
                thousands(r.tt_hits),
                r.time_ms,
                r.ebf,
                r.nodes_vs_alphabeta
            )?;
        }
        if self.agree
            && let Some(first) = self.searches.first()
        {
            writeln!(f, "all searches agree: value {}", first.value)?;
        }
        Ok(())
    }
}

/// The result of `count`: the distinct positions reachable.
#[derive(Clone, Debug, Serialize)]
pub struct CountReport {
    /// Distinct positions, the start included.
    pub positions: u64,
    /// How many of them are terminal.
    pub terminal: u64,
    /// The start position (text form only).
    #[serde(skip)]
    pub start: String,
}

impl fmt::Display for CountReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} distinct positions reachable from {} (the start included), {} of them terminal",
            thousands(self.positions),
            self.start,
            thousands(self.terminal)
        )
    }
}

/// The result of `perft`: move sequences of a given length.
#[derive(Clone, Debug, Serialize)]
pub struct PerftReport {
    /// Leaf count at the depth.
    pub nodes: u64,
    /// With `--divide`: the count below each root move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<PerftMove>>,
    /// The depth (text form only).
    #[serde(skip)]
    pub depth: u32,
    /// Wall-clock time (text form only).
    #[serde(skip)]
    pub elapsed: Duration,
}

/// A root move's perft count.
#[derive(Clone, Debug, Serialize)]
pub struct PerftMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Sequences below it.
    pub nodes: u64,
}

impl fmt::Display for PerftReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(divide) = &self.divide {
            for m in divide {
                writeln!(f, "{}: {}", m.mv, m.nodes)?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "perft({}) = {} ({:.3} s)",
            self.depth,
            thousands(self.nodes),
            self.elapsed.as_secs_f64()
        )
    }
}

/// One solved line of a batch file: the moves, the score from the side to
/// move, the nodes and the time. Its text is the line `ply solve --batch`
/// prints, the format of the public Connect Four test sets' results.
#[derive(Clone, Debug, Serialize)]
pub struct BatchLine {
    /// The position as given (its moves).
    pub moves: String,
    /// The score, side to move's view.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Microseconds.
    pub micros: f64,
}

impl fmt::Display for BatchLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {:.0}",
            self.moves, self.score, self.nodes, self.micros
        )
    }
}

/// A batch's summary line.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BatchSummary {
    /// Positions solved.
    pub positions: u64,
    /// Mean microseconds a position.
    pub mean_micros: f64,
    /// Mean nodes a position.
    pub mean_nodes: f64,
    /// Lines whose expected score differed.
    pub mismatches: u64,
    /// Lines that could not be read.
    pub bad_lines: u64,
}

impl fmt::Display for BatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "positions {}, mean time {:.1} us, mean nodes {:.1}, mismatches {}, bad lines {}",
            self.positions, self.mean_micros, self.mean_nodes, self.mismatches, self.bad_lines
        )
    }
}

/// The result of `trace`: a search step by step.
#[derive(Clone, Debug, Serialize)]
pub struct TraceReport {
    /// The game traced.
    pub game: String,
    /// The search (`alphabeta`, `minimax`, `expectiminimax+star1`).
    pub algo: String,
    /// The position traced (for the `tree` game, the tree).
    pub tree: String,
    /// The depth limit, if any.
    pub depth_limit: Option<u32>,
    /// The root's value.
    pub value: TraceValue,
    /// The leaves evaluated, in order, by path.
    pub evaluated: Vec<String>,
    /// The leaves never evaluated (pruned), by path; `None` when the whole
    /// tree has too many leaves to list.
    pub pruned: Option<Vec<String>>,
    /// Every step.
    pub steps: Vec<TraceStep>,
}

/// A trace's root value: an integer score, or an expectiminimax mean.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(untagged)]
pub enum TraceValue {
    /// Minimax or alpha-beta.
    Score(Score),
    /// Expectiminimax.
    Mean(Number),
}

impl fmt::Display for TraceValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As the JSON writes it: 3, 2.5, "+inf".
        match self {
            TraceValue::Score(s) if s.0.is_infinite() => write!(f, "\"{}\"", s.0),
            TraceValue::Score(s) => write!(f, "{}", s.0.0),
            TraceValue::Mean(n) if n.0.is_infinite() => {
                write!(f, "\"{}\"", if n.0 > 0.0 { "+inf" } else { "-inf" })
            }
            TraceValue::Mean(n) if n.0.fract() == 0.0 && n.0.abs() < 9e15 => {
                write!(f, "{}", n.0 as i64)
            }
            TraceValue::Mean(n) => write!(f, "{}", (n.0 * 1e9).round() / 1e9),
        }
    }
}

/// One row of a trace table.
#[derive(Clone, Debug, Serialize)]
pub struct TraceStep {
    /// 1-based.
    pub step: usize,
    /// enter, leaf, update, cutoff or return.
    pub event: &'static str,
    /// The node, by its path of moves from the root in the game's move
    /// notation joined by dots (`""` for the root; `2.3` in a tree).
    pub node: String,
    /// The node's position in the game's notation.
    pub position: String,
    /// MAX, MIN or CHANCE.
    pub player: &'static str,
    /// The node's alpha after the step, MAX's view (alpha-beta only).
    pub alpha: Option<Score>,
    /// The node's beta after the step.
    pub beta: Option<Score>,
    /// The node's value so far.
    pub value: Number,
    /// For an update: the child that returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child: Option<String>,
    /// For an update: the child's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_value: Option<Number>,
    /// For an update at a chance node: the outcome's probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    /// For a cutoff: children left untried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pruned_children: Option<usize>,
    #[serde(skip)]
    window: Option<Window>,
    #[serde(skip)]
    kind: Option<StepKind>,
}

/// Names trace nodes: a path of 1-based child indices (`2.3`, in the
/// order the search tried them, the game's for the traced searches) becomes
/// the path of moves in the game's notation and the node's position.
struct NodeNames<'a, G: Notation> {
    game: &'a G,
    root: G::State,
    known: std::collections::HashMap<String, (String, String)>,
}

impl<G: Notation> NodeNames<'_, G> {
    fn name(&mut self, path: &str) -> (String, String) {
        if let Some(n) = self.known.get(path) {
            return n.clone();
        }
        let (game, mut state) = (self.game, self.root.clone());
        let mut names = Vec::new();
        let mut moves = Vec::new();
        for i in path.split('.').filter(|p| !p.is_empty()) {
            moves.clear();
            game.legal_moves(&state, &mut moves);
            let Some(&m) = i
                .parse::<usize>()
                .ok()
                .and_then(|i| moves.get(i.wrapping_sub(1)))
            else {
                break;
            };
            names.push(game.format_move(&state, m));
            state = game.play(&state, m);
        }
        let named = (names.join("."), game.format_position(&state));
        self.known.insert(path.to_string(), named.clone());
        named
    }
}

impl TraceReport {
    /// The report of `trace`: the recorded search `algo` on `state` of
    /// `game` (registered as `name`), to `depth`; `all_leaves` lists every
    /// leaf (the pruned ones are those never evaluated) when known.
    #[allow(clippy::too_many_arguments)]
    pub fn new<G: Notation>(
        name: &str,
        game: &G,
        state: &G::State,
        algo: &str,
        depth: Option<u32>,
        value: TraceValue,
        trace: &Trace,
        all_leaves: Option<&[Vec<usize>]>,
    ) -> Self {
        let mut names = NodeNames {
            game,
            root: state.clone(),
            known: std::collections::HashMap::new(),
        };
        // A set, not a scan of the list: a tree of 200,000 leaves with
        // thousands evaluated took minutes under the fuzzer that way.
        let evaluated: std::collections::HashSet<&str> =
            trace.evaluated.iter().map(String::as_str).collect();
        let pruned = all_leaves.map(|leaves| {
            leaves
                .iter()
                .map(|p| path_name(p))
                .filter(|p| !evaluated.contains(p.as_str()))
                .map(|p| names.name(&p).0)
                .collect()
        });
        let steps = trace
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (node, position) = names.name(&s.path);
                TraceStep {
                    step: i + 1,
                    event: s.kind.name(),
                    node,
                    position,
                    player: s.node.name(),
                    alpha: s.window.map(|w| Score(w.alpha)),
                    beta: s.window.map(|w| Score(w.beta)),
                    value: Number(s.value),
                    child: s.child.as_ref().map(|c| names.name(&c.0).0),
                    child_value: s.child.as_ref().map(|c| Number(c.1)),
                    probability: s.child.as_ref().and_then(|c| c.2),
                    pruned_children: (s.kind == StepKind::Cutoff).then_some(s.pruned),
                    window: s.window,
                    kind: Some(s.kind),
                }
            })
            .collect();
        TraceReport {
            game: name.to_string(),
            algo: algo.to_string(),
            tree: game.format_position(state),
            depth_limit: depth,
            value,
            evaluated: trace.evaluated.iter().map(|p| names.name(p).0).collect(),
            pruned,
            steps,
        }
    }
}

/// A signed value for people: `+3`, `-1`, `2.5`, `+inf`.
fn signed(v: f64) -> String {
    if v > 0.0 && v.is_finite() {
        format!("+{}", value_text(v))
    } else {
        value_text(v)
    }
}

impl TraceStep {
    /// The step's event in words, as the table's last column.
    fn event_text(&self) -> String {
        let bound =
            |w: Window, alpha: bool| Score(if alpha { w.alpha } else { w.beta }).to_string();
        match self.kind {
            Some(StepKind::Update) => {
                let child = self.child.as_deref().unwrap_or("");
                let v = signed(self.child_value.map_or(0.0, |n| n.0));
                match self.probability {
                    Some(p) => format!("outcome {child} (p={}) returned {v}", value_text(p)),
                    None => format!("child {child} returned {v}"),
                }
            }
            Some(StepKind::Cutoff) => {
                let n = self.pruned_children.unwrap_or(0);
                match self.window {
                    Some(w) => format!(
                        "CUTOFF (alpha {} >= beta {}): {n} child{} pruned",
                        bound(w, true),
                        bound(w, false),
                        if n == 1 { "" } else { "ren" }
                    ),
                    None => format!("CUTOFF (Star1: the bounds decide the node): {n} pruned"),
                }
            }
            _ => self.event.to_string(),
        }
    }
}

impl fmt::Display for TraceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let depth = self
            .depth_limit
            .map_or(String::new(), |d| format!(" to depth {d}"));
        if self.game == "tree" {
            writeln!(f, "{} on {}{depth}", self.algo, self.tree)?;
        } else {
            writeln!(f, "{} on {} {}{depth}", self.algo, self.game, self.tree)?;
        }
        // Nodes are named by their moves from the root: as wide as the longest.
        let w = self
            .steps
            .iter()
            .map(|s| s.node.len())
            .max()
            .unwrap_or(0)
            .max(8);
        writeln!(
            f,
            "{:>4}  {:<w$} {:<6} {:>6} {:>6} {:>8}  event",
            "step", "node", "player", "alpha", "beta", "value"
        )?;
        for s in &self.steps {
            let node = if s.node.is_empty() { "root" } else { &s.node };
            let bound = |b: Option<Score>| b.map_or("-".to_string(), |b| b.to_string());
            writeln!(
                f,
                "{:>4}  {:<w$} {:<6} {:>6} {:>6} {:>8}  {}",
                s.step,
                node,
                s.player,
                bound(s.alpha),
                bound(s.beta),
                signed(s.value.0),
                s.event_text()
            )?;
        }
        writeln!(f)?;
        writeln!(f, "value: {}", self.value)?;
        let evaluated = self.evaluated.join(" ");
        writeln!(f, "evaluated ({}): {evaluated}", self.evaluated.len())?;
        match &self.pruned {
            Some(p) if p.is_empty() => writeln!(f, "pruned (0): none"),
            Some(p) => writeln!(f, "pruned ({}): {}", p.len(), p.join(" ")),
            None => writeln!(f, "pruned: not listed (the whole tree has too many leaves)"),
        }
    }
}

/// The result of `show`: a position as a player meets it — whose turn, the
/// legal moves (or the chance outcomes and their odds) and, once the game
/// is over, who won. The web page's boards are drawn from it, so the rules
/// live in one place: the game's Rust code.
#[derive(Clone, Debug, Serialize)]
pub struct ShowReport {
    /// The game's registered name.
    pub game: String,
    /// The position in the game's notation.
    pub position: String,
    /// `"MAX"`, `"MIN"`, `"chance"` (nature moves next), or null when over.
    pub to_move: Option<&'static str>,
    /// Whether the game is over.
    pub terminal: bool,
    /// When over: `"MAX wins"`, `"MIN wins"` or `"draw"`.
    pub result: Option<&'static str>,
    /// When over: the utility, MAX's view.
    pub value: Option<Score>,
    /// Every legal move (or chance outcome), in the game's order.
    pub moves: Vec<ShownMove>,
    /// The board as the game draws it in the terminal.
    pub board: String,
}

/// One legal move of a [`ShowReport`].
#[derive(Clone, Debug, Serialize)]
pub struct ShownMove {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position it leads to.
    pub position: String,
    /// At a chance node: the outcome's probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability: Option<Number>,
}

impl ShowReport {
    /// The report on `state` of `game`, registered as `name`.
    pub fn new<G: Notation + Chance>(name: &str, game: &G, state: &G::State) -> Self {
        let terminal = game.is_terminal(state);
        let chance = !terminal && game.is_chance(state);
        let mut moves = Vec::new();
        if chance {
            let mut outcomes = Vec::new();
            game.chance_outcomes(state, &mut outcomes);
            moves.extend(outcomes.into_iter().map(|(m, p)| (m, Some(Number(p)))));
        } else if !terminal {
            let mut legal = Vec::new();
            game.legal_moves(state, &mut legal);
            moves.extend(legal.into_iter().map(|m| (m, None)));
        }
        let value = terminal.then(|| game.utility(state));
        ShowReport {
            game: name.to_string(),
            position: game.format_position(state),
            to_move: match (terminal, chance) {
                (true, _) => None,
                (false, true) => Some("chance"),
                (false, false) => Some(game.to_move(state).name()),
            },
            terminal,
            result: value.map(|v| match v.0.signum() {
                1 => "MAX wins",
                -1 => "MIN wins",
                _ => "draw",
            }),
            value: value.map(Score),
            moves: moves
                .into_iter()
                .map(|(m, probability)| ShownMove {
                    mv: game.format_move(state, m),
                    position: game.format_position(&game.play(state, m)),
                    probability,
                })
                .collect(),
            board: game.draw(state).trim_end().to_string(),
        }
    }
}

impl fmt::Display for ShowReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {}", self.game, self.position)?;
        writeln!(f, "{}", self.board)?;
        match (self.result, self.to_move) {
            (Some(result), _) => writeln!(f, "the game is over: {result}")?,
            (None, Some("chance")) => writeln!(f, "chance moves next")?,
            (None, Some(side)) => writeln!(f, "{side} to move")?,
            (None, None) => {}
        }
        if !self.moves.is_empty() {
            let moves: Vec<String> = self
                .moves
                .iter()
                .map(|m| match m.probability {
                    Some(Number(p)) => format!("{} ({p:.3})", m.mv),
                    None => m.mv.clone(),
                })
                .collect();
            writeln!(f, "moves ({}): {}", moves.len(), moves.join(" "))?;
        }
        Ok(())
    }
}

/// The result of `solve --vcf`: the game's threat search alone
/// ([`crate::game::EngineHooks::threat_win`]; in gomoku, victory by
/// continuous fours).
#[derive(Clone, Debug, Serialize)]
pub struct ThreatReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// The forced win: both sides' moves from the position, the last one
    /// winning; null when none was found.
    pub vcf: Option<Vec<String>>,
    /// Whether the search ran to its end, so that a null `vcf` proves
    /// there is no such win (`false`: the node budget ran out first).
    pub complete: bool,
    /// Positions visited.
    pub nodes: u64,
    /// Wall-clock time in milliseconds.
    pub time_ms: Number,
}

impl ThreatReport {
    /// The report of `found`, a threat search of `state` that took `elapsed`.
    pub fn new<G: Notation + Chance>(
        name: &str,
        game: &G,
        state: &G::State,
        found: &crate::game::ThreatSearch<G::Move>,
        elapsed: Duration,
    ) -> Self {
        let vcf = found.win.as_ref().map(|moves| line(game, state, moves));
        ThreatReport {
            header: Header::new(name, game, state, "vcf".into()),
            vcf,
            complete: found.complete,
            nodes: found.nodes,
            time_ms: Number(elapsed.as_secs_f64() * 1e3),
        }
    }
}

impl fmt::Display for ThreatReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {}", self.header.game, self.header.position)?;
        writeln!(f, "{}", self.header.board)?;
        writeln!(f, "{} to move; threat search", self.header.to_move)?;
        match &self.vcf {
            Some(line) => writeln!(
                f,
                "forced win by continuous threats in {} moves: {}",
                line.len().div_ceil(2),
                line.join(" ")
            )?,
            None if self.complete => writeln!(f, "no forced win by continuous threats")?,
            None => writeln!(
                f,
                "none found within the budget of {} positions (not a proof)",
                thousands(self.nodes)
            )?,
        }
        writeln!(
            f,
            "stats:     nodes {}, time {:.3} ms",
            thousands(self.nodes),
            self.time_ms.0
        )
    }
}
