//! Expectiminimax: minimax for games with chance. MAX takes the largest
//! child value, MIN the smallest, and a chance node the probability-weighted
//! mean of its outcomes. Depth-limited like alpha-beta, with the game's
//! evaluation at the horizon (every node, chance nodes included, is a ply).
//!
//! With `star1` and value bounds from [`Chance::value_bounds`](crate::game::Chance::value_bounds), chance nodes
//! are pruned by Ballard's Star1: once the outcomes seen so far, with the
//! unseen ones at their best (or worst) possible value, cannot bring the node
//! back inside its window, the rest are skipped. Decision nodes then prune
//! as alpha-beta does. Same value, fewer nodes; the tests check both.
//!
//! Values are `f64`: means of game scores are not integers.

use crate::game::{Chance, Evaluation};
use crate::observe::{NodeKind, Observer};
use crate::score::Player;
use crate::search::{SearchError, SearchOptions, entered_and_stopped, too_deep};

/// What an expectiminimax search found at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectiminimaxOutcome<M> {
    /// The root's value, MAX's view, in the game's units.
    pub value: f64,
    /// The best move for the player to move, `None` at a terminal or chance root.
    pub best_move: Option<M>,
    /// The value of each move at the root (each outcome at a chance root),
    /// in move order, for the moves searched. Exact without Star1; with it,
    /// a move shown no better than an earlier one has only a bound, and moves
    /// after a cutoff are missing.
    pub moves: Vec<(M, f64)>,
}

/// Slack for comparing sums of products of probabilities with bounds.
const EPS: f64 = 1e-9;

struct Expectiminimax<'a, G: Evaluation + Chance, O> {
    game: &'a G,
    observer: &'a mut O,
    limit: u32,
    exact: bool,
    star1: Option<(f64, f64)>,
    /// Nodes entered, for the stop question every `CHECK_INTERVAL`.
    nodes: u64,
}

impl<G: Evaluation + Chance, O: Observer> Expectiminimax<'_, G, O> {
    fn leaf(&self, state: &G::State, terminal: bool) -> f64 {
        let v = if terminal && self.exact {
            self.game.utility(state)
        } else {
            self.game.evaluate(state)
        };
        f64::from(v.0)
    }

    /// The value of `state` (MAX's view) within the window (alpha, beta):
    /// exact inside it, a bound on the side it falls outside (fail-soft).
    fn value(
        &mut self,
        state: &G::State,
        ply: u32,
        index: Option<usize>,
        alpha: f64,
        beta: f64,
        root_moves: Option<&mut Vec<(G::Move, f64)>>,
    ) -> Result<f64, SearchError> {
        if entered_and_stopped(&mut self.nodes, self.observer) {
            return Err(SearchError::Stopped);
        }
        let game = self.game;
        let chance = game.is_chance(state);
        let kind = if chance {
            NodeKind::Chance
        } else {
            game.to_move(state).into()
        };
        self.observer.enter(ply, index, kind, None);
        let terminal = game.is_terminal(state);
        if terminal || ply >= self.limit {
            if too_deep(ply, terminal) {
                return Err(SearchError::TooDeep);
            }
            let v = self.leaf(state, terminal);
            self.observer.leaf(ply, v, terminal);
            self.observer.exit(ply, v);
            return Ok(v);
        }
        let v = if chance {
            self.chance_value(state, ply, alpha, beta, root_moves)?
        } else {
            self.decision_value(state, ply, kind, alpha, beta, root_moves)?
        };
        self.observer.exit(ply, v);
        Ok(v)
    }

    fn decision_value(
        &mut self,
        state: &G::State,
        ply: u32,
        kind: NodeKind,
        mut alpha: f64,
        mut beta: f64,
        mut root_moves: Option<&mut Vec<(G::Move, f64)>>,
    ) -> Result<f64, SearchError> {
        let game = self.game;
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let max = kind == NodeKind::Max;
        let mut best = if max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let n = moves.len();
        for (i, &m) in moves.iter().enumerate() {
            let child = game.play(state, m);
            let v = self.value(&child, ply + 1, Some(i), alpha, beta, None)?;
            if let Some(r) = root_moves.as_deref_mut() {
                r.push((m, v));
            }
            if max && v > best || !max && v < best {
                best = v;
            }
            self.observer.child_value(ply, i, v, best, None, None);
            if self.star1.is_some() {
                if max {
                    alpha = alpha.max(best);
                } else {
                    beta = beta.min(best);
                }
                if alpha >= beta {
                    if i + 1 < n {
                        self.observer.cutoff(ply, i, n - i - 1);
                    }
                    break;
                }
            }
        }
        if n == 0 {
            best = self.leaf(state, false);
        }
        Ok(best)
    }

    fn chance_value(
        &mut self,
        state: &G::State,
        ply: u32,
        alpha: f64,
        beta: f64,
        mut root_moves: Option<&mut Vec<(G::Move, f64)>>,
    ) -> Result<f64, SearchError> {
        let game = self.game;
        let mut outcomes = Vec::new();
        game.chance_outcomes(state, &mut outcomes);
        let n = outcomes.len();
        let mut sum = 0.0;
        let mut seen = 0.0;
        for (i, &(m, p)) in outcomes.iter().enumerate() {
            let child = game.play(state, m);
            let rest = 1.0 - seen - p;
            // Star1: the child's own window, from the node's window with the
            // unseen outcomes at the ends of the value range.
            let (a, b) = match self.star1 {
                Some((lo, hi)) if root_moves.is_none() && p > 0.0 => {
                    ((alpha - sum - rest * hi) / p, (beta - sum - rest * lo) / p)
                }
                _ => (f64::NEG_INFINITY, f64::INFINITY),
            };
            let v = self.value(&child, ply + 1, Some(i), a, b, None)?;
            if let Some(r) = root_moves.as_deref_mut() {
                r.push((m, v));
            }
            sum += p * v;
            seen += p;
            self.observer.child_value(ply, i, v, sum, Some(p), None);
            if let Some((lo, hi)) = self.star1
                && i + 1 < n
            {
                let rest = (1.0 - seen).max(0.0);
                let upper = sum + rest * hi;
                let lower = sum + rest * lo;
                // Even at their best the outcomes to come leave the node at
                // or below alpha (or at their worst, at or above beta): the
                // node's value is outside the window whatever they are.
                if upper <= alpha + EPS {
                    self.observer.cutoff(ply, i, n - i - 1);
                    return Ok(upper);
                }
                if lower >= beta - EPS {
                    self.observer.cutoff(ply, i, n - i - 1);
                    return Ok(lower);
                }
            }
        }
        Ok(sum)
    }
}

/// Expectiminimax from `state` to `options.depth` plies (or the end of the
/// game), reporting every event to `observer`. With `star1` and bounds from
/// [`Chance::value_bounds`](crate::game::Chance::value_bounds), Star1 pruning; without bounds, none.
/// [`SearchError::Stopped`] when the observer asks it to stop.
pub fn expectiminimax<G: Evaluation + Chance, O: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    star1: bool,
    observer: &mut O,
) -> Result<ExpectiminimaxOutcome<G::Move>, SearchError> {
    crate::search::refuse_hidden::<G>()?;
    let exact = options.depth.is_none();
    let bounds = if star1 {
        game.value_bounds(state, exact)
            .map(|(lo, hi)| (f64::from(lo.0), f64::from(hi.0)))
    } else {
        None
    };
    let mut search = Expectiminimax {
        game,
        observer,
        limit: options.recursion_limit(),
        exact,
        star1: bounds,
        nodes: 0,
    };
    let mut moves = Vec::new();
    let value = search.value(
        state,
        0,
        None,
        f64::NEG_INFINITY,
        f64::INFINITY,
        Some(&mut moves),
    )?;
    let best_move = if game.is_chance(state) || game.is_terminal(state) {
        None
    } else {
        let player = game.to_move(state);
        let mut best: Option<(G::Move, f64)> = None;
        for &(m, v) in &moves {
            let better = match best {
                None => true,
                Some((_, b)) => match player {
                    Player::Max => v > b,
                    Player::Min => v < b,
                },
            };
            if better {
                best = Some((m, v));
            }
        }
        best.map(|(m, _)| m)
    };
    Ok(ExpectiminimaxOutcome {
        value,
        best_move,
        moves,
    })
}
