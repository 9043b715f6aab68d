//! `solve`'s report: the value, the best move and line, what it cost.

use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::game::Chance;
use ply_core::notation::Notation;
use ply_core::observe::value_text;
use ply_core::search::{MctsResult, Outcome, SearchOptions};

use super::{
    CfrSolve, Header, MctsMoveReport, MctsStats, Number, Score, StatsReport, line, mcts_moves,
    mcts_value, verdict,
};

/// The result of `solve`: the value, the best move and line, what it cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// What was found, by the kind of search.
    #[serde(flatten)]
    pub result: SolveResult,
}

/// What each kind of search finds at the root, named in the JSON by
/// `method` (`search`, `expectiminimax`, `score`, `mcts`, `nimber`, `cfr`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum SolveResult {
    /// Minimax, alpha-beta, iterative deepening.
    Search(SearchSolve),
    /// Expectiminimax.
    Expectiminimax(ExpectiminimaxSolve),
    /// The exact score search.
    Score(ScoreSolve),
    /// Monte Carlo tree search.
    Mcts(MctsSolve),
    /// The nimber search of an impartial game.
    Nimber(NimberSolve),
    /// Counterfactual regret minimisation (hidden information).
    Cfr(CfrSolve),
}

/// A nimber-search result.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExpectiminimaxSolve {
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
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// What the score means, in the game's words (`win in 3 plies`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
}

/// An MCTS result.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    pub fn expectiminimax<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        out: &ply_core::search::ExpectiminimaxOutcome<G::Move>,
        stats: StatsReport,
    ) -> Self {
        let best = out.best_move.map(|m| game.format_move(state, m));
        SolveReport {
            header,
            result: SolveResult::Expectiminimax(ExpectiminimaxSolve {
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
        solved: &ply_core::search::Solved<G::Move>,
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
        r: &MctsResult<G::Move>,
    ) -> Self {
        let best = r.best_move.map(|m| game.format_move(state, m));
        // The best move's mean, for the mover in [0, 1], as MAX's value in [-1, 1].
        let value = r.moves.first().map(|m| mcts_value(game, state, m.mean));
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

impl SolveReport {
    /// The report of PUCT: MCTS's, each move with its prior; without
    /// simulations the value is the network's own.
    pub fn puct<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        s: &crate::learned::Searched<G::Move>,
    ) -> Self {
        let mut report = SolveReport::mcts(header, game, state, &s.result);
        if let SolveResult::Mcts(r) = &mut report.result {
            super::set_priors(&mut r.moves, &s.priors);
            if s.result.iterations == 0 && !r.moves.is_empty() {
                r.value = Some(game.to_move(state).view(s.root_value));
            }
        }
        report
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
        r: &ply_core::search::NimberResult<G::Move>,
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
pub fn expectiminimax_text(v: f64, win_probability: Option<f64>) -> String {
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
                writeln!(f, "{} to move; {}{depth}", h.mover(), h.algo)?;
                let v = r.value;
                writeln!(f, "value:     {v} ({})", verdict(r.proven, v.0, r.distance))?;
                if let Some(m) = r.mate {
                    let side = if m > 0 { "MAX" } else { "MIN" };
                    writeln!(f, "mate:      {side} mates in {}", m.abs())?;
                }
                writeln!(f, "{}", r.line)?;
                writeln!(f, "stats:     {}", r.stats)
            }
            SolveResult::Expectiminimax(r) => {
                writeln!(f, "{} to move; {}", h.mover(), h.algo)?;
                let v = expectiminimax_text(r.value.0, r.win_probability);
                writeln!(f, "value:     {v} (MAX's view)")?;
                let best = r.line.best_move.as_deref().unwrap_or("none");
                writeln!(f, "best move: {best}")?;
                writeln!(f, "stats:     {}", r.stats)
            }
            SolveResult::Score(r) => {
                writeln!(f, "{} to move; {}", h.mover(), h.algo)?;
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
                writeln!(f, "{} to move; {}", h.mover(), h.algo)?;
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
            SolveResult::Cfr(r) => r.write(f, &h.algo, None),
            SolveResult::Mcts(r) => {
                writeln!(f, "{} to move; {}", h.mover(), h.algo)?;
                match r.moves.first() {
                    Some(m) if r.stats.iterations == 0 => writeln!(
                        f,
                        "best move: {} (the network's favourite, prior {:.3}; its value {:+.3} from MAX's view)",
                        m.mv,
                        m.prior.unwrap_or(0.0),
                        r.value.unwrap_or(0.0)
                    )?,
                    Some(m) => {
                        write!(
                            f,
                            "best move: {} ({} visits, mean result {:.3} for the player to move",
                            m.mv, m.visits, m.mean
                        )?;
                        if let Some(p) = m.prior {
                            write!(f, "; prior {p:.3}")?;
                        }
                        writeln!(f, ")")?;
                    }
                    None => writeln!(f, "best move: none")?,
                }
                writeln!(f, "{}", r.stats)
            }
        }
    }
}
