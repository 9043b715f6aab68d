//! Grading by an exact solver: in a game small enough to solve, which
//! moves are optimal, and how often a network (or PUCT over it) plays one.
//!
//! A move is optimal when it keeps the position's outcome for the mover
//! (a win stays a win, a draw a draw; every move of a lost position is
//! optimal): the outcome, not the margin, as the Connect Four
//! write-ups on AlphaZero grade.

use std::collections::HashSet;

use ply_core::search::{Budget, Engine, SearchOptions};
use ply_core::{EngineGame, Game, Learn, observe::NoObserver};

use crate::evaluator::NetEvaluator;
use crate::net::Network;
use ply_core::search::puct::Evaluator as _;
use ply_core::search::puct::Leaf;

/// Every position reachable from the start that is not over, in the order
/// first met (breadth first); `None` when there are more than `limit`.
pub fn reachable<G: Game>(game: &G, limit: usize) -> Option<Vec<G::State>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut frontier = vec![game.initial_state()];
    let mut moves = Vec::new();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for s in frontier {
            if game.is_terminal(&s) || !seen.insert(s.clone()) {
                continue;
            }
            if seen.len() > limit {
                return None;
            }
            moves.clear();
            game.legal_moves(&s, &mut moves);
            next.extend(moves.iter().map(|&m| game.play(&s, m)));
            out.push(s);
        }
        frontier = next;
    }
    Some(out)
}

/// A position with its optimal moves, by exact search.
#[derive(Clone, Debug)]
pub struct Graded<S, M> {
    /// The position.
    pub state: S,
    /// Its outcome for the player to move: 1, 0 or -1.
    pub outcome: i32,
    /// The moves that keep it.
    pub optimal: Vec<M>,
}

/// Solves each of `states` and its children exactly (alpha-beta with a
/// table), keeping the moves that keep the outcome.
pub fn grade<G: EngineGame>(game: &G, states: &[G::State]) -> Vec<Graded<G::State, G::Move>> {
    let options = SearchOptions {
        tt_mb: 16,
        ordering: true,
        ..SearchOptions::default()
    };
    let mut engine = Engine::new(game, &options);
    let mut solve = |s: &G::State| -> i32 {
        let out = engine
            .search(game, s, None, false, &Budget::default(), &mut NoObserver)
            .expect("a small game solves");
        out.value.0.signum()
    };
    let mut moves = Vec::new();
    states
        .iter()
        .map(|s| {
            let mover = game.to_move(s);
            let outcome = mover.sign() * solve(s);
            moves.clear();
            game.legal_moves(s, &mut moves);
            let optimal = moves
                .iter()
                .copied()
                .filter(|&m| mover.sign() * solve(&game.play(s, m)) == outcome)
                .collect();
            Graded {
                state: s.clone(),
                outcome,
                optimal,
            }
        })
        .collect()
}

/// The share of `graded` positions where the network's prior puts its
/// largest probability on an optimal move.
pub fn raw_accuracy<G: Learn>(
    game: &G,
    network: &Network,
    graded: &[Graded<G::State, G::Move>],
) -> f64 {
    let mut evaluator = NetEvaluator::new(network);
    let mut right = 0;
    let mut moves = Vec::new();
    for chunk in graded.chunks(256) {
        let lists: Vec<Vec<G::Move>> = chunk
            .iter()
            .map(|g| {
                moves.clear();
                game.legal_moves(&g.state, &mut moves);
                moves.clone()
            })
            .collect();
        let leaves: Vec<Leaf<'_, G>> = chunk
            .iter()
            .zip(&lists)
            .map(|(g, m)| Leaf {
                state: &g.state,
                moves: m,
            })
            .collect();
        let estimates = evaluator.evaluate(game, &leaves);
        for ((g, m), e) in chunk.iter().zip(&lists).zip(&estimates) {
            let best = (0..m.len())
                .max_by(|&a, &b| e.priors[a].total_cmp(&e.priors[b]))
                .map(|i| m[i]);
            if best.is_some_and(|b| g.optimal.contains(&b)) {
                right += 1;
            }
        }
    }
    right as f64 / graded.len().max(1) as f64
}
