//! Alpha-beta, in negamax form.
//!
//! The textbook algorithm: a full window (-inf, +inf) at the root, moves in the
//! game's order, a cut as soon as alpha >= beta. Fail-soft: a node returns the
//! best value it saw even when that lies outside its window, which proves
//! the same bound as fail-hard but a tighter one, and changes no node count.
//!
//! Internally every value is a [`MoverScore`] (negamax: one function for both
//! players, the child's value negated); the observer sees MAX-view values and
//! windows through the one conversion in [`crate::score`].

use crate::game::Game;
use crate::observe::Observer;
use crate::score::{MoverScore, Window};
use crate::search::minimax::leaf_value;
use crate::search::{Outcome, PvTable, RootTies, SearchOptions, TieBreak};

struct AlphaBeta<'a, G: Game, O> {
    game: &'a G,
    observer: &'a mut O,
    limit: u32,
    exact: bool,
    moves: Vec<Vec<G::Move>>,
    pv: PvTable<G::Move>,
}

impl<G: Game, O: Observer> AlphaBeta<'_, G, O> {
    fn search(
        &mut self,
        state: &G::State,
        ply: u32,
        index: Option<usize>,
        mut alpha: MoverScore,
        beta: MoverScore,
    ) -> MoverScore {
        let game = self.game;
        let player = game.to_move(state);
        self.observer.enter(
            ply,
            index,
            player,
            Some(Window::from_mover(alpha, beta, player)),
        );
        let p = ply as usize;
        self.pv.clear(p);

        let terminal = game.is_terminal(state);
        if terminal || ply >= self.limit {
            let v = leaf_value(game, state, terminal, self.exact);
            self.observer.leaf(ply, v, terminal);
            self.observer.exit(ply, v);
            return v.for_player(player);
        }

        if self.moves.len() <= p {
            self.moves.resize_with(p + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[p]);
        moves.clear();
        game.legal_moves(state, &mut moves);

        let mut best = MoverScore::NEG_INF;
        let n = moves.len();
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.play(state, mv);
            let v = -self.search(&child, ply + 1, Some(i), -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.pv.update(p, mv);
                }
            }
            self.observer.child_value(
                ply,
                i,
                v.to_max(player),
                best.to_max(player),
                Some(Window::from_mover(alpha, beta, player)),
            );
            // The opponent already has a better alternative elsewhere: no
            // reply here can bring this node back into the window.
            if alpha >= beta {
                if i + 1 < n {
                    self.observer.cutoff(ply, i, n - i - 1);
                }
                break;
            }
        }
        if n == 0 {
            // A game that reports no moves in a non-terminal state: score it
            // as a leaf rather than return an infinity.
            best = game.evaluate(state).for_player(player);
        }
        self.moves[p] = moves;
        self.observer.exit(ply, best.to_max(player));
        best
    }
}

/// Alpha-beta from `state` with the full window, reporting every event to
/// `observer`. Returns minimax's value, visiting no more nodes: 18,297 on
/// empty tic-tac-toe with moves in square order.
pub fn alphabeta<G: Game, O: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    observer: &mut O,
) -> Outcome<G::Move> {
    let mut search = AlphaBeta {
        game,
        observer,
        limit: options.ply_limit(),
        exact: options.depth.is_none(),
        moves: Vec::new(),
        pv: PvTable::new(),
    };
    let player = game.to_move(state);
    match options.tie_break {
        TieBreak::First => {
            let v = search.search(state, 0, None, MoverScore::NEG_INF, MoverScore::INF);
            let pv = search.pv.line(0).to_vec();
            Outcome {
                value: v.to_max(player),
                best_move: pv.first().copied(),
                pv,
            }
        }
        TieBreak::Random(seed) => random_root(&mut search, state, seed),
    }
}

/// The root with a window one below the best so far, so that a move equal to
/// the best is proven equal (not merely "no better"), then a seeded choice
/// among the ties. Scores are integers, so `best - 1` is the largest window
/// that still separates "equal" from "worse".
fn random_root<G: Game, O: Observer>(
    search: &mut AlphaBeta<'_, G, O>,
    state: &G::State,
    seed: u64,
) -> Outcome<G::Move> {
    let game = search.game;
    let player = game.to_move(state);
    search.observer.enter(0, None, player, Some(Window::FULL));
    search.pv.clear(0);
    let terminal = game.is_terminal(state);
    if terminal || search.limit == 0 {
        let v = leaf_value(game, state, terminal, search.exact);
        search.observer.leaf(0, v, terminal);
        search.observer.exit(0, v);
        return Outcome {
            value: v,
            best_move: None,
            pv: Vec::new(),
        };
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let mut best = MoverScore::NEG_INF;
    let mut ties = RootTies::new();
    for (i, &mv) in moves.iter().enumerate() {
        let child = game.play(state, mv);
        let alpha = if best == MoverScore::NEG_INF {
            best
        } else {
            MoverScore(best.0 - 1)
        };
        let v = -search.search(&child, 1, Some(i), MoverScore::NEG_INF, -alpha);
        let better = v > best;
        if better {
            best = v;
        }
        if better || v == best {
            search.pv.update(0, mv);
            ties.offer(v.to_max(player), better, search.pv.line(0));
        }
        search.observer.child_value(
            0,
            i,
            v.to_max(player),
            best.to_max(player),
            Some(Window::from_mover(alpha, MoverScore::INF, player)),
        );
    }
    let value = best.to_max(player);
    search.observer.exit(0, value);
    let pv = ties.choose(seed).unwrap_or_default();
    Outcome {
        value,
        best_move: pv.first().copied(),
        pv,
    }
}
