//! The searches, one file per algorithm, and what they share: options, the
//! principal-variation table, root tie-breaking, and the one-call API.

pub mod alphabeta;
pub mod cfr;
pub mod expectiminimax;
pub mod id;
pub mod mcts;
pub mod minimax;
pub mod nimber;
pub mod puct;
pub mod score_search;
pub mod smp;
pub mod tt;

use std::time::{Duration, Instant};

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::explore::reaches_chance;
use crate::game::{Chance, EngineGame, Evaluation};
use crate::observe::{Observer, Stats};
use crate::score::{MaxScore, decode_score, encode_leaf};

/// Nodes between a search's looks at its budget and at
/// [`crate::observe::Observer::should_stop`]: rare enough to cost nothing,
/// frequent enough (well under a millisecond) to stop on time. Every search
/// uses the same interval, so an observer can look at the clock each time
/// it is asked.
pub const CHECK_INTERVAL: u64 = 1024;

/// The deepest a search goes: a line this long is taken for a game that
/// does not end (a rule that lets a player pass for ever, pig's rolls
/// searched without a depth), and the search stops with
/// [`SearchError::TooDeep`] instead of recursing until the thread's stack
/// overflows and the process dies. The recursive searches use a few
/// hundred bytes of stack a ply (alpha-beta on coins about 460, measured
/// as the memory of a 1,000,000-ply solve), so on the front ends' search
/// thread (ply-service's `SEARCH_STACK`, 1 GiB) this fits many times over.
/// It is not higher because a game written in Python takes about 30 µs
/// and 2 KiB a ply: 100,000 plies is 3 seconds and 200 MB before a
/// learner's endless game is named, where 1,000,000 was 27 s and 1.8 GB.
/// Alpha-beta looks at it with its budget, every [`CHECK_INTERVAL`] nodes
/// (so it may pass it by that many plies): a depth check at every node
/// would be a cost the textbook searches pay for a broken game.
pub const MAX_PLY: u32 = 100_000;

pub use alphabeta::{Budget, Engine, alphabeta};
pub use expectiminimax::{ExpectiminimaxOutcome, expectiminimax};
pub use id::{Iteration, iterative_deepening};
pub use mcts::{
    ChildStats, IterationTrace, MAX_TREE_NODES, MctsAgent, MctsMove, MctsNodeView, MctsOptions,
    MctsResult, SelectStep, mcts, mcts_watched,
};
pub use minimax::minimax;
pub use nimber::{NimberAnalysis, NimberResult, Nimbers, analyze_nimbers, nimber};
pub use score_search::{ScoreResult, Solved, score_search, solve_exact, solve_score};

/// Why a search returned no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The position reaches a chance node (a die, a card): minimax,
    /// alpha-beta and the score search have no rule for nature's moves.
    Chance,
    /// The budget (time, nodes, a stop signal) ran out first.
    Stopped,
    /// The nimber search was asked about a game that is not impartial.
    NotImpartial,
    /// A line reached [`MAX_PLY`] plies without the game ending.
    TooDeep,
    /// The game hides information ([`Chance::HIDDEN`]: cards dealt face
    /// down): a search that reads the whole position would see them.
    Hidden,
    /// CFR writes the whole tree out, and this one has more than
    /// [`cfr::MAX_CFR_NODES`] nodes.
    TreeTooLarge,
    /// Two states of one information set differ in their player, their
    /// moves or that player's earlier choices (no perfect recall).
    BrokenInformationSet,
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == SearchError::TreeTooLarge {
            return write!(
                f,
                "CFR writes the whole game tree out, and this game's has more than {} nodes: it is for games as small as Kuhn and Leduc poker",
                cfr::MAX_CFR_NODES
            );
        }
        if *self == SearchError::TooDeep {
            return write!(
                f,
                "a line reached {MAX_PLY} plies and the game had not ended: a game that can go on for ever needs a depth limit (below {MAX_PLY}); if it should always end, a move that changes nothing (taking 0, a pass) may be what keeps it going"
            );
        }
        f.write_str(match self {
            SearchError::Chance => {
                "this position has chance nodes: minimax, alpha-beta and the score search are for deterministic positions; use expectiminimax or MCTS"
            }
            SearchError::Stopped => "the search was stopped before it finished",
            SearchError::NotImpartial => {
                "the nimber search is for impartial games, where both players have the same moves and the player who cannot move loses (`ply list` says which)"
            }
            SearchError::Hidden => {
                "this game hides information (cards dealt face down): minimax, alpha-beta, expectiminimax and MCTS would read the hidden cards; play it by information sets with cfr, cfr+, dcfr, lcfr or mccfr"
            }
            SearchError::BrokenInformationSet => {
                "the game's information sets are inconsistent: two states of one set differ in the player to move, the legal moves or that player's earlier choices (CFR needs perfect recall)"
            }
            SearchError::TooDeep | SearchError::TreeTooLarge => unreachable!("written above"),
        })
    }
}

impl std::error::Error for SearchError {}

/// How many positions [`refuse_chance`] looks at for a chance node.
const CHANCE_LOOKAHEAD: usize = 100_000;

/// Counts a node entered and, once every [`CHECK_INTERVAL`] of them, asks
/// the observer whether to stop: the question minimax and expectiminimax
/// put (alpha-beta asks beside its budget's own checks). With an observer
/// that never stops, the whole question compiles away.
pub(crate) fn entered_and_stopped<O: Observer>(nodes: &mut u64, observer: &mut O) -> bool {
    *nodes += 1;
    nodes.is_multiple_of(CHECK_INTERVAL) && observer.should_stop()
}

/// Whether a node at `ply` that is not the end of the game lies at
/// [`MAX_PLY`]: asked only where a search has already stopped descending
/// (at its [`SearchOptions::recursion_limit`]), so it costs the hot path nothing.
#[inline]
pub(crate) fn too_deep(ply: u32, terminal: bool) -> bool {
    !terminal && ply >= MAX_PLY
}

/// Refuses a position from which a chance node is reachable, before a
/// deterministic search starts. Free for games without chance
/// ([`Chance::HAS_CHANCE`] false); for the others it looks at up to
/// [`CHANCE_LOOKAHEAD`] positions, and the searches check every node they
/// visit besides, so a chance node the look missed still stops them.
pub(crate) fn refuse_chance<G: Chance>(game: &G, state: &G::State) -> Result<(), SearchError> {
    refuse_hidden::<G>()?;
    if reaches_chance(game, state, CHANCE_LOOKAHEAD) {
        Err(SearchError::Chance)
    } else {
        Ok(())
    }
}

/// Refuses a game with hidden information ([`Chance::HIDDEN`]) before a
/// search that reads whole positions starts: a constant test, compiled
/// away for every other game.
pub(crate) fn refuse_hidden<G: Chance>() -> Result<(), SearchError> {
    if G::HIDDEN {
        Err(SearchError::Hidden)
    } else {
        Ok(())
    }
}

/// An index drawn with the given probabilities (summing to 1), as the
/// sampled searches draw nature's outcomes and mixed strategies' moves.
pub(crate) fn draw(rng: &mut Xoshiro256PlusPlus, probs: &[f64]) -> usize {
    let mut x: f64 = rng.random();
    for (i, &p) in probs.iter().enumerate() {
        if x < p {
            return i;
        }
        x -= p;
    }
    // Rounding left a sliver past the last: the last positive one.
    probs.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

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

/// What a search may do. The default is the textbook search: exact, no
/// table, the game's move order, plain utilities; each engine feature is
/// switched on separately, so their effects can be measured one by one.
/// Every switch says what it turns on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Plies to search before scoring positions with [`Evaluation::evaluate`](crate::game::Evaluation::evaluate);
    /// `None` searches to the end of the game and scores with [`Game::utility`].
    /// For iterative deepening, the deepest iteration.
    pub depth: Option<u32>,
    /// How to choose among equally good root moves.
    pub tie_break: TieBreak,
    /// Transposition-table size in MiB; 0 for none.
    pub tt_mb: usize,
    /// Move ordering: the game's hints, killer moves and the history
    /// heuristic. (With a table, its best move is always tried first.)
    pub ordering: bool,
    /// With `ordering`, try the killer move (the last move that cut off at
    /// this ply) early; on by default. Connect Four's threat ordering does
    /// better without it: measured, 30% fewer nodes on Test_L1_R1.
    pub killers: bool,
    /// Principal-variation search: null windows after the first move.
    pub pvs: bool,
    /// Distance-to-end scores: the quickest win, the slowest loss.
    pub fast_win: bool,
    /// Wall-clock budget (iterative deepening stops starting or finishing
    /// iterations past it).
    pub time_limit: Option<Duration>,
    /// Node budget, like the time budget.
    pub node_limit: Option<u64>,
    /// The game's solver shortcuts ([`Shortcuts::immediate_win`](crate::game::Shortcuts::immediate_win),
    /// [`Shortcuts::forced_moves`](crate::game::Shortcuts::forced_moves), [`Shortcuts::exact_bounds`](crate::game::Shortcuts::exact_bounds)): proven facts that
    /// end or narrow a node without searching it.
    pub shortcuts: bool,
    /// Use table entries only when searched to exactly the depth needed, so
    /// a depth-limited search returns exactly the fixed-depth minimax value
    /// (for comparisons). Off, deeper entries are used too: stronger play,
    /// but a value that can differ from the fixed-depth one.
    pub tt_exact_depth: bool,
    /// Quiescence search at the depth limit over [`EngineHooks::noisy_moves`](crate::game::EngineHooks::noisy_moves)
    /// (no effect for games without noisy moves).
    pub quiescence: bool,
    /// Null-move pruning where [`EngineHooks::null_move`](crate::game::EngineHooks::null_move) allows it.
    pub null_move: bool,
    /// Late-move reductions of moves [`EngineHooks::is_quiet`](crate::game::EngineHooks::is_quiet) calls quiet.
    pub reductions: bool,
    /// One more ply after a move that leaves the opponent [`EngineHooks::in_check`](crate::game::EngineHooks::in_check).
    pub check_extension: bool,
    /// Aspiration windows in iterative deepening, of the tuning's
    /// `aspiration_width`.
    pub aspiration: bool,
    /// Futility pruning near the leaves, with the tuning's `futility_margin`.
    pub futility: bool,
    /// A position that
    /// [`EngineHooks::is_repetition`](crate::game::EngineHooks::is_repetition)
    /// calls a repetition is scored a draw inside a depth-limited search.
    pub repetition: bool,
    /// Threads for the engine's searches (iterative deepening and the
    /// score search): helpers share the table ("lazy SMP"); 0 or 1: one.
    pub threads: usize,
    /// Iterative deepening starts no new iteration past this time (the
    /// hard limit is `time_limit`); `None`: half the time limit. A move
    /// whose best choice keeps changing gets up to twice this.
    pub soft_time_limit: Option<Duration>,
    /// Selective search: under a depth limit, search only the moves
    /// [`EngineHooks::select_moves`](crate::game::EngineHooks::select_moves)
    /// keeps (no effect for games that keep them all).
    pub selective: bool,
    /// The engine's tuning numbers instead of the game's
    /// ([`EngineHooks::TUNING`](crate::game::EngineHooks::TUNING)): how
    /// engine developers try a variant in self-play without rebuilding
    /// (`ply uci --tune`). Every number of the engine is here, in one
    /// place; the switches above only turn features on.
    pub tuning: Option<crate::game::Tuning>,
}

impl Default for SearchOptions {
    /// The textbook search (killer moves are on, but act only with
    /// `ordering`).
    fn default() -> Self {
        SearchOptions {
            depth: None,
            tie_break: Default::default(),
            tt_mb: 0,
            ordering: false,
            killers: true,
            pvs: false,
            fast_win: false,
            time_limit: None,
            node_limit: None,
            shortcuts: false,
            tt_exact_depth: false,
            quiescence: false,
            null_move: false,
            reductions: false,
            check_extension: false,
            aspiration: false,
            futility: false,
            repetition: false,
            threads: 0,
            soft_time_limit: None,
            selective: false,
            tuning: None,
        }
    }
}

impl SearchOptions {
    /// An exact textbook search to the end of the game.
    pub fn exact() -> Self {
        Self::default()
    }

    /// A textbook search to `depth` plies, scoring the horizon with the evaluation.
    pub fn depth(depth: u32) -> Self {
        SearchOptions {
            depth: Some(depth),
            ..Self::default()
        }
    }

    /// The engine: a 64 MiB table, move ordering, principal-variation
    /// search, distance-to-end scores and the game's shortcuts.
    pub fn engine() -> Self {
        SearchOptions {
            tt_mb: DEFAULT_TT_MB,
            ordering: true,
            pvs: true,
            fast_win: true,
            shortcuts: true,
            quiescence: true,
            null_move: true,
            reductions: true,
            check_extension: true,
            aspiration: true,
            futility: true,
            repetition: true,
            selective: true,
            ..Self::default()
        }
    }

    pub(crate) fn ply_limit(&self) -> u32 {
        self.depth.unwrap_or(u32::MAX)
    }

    /// The ply at which minimax and expectiminimax stop descending: the
    /// depth limit, and never past [`MAX_PLY`] (where [`too_deep`] tells
    /// the two apart).
    pub(crate) fn recursion_limit(&self) -> u32 {
        self.ply_limit().min(MAX_PLY)
    }
}

/// The searches `ply compare` runs, from the reference to the full engine:
/// minimax, alpha-beta, + ordering, + table, + principal-variation search,
/// iterative deepening. Depth-limited comparisons use distance scores and
/// exact-depth table entries everywhere, so every search computes the same
/// fixed-depth value; exact ones use plain utilities where the textbook does.
pub fn comparison_set(depth: Option<u32>, tt_mb: usize) -> Vec<(Algorithm, SearchOptions)> {
    let base = SearchOptions {
        depth,
        fast_win: depth.is_some(),
        tt_exact_depth: true,
        ..SearchOptions::default()
    };
    let order = SearchOptions {
        ordering: true,
        ..base
    };
    let tt = SearchOptions { tt_mb, ..order };
    let pvs = SearchOptions { pvs: true, ..tt };
    let id = SearchOptions {
        fast_win: true,
        ..pvs
    };
    vec![
        (Algorithm::Minimax, base),
        (Algorithm::AlphaBeta, base),
        (Algorithm::AlphaBeta, order),
        (Algorithm::AlphaBeta, tt),
        (Algorithm::AlphaBeta, pvs),
        (Algorithm::Id, id),
    ]
}

/// A short name for a configuration: the algorithm and its features, as
/// `alphabeta+order+tt64+pvs`.
pub fn describe(algorithm: Algorithm, o: &SearchOptions) -> String {
    let mut parts = vec![algorithm.name().to_string()];
    if o.ordering {
        parts.push("order".into());
    }
    if o.tt_mb > 0 {
        parts.push(format!("tt{}", o.tt_mb));
    }
    if o.pvs {
        parts.push("pvs".into());
    }
    if o.fast_win {
        parts.push("fast-win".into());
    }
    if o.shortcuts {
        parts.push("shortcuts".into());
    }
    // The depth-limited engine features (each acts only where the game
    // provides its hook: chess does, tic-tac-toe does not).
    if o.quiescence {
        parts.push("qs".into());
    }
    if o.null_move {
        parts.push("null-move".into());
    }
    if o.reductions {
        parts.push("lmr".into());
    }
    if o.check_extension {
        parts.push("check-ext".into());
    }
    if o.aspiration {
        parts.push("aspiration".into());
    }
    if o.futility {
        parts.push("futility".into());
    }
    if o.selective {
        parts.push("selective".into());
    }
    parts.join("+")
}

/// The table size of the engine configuration, in MiB.
pub const DEFAULT_TT_MB: usize = 64;

/// How leaves are scored: one place for minimax and alpha-beta.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scoring {
    /// No depth limit: terminals only, by utility.
    pub exact: bool,
    /// Proven results in the decided band (engine scoring): terminals by
    /// utility, the horizon by evaluation, and a proof always outranks an
    /// estimate. Off, a depth-limited search scores every leaf by the
    /// evaluation, as the textbook does.
    pub decided: bool,
    /// Distance-to-end within the decided band.
    pub distance: bool,
}

impl Scoring {
    pub(crate) fn new(options: &SearchOptions, engine: bool) -> Self {
        Scoring {
            exact: options.depth.is_none(),
            decided: options.fast_win || engine,
            distance: options.fast_win,
        }
    }

    /// The score of a leaf, MAX's view.
    #[inline]
    pub(crate) fn leaf<G: Evaluation>(
        &self,
        game: &G,
        state: &G::State,
        terminal: bool,
        ply: u32,
    ) -> MaxScore {
        if self.decided {
            let raw = if terminal {
                game.utility(state)
            } else {
                game.heuristic(state)
            };
            MaxScore(encode_leaf(raw.0, terminal, ply, self.distance))
        } else if terminal && self.exact {
            game.utility(state)
        } else {
            game.evaluate(state)
        }
    }

    /// The score of a decided result (a utility reached `plies` from the
    /// root), as a terminal leaf there would be scored.
    #[inline]
    pub(crate) fn decided(&self, raw: MaxScore, plies: u32) -> MaxScore {
        if self.decided {
            MaxScore(encode_leaf(raw.0, true, plies, self.distance))
        } else {
            raw
        }
    }

    /// A root score back in game units, with its distance when decided.
    pub(crate) fn report(&self, score: MaxScore) -> (MaxScore, Option<u32>) {
        if !self.decided {
            return (score, None);
        }
        let (v, d) = decode_score(score.0);
        (MaxScore(v), if self.distance { d } else { None })
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
    /// With distance-to-end scores, for a proven win or loss: plies to the
    /// end under best play.
    pub distance: Option<u32>,
    /// Whether the value is proven: it does not depend on a depth limit
    /// (always so for exact searches).
    pub proven: bool,
}

/// An [`Outcome`] with the statistics and time of the search that found it.
#[derive(Clone, Debug)]
pub struct Searched<M> {
    /// What was found.
    pub outcome: Outcome<M>,
    /// What it cost.
    pub stats: Stats,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl<M> Searched<M> {
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
    /// Alpha-beta: negamax, fail-soft; textbook unless options switch on
    /// the table, ordering, principal-variation search or distance scores.
    AlphaBeta,
    /// Iterative deepening: alpha-beta to depth 1, 2, 3 ... under a time
    /// budget, each iteration ordered by the last.
    Id,
}

impl Algorithm {
    /// Every algorithm, for listings.
    pub const ALL: [Algorithm; 3] = [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Id];

    /// The name the CLI uses.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Id => "id",
        }
    }

    /// One line on what it does.
    pub fn description(self) -> &'static str {
        match self {
            Algorithm::Minimax => {
                "plain minimax, no pruning: visits the whole tree; the reference the others are tested against"
            }
            Algorithm::AlphaBeta => {
                "alpha-beta (negamax, fail-soft): full window at the root, cut when alpha >= beta, moves in the game's order; --tt-mb, --order, --pvs, --fast-win add engine features"
            }
            Algorithm::Id => {
                "iterative deepening: alpha-beta to depth 1, 2, 3 ... under --time-ms, the last iteration's line and the table ordering the next; stops once the value is proven"
            }
        }
    }

    /// Runs this search with an observer.
    pub fn run<G: EngineGame, O: Observer>(
        self,
        game: &G,
        state: &G::State,
        options: &SearchOptions,
        observer: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        match self {
            Algorithm::Minimax => minimax(game, state, options, observer),
            Algorithm::AlphaBeta => alphabeta(game, state, options, observer),
            Algorithm::Id => iterative_deepening(game, state, options, None, observer, |_| {}),
        }
    }
}

/// Runs `algorithm` on `state` and returns what it found, with statistics and time.
pub fn solve<G: EngineGame>(
    game: &G,
    state: &G::State,
    algorithm: Algorithm,
    options: &SearchOptions,
) -> Result<Searched<G::Move>, SearchError> {
    let mut stats = Stats::default();
    let start = Instant::now();
    let outcome = algorithm.run(game, state, options, &mut stats)?;
    Ok(Searched {
        outcome,
        stats,
        elapsed: start.elapsed(),
    })
}

/// The one-call API: the best move in `state` by an exact alpha-beta search
/// (or one to `options.depth`), `None` when the game is over; an error for a
/// position with chance nodes.
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
/// no_hooks!(Race); // no evaluation, shortcuts, engine hooks, chance or playouts
///
/// // From 1, adding 2 reaches 3 at once.
/// assert_eq!(best_move(&Race, &(1, Player::Max), &SearchOptions::exact()), Ok(Some(2)));
/// // From 0 the first player loses whatever it does: the value says so.
/// let r = solve(&Race, &Race.initial_state(), Algorithm::AlphaBeta, &SearchOptions::exact());
/// assert_eq!(r.unwrap().outcome.value, MaxScore(-1));
/// ```
pub fn best_move<G: EngineGame>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
) -> Result<Option<G::Move>, SearchError> {
    Ok(alphabeta(game, state, options, &mut crate::observe::NoObserver)?.best_move)
}

/// One legal move and what it is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// The value of the position after it, MAX's view, in game units.
    pub value: MaxScore,
    /// With distance-to-end scores, plies from before the move to the end.
    pub distance: Option<u32>,
    /// Whether the value is proven rather than estimated.
    pub proven: bool,
    /// The principal variation from the position after the move.
    pub pv: Vec<M>,
}

impl<M> MoveValue<M> {
    /// A key that sorts moves best first for `player`: value first, a proof
    /// above any estimate, then the quicker win or the slower loss.
    fn rank(&self, player: crate::score::Player) -> i32 {
        let v = self.value.for_player(player).0;
        if self.proven && v != 0 {
            encode_leaf(v, true, self.distance.unwrap_or(0), true)
        } else {
            v
        }
    }
}

/// The value of every legal move, best first for the player to move.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// Each legal move with its value, best first for the player to move;
    /// equal moves keep the game's order.
    pub moves: Vec<MoveValue<M>>,
    /// What the searches cost, summed over the moves.
    pub stats: Stats,
    /// Wall-clock time of all the searches.
    pub elapsed: Duration,
}

/// Searches every legal move of `state` with a full window, so that each
/// value is exact (or exact to `options.depth`). With a time limit, each
/// move gets an equal share.
pub fn analyze<G: EngineGame>(
    game: &G,
    state: &G::State,
    algorithm: Algorithm,
    options: &SearchOptions,
) -> Result<Analysis<G::Move>, SearchError> {
    analyze_observed(
        game,
        state,
        algorithm,
        options,
        &mut crate::observe::NoObserver,
    )
}

/// [`analyze`] with every move's search reported to `observer` too (which
/// may stop them).
pub fn analyze_observed<G: EngineGame, O: Observer>(
    game: &G,
    state: &G::State,
    algorithm: Algorithm,
    options: &SearchOptions,
    observer: &mut O,
) -> Result<Analysis<G::Move>, SearchError> {
    refuse_chance(game, state)?;
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut moves = Vec::new();
    let mut result = Vec::new();
    if !game.is_terminal(state) {
        game.legal_moves(state, &mut moves);
    }
    let player = game.to_move(state);
    let share = moves.len().max(1) as u32;
    let mut child_options = SearchOptions {
        depth: options.depth.map(|d| d.saturating_sub(1)),
        tie_break: TieBreak::First,
        node_limit: options.node_limit.map(|n| n / u64::from(share)),
        ..*options
    };
    for (i, &m) in moves.iter().enumerate() {
        // Each move gets an equal share of the time still left, so the
        // time a quickly proven move did not use goes to the moves after
        // it rather than being lost.
        child_options.time_limit = options
            .time_limit
            .map(|t| t.saturating_sub(start.elapsed()) / (moves.len() - i) as u32);
        let child = game.play(state, m);
        let mut s = Stats::default();
        let out = algorithm.run(game, &child, &child_options, &mut (&mut s, &mut *observer))?;
        s.max_ply += 1;
        stats.add(&s);
        result.push(MoveValue {
            mv: m,
            value: out.value,
            distance: out.distance.map(|d| d + 1),
            proven: out.proven,
            pv: out.pv,
        });
    }
    // Best first for the mover; a stable sort keeps equal moves in game order.
    result.sort_by_key(|m| std::cmp::Reverse(m.rank(player)));
    Ok(Analysis {
        moves: result,
        stats,
        elapsed: start.elapsed(),
    })
}

/// Every move's expectiminimax value, and the position's.
#[derive(Clone, Debug)]
pub struct ExpectiminimaxAnalysis<M> {
    /// The position's value, MAX's view: the best move's, or at a chance
    /// node the probability-weighted mean of its outcomes'.
    pub value: f64,
    /// Each move (or outcome) with its value, MAX's view: best first for
    /// the player to move, equal moves in the game's order; at a chance
    /// node, the outcomes in the game's order.
    pub moves: Vec<(M, f64)>,
    /// What the searches cost, summed over the moves.
    pub stats: Stats,
    /// Wall-clock time of all the searches.
    pub elapsed: Duration,
}

/// Searches every move (or chance outcome) of `state` by expectiminimax
/// as a root of its own, one ply shallower, so that every value is exact
/// (Star1 at the root would leave some only as bounds).
/// [`SearchError::Stopped`] when `observer` asks the searches to stop.
pub fn analyze_expectiminimax<G: Evaluation + Chance, O: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    star1: bool,
    observer: &mut O,
) -> Result<ExpectiminimaxAnalysis<G::Move>, SearchError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let child_options = SearchOptions {
        depth: options.depth.map(|d| d.saturating_sub(1)),
        ..*options
    };
    let mut legal = Vec::new();
    if !game.is_terminal(state) {
        game.legal_moves(state, &mut legal);
    }
    let mut moves = Vec::new();
    for &m in &legal {
        let child = game.play(state, m);
        let mut s = Stats::default();
        let out = expectiminimax(
            game,
            &child,
            &child_options,
            star1,
            &mut (&mut s, &mut *observer),
        )?;
        stats.add(&s);
        moves.push((m, out.value));
    }
    let mover = game.to_move(state);
    let value = if game.is_chance(state) {
        let mut outcomes = Vec::new();
        game.chance_outcomes(state, &mut outcomes);
        outcomes
            .iter()
            .zip(&moves)
            .map(|((_, p), (_, v))| p * v)
            .sum()
    } else {
        let best = moves.iter().map(|&(_, v)| mover.view(v));
        mover.view(best.fold(f64::NEG_INFINITY, f64::max))
    };
    if !game.is_chance(state) {
        moves.sort_by(|x, y| mover.view(y.1).total_cmp(&mover.view(x.1)));
    }
    Ok(ExpectiminimaxAnalysis {
        value,
        moves,
        stats,
        elapsed: start.elapsed(),
    })
}

/// Every move's exact value by the score search, best first for the player
/// to move (equal moves in the game's order); `weak`: only their signs.
/// The engine's table carries from one move's solve to the next;
/// `observer` hears all of them (and may stop them).
pub fn analyze_score<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    weak: bool,
    observer: &mut O,
) -> Result<Vec<(G::Move, MaxScore)>, SearchError> {
    let mut legal = Vec::new();
    if !game.is_terminal(state) {
        game.legal_moves(state, &mut legal);
    }
    let mover = game.to_move(state);
    let mut moves = Vec::new();
    for &m in &legal {
        let child = game.play(state, m);
        let r = solve_score(engine, game, &child, weak, observer)?;
        moves.push((m, r.value));
    }
    moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v.for_player(mover)));
    Ok(moves)
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
