//! The AlphaZero loop: generations of self-play by the current network on
//! every core, training on a window of recent games (each position seen
//! through a random symmetry), then the new network measured against the
//! one before it and against plain MCTS at the same simulations.
//!
//! Everything is seeded: the same options and seed give the same games
//! and the same network (the games are played in parallel, but each
//! game's seed is its number and they are collected in order).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::search::puct::Noise;
use ply_core::{Chance, Learn, Playouts};

use crate::net::Network;
use crate::selfplay::{Contender, Sample, SelfPlay, match_game, self_play};
use crate::train::{Losses, Trainer};

/// What `ply learn` is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnOptions {
    /// The run's generations in all: a resumed run goes on from where it
    /// stopped to this one, and the step size's schedule spans them all.
    pub generations: usize,
    /// Self-play games per generation.
    pub games: usize,
    /// How each self-play game is searched.
    pub selfplay: SelfPlay,
    /// Generations of games kept for training (the replay window).
    pub window: usize,
    /// Training steps per generation.
    pub steps: usize,
    /// Samples per training step.
    pub minibatch: usize,
    /// Adam's step size at the start; it falls along a half cosine to a
    /// tenth of that by the last generation of the run.
    pub learning_rate: f64,
    /// Games against the previous generation and against plain MCTS
    /// after each generation (half with each colour); 0: none.
    pub match_games: usize,
    /// Threads playing games.
    pub threads: usize,
    /// The seed of everything.
    pub seed: u64,
}

/// A game's defaults: the network's size and the loop's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    /// The tower's channels.
    pub channels: usize,
    /// Its residual blocks.
    pub blocks: usize,
    /// The loop's numbers.
    pub options: LearnOptions,
    /// Learning from the exact solver instead.
    pub supervised: Supervised,
}

/// The defaults of learning from the exact solver (`--supervised`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Supervised {
    /// Positions to label (a game small enough to list takes all of its
    /// own instead).
    pub positions: usize,
    /// Passes over them.
    pub epochs: usize,
    /// The plies at which the random games stop, drawn evenly.
    pub plies: (usize, usize),
    /// Positions whose grading would take more nodes than this are left
    /// out (a few hard ones near the start of Connect Four take seconds).
    pub node_limit: u64,
}

/// `ply learn`'s defaults for `game`, playing on `threads` threads:
/// tic-tac-toe's reach 99% optimal moves in about 75 seconds on two cores
/// (README, "Learning"); other games start from a Connect Four size.
pub fn recipe(game: &str, threads: usize) -> Recipe {
    let base = LearnOptions {
        generations: 50,
        games: 100,
        selfplay: SelfPlay {
            simulations: 50,
            batch: 8,
            c: 1.5,
            noise: Noise {
                alpha: 1.0,
                fraction: 0.25,
            },
            exploring_moves: 9,
        },
        window: 4,
        steps: 100,
        minibatch: 128,
        learning_rate: 2e-3,
        match_games: 10,
        threads,
        seed: 1,
    };
    // Connect Four's positions at ply 6 and on (earlier ones are few, and
    // their grading costs seconds); a million nodes is about a tenth of a
    // second of the solver.
    let supervised = Supervised {
        positions: 60_000,
        epochs: 15,
        plies: (6, 41),
        node_limit: 1_000_000,
    };
    match game {
        "tictactoe" => Recipe {
            channels: 32,
            blocks: 2,
            options: base,
            supervised,
        },
        _ => Recipe {
            channels: 64,
            blocks: 4,
            supervised,
            options: LearnOptions {
                generations: 100,
                games: 200,
                selfplay: SelfPlay {
                    simulations: 200,
                    noise: Noise {
                        alpha: 1.0,
                        fraction: 0.25,
                    },
                    exploring_moves: 8,
                    ..base.selfplay
                },
                window: 10,
                steps: 200,
                minibatch: 256,
                ..base
            },
        },
    }
}

/// What one generation did and how the network it made plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    /// Its number, from 1.
    pub number: usize,
    /// Self-play games and the positions they gave.
    pub games: usize,
    /// Positions the games gave.
    pub positions: usize,
    /// Samples in the window trained on.
    pub window: usize,
    /// The mean losses of the generation's training steps.
    pub losses: Losses,
    /// The new network's score (win 1, draw ½) against the previous one.
    pub vs_previous: Option<f64>,
    /// Its score against plain MCTS at the same simulations.
    pub vs_mcts: Option<f64>,
    /// Self-play positions per second (searched and played).
    pub positions_per_second: f64,
    /// Training samples per second.
    pub samples_per_second: f64,
    /// Seconds the generation took.
    pub seconds: f64,
}

/// What the loop tells its caller as it goes.
pub enum Progress<'a, S> {
    /// A self-play game ended.
    Game {
        /// The generation playing.
        generation: usize,
        /// Games done, of `of`.
        done: usize,
        /// Games this generation.
        of: usize,
        /// Positions so far this generation.
        positions: usize,
    },
    /// Training steps done.
    Training {
        /// The generation training.
        generation: usize,
        /// Steps done, of `of`.
        done: usize,
        /// Steps this generation.
        of: usize,
        /// The last step's losses.
        losses: Losses,
    },
    /// Match games being played.
    Matches {
        /// The generation measured.
        generation: usize,
    },
    /// A generation ended: its figures, its network and its games'
    /// samples (to save, so that a resumed run has its replay window).
    Generation(&'a Generation, &'a Network, &'a [Sample<S>]),
}

/// Where a run starts: generation 1 with no games, or one past a
/// checkpoint's with the games of the generations before it that the
/// replay window keeps (oldest first), so that a run stopped and resumed
/// trains on what an unbroken one would. (Adam's moments start afresh.)
pub struct Start<S> {
    /// The first generation to run.
    pub first: usize,
    /// The samples of each earlier generation kept, oldest first.
    pub window: Vec<Vec<Sample<S>>>,
}

impl<S> Start<S> {
    /// A new run: generation 1, nothing played.
    pub fn new() -> Start<S> {
        Start {
            first: 1,
            window: Vec::new(),
        }
    }
}

impl<S> Default for Start<S> {
    fn default() -> Self {
        Start::new()
    }
}

/// Runs generations `start.first` to `options.generations` from
/// `network`, telling `progress` as it goes; returns the last network.
/// `stop` ends the run after the generation in progress.
pub fn learn<G: Learn + Chance + Playouts>(
    game: &G,
    mut network: Network,
    options: &LearnOptions,
    start: Start<G::State>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress<'_, G::State>),
) -> Network {
    let mut window: VecDeque<Vec<Sample<G::State>>> = start.window.into();
    let mut trainer = Trainer::new(&network, options.learning_rate);
    for number in start.first..=options.generations {
        let began = Instant::now();
        let seed = options.seed ^ (number as u64).wrapping_mul(0xA076_1D64_78BD_642F);
        let mut positions = 0;
        let games = parallel(
            options.games,
            options.threads,
            |i| {
                self_play(
                    game,
                    &network,
                    &options.selfplay,
                    seed.wrapping_add(i as u64),
                )
            },
            &mut |done, samples: &Vec<Sample<G::State>>| {
                positions += samples.len();
                progress(Progress::Game {
                    generation: number,
                    done,
                    of: options.games,
                    positions,
                });
            },
        );
        let played = began.elapsed().as_secs_f64();
        window.push_back(games.into_iter().flatten().collect());
        while window.len() > options.window.max(1) {
            window.pop_front();
        }
        let pool: Vec<&Sample<G::State>> = window.iter().flatten().collect();
        trainer.learning_rate = learning_rate(options, number - 1);
        let trained = Instant::now();
        let losses = train_on(game, &mut trainer, &pool, options, number, seed, progress);
        let train_seconds = trained.elapsed().as_secs_f64();
        let previous = std::mem::replace(&mut network, trainer.network());
        let (vs_previous, vs_mcts) = if options.match_games > 0 {
            progress(Progress::Matches { generation: number });
            let against = |other: Contender<'_>| score(game, &network, other, options, seed);
            (
                Some(against(Contender::Net(&previous))),
                Some(against(Contender::Mcts)),
            )
        } else {
            (None, None)
        };
        let generation = Generation {
            number,
            games: options.games,
            positions,
            window: pool.len(),
            losses,
            vs_previous,
            vs_mcts,
            positions_per_second: positions as f64 / played.max(1e-9),
            samples_per_second: (options.steps * options.minibatch) as f64
                / train_seconds.max(1e-9),
            seconds: began.elapsed().as_secs_f64(),
        };
        let games = window.back().map_or(&[][..], Vec::as_slice);
        progress(Progress::Generation(&generation, &network, games));
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    network
}

/// The step size for generation `k + 1` of the run: a half cosine
/// from the options' rate down to a tenth of it, so that the last
/// generations settle what the first ones found.
fn learning_rate(options: &LearnOptions, k: usize) -> f64 {
    crate::supervised::cosine(options.learning_rate, k, options.generations)
}

/// The generation's training steps on minibatches drawn from `pool`; the
/// mean losses.
fn train_on<G: Learn>(
    game: &G,
    trainer: &mut Trainer,
    pool: &[&Sample<G::State>],
    options: &LearnOptions,
    number: usize,
    seed: u64,
    progress: &mut dyn FnMut(Progress<'_, G::State>),
) -> Losses {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x7a11);
    let mut steps = Vec::with_capacity(options.steps);
    let mut batch = Vec::with_capacity(options.minibatch);
    for step in 0..options.steps {
        batch.clear();
        batch.extend(
            (0..options.minibatch.min(pool.len())).map(|_| pool[rng.random_range(0..pool.len())]),
        );
        let losses = trainer.step(game, &batch, &mut rng);
        steps.push(losses);
        progress(Progress::Training {
            generation: number,
            done: step + 1,
            of: options.steps,
            losses,
        });
    }
    Losses::mean(&steps)
}

/// Moves drawn in proportion to visits at the start of a match game.
const MATCH_EXPLORING_MOVES: usize = 2;

/// `network`'s score (win 1, draw ½, per game) against `other` over the
/// options' match games, colours alternating.
fn score<G: Learn + Chance + Playouts>(
    game: &G,
    network: &Network,
    other: Contender<'_>,
    options: &LearnOptions,
    seed: u64,
) -> f64 {
    let me = Contender::Net(network);
    let sims = options.selfplay.simulations;
    // The first two moves drawn by visits, so that the games differ; then
    // each side's best, so the score measures play, not exploration.
    let explore = options.selfplay.exploring_moves.min(MATCH_EXPLORING_MOVES);
    let results = parallel(
        options.match_games,
        options.threads,
        |i| {
            let seed = seed ^ 0x3a7c_4000 ^ i as u64;
            if i % 2 == 0 {
                match_game(game, me, other, sims, explore, seed)
            } else {
                -match_game(game, other, me, sims, explore, seed)
            }
        },
        &mut |_, _| {},
    );
    let total: f64 = results.iter().map(|&r| (f64::from(r) + 1.0) / 2.0).sum();
    total / options.match_games.max(1) as f64
}

/// `f(0) .. f(n - 1)` on `threads` threads, in order; `done(k, result)` is
/// told on this thread as each finishes.
pub fn parallel<T: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(usize) -> T + Sync,
    done: &mut dyn FnMut(usize, &T),
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..threads.clamp(1, n.max(1)) {
            let tx = tx.clone();
            let (next, f) = (&next, &f);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || tx.send((i, f(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (k, (i, result)) in rx.into_iter().enumerate() {
            done(k + 1, &result);
            out[i] = Some(result);
        }
    });
    out.into_iter()
        .map(|r| r.expect("every index was computed"))
        .collect()
}
