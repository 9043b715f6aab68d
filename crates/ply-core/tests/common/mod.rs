//! Helpers shared by the integration tests.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::Game;

/// The position reached by `plies` seeded random moves (fewer if the game
/// ends first).
pub fn random_position<G: Game>(g: &G, seed: u64, plies: usize) -> G::State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = g.initial_state();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        g.legal_moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        s = g.play(&s, moves[rng.random_range(0..moves.len())]);
    }
    s
}
