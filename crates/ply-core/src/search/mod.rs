//! The searches, one file per algorithm, and what they share: options, the
//! principal-variation table, root tie-breaking, and the one-call API.

pub mod alphabeta;
pub mod minimax;

use std::time::{Duration, Instant};

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::Game;
use crate::observe::{Observer, Stats};
use crate::score::MaxScore;

pub use alphabeta::alphabeta;
pub use minimax::minimax;

/// How to choose among root moves of equal value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieBreak {
    /// The first in the order the moves were searched (the default): results
    /// are reproducible and match textbook traces.
    #[default]
    First,
    /// A seeded random choice among the equally good moves, for variety in
    /// play; the same seed gives the same choice. Alpha-beta must then prove
    /// which root moves tie, which costs a few nodes.
    Random(u64),
}

/// What a search may do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Plies to search before scoring positions with [`Game::evaluate`];
    /// `None` searches to the end of the game and scores with [`Game::utility`].
    pub depth: Option<u32>,
    /// How to choose among equally good root moves.
    pub tie_break: TieBreak,
}

impl SearchOptions {
    /// An exact search to the end of the game.
    pub fn exact() -> Self {
        Self::default()
    }

    /// A search to `depth` plies, scoring the horizon with the evaluation.
    pub fn depth(depth: u32) -> Self {
        SearchOptions {
            depth: Some(depth),
            ..Self::default()
        }
    }

    pub(crate) fn ply_limit(&self) -> u32 {
        self.depth.unwrap_or(u32::MAX)
    }
}

/// What a search found at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<M> {
    /// The root's value from MAX's view.
    pub value: MaxScore,
    /// The move chosen, `None` in a terminal position.
    pub best_move: Option<M>,
    /// The principal variation: best play from the root, starting with `best_move`.
    pub pv: Vec<M>,
}

/// An [`Outcome`] with the statistics and time of the search that found it.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// What was found.
    pub outcome: Outcome<M>,
    /// What it cost.
    pub stats: Stats,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl<M> Report<M> {
    /// Nodes per second, 0 when the search was too quick to time.
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.stats.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// The exact searches by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Plain minimax: the reference, no pruning.
    Minimax,
    /// Textbook alpha-beta: full window, the game's move order, no table.
    AlphaBeta,
}

impl Algorithm {
    /// Every algorithm, for listings.
    pub const ALL: [Algorithm; 2] = [Algorithm::Minimax, Algorithm::AlphaBeta];

    /// The name the CLI uses.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
        }
    }

    /// One line on what it does.
    pub fn description(self) -> &'static str {
        match self {
            Algorithm::Minimax => {
                "plain minimax, no pruning: visits the whole tree; the reference the others are tested against"
            }
            Algorithm::AlphaBeta => {
                "alpha-beta (negamax, fail-soft): full window at the root, cut when alpha >= beta, moves in the game's order"
            }
        }
    }

    /// Runs this search with an observer.
    pub fn run<G: Game, O: Observer>(
        self,
        game: &G,
        state: &G::State,
        options: &SearchOptions,
        observer: &mut O,
    ) -> Outcome<G::Move> {
        match self {
            Algorithm::Minimax => minimax(game, state, options, observer),
            Algorithm::AlphaBeta => alphabeta(game, state, options, observer),
        }
    }
}

/// Runs `algorithm` on `state` and returns what it found, with statistics and time.
pub fn solve<G: Game>(
    game: &G,
    state: &G::State,
    algorithm: Algorithm,
    options: &SearchOptions,
) -> Report<G::Move> {
    let mut stats = Stats::default();
    let start = Instant::now();
    let outcome = algorithm.run(game, state, options, &mut stats);
    Report {
        outcome,
        stats,
        elapsed: start.elapsed(),
    }
}

/// The one-call API: the best move in `state` by an exact alpha-beta search
/// (or one to `options.depth`), `None` when the game is over.
///
/// ```
/// use ply_core::prelude::*;
///
/// /// Race to 3: players alternately add 1 or 2; whoever reaches 3 wins.
/// struct Race;
/// impl Game for Race {
///     type State = (u8, Player); // the total, and who is to move
///     type Move = u8;
///     fn initial_state(&self) -> (u8, Player) { (0, Player::Max) }
///     fn to_move(&self, s: &(u8, Player)) -> Player { s.1 }
///     fn legal_moves(&self, s: &(u8, Player), out: &mut Vec<u8>) {
///         out.extend((1..=2).filter(|k| s.0 + k <= 3))
///     }
///     fn play(&self, s: &(u8, Player), k: u8) -> (u8, Player) { (s.0 + k, s.1.opponent()) }
///     fn is_terminal(&self, s: &(u8, Player)) -> bool { s.0 == 3 }
///     // The player to move at 3 did not reach it: the other one won.
///     fn utility(&self, s: &(u8, Player)) -> MaxScore { MaxScore(-s.1.sign()) }
/// }
///
/// // From 1, adding 2 reaches 3 at once.
/// assert_eq!(best_move(&Race, &(1, Player::Max), &SearchOptions::exact()), Some(2));
/// // From 0 the first player loses whatever it does: the value says so.
/// let r = solve(&Race, &Race.initial_state(), Algorithm::AlphaBeta, &SearchOptions::exact());
/// assert_eq!(r.outcome.value, MaxScore(-1));
/// ```
pub fn best_move<G: Game>(game: &G, state: &G::State, options: &SearchOptions) -> Option<G::Move> {
    alphabeta(game, state, options, &mut crate::observe::NoObserver).best_move
}

/// The value of every legal move, best first for the player to move.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// Each legal move with the value of the position after it (MAX's view),
    /// best first for the player to move; equal values keep the game's order.
    pub moves: Vec<(M, MaxScore)>,
    /// What the searches cost, summed over the moves.
    pub stats: Stats,
    /// Wall-clock time of all the searches.
    pub elapsed: Duration,
}

/// Searches every legal move of `state` with a full window, so that each
/// value is exact (or exact to `options.depth`).
pub fn analyze<G: Game>(
    game: &G,
    state: &G::State,
    algorithm: Algorithm,
    options: &SearchOptions,
) -> Analysis<G::Move> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut moves = Vec::new();
    let mut result = Vec::new();
    if !game.is_terminal(state) {
        game.legal_moves(state, &mut moves);
    }
    let player = game.to_move(state);
    let child_options = SearchOptions {
        depth: options.depth.map(|d| d.saturating_sub(1)),
        tie_break: TieBreak::First,
    };
    for &m in &moves {
        let child = game.play(state, m);
        let mut s = Stats::default();
        let out = algorithm.run(game, &child, &child_options, &mut s);
        stats.nodes += s.nodes;
        stats.leaves += s.leaves;
        stats.cutoffs += s.cutoffs;
        stats.max_ply = stats.max_ply.max(s.max_ply + 1);
        result.push((m, out.value));
    }
    // Best first for the mover; a stable sort keeps equal moves in game order.
    result.sort_by_key(|&(_, v)| std::cmp::Reverse(v.for_player(player)));
    Analysis {
        moves: result,
        stats,
        elapsed: start.elapsed(),
    }
}

/// The triangular principal-variation table: `lines[ply]` is the best line
/// found so far from the node at `ply`.
pub(crate) struct PvTable<M> {
    lines: Vec<Vec<M>>,
}

impl<M: Copy> PvTable<M> {
    pub(crate) fn new() -> Self {
        PvTable { lines: Vec::new() }
    }

    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        if self.lines.len() <= ply + 1 {
            self.lines.resize_with(ply + 2, Vec::new);
        }
        self.lines[ply].clear();
    }

    /// `mv` is the new best move at `ply`: the line becomes `mv` then the child's line.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, mv: M) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    pub(crate) fn line(&self, ply: usize) -> &[M] {
        self.lines.get(ply).map_or(&[], |l| l.as_slice())
    }
}

/// Collects the root moves that share the best value, for [`TieBreak::Random`].
pub(crate) struct RootTies<M> {
    best: Option<MaxScore>,
    ties: Vec<Vec<M>>,
}

impl<M: Copy> RootTies<M> {
    pub(crate) fn new() -> Self {
        RootTies {
            best: None,
            ties: Vec::new(),
        }
    }

    /// Offers a root move's exact value (already known to be no worse than
    /// the best so far), with its line.
    pub(crate) fn offer(&mut self, value: MaxScore, better: bool, line: &[M]) {
        if better || self.best.is_none() {
            self.best = Some(value);
            self.ties.clear();
        }
        if self.best == Some(value) {
            self.ties.push(line.to_vec());
        }
    }

    /// The chosen line among the ties.
    pub(crate) fn choose(self, seed: u64) -> Option<Vec<M>> {
        if self.ties.is_empty() {
            return None;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let i = rng.random_range(0..self.ties.len());
        self.ties.into_iter().nth(i)
    }
}
