//! Playing whole games: players ("agents") that choose moves, and a loop
//! that plays one against another. The CLI's play command, the tests that
//! pit the engine against a random mover, and (later) MCTS all use it.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{EngineGame, Game};
use crate::observe::NoObserver;
use crate::search::alphabeta::Engine;
use crate::search::id::{Iteration, iterate};
use crate::search::{Algorithm, Outcome, SearchError, SearchOptions};

/// Something that chooses moves.
pub trait Agent<G: Game> {
    /// A move for the player to move in `state` (not terminal), or `None`
    /// to resign.
    fn choose(&mut self, game: &G, state: &G::State) -> Option<G::Move>;

    /// Tells the agent the game starts afresh (forget what no longer applies).
    fn new_game(&mut self) {}
}

/// Uniformly random legal moves from a seeded generator: reproducible.
pub struct RandomAgent {
    rng: Xoshiro256PlusPlus,
}

impl RandomAgent {
    /// A random mover seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, game: &G, state: &G::State) -> Option<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            return None;
        }
        Some(moves[self.rng.random_range(0..moves.len())])
    }
}

/// A search as a player. Iterative deepening keeps its table between moves.
pub struct SearchAgent<M> {
    algorithm: Algorithm,
    options: SearchOptions,
    engine: Option<Engine<M>>,
    /// What the last search found.
    pub last: Option<Outcome<M>>,
}

impl<M: Copy + Eq> SearchAgent<M> {
    /// A player that runs `algorithm` with `options` for every move.
    pub fn new(algorithm: Algorithm, options: SearchOptions) -> Self {
        SearchAgent {
            algorithm,
            options,
            engine: None,
            last: None,
        }
    }

    /// Searches `state` and returns what was found, calling `on_iteration`
    /// after each iterative-deepening iteration.
    pub fn think<G: EngineGame<Move = M>>(
        &mut self,
        game: &G,
        state: &G::State,
        on_iteration: &mut dyn FnMut(&Iteration<M>),
    ) -> Result<Outcome<M>, SearchError> {
        let out = match self.algorithm {
            Algorithm::Id => {
                let options = self.options;
                let engine = self
                    .engine
                    .get_or_insert_with(|| Engine::new(game, &options));
                iterate(engine, game, state, None, &mut NoObserver, on_iteration)
            }
            a => a.run(game, state, &self.options, &mut NoObserver),
        }?;
        self.last = Some(out.clone());
        Ok(out)
    }
}

impl<G: EngineGame> Agent<G> for SearchAgent<G::Move> {
    /// The best move; `None` (resigns) where it cannot search: a position
    /// with chance nodes.
    fn choose(&mut self, game: &G, state: &G::State) -> Option<G::Move> {
        self.think(game, state, &mut |_| {}).ok()?.best_move
    }

    fn new_game(&mut self) {
        if let Some(e) = &mut self.engine {
            e.clear();
        }
    }
}

/// A finished (or abandoned) game.
#[derive(Clone, Debug)]
pub struct Record<G: Game> {
    /// The moves played, in order.
    pub moves: Vec<G::Move>,
    /// Where the game ended.
    pub final_state: G::State,
    /// Whether it ended by the rules (not by a resignation or the move cap).
    pub finished: bool,
}

/// Plays from `start` until the game ends, `max` (MAX's agent) against `min`,
/// at most `max_plies` moves.
pub fn play_game<G: Game>(
    game: &G,
    start: &G::State,
    max: &mut dyn Agent<G>,
    min: &mut dyn Agent<G>,
    max_plies: usize,
) -> Record<G> {
    let mut state = start.clone();
    let mut moves = Vec::new();
    while !game.is_terminal(&state) && moves.len() < max_plies {
        let agent: &mut dyn Agent<G> = match game.to_move(&state) {
            crate::score::Player::Max => &mut *max,
            crate::score::Player::Min => &mut *min,
        };
        let Some(m) = agent.choose(game, &state) else {
            break;
        };
        moves.push(m);
        state = game.play(&state, m);
    }
    Record {
        finished: game.is_terminal(&state),
        moves,
        final_state: state,
    }
}
