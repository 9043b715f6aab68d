//! Supervised learning from an exact solver: the network of self-play,
//! trained instead on positions whose every move the solver has graded.
//! The upper bound a self-play network of the same size is measured
//! against (the method of the Connect Four write-ups on AlphaZero).
//!
//! Positions come from random games stopped at a random ply; each is
//! graded by [`crate::grade`], and becomes a sample whose policy is
//! spread evenly over the moves that keep its outcome and whose value is
//! that outcome.

use std::collections::HashSet;
use std::time::Instant;

use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::{Game, Learn};

use crate::grade::Graded;
use crate::net::Network;
use crate::selfplay::Sample;
use crate::train::{Losses, Trainer};

/// `n` distinct positions, not over, from random games (every move
/// uniform) each stopped at a ply drawn uniformly from `plies`; seeded.
/// Fewer when the game has fewer such positions (tries stop at 20 n).
pub fn random_positions<G: Game>(
    game: &G,
    n: usize,
    plies: std::ops::RangeInclusive<usize>,
    seed: u64,
) -> Vec<G::State> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(n);
    let mut moves = Vec::new();
    for _ in 0..n.saturating_mul(20) {
        if out.len() == n {
            break;
        }
        let target = rng.random_range(plies.clone());
        let mut state = game.initial_state();
        let mut ply = 0;
        while ply < target && !game.is_terminal(&state) {
            moves.clear();
            game.legal_moves(&state, &mut moves);
            state = game.play(&state, moves[rng.random_range(0..moves.len())]);
            ply += 1;
        }
        if ply == target && !game.is_terminal(&state) && seen.insert(state.clone()) {
            out.push(state);
        }
    }
    out
}

/// A graded position as a sample: the policy even over the moves that
/// keep the outcome, the value that outcome.
pub fn sample<G: Learn>(game: &G, graded: &Graded<G::State, G::Move>) -> Sample<G::State> {
    let mut policy = vec![0.0f32; game.policy_size()];
    let share = 1.0 / graded.optimal.len().max(1) as f32;
    for &m in &graded.optimal {
        policy[game.policy_index(&graded.state, m)] = share;
    }
    Sample {
        state: graded.state.clone(),
        policy,
        value: graded.outcome as f32,
    }
}

/// How the network is fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// The first pass to make: 1, or one past a checkpoint's.
    pub first: usize,
    /// Passes over the samples in all (a resumed fit goes on to this
    /// one, and the step size's schedule spans them all).
    pub epochs: usize,
    /// Samples per step.
    pub minibatch: usize,
    /// Adam's step size at the start, falling along a half cosine to a
    /// tenth of it by the last step.
    pub learning_rate: f64,
    /// The seed of the order and the symmetries.
    pub seed: u64,
}

/// One pass over the samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// Its number, from 1.
    pub number: usize,
    /// The mean losses of its steps.
    pub losses: Losses,
    /// Training samples per second.
    pub samples_per_second: f64,
    /// Seconds it took.
    pub seconds: f64,
}

/// What [`fit`] tells its caller as it goes.
pub enum FitProgress<'a> {
    /// Steps done this epoch.
    Step {
        /// The epoch.
        epoch: usize,
        /// Steps done, of `of`.
        done: usize,
        /// Steps per epoch.
        of: usize,
        /// The last step's losses.
        losses: Losses,
    },
    /// An epoch ended: its figures and the network as it is.
    Epoch(&'a Epoch, &'a Network),
}

/// Fits `network` to `samples` (each seen through a random symmetry),
/// telling `progress` as it goes; returns the fitted network.
pub fn fit<G: Learn>(
    game: &G,
    network: &Network,
    samples: &[Sample<G::State>],
    options: &FitOptions,
    progress: &mut dyn FnMut(FitProgress<'_>),
) -> Network {
    let mut trainer = Trainer::new(network, options.learning_rate);
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let minibatch = options.minibatch.max(1);
    let steps = samples.len().div_ceil(minibatch).max(1);
    let total = (steps * options.epochs).max(1);
    let mut network = network.clone();
    for number in options.first.max(1)..=options.epochs {
        let start = Instant::now();
        // Each epoch's own seed, so that a resumed fit draws what an
        // unbroken one would.
        let seed = options.seed ^ 0x5e9e ^ (number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        order.sort_unstable();
        order.shuffle(&mut rng);
        let mut losses_each = Vec::with_capacity(steps);
        for (k, chunk) in order.chunks(minibatch).enumerate() {
            let done = (number - 1) * steps + k;
            trainer.learning_rate = cosine(options.learning_rate, done, total);
            let batch: Vec<&Sample<G::State>> = chunk.iter().map(|&i| &samples[i]).collect();
            let losses = trainer.step(game, &batch, &mut rng);
            losses_each.push(losses);
            progress(FitProgress::Step {
                epoch: number,
                done: k + 1,
                of: steps,
                losses,
            });
        }
        let seconds = start.elapsed().as_secs_f64();
        network = trainer.network();
        let epoch = Epoch {
            number,
            losses: Losses::mean(&losses_each),
            samples_per_second: samples.len() as f64 / seconds.max(1e-9),
            seconds,
        };
        progress(FitProgress::Epoch(&epoch, &network));
    }
    network
}

/// The step size after `done` of `total` steps: a half cosine from `start`
/// to a tenth of it.
pub fn cosine(start: f64, done: usize, total: usize) -> f64 {
    let progress = done as f64 / total.saturating_sub(1).max(1) as f64;
    let floor = start / 10.0;
    floor + (start - floor) * 0.5 * (1.0 + (std::f64::consts::PI * progress.min(1.0)).cos())
}
