//! `analyze`'s report: every legal move with its value, best first.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::game::Chance;
use ply_core::notation::Notation;
use ply_core::observe::value_text;
use ply_core::score::{MaxScore, Player};
use ply_core::search::{Analysis, ExpectiminimaxAnalysis, MctsResult, SearchOptions};

use super::{
    CfrSet, CfrSolve, Header, MctsMoveReport, MctsStats, Number, Score, StatsReport, mcts_moves,
    round6, verdict,
};

/// The result of `analyze`: every legal move with its value, best first.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AnalyzeReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// The moves' values, by the kind of search.
    #[serde(flatten)]
    pub result: AnalyzeResult,
}

/// Every move's value, by the kind of search, named in the JSON by
/// `method` (`search`, `expectiminimax`, `score`, `nimber`, `mcts`, `cfr`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
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
    Expectiminimax {
        /// The depth limit, if any.
        depth_limit: Option<u32>,
        /// The position's value, MAX's view.
        value: Number,
        /// Whose win probability the moves' `win_probability` is (the
        /// player to move), for games whose evaluation is one.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        win_probability_of: Option<String>,
        /// Best first for the player to move (outcomes in order at chance).
        moves: Vec<ExpectiminimaxMove>,
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
        /// For games whose playouts count owners (Go): each point's mean
        /// owner at the end of the search's playouts, 1 MAX's (black's),
        /// -1 MIN's, 0 neither or evenly shared.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        ownership: Option<BTreeMap<String, f64>>,
        /// The same as a picture, for the text report.
        #[serde(skip)]
        ownership_board: Option<String>,
    },
    /// Counterfactual regret minimisation: the answer, and every
    /// information set's reach, strategies and regrets.
    Cfr {
        /// The value, exploitability and average strategy.
        #[serde(flatten)]
        solve: CfrSolve,
        /// Each information set in detail.
        sets: Vec<CfrSet>,
    },
}

/// A move's value by minimax, alpha-beta or iterative deepening.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SearchMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The value after it, MAX's view.
    pub value: Score,
    /// Whether it is proven (independent of the depth limit).
    pub proven: bool,
    /// Plies from before the move to the end, for a decided value whose
    /// distance the search knows (distance scores, iterative deepening).
    pub distance: Option<u32>,
}

/// A move's expectiminimax value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExpectiminimaxMove {
    /// The move (or outcome).
    #[serde(rename = "move")]
    pub mv: String,
    /// The value after it, MAX's view.
    pub value: Number,
    /// The probability that the player to move wins after it, where the
    /// evaluation is a win probability.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub win_probability: Option<f64>,
}

/// A move's resulting nimber.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// The report of [`ply_core::search::analyze`].
    pub fn search<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        options: &SearchOptions,
        a: &Analysis<G::Move>,
    ) -> Self {
        let moves: Vec<SearchMove> = a
            .moves
            .iter()
            .map(|m| SearchMove {
                mv: game.format_move(state, m.mv),
                value: Score(m.value),
                proven: m.proven,
                distance: m.distance,
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

    /// The report of [`ply_core::search::analyze_expectiminimax`].
    pub fn expectiminimax<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        a: &ExpectiminimaxAnalysis<G::Move>,
    ) -> Self {
        let mover = game.to_move(state);
        let moves: Vec<ExpectiminimaxMove> = a
            .moves
            .iter()
            .map(|&(m, v)| {
                let p = game
                    .win_probability(v)
                    .map(|p| if mover == Player::Max { p } else { 1.0 - p });
                ExpectiminimaxMove {
                    mv: game.format_move(state, m),
                    value: Number(v),
                    win_probability: p.map(|p| (p * 1e6).round() / 1e6),
                }
            })
            .collect();
        let notes: Vec<_> = a.moves.iter().map(|&(m, v)| (m, value_text(v))).collect();
        let what = "the value of playing there, MAX's view";
        AnalyzeReport {
            header: header.annotated(game, state, &notes, what),
            result: AnalyzeResult::Expectiminimax {
                depth_limit: depth,
                value: Number(a.value),
                win_probability_of: moves
                    .iter()
                    .any(|m| m.win_probability.is_some())
                    .then(|| mover.name().to_string()),
                moves,
                stats: StatsReport::new(&a.stats, a.elapsed),
            },
        }
    }

    /// The report of [`ply_core::search::analyze_score`].
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

    /// The report of [`ply_core::search::analyze_nimbers`]: each move's
    /// resulting nimber, winning moves (nimber 0) first.
    pub fn nimber<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        a: &ply_core::search::NimberAnalysis<G::Move>,
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
        r: &MctsResult<G::Move>,
    ) -> Self {
        AnalyzeReport {
            header: visits_on_board(header, game, state, r),
            result: AnalyzeResult::Mcts {
                moves: mcts_moves(game, state, &r.moves),
                stats: MctsStats::new(r),
                ownership: (!r.ownership.is_empty()).then(|| {
                    r.ownership
                        .iter()
                        .map(|&(mv, owner)| (game.format_move(state, mv), round6(owner)))
                        .collect()
                }),
                ownership_board: ownership_board(game, state, &r.ownership),
            },
        }
    }
}

/// The ownership map drawn on the board, one mark a point: `X` where
/// MAX owns it in at least 60% more playouts than MIN does (a mean of 0.6
/// or more), `x` from 0.2, `.` between -0.2 and 0.2, `o` and `O` the same
/// for MIN; `None` without a map or a game that cannot draw notes.
fn ownership_board<G: Notation>(
    game: &G,
    state: &G::State,
    map: &[(G::Move, f64)],
) -> Option<String> {
    if map.is_empty() {
        return None;
    }
    let marks: Vec<_> = map
        .iter()
        .map(|&(mv, v)| {
            let mark = match v {
                v if v >= 0.6 => "X",
                v if v >= 0.2 => "x",
                v if v > -0.2 => ".",
                v if v > -0.6 => "o",
                _ => "O",
            };
            (mv, mark.to_string())
        })
        .collect();
    game.draw_annotated(state, &marks)
}

impl AnalyzeReport {
    /// The report of PUCT: MCTS's, each move with its prior.
    pub fn puct<G: Notation + Chance>(
        header: Header,
        game: &G,
        state: &G::State,
        s: &crate::learned::Searched<G::Move>,
    ) -> Self {
        let mut report = AnalyzeReport::mcts(header, game, state, &s.result);
        if let AnalyzeResult::Mcts { moves, .. } = &mut report.result {
            super::set_priors(moves, &s.priors);
        }
        report
    }
}

impl fmt::Display for AnalyzeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        writeln!(f, "{}", h.board)?;
        match &self.result {
            AnalyzeResult::Cfr { solve, sets } => solve.write(f, &h.algo, Some(sets)),
            AnalyzeResult::Search { moves, stats, .. } => {
                if moves.is_empty() {
                    writeln!(f, "no legal moves: the game is over")?;
                } else {
                    writeln!(f, "{} to move; {} values, best first:", h.mover(), h.algo)?;
                    writeln!(f, "  {:<8} {:>7}  result", "move", "value")?;
                    for m in moves {
                        let v = m.value.to_string();
                        let verdict = verdict(m.proven, m.value.0, m.distance);
                        writeln!(f, "  {:<8} {:>7}  {verdict}", m.mv, v)?;
                    }
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Expectiminimax {
                moves,
                stats,
                win_probability_of,
                ..
            } => {
                writeln!(f, "{} to move; {} values, best first:", h.mover(), h.algo)?;
                for m in moves {
                    write!(f, "  {:<8} {:>10}", m.mv, value_text(m.value.0))?;
                    if let (Some(p), Some(who)) = (m.win_probability, win_probability_of) {
                        write!(f, "  estimated win probability for {who} {p:.4}")?;
                    }
                    writeln!(f)?;
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Score { moves, stats } => {
                writeln!(f, "{} to move; {}, best first:", h.mover(), h.algo)?;
                for m in moves {
                    writeln!(f, "  {:<8} {:>4}", m.mv, m.score)?;
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Nimber { moves, stats } => {
                writeln!(f, "{} to move; {}, winning moves first:", h.mover(), h.algo)?;
                writeln!(f, "  {:<10} {:>6}  value", "move", "nimber")?;
                for m in moves {
                    writeln!(f, "  {:<10} {:>6}  {}", m.mv, m.nimber, m.value)?;
                }
                writeln!(f, "stats: {stats}")
            }
            AnalyzeResult::Mcts {
                moves,
                stats,
                ownership_board,
                ..
            } => {
                writeln!(f, "{} to move; {}, most visited first:", h.mover(), h.algo)?;
                let priors = moves.iter().any(|m| m.prior.is_some());
                write!(f, "  {:<8} {:>10} {:>8}", "move", "visits", "mean")?;
                writeln!(f, "{}", if priors { "    prior" } else { "" })?;
                for m in moves {
                    write!(f, "  {:<8} {:>10} {:>8.3}", m.mv, m.visits, m.mean)?;
                    match m.prior {
                        Some(p) => writeln!(f, " {p:>8.3}")?,
                        None => writeln!(f)?,
                    }
                }
                if let Some(board) = ownership_board {
                    writeln!(
                        f,
                        "who owns each point at the end of the playouts (X: MAX's in most, x: leaning MAX's, .: shared or open, o and O: MIN's):\n{board}"
                    )?;
                }
                writeln!(f, "{stats}")
            }
        }
    }
}

/// The header with each root move's MCTS visits drawn on the board.
pub(crate) fn visits_on_board<G: Notation + Chance>(
    header: Header,
    game: &G,
    state: &G::State,
    r: &MctsResult<G::Move>,
) -> Header {
    let notes: Vec<_> = r
        .moves
        .iter()
        .map(|m| (m.mv, m.visits.to_string()))
        .collect();
    header.annotated(game, state, &notes, "how often MCTS visited that move")
}
