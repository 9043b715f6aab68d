//! Self-play: the network plays itself through PUCT, and every position
//! of every game becomes a training sample: the search's visit shares as
//! the policy to learn, the game's result as the value.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::search::puct::{Noise, Puct, PuctOptions, Rollout, choose, result};
use ply_core::{Chance, Learn, Player, Playouts};

use crate::evaluator::NetEvaluator;
use crate::net::Network;

/// One position to learn from.
#[derive(Clone, Debug)]
pub struct Sample<S> {
    /// The position (not over).
    pub state: S,
    /// The target policy over every policy index: the share of the root's
    /// visits each legal move had (0 for the others).
    pub policy: Vec<f32>,
    /// The game's result for the player to move here: 1, 0 or -1.
    pub value: f32,
}

/// How a self-play game is searched and played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfPlay {
    /// Simulations per move.
    pub simulations: u64,
    /// Leaves evaluated per network call (virtual loss).
    pub batch: usize,
    /// PUCT's exploration constant.
    pub c: f64,
    /// Dirichlet noise at each root.
    pub noise: Noise,
    /// Moves played in proportion to visits before playing the most
    /// visited (AlphaZero: 30 in chess; a few in small games), so games
    /// differ.
    pub exploring_moves: usize,
}

/// One game of `network` against itself from the start: the samples of
/// its positions, each from its mover's view.
pub fn self_play<G: Learn + Chance>(
    game: &G,
    network: &Network,
    options: &SelfPlay,
    seed: u64,
) -> Vec<Sample<G::State>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut evaluator = NetEvaluator::new(network);
    let mut state = game.initial_state();
    let mut played: Vec<(G::State, Vec<f32>, Player)> = Vec::new();
    let size = game.policy_size();
    while !game.is_terminal(&state) {
        let search = PuctOptions {
            simulations: options.simulations,
            c: options.c,
            batch: options.batch,
            noise: Some(options.noise),
            seed: seed ^ (played.len() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        };
        let searched = Puct::new(game, &state, search).run(game, &mut evaluator);
        let total: u32 = searched.moves.iter().map(|m| m.visits).sum();
        let mut policy = vec![0.0f32; size];
        for m in &searched.moves {
            policy[game.policy_index(&state, m.mv)] = m.visits as f32 / total.max(1) as f32;
        }
        let temperature = if played.len() < options.exploring_moves {
            1.0
        } else {
            0.0
        };
        let mv =
            choose(&searched.moves, temperature, &mut rng).expect("a game not over has a move");
        played.push((state.clone(), policy, game.to_move(&state)));
        state = game.play(&state, mv);
    }
    let end = f64::from(result(game, &state));
    played
        .into_iter()
        .map(|(state, policy, mover)| Sample {
            state,
            policy,
            value: mover.view(end) as f32,
        })
        .collect()
}

/// Who plays a match game: a network through PUCT, or plain MCTS (PUCT
/// with random playouts and even priors) as the baseline.
#[derive(Clone, Copy)]
pub enum Contender<'n> {
    /// A network guiding PUCT.
    Net(&'n Network),
    /// PUCT with [`Rollout`]: plain MCTS.
    Mcts,
}

/// A game between `first` (MAX) and `second`, each searching
/// `simulations` per move; the first `exploring_moves` moves are drawn
/// in proportion to visits so that seeded games differ. The result from
/// MAX's view.
pub fn match_game<G: Learn + Chance + Playouts>(
    game: &G,
    first: Contender<'_>,
    second: Contender<'_>,
    simulations: u64,
    exploring_moves: usize,
    seed: u64,
) -> f32 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut state = game.initial_state();
    let mut ply = 0;
    while !game.is_terminal(&state) {
        let who = if game.to_move(&state) == Player::Max {
            first
        } else {
            second
        };
        let search = PuctOptions {
            simulations,
            seed: seed.wrapping_add(ply as u64),
            ..PuctOptions::default()
        };
        let mut tree = Puct::new(game, &state, search);
        let searched = match who {
            Contender::Net(network) => tree.run(game, &mut NetEvaluator::new(network)),
            Contender::Mcts => tree.run(game, &mut Rollout::new(seed.wrapping_add(ply as u64))),
        };
        let temperature = if ply < exploring_moves { 1.0 } else { 0.0 };
        let mv =
            choose(&searched.moves, temperature, &mut rng).expect("a game not over has a move");
        state = game.play(&state, mv);
        ply += 1;
    }
    result(game, &state)
}
