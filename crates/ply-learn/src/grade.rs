//! Grading by an exact solver: in a game small enough to solve, which
//! moves are optimal, and how often a network (or PUCT over it) plays one.
//!
//! A move is optimal when it keeps the position's outcome for the mover
//! (a win stays a win, a draw a draw; every move of a lost position is
//! optimal): the outcome, not the margin, as the Connect Four
//! write-ups on AlphaZero grade.

use std::collections::HashSet;

use ply_core::search::score_search::score_search;
use ply_core::search::{Budget, Engine, SearchOptions};
use ply_core::{EngineGame, Game, Learn, Notation, observe::NoObserver};

use crate::evaluator::NetEvaluator;
use crate::net::Network;
use ply_core::search::puct::Evaluator as _;
use ply_core::search::puct::{Leaf, Puct, PuctOptions, choose};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Connect Four's public test sets (Pascal Pons, "Solving Connect 4"),
/// named by the positions they hold: 1,000 lines each of the moves played
/// (columns from 1) and the position's exact score.
pub const CONNECT4_SETS: [(&str, &str); 4] = [
    (
        "end (L3_R1)",
        include_str!("../../../testdata/connect4/Test_L3_R1"),
    ),
    (
        "middle (L2_R1)",
        include_str!("../../../testdata/connect4/Test_L2_R1"),
    ),
    (
        "middle, harder (L2_R2)",
        include_str!("../../../testdata/connect4/Test_L2_R2"),
    ),
    (
        "beginning (L1_R1)",
        include_str!("../../../testdata/connect4/Test_L1_R1"),
    ),
];

/// Every `step`th position of a test set's `text` (`moves score` lines,
/// as [`CONNECT4_SETS`]) with its published score; a line that does not
/// parse is an error naming it.
pub fn test_positions<G: Notation>(
    game: &G,
    text: &str,
    step: usize,
) -> Result<Vec<(G::State, i32)>, String> {
    text.lines()
        .enumerate()
        .step_by(step.max(1))
        .map(|(i, line)| {
            let bad = |what: String| format!("line {}: '{line}': {what}", i + 1);
            let mut fields = line.split_whitespace();
            let (Some(moves), Some(score)) = (fields.next(), fields.next()) else {
                return Err(bad("expected the moves and the score".into()));
            };
            let state = game.parse_position(moves).map_err(|e| bad(e.to_string()))?;
            let score = score
                .parse()
                .map_err(|_| bad(format!("score '{score}' is not a number")))?;
            Ok((state, score))
        })
        .collect()
}

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

/// The exact solver of [`grade`], kept between positions so its table
/// serves the next (a position's children share most of their subtrees).
pub struct Grader<M> {
    engine: Engine<M>,
}

impl<M: Copy + Eq> Grader<M> {
    /// A solver for `game` with a table of `tt_mb` megabytes: the exact
    /// solver's options (`ply solve`): ordering and the game's shortcuts.
    pub fn new<G: EngineGame<Move = M>>(game: &G, tt_mb: usize) -> Self {
        let options = SearchOptions {
            tt_mb,
            ordering: true,
            shortcuts: true,
            ..SearchOptions::default()
        };
        Grader {
            engine: Engine::new(game, &options),
        }
    }

    /// `state` graded: its outcome and the moves that keep it, each
    /// child solved for win, draw or loss. `None` when the solve would
    /// take more than `node_limit` nodes in all (hard positions near the
    /// start of a big game cost seconds each).
    pub fn grade<G: EngineGame<Move = M>>(
        &mut self,
        game: &G,
        state: &G::State,
        node_limit: Option<u64>,
    ) -> Option<Graded<G::State, M>> {
        let budget = Budget {
            nodes: node_limit.map(|n| self.engine.nodes + n),
            ..Budget::default()
        };
        let engine = &mut self.engine;
        let mut solve = |s: &G::State| -> Option<i32> {
            let r = score_search(
                engine,
                game,
                s,
                true,
                &budget,
                &mut NoObserver,
                &mut |_, _| {},
            );
            r.ok().map(|r| r.value.0.signum())
        };
        let mover = game.to_move(state);
        let outcome = mover.sign() * solve(state)?;
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let mut optimal = Vec::new();
        for &m in &moves {
            if mover.sign() * solve(&game.play(state, m))? == outcome {
                optimal.push(m);
            }
        }
        Some(Graded {
            state: state.clone(),
            outcome,
            optimal,
        })
    }
}

/// Solves each of `states` and its children exactly (the exact solver,
/// weak: win, draw or loss), keeping the moves that keep the outcome.
pub fn grade<G: EngineGame>(game: &G, states: &[G::State]) -> Vec<Graded<G::State, G::Move>> {
    let mut grader = Grader::new(game, 16);
    states
        .iter()
        .map(|s| {
            grader
                .grade(game, s, None)
                .expect("without a node limit every position is solved")
        })
        .collect()
}

/// [`grade`] on `threads` threads, each with its own solver of `tt_mb`
/// megabytes; positions that would take more than `node_limit` nodes are
/// left out. `done(k)` is told the positions finished so far, a chunk
/// of them at a time.
pub fn grade_parallel<G: EngineGame>(
    game: &G,
    states: &[G::State],
    node_limit: Option<u64>,
    threads: usize,
    tt_mb: usize,
    done: &mut dyn FnMut(usize),
) -> Vec<Graded<G::State, G::Move>> {
    const CHUNK: usize = 16;
    let chunks: Vec<&[G::State]> = states.chunks(CHUNK).collect();
    let graders: Vec<std::sync::Mutex<Grader<G::Move>>> = (0..threads.max(1))
        .map(|_| std::sync::Mutex::new(Grader::new(game, tt_mb)))
        .collect();
    let mut finished = 0;
    let graded = crate::learn::parallel(
        chunks.len(),
        threads,
        |i| {
            // Each thread takes a solver nobody holds (there are as many
            // solvers as threads, so one is always free).
            let mut grader = graders
                .iter()
                .find_map(|g| g.try_lock().ok())
                .expect("as many solvers as threads");
            chunks[i]
                .iter()
                .map(|s| grader.grade(game, s, node_limit))
                .collect::<Vec<_>>()
        },
        &mut |_, chunk: &Vec<Option<Graded<G::State, G::Move>>>| {
            finished += chunk.len();
            done(finished);
        },
    );
    graded.into_iter().flatten().flatten().collect()
}

/// The share of `graded` positions where the network's prior puts its
/// largest probability on an optimal move.
pub fn raw_accuracy<G: Learn>(
    game: &G,
    network: &Network,
    graded: &[Graded<G::State, G::Move>],
) -> f64 {
    accuracy(game, network, graded).moves
}

/// How often a network is right, by the exact solver.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// The share of positions where the prior's largest probability is on
    /// an optimal move.
    pub moves: f64,
    /// The share where the value head says the outcome: above 1/3 a win,
    /// below -1/3 a loss, a draw between.
    pub values: f64,
}

/// The raw network's [`Accuracy`] over `graded` (no search).
pub fn accuracy<G: Learn>(
    game: &G,
    network: &Network,
    graded: &[Graded<G::State, G::Move>],
) -> Accuracy {
    let mut evaluator = NetEvaluator::new(network);
    let (mut moves_right, mut values_right) = (0, 0);
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
                moves_right += 1;
            }
            if outcome_of(e.value) == g.outcome {
                values_right += 1;
            }
        }
    }
    let n = graded.len().max(1) as f64;
    Accuracy {
        moves: f64::from(moves_right) / n,
        values: f64::from(values_right) / n,
    }
}

/// A value read as an outcome: a win above 1/3, a loss below -1/3.
fn outcome_of(value: f32) -> i32 {
    if value > 1.0 / 3.0 {
        1
    } else if value < -1.0 / 3.0 {
        -1
    } else {
        0
    }
}

/// The share of `graded` positions where PUCT over `network` at
/// `simulations` (no noise, the most visited move) plays an optimal move;
/// positions searched on `threads` threads.
pub fn puct_accuracy<G: Learn + ply_core::Chance>(
    game: &G,
    network: &Network,
    graded: &[Graded<G::State, G::Move>],
    simulations: u64,
    threads: usize,
) -> f64 {
    let options = PuctOptions {
        simulations,
        batch: 8,
        ..PuctOptions::default()
    };
    let right = crate::learn::parallel(
        graded.len(),
        threads,
        |i| {
            let g = &graded[i];
            let searched =
                Puct::new(game, &g.state, options).run(game, &mut NetEvaluator::new(network));
            choose(
                &searched.moves,
                0.0,
                &mut Xoshiro256PlusPlus::seed_from_u64(0),
            )
            .is_some_and(|m| g.optimal.contains(&m))
        },
        &mut |_, _| {},
    );
    right.iter().filter(|&&r| r).count() as f64 / graded.len().max(1) as f64
}

/// PUCT over `network` at `simulations` playing either side from every
/// `graded` position against perfect play (the first optimal move of each
/// position, so `graded` must hold every position the games reach): the
/// games played and the positions (in the game's notation, with the side
/// PUCT played) where it ended worse than the position's value for its
/// side. PUCT is deterministic without noise, so its move in each position
/// is searched once, on `threads` threads.
pub fn puct_against_perfect<G: Learn + ply_core::Chance + Notation>(
    game: &G,
    network: &Network,
    graded: &[Graded<G::State, G::Move>],
    simulations: u64,
    threads: usize,
) -> (usize, Vec<String>) {
    use std::collections::HashMap;
    let options = PuctOptions {
        simulations,
        batch: 8,
        ..PuctOptions::default()
    };
    let by_state: HashMap<&G::State, &Graded<G::State, G::Move>> =
        graded.iter().map(|g| (&g.state, g)).collect();
    let moves = crate::learn::parallel(
        graded.len(),
        threads,
        |i| {
            let mut tree = Puct::new(game, &graded[i].state, options);
            tree.run(game, &mut NetEvaluator::new(network)).best_move
        },
        &mut |_, _| {},
    );
    let puct: HashMap<&G::State, Option<G::Move>> =
        graded.iter().map(|g| &g.state).zip(moves).collect();
    let mut games = 0;
    let mut worse = Vec::new();
    for start in graded {
        for side in [ply_core::Player::Max, ply_core::Player::Min] {
            let mut s = start.state.clone();
            while !game.is_terminal(&s) {
                let mv = if game.to_move(&s) == side {
                    puct.get(&s).copied().flatten()
                } else {
                    by_state.get(&s).and_then(|g| g.optimal.first().copied())
                };
                let Some(mv) = mv else {
                    panic!("a position PUCT or perfect play reaches is not graded");
                };
                s = game.play(&s, mv);
            }
            let got = side.sign() * game.utility(&s).0.signum();
            let value = if game.to_move(&start.state) == side {
                start.outcome
            } else {
                -start.outcome
            };
            if got < value {
                worse.push(format!(
                    "{} ({})",
                    game.format_position(&start.state),
                    side.name()
                ));
            }
            games += 1;
        }
    }
    (games, worse)
}
