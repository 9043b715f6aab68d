//! The conformance kit: one generic check every game runs, so a new game is
//! checked the day it is added.
//!
//! [`check`] plays seeded random games and, at every position on the way,
//! checks the contract of [`Game`] and [`Notation`]: positions and moves print
//! and parse back to themselves, equal positions hash equally, there are legal
//! moves exactly when the game is not over, no move is listed twice, playing a
//! move leaves the old state untouched and gives the same result twice, every
//! game ends, the evaluation agrees with the utility on terminal states, and
//! `heuristic` with `evaluate` elsewhere.
//! Then it compares perft counts with the references the caller knows.

use std::fmt::Debug;

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::explore::perft;
use crate::game::Searchable;
use crate::notation::Notation;

/// What to check, beyond the contract itself.
#[derive(Clone, Debug)]
pub struct Config<S> {
    /// How many random games to play from each start.
    pub playouts: usize,
    /// Seed of the random games, for reproducible failures.
    pub seed: u64,
    /// A game longer than this many plies counts as one that never ends.
    pub max_plies: usize,
    /// Where the random games start; empty means the initial state.
    pub starts: Vec<S>,
    /// Published perft counts from the initial state: `(depth, count)`.
    pub perft: Vec<(u32, u64)>,
}

impl<S> Default for Config<S> {
    fn default() -> Self {
        Config {
            playouts: 200,
            seed: 1,
            max_plies: 10_000,
            starts: Vec::new(),
            perft: Vec::new(),
        }
    }
}

/// What a passing check covered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions checked (with repetition).
    pub positions: u64,
    /// Terminal positions reached.
    pub terminals: u64,
    /// Moves round-tripped through the notation.
    pub moves: u64,
}

fn fail<T: Debug>(what: &str, state: &T) -> String {
    format!("{what} (state {state:?})")
}

/// Runs the conformance checks on `game`; the error says which rule broke and where.
pub fn check<G: Notation + Searchable>(
    game: &G,
    config: &Config<G::State>,
) -> Result<Summary, String> {
    let mut summary = Summary::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let starts = if config.starts.is_empty() {
        vec![game.initial_state()]
    } else {
        config.starts.clone()
    };
    let mut moves = Vec::new();
    let mut max_open_eval = 0i64;
    let mut min_decided_eval = i64::MAX;
    for start in &starts {
        for _ in 0..config.playouts {
            let mut state = start.clone();
            let mut plies = 0;
            loop {
                check_position(game, &state)?;
                summary.positions += 1;
                moves.clear();
                game.legal_moves(&state, &mut moves);
                let terminal = game.is_terminal(&state);
                if terminal {
                    if !moves.is_empty() {
                        return Err(fail("a terminal state has legal moves", &state));
                    }
                    let u = game.utility(&state).0;
                    let e = game.evaluate(&state).0;
                    if u.signum() != e.signum() {
                        return Err(fail(
                            &format!(
                                "evaluate ({e}) disagrees with utility ({u}) on a terminal state"
                            ),
                            &state,
                        ));
                    }
                    if u != 0 {
                        min_decided_eval = min_decided_eval.min(i64::from(e).abs());
                    }
                    summary.terminals += 1;
                    break;
                }
                max_open_eval = max_open_eval.max(i64::from(game.evaluate(&state).0).abs());
                if game.heuristic(&state) != game.evaluate(&state) {
                    return Err(fail(
                        "heuristic differs from evaluate on a state that is not over",
                        &state,
                    ));
                }
                if moves.is_empty() {
                    return Err(fail("a non-terminal state has no legal moves", &state));
                }
                for (i, &m) in moves.iter().enumerate() {
                    if moves[..i].contains(&m) {
                        return Err(fail(&format!("move {m:?} is listed twice"), &state));
                    }
                    let text = game.format_move(&state, m);
                    match game.parse_move(&state, &text) {
                        Ok(back) if back == m => {}
                        Ok(back) => {
                            return Err(fail(
                                &format!("move {m:?} prints as '{text}', which parses as {back:?}"),
                                &state,
                            ));
                        }
                        Err(e) => {
                            return Err(fail(
                                &format!(
                                    "move {m:?} prints as '{text}', which does not parse: {e}"
                                ),
                                &state,
                            ));
                        }
                    }
                    summary.moves += 1;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let before = state.clone();
                let next = game.play(&state, m);
                if state != before {
                    return Err(fail("play changed the state it was given", &before));
                }
                if game.play(&state, m) != next {
                    return Err(fail(
                        &format!("playing {m:?} twice gave different states"),
                        &state,
                    ));
                }
                state = next;
                plies += 1;
                if plies > config.max_plies {
                    return Err(fail(
                        &format!(
                            "a random game did not end within {} plies",
                            config.max_plies
                        ),
                        start,
                    ));
                }
            }
        }
    }
    if min_decided_eval != i64::MAX && max_open_eval >= min_decided_eval {
        return Err(format!(
            "a non-terminal evaluation ({max_open_eval}) is as large as a terminal win or loss ({min_decided_eval}): \
             a depth-limited search would prefer a guess to a proven result"
        ));
    }
    let initial = game.initial_state();
    for &(depth, expected) in &config.perft {
        let got = perft(game, &initial, depth);
        if got != expected {
            return Err(format!("perft({depth}) = {got}, expected {expected}"));
        }
    }
    Ok(summary)
}

fn check_position<G: Notation>(game: &G, state: &G::State) -> Result<(), String> {
    let text = game.format_position(state);
    let back = game.parse_position(&text).map_err(|e| {
        fail(
            &format!("position prints as '{text}', which does not parse: {e}"),
            state,
        )
    })?;
    if &back != state {
        return Err(fail(
            &format!("position prints as '{text}', which parses as {back:?}"),
            state,
        ));
    }
    if game.format_position(&back) != text {
        return Err(fail(
            &format!("'{text}' does not print back the same"),
            state,
        ));
    }
    if game.hash_key(&back) != game.hash_key(state) {
        return Err(fail("equal states have different hash keys", state));
    }
    if game.is_terminal(state) != game.is_terminal(&back) {
        return Err(fail(
            "a parsed copy disagrees on whether the game is over",
            state,
        ));
    }
    if !game.is_terminal(state) && game.to_move(state) != game.to_move(&back) {
        return Err(fail("a parsed copy disagrees on who is to move", state));
    }
    Ok(())
}
