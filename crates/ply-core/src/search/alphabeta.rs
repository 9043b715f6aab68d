//! Alpha-beta, in negamax form: the one alpha-beta of ply.
//!
//! With default [`SearchOptions`] it is the textbook algorithm: a full
//! window (-inf, +inf) at the root, moves in the game's order, a cut as soon
//! as alpha >= beta, no table. That is what the published node counts
//! measure (18,297 on empty tic-tac-toe). Each engine feature is a named
//! step of the node function ([`Searcher::node`]), switched on by its
//! option, with the reason it is safe:
//!
//! - **transposition table** (`tt_mb`): a position met again returns what
//!   was learned the first time, when that is enough to decide the node;
//! - **move ordering** (`ordering`): the table's move, killer moves and the
//!   history heuristic first, so cutoffs come sooner;
//! - **principal-variation search** (`pvs`): after the first move, prove
//!   with a null window that the others are no better, and only re-search
//!   when one is;
//! - **distance-to-end scores** (`fast_win`): the quickest win, the slowest loss;
//! - the game's **solver shortcuts** (`shortcuts`) and, with a depth limit,
//!   the **engine hooks** (quiescence, null move, reductions, futility,
//!   check extensions, repetition draws).
//!
//! Fail-soft: a node returns the best value it saw even outside its window,
//! which proves the same bound as fail-hard but a tighter one.
//!
//! Internally every value is a [`MoverScore`]; the observer sees MAX-view
//! values and windows through the one conversion in [`crate::score`].
//! A search that must stop (its budget ran out, or it met a chance node)
//! returns an [`SearchError`] that travels up the tree by `?`; each node tells
//! the observer it exits in one place, whatever happened.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::{EngineGame, EngineHooks, Tuning, sort_by_priority};
use crate::observe::Observer;
use crate::score::{
    MaxScore, MoverScore, Player, Window, distance_to_node, distance_to_root, is_decided,
};
use crate::search::tt::{Bound, COMPLETE, TransTable};
use crate::search::{
    CHECK_INTERVAL, MAX_PLY, Outcome, RootTies, Scoring, SearchError, SearchOptions, TieBreak,
};

/// When to give up: checked every [`CHECK_INTERVAL`] nodes.
#[derive(Clone, Copy, Default)]
pub struct Budget<'a> {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes (counted over the engine's life).
    pub nodes: Option<u64>,
    /// Stop when another thread sets this.
    pub stop: Option<&'a AtomicBool>,
}

/// What a node returns: its value for the player to move, and whether that
/// value is proven (does not depend on the depth limit).
type NodeResult = Result<(MoverScore, bool), SearchError>;

/// The largest history bonus, reached at this many plies of remaining depth.
const HISTORY_DEPTH_CAP: u32 = 20;

/// With [`crate::Tuning::history_gravity`], the bound history scores
/// approach and never pass, either way: an update moves a score by its
/// bonus scaled by how far the score still is from the bound, so old
/// scores fade as new ones come in and the table tracks the current
/// position instead of the whole game.
const HISTORY_GRAVITY_MAX: i32 = 16_384;

/// A helper thread turns its move order at the odd plies up to this one.
/// When the root's first move proves the value (a win, or a fail-high
/// probe), the odd plies are the nodes where every move must be searched:
/// there the main thread will come to each move in turn, and a helper that
/// starts elsewhere works ahead of it. Turning the root's order instead
/// sends the helper into moves a cutoff makes irrelevant. Measured on the
/// empty Connect Four board (weak, 2 threads, main thread's nodes): plies
/// 0-1 turned 520 M nodes; ply 1, 397 M; plies 1 and 3, 366 M; 1, 3 and
/// 5, 354 M; every odd ply, 491 M (one thread: 543 M).
const HELPER_TURNED_PLY: usize = 5;

/// Futility pruning works this many plies from the horizon.
const FUTILITY_DEPTH: u32 = 3;

/// How many plies a late quiet move is reduced: more the deeper the node
/// and the later the move (logarithmic in both, as is usual; the
/// tuning's `lmr_base` and `lmr_divisor` in hundredths), never so much
/// that the reduced search has no full ply left.
fn lmr_reduction(depth: u32, index: usize, tuning: &Tuning) -> u32 {
    let log = (depth as f64).ln() * (index as f64).ln();
    let r = f64::from(tuning.lmr_base) / 100.0 + log / (f64::from(tuning.lmr_divisor) / 100.0);
    (r.max(0.0) as u32).clamp(1, depth.saturating_sub(2).max(1))
}

/// How many quiet moves late-move pruning searches before it skips the rest
/// (see [`crate::Tuning::late_move_pruning`]).
fn late_moves(depth: u32, improving: bool) -> usize {
    let n = 3 + (depth * depth) as usize;
    if improving { n } else { n / 2 }
}

/// Quiescence stops here whatever the position (a guard: captures run
/// out long before in any real game).
const MAX_QUIESCENCE_PLY: u32 = 200;

/// One ply's working data, kept from search to search in the engine's
/// stack: per-ply state in one place, indexed by the distance from the root.
struct Frame<M> {
    /// The moves being searched at this ply (one allocation reused).
    moves: Vec<M>,
    /// The same moves in the game's natural order (after the solver
    /// shortcuts' narrowing): the table stores a best move as its index here.
    natural: Vec<M>,
    /// The killer move: the latest refutation at this ply. One slot: on
    /// tic-tac-toe a second one sent the search into more nodes than plain
    /// alpha-beta on some positions.
    killer: Option<M>,
    /// The best line found so far from the node at this ply (the
    /// triangular principal-variation table, one row a ply).
    pv: Vec<M>,
    /// The static evaluation of the node at this ply, from its mover's
    /// view (`None` in check, at the root, or when no step needs it).
    eval: Option<MoverScore>,
    /// The continuation slot of the move being searched from this ply
    /// (`None`: a null move, or no continuation history), which the
    /// replies below read their continuation scores by.
    current: Option<usize>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            moves: Vec::new(),
            natural: Vec::new(),
            killer: None,
            pv: Vec::new(),
            eval: None,
            current: None,
        }
    }
}

/// The indices into the continuation table (of the game's
/// `continuation_slots` squared) of `mv` (in `state`) after each of the
/// moves `before` (from `Searcher::continued`).
#[inline]
fn continuation_cells<G: EngineHooks>(
    game: &G,
    state: &G::State,
    mv: G::Move,
    before: [Option<usize>; 2],
) -> [Option<usize>; 2] {
    if before == [None, None] {
        return before;
    }
    let n = game.continuation_slots();
    match game.continuation_slot(state, mv) {
        Some(c) if c < n => before.map(|b| b.map(|b| b * n + c)),
        _ => [None, None],
    }
}

/// What an engine keeps between searches: the table, the killer moves and
/// the history scores, which make the next search (the next iteration, the
/// next move of a game) faster.
pub struct Engine<M> {
    options: SearchOptions,
    tt: Option<Arc<TransTable>>,
    history: Vec<i32>,
    /// Continuation history: `slots × slots` scores (the game's
    /// [`EngineHooks::continuation_slots`]), the earlier move's continuation
    /// slot first; made by the first search that uses it.
    continuation: Vec<i32>,
    stack: Vec<Frame<M>>,
    /// Nodes visited over the engine's life (the node budget counts these).
    pub nodes: u64,
    /// The deepest ply reached (quiescence included) since it was last reset.
    pub seldepth: u32,
    /// 0 for a main engine; a helper's number in a parallel search, which
    /// turns its move order at some plies so it works ahead of the others
    /// (see [`HELPER_TURNED_PLY`]).
    variant: usize,
    /// The key of the last root searched: the table ages when it changes.
    last_root: Option<u64>,
}

impl<M: Copy + Eq> Engine<M> {
    /// An engine with `options`; allocates the table once, at its full size.
    pub fn new<G: EngineHooks<Move = M>>(game: &G, options: &SearchOptions) -> Self {
        let slots = if options.ordering {
            game.history_slots()
        } else {
            0
        };
        Engine {
            options: *options,
            tt: (options.tt_mb > 0).then(|| Arc::new(TransTable::new(options.tt_mb))),
            history: vec![0; slots],
            continuation: Vec::new(),
            stack: Vec::new(),
            nodes: 0,
            seldepth: 0,
            variant: 0,
            last_root: None,
        }
    }

    /// A helper for a parallel search: the same options, the same table
    /// (shared, not copied), its own killers, history and counters; helper
    /// number `variant` (from 1) tries the moves of some plies in a turned
    /// order, so the threads start on different subtrees.
    pub fn helper(&self, variant: usize) -> Self {
        Engine {
            options: self.options,
            tt: self.tt.clone(),
            history: vec![0; self.history.len()],
            continuation: Vec::new(),
            stack: Vec::new(),
            nodes: 0,
            seldepth: 0,
            variant,
            last_root: None,
        }
    }

    /// The options it was made with.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Sets the limits of the next searches (depth, time, soft time,
    /// nodes), keeping the table and heuristics: a game's next move, or a
    /// UCI `go` with a different clock.
    pub fn set_limits(
        &mut self,
        depth: Option<u32>,
        time_limit: Option<std::time::Duration>,
        soft_time_limit: Option<std::time::Duration>,
        node_limit: Option<u64>,
    ) {
        self.options.depth = depth;
        self.options.time_limit = time_limit;
        self.options.soft_time_limit = soft_time_limit;
        self.options.node_limit = node_limit;
    }

    /// The table, if it has one.
    pub fn table(&self) -> Option<&TransTable> {
        self.tt.as_deref()
    }

    /// Forgets what earlier searches learned (a new game).
    pub fn clear(&mut self) {
        if let Some(tt) = &self.tt {
            tt.clear();
        }
        self.stack.iter_mut().for_each(|f| f.killer = None);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.continuation.iter_mut().for_each(|h| *h = 0);
    }

    /// Makes room for ply `p` and the one below it, and starts ply `p`'s
    /// principal variation empty.
    #[inline]
    fn pv_clear(&mut self, p: usize) {
        if self.stack.len() <= p + 1 {
            self.stack.resize_with(p + 2, Frame::default);
        }
        self.stack[p].pv.clear();
    }

    /// `mv` is the new best move at ply `p`: its line becomes `mv`, then
    /// the line of the child below.
    #[inline]
    fn pv_update(&mut self, p: usize, mv: M) {
        let (head, tail) = self.stack.split_at_mut(p + 1);
        let line = &mut head[p].pv;
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0].pv);
    }

    /// The best line from the root of the last search (as far as it got,
    /// if it was stopped: the move may be from an older search).
    pub(crate) fn root_line(&self) -> Vec<M> {
        self.stack.first().map_or(Vec::new(), |f| f.pv.clone())
    }

    /// Searches `state` to `depth` plies (`None`: to the end), scoring as
    /// `engine_scoring` says (see [`Scoring`]). [`SearchError::Stopped`] when the
    /// budget ran out first.
    pub fn search<G, O>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        engine_scoring: bool,
        budget: &Budget,
        observer: &mut O,
    ) -> Result<Outcome<M>, SearchError>
    where
        G: EngineGame<Move = M>,
        O: Observer,
    {
        let window = (MoverScore::NEG_INF, MoverScore::INF);
        self.search_window(game, state, depth, engine_scoring, window, budget, observer)
    }

    /// [`Engine::search`] with a root window `(alpha, beta)` from the view of
    /// the player to move: the value returned is exact inside it, and an
    /// upper (at most alpha) or lower (at least beta) bound outside. A null
    /// window `(v, v + 1)` answers "is the value above v?" cheaply: the
    /// building block of solving by the score ([`crate::search::score_search`]).
    #[allow(clippy::too_many_arguments)]
    pub fn search_window<G, O>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        engine_scoring: bool,
        window: (MoverScore, MoverScore),
        budget: &Budget,
        observer: &mut O,
    ) -> Result<Outcome<M>, SearchError>
    where
        G: EngineGame<Move = M>,
        O: Observer,
    {
        let mut options = self.options;
        options.depth = depth;
        // A new root ages the table; the iterations of iterative deepening
        // and the probes of a score search share their root and keep their
        // entries young, since each one's results serve the next. Only the
        // main engine ages it: a helper's searches are the same search.
        if let Some(tt) = &self.tt
            && self.variant == 0
        {
            let root = game.hash_key(state);
            if self.last_root != Some(root) {
                tt.new_search();
                self.last_root = Some(root);
            }
        }
        let f = Features::resolve::<G>(&options);
        if f.continuation && self.continuation.is_empty() {
            let n = game.continuation_slots();
            self.continuation = vec![0; n * n];
        }
        // The textbook search, all features off: compiled apart, with none
        // of the engine's per-node steps (see `Searcher`'s `PLAIN`).
        let plain = self.tt.is_none()
            && self.variant == 0
            && !(f.shortcuts || f.ordering || f.killers || f.pvs || f.continuation);
        let mut s = Searcher::<G, O, true, false> {
            game,
            observer,
            scoring: Scoring::new(&options, engine_scoring),
            limit: options.ply_limit(),
            f,
            engine: self,
            budget,
        };
        // Three compilations of the search: with a depth limit, to the end
        // (where the depth-limited machinery, from quiescence to futility
        // pruning, is compiled out of every node), and the textbook search
        // to the end (where the rest of the engine is compiled out too).
        match (options.tie_break, options.depth.is_some()) {
            (TieBreak::First, true) => s.root(state, window),
            (TieBreak::First, false) if plain => s.compiled::<false, true>().root(state, window),
            (TieBreak::First, false) => s.compiled::<false, false>().root(state, window),
            (TieBreak::Random(seed), true) => s.random_root(state, seed),
            (TieBreak::Random(seed), false) => {
                s.compiled::<false, false>().random_root(state, seed)
            }
        }
    }
}

/// The engine features of one search, resolved once from its options and
/// the game's tuning: the node function reads plain flags.
#[derive(Clone, Copy, Debug)]
struct Features {
    /// The tuning numbers: the game's, or the options' override.
    tuning: Tuning,
    quiescence: bool,
    null_move: bool,
    reductions: bool,
    check_extension: bool,
    /// The futility margin, when futility pruning is on.
    futility: Option<i32>,
    /// Score repeated positions as draws.
    repetition: bool,
    ordering: bool,
    /// Continuation history: ordering, gravity and the tuning's switch.
    continuation: bool,
    killers: bool,
    pvs: bool,
    tt_exact_depth: bool,
    shortcuts: bool,
    selective: bool,
}

impl Features {
    /// The features `o` asks for; those of depth-limited play only with a
    /// depth limit.
    fn resolve<G: EngineHooks>(o: &SearchOptions) -> Self {
        let limited = o.depth.is_some();
        let tuning = o.tuning.unwrap_or(G::TUNING);
        Features {
            tuning,
            quiescence: o.quiescence,
            null_move: o.null_move && limited,
            reductions: o.reductions && limited,
            check_extension: o.check_extension && limited,
            futility: if o.futility && limited {
                tuning.futility_margin
            } else {
                None
            },
            repetition: o.repetition && limited,
            ordering: o.ordering,
            continuation: o.ordering && tuning.history_gravity && tuning.continuation_history,
            // Killers are set by cutoffs only with ordering, so alone they
            // are inert: off.
            killers: o.killers && o.ordering,
            pvs: o.pvs,
            tt_exact_depth: o.tt_exact_depth,
            shortcuts: o.shortcuts,
            selective: o.selective && limited,
        }
    }
}

/// One search's state. `LIMITED`: the search has a depth limit; without
/// one, the depth-limited features (quiescence, null move, reductions,
/// futility, check extensions, repetition) are off, and compiled out.
/// `PLAIN` (only without a depth limit): the textbook search, no table, no
/// ordering, killers, shortcuts or principal-variation search, one thread;
/// the steps of those features are compiled out, so that the textbook
/// alpha-beta pays nothing per node for the engine it shares its code with.
struct Searcher<'a, 'b, G: EngineGame, O, const LIMITED: bool, const PLAIN: bool> {
    game: &'a G,
    observer: &'a mut O,
    scoring: Scoring,
    /// The root's depth (`u32::MAX`: to the end).
    limit: u32,
    f: Features,
    engine: &'a mut Engine<G::Move>,
    budget: &'a Budget<'b>,
}

/// Where a node stands: what the steps of the node function share.
#[derive(Clone, Copy)]
struct At {
    ply: u32,
    /// Plies left to search (`u32::MAX`: to the end).
    depth: u32,
    player: Player,
    /// The position's table key (0 without a table).
    key: u64,
    /// The depth this node is searched to, as the table records it.
    need: u8,
    /// The engine's node count before this node: the subtree's size is
    /// what its table entry cost.
    nodes_before: u64,
}

/// What the table says about a node.
enum Probe {
    /// Its entry decides the node: return this.
    Decides((MoverScore, bool)),
    /// Search on, trying first the stored best move (an index into the
    /// node's natural move list), if any.
    Search(Option<u8>),
}

impl<'a, 'b, G, O, const LIMITED: bool, const PLAIN: bool> Searcher<'a, 'b, G, O, LIMITED, PLAIN>
where
    G: EngineGame,
    O: Observer,
{
    /// The same search compiled for another mode (see the type's `LIMITED`
    /// and `PLAIN`).
    fn compiled<const L: bool, const P: bool>(self) -> Searcher<'a, 'b, G, O, L, P> {
        Searcher {
            game: self.game,
            observer: self.observer,
            scoring: self.scoring,
            limit: self.limit,
            f: self.f,
            engine: self.engine,
            budget: self.budget,
        }
    }

    /// Whether the game's solver shortcuts are on (never in the textbook search).
    #[inline(always)]
    fn shortcuts(&self) -> bool {
        !PLAIN && self.f.shortcuts
    }

    /// Searches the root with `window` and reads off the outcome.
    fn root(
        &mut self,
        state: &G::State,
        window: (MoverScore, MoverScore),
    ) -> Result<Outcome<G::Move>, SearchError> {
        let player = self.game.to_move(state);
        let (v, proven) = self.search(state, 0, self.limit, None, false, window.0, window.1)?;
        let (value, distance) = self.scoring.report(v.to_max(player));
        let mut pv = self.engine.root_line();
        self.extend_pv(state, &mut pv);
        Ok(Outcome {
            value,
            best_move: pv.first().copied(),
            pv,
            distance,
            proven,
        })
    }

    /// Looks at the budget: the node count, another thread's stop, the clock.
    #[inline]
    fn check_budget(&self) -> Result<(), SearchError> {
        let b = self.budget;
        if b.nodes.is_some_and(|n| self.engine.nodes >= n)
            || b.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || b.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return Err(SearchError::Stopped);
        }
        Ok(())
    }

    /// What every node does on entry, in the search and in quiescence: tell
    /// the observer, count the node (looking at the budget now and then),
    /// start its principal variation empty, note the depth reached.
    #[inline(always)]
    fn enter_node(
        &mut self,
        ply: u32,
        index: Option<usize>,
        player: Player,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> Result<(), SearchError> {
        let window = Window::from_mover(alpha, beta, player);
        self.observer.enter(ply, index, player.into(), Some(window));
        self.engine.nodes += 1;
        if self.engine.nodes & (CHECK_INTERVAL - 1) == 0 {
            if ply >= MAX_PLY {
                return Err(SearchError::TooDeep);
            }
            self.check_budget()?;
            if self.observer.should_stop() {
                return Err(SearchError::Stopped);
            }
        }
        self.engine.pv_clear(ply as usize);
        self.engine.seldepth = self.engine.seldepth.max(ply);
        Ok(())
    }

    /// What every node does on leaving, whatever happened: tell the
    /// observer the value it returns (0 for an aborted node).
    #[inline(always)]
    fn exit_node(&mut self, ply: u32, player: Player, result: &NodeResult) {
        let v = result.map_or(MoverScore(0), |(v, _)| v);
        self.observer.exit(ply, v.to_max(player));
    }

    /// The move buffer of ply `p`, empty. The caller hands it back with
    /// `self.engine.stack[p].moves = moves`, once, to keep its allocation.
    #[inline]
    fn take_moves(&mut self, p: usize) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.engine.stack[p].moves);
        moves.clear();
        moves
    }

    /// The value of `state` for the player to move, searched `depth` more
    /// plies (`u32::MAX`: to the end), and whether it is proven
    /// (independent of the depth limit). `no_win`: the move here was one
    /// that [`Shortcuts::forced_moves`] kept, so the mover has no immediate
    /// win (see [`Shortcuts::FORCED_MOVES_PREVENT_WINS`]).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        state: &G::State,
        ply: u32,
        depth: u32,
        index: Option<usize>,
        no_win: bool,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> NodeResult {
        if LIMITED && depth == 0 && self.f.quiescence {
            return self.quiesce(state, ply, index, true, alpha, beta);
        }
        let player = self.game.to_move(state);
        let result = match self.enter_node(ply, index, player, alpha, beta) {
            Ok(()) => {
                let at = At {
                    ply,
                    depth,
                    player,
                    key: 0,
                    need: if LIMITED {
                        depth.min(u32::from(COMPLETE) - 1) as u8
                    } else {
                        COMPLETE
                    },
                    nodes_before: self.engine.nodes - 1,
                };
                self.node(state, at, no_win, alpha, beta)
            }
            Err(e) => Err(e),
        };
        self.exit_node(ply, player, &result);
        result
    }

    /// The node function: a sequence of steps, each of which may settle the
    /// node. Steps 1 to 6 need no move list; 7 to 11 use the ply's buffer.
    #[inline(always)]
    fn node(
        &mut self,
        state: &G::State,
        mut at: At,
        no_win: bool,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> NodeResult {
        // Step 1. Chance: alpha-beta has no rule for nature's moves, so it
        // refuses them rather than treat a die as a player (compiled out
        // for games without chance).
        if G::HAS_CHANCE && self.game.is_chance(state) {
            return Err(SearchError::Chance);
        }
        // Step 2. The end of the game, the horizon, a repetition or an
        // immediate win: the value without a search below.
        if let Some(settled) = self.settled(state, at, no_win) {
            return Ok(settled);
        }
        // Step 3. The transposition table.
        let tt_index = match self.probe(state, &mut at, alpha, beta) {
            Probe::Decides(v) => return Ok(v),
            Probe::Search(best) => best,
        };
        // Step 4. The static evaluation, for the pruning steps below.
        let in_check = LIMITED
            && (self.f.null_move || self.f.reductions || self.f.check_extension)
            && self.game.in_check(state);
        let eval = self.static_eval(state, at, in_check);
        let improving = self.improving(at.ply as usize, eval);
        // Step 5. Reverse futility pruning.
        if let Some(v) = self.reverse_futility(at, alpha, beta, eval, improving) {
            return Ok((v, false));
        }
        // Step 6. Null-move pruning.
        if let Some(v) = self.null_move(state, at, in_check, alpha, beta, eval, tt_index)? {
            return Ok((v, false));
        }
        // Step 6b. Internal iterative reduction: a node deep enough to
        // matter that the table knows no move for is searched a ply
        // shallower. It was not searched before (or failed low), so its
        // move order is a guess; the shallower search is cheap, and fills
        // the table with a move for when the node comes back deeper.
        let iir = self.f.tuning.internal_reduction;
        if LIMITED && iir > 0 && at.depth >= iir && tt_index.is_none() && !in_check {
            at.depth -= 1;
        }
        // Steps 7 to 11 list, order and search the moves in this ply's
        // buffer, handed back here whatever they return.
        let p = at.ply as usize;
        let mut moves = self.take_moves(p);
        let node = Node {
            at,
            in_check,
            eval,
            improving,
            tt_index,
        };
        let result = self.expand(state, &node, &mut moves, alpha, beta);
        self.engine.stack[p].moves = moves;
        result
    }

    /// Step 2: a value without a search below, if the node has one.
    #[inline(always)]
    fn settled(&mut self, state: &G::State, at: At, no_win: bool) -> Option<(MoverScore, bool)> {
        let (game, ply) = (self.game, at.ply);
        // The end of the game is scored by its utility; the horizon (the
        // depth limit) by the evaluation.
        let terminal = game.is_terminal(state);
        if terminal || (LIMITED && at.depth == 0) {
            let v = self.scoring.leaf(game, state, terminal, ply);
            self.observer.leaf(ply, v, terminal);
            return Some((v.for_player(at.player), terminal));
        }
        // A repeated position: a draw, as far as the search is concerned
        // (whoever could repeat once can repeat again).
        if LIMITED && self.f.repetition && ply > 0 && game.is_repetition(state) {
            self.observer.leaf(ply, MaxScore::ZERO, false);
            return Some((MoverScore(0), false));
        }
        // Solver shortcut: a move that wins at once decides the node (it is
        // the best possible result), with no search below it.
        if self.shortcuts()
            && !no_win
            && let Some((mv, raw)) = game.immediate_win(state)
        {
            let v = self.scoring.decided(raw, ply + 1);
            if ply == 0 {
                self.engine.pv_update(0, mv);
            }
            self.observer.leaf(ply, v, true);
            return Some((v.for_player(at.player), true));
        }
        None
    }

    /// Step 3: a result for this position from elsewhere in the tree is as
    /// good as searching it again when it was searched at least as deep
    /// (or to the end) and its bound decides this window. Never at the
    /// root, which must produce a move. Sets the node's key.
    #[inline(always)]
    fn probe(
        &mut self,
        state: &G::State,
        at: &mut At,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> Probe {
        let Some(tt) = self.engine.tt.as_ref().filter(|_| !PLAIN) else {
            return Probe::Search(None);
        };
        at.key = self.game.hash_key(state);
        let entry = tt.probe(at.key);
        self.observer.tt_probe(at.ply, entry.is_some());
        let Some(e) = entry else {
            return Probe::Search(None);
        };
        let deep_enough = if self.f.tt_exact_depth {
            e.depth == at.need
        } else {
            e.depth >= at.need
        };
        if at.ply > 0 && deep_enough {
            let s = MoverScore(if self.scoring.distance {
                distance_to_root(e.score, at.ply)
            } else {
                e.score
            });
            let decides = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if decides {
                self.observer.tt_cutoff(at.ply);
                return Probe::Decides((s, e.depth == COMPLETE));
            }
        }
        Probe::Search(e.best)
    }

    /// Step 4: the static evaluation, for reverse futility and null-move
    /// pruning; not in check, where it means little, nor at the root.
    #[inline(always)]
    fn static_eval(&self, state: &G::State, at: At, in_check: bool) -> Option<MoverScore> {
        let wanted = LIMITED && (self.f.null_move || self.f.futility.is_some());
        if !wanted || at.ply == 0 || in_check {
            return None;
        }
        let v = self.scoring.leaf(self.game, state, false, at.ply);
        Some(v.for_player(at.player))
    }

    /// Step 4b: whether the mover's position is better than at its last
    /// turn (two plies up; four if that one was in check). Records this
    /// node's evaluation for the plies below. An improving position is
    /// pruned less eagerly: its evaluation is likelier to keep rising.
    /// Without an evaluation here (in check) it is not improving; without
    /// one to compare with, it counts as improving (prune less).
    #[inline(always)]
    fn improving(&mut self, p: usize, eval: Option<MoverScore>) -> bool {
        // Read only under a depth limit, by the nodes of the same search
        // below this one.
        if !LIMITED {
            return false;
        }
        self.engine.stack[p].eval = eval;
        let Some(e) = eval else {
            return false;
        };
        let earlier = |back: usize| p.checked_sub(back).and_then(|q| self.engine.stack[q].eval);
        match earlier(2).or_else(|| earlier(4)) {
            Some(before) => e > before,
            None => true,
        }
    }

    /// Step 5: a few plies from the horizon, a quiet position that stands a
    /// margin per ply above beta is not going to fall below it: take the
    /// evaluation. Only off the principal variation (a null window). An
    /// improving position needs one ply's margin less.
    #[inline(always)]
    fn reverse_futility(
        &self,
        at: At,
        alpha: MoverScore,
        beta: MoverScore,
        eval: Option<MoverScore>,
        improving: bool,
    ) -> Option<MoverScore> {
        let (true, Some(margin), Some(eval)) = (LIMITED, self.f.futility, eval) else {
            return None;
        };
        // In i64: the full window's width overflows an i32.
        let null_window = i64::from(beta.0) - i64::from(alpha.0) == 1;
        let less = improving && self.f.tuning.reverse_futility_improving;
        let plies = at.depth.saturating_sub(u32::from(less)) as i32;
        (null_window
            && at.depth <= self.f.tuning.reverse_futility_depth
            && !is_decided(beta.0)
            && eval.0 - margin * plies >= beta.0)
            .then_some(eval)
    }

    /// Step 6: let the opponent move twice. If a shallower search still
    /// fails high, a real move would too (the null-move observation: a
    /// move is almost always better than none), so the node is cut without
    /// searching its moves. Not at the root, not in the principal variation
    /// (a null window here means "not PV"), not in check, not near decided
    /// scores, and only where the game says passing is safe (not in chess
    /// pawn endings: zugzwang). The reduction follows the game's
    /// [`NullMoveRule`](crate::game::NullMoveRule).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn null_move(
        &mut self,
        state: &G::State,
        at: At,
        in_check: bool,
        alpha: MoverScore,
        beta: MoverScore,
        eval: Option<MoverScore>,
        tt_index: Option<u8>,
    ) -> Result<Option<MoverScore>, SearchError> {
        if !(LIMITED
            && self.f.null_move
            && at.ply > 0
            && at.depth >= self.f.tuning.null_move.min_depth
            && !in_check
            && i64::from(beta.0) - i64::from(alpha.0) == 1
            && !is_decided(beta.0)
            && eval.is_some_and(|e| e >= beta))
        {
            return Ok(None);
        }
        let Some(passed) = self.game.null_move(state) else {
            return Ok(None);
        };
        let rule = self.f.tuning.null_move;
        let surplus = match (rule.per_eval, eval) {
            (per, Some(e)) if per > 0 => ((e.0 - beta.0) / per).clamp(0, 3) as u32,
            _ => 0,
        };
        let r = rule.base + at.depth / rule.per_depth.max(1) + surplus;
        let depth = at.depth.saturating_sub(1 + r);
        self.searching(at.ply as usize, state, None);
        let v = -self
            .search(&passed, at.ply + 1, depth, None, false, -beta, -alpha)?
            .0;
        if v < beta {
            return Ok(None);
        }
        // A null-move bound is not a proof of a mate.
        let v = if is_decided(v.0) { beta } else { v };
        if let Some(tt) = &self.engine.tt {
            let cost = self.engine.nodes - at.nodes_before;
            let index = tt_index.map(usize::from);
            let helper = self.engine.variant > 0;
            tt.store_as(at.key, v.0, at.need, Bound::Lower, index, cost, helper);
        }
        Ok(Some(v))
    }

    /// Steps 7 to 11: the moves listed, narrowed, ordered and searched, and
    /// the result stored.
    #[inline(always)]
    fn expand(
        &mut self,
        state: &G::State,
        node: &Node,
        moves: &mut Vec<G::Move>,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> NodeResult {
        let at = node.at;
        // Step 7. The moves: all legal ones, or those the shortcuts keep.
        let narrowed = match self.list_moves(state, moves) {
            // Solver shortcut: every move loses at once, and the game says
            // how (two plies on). The root keeps its moves: it must still
            // name one.
            Some(raw) if at.ply > 0 => {
                let v = self.scoring.decided(raw, at.ply + 2);
                self.observer.leaf(at.ply, v, true);
                return Ok((v.for_player(at.player), true));
            }
            Some(_) => {
                moves.clear();
                self.game.legal_moves(state, moves);
                false
            }
            None => self.shortcuts(),
        };
        // Step 7b. Selective search: under a depth limit, only the moves
        // the game judges worth a look. A judgement, not a proof: a node
        // that lost moves this way proves nothing unless a move cuts it off.
        let listed = moves.len();
        if LIMITED && self.f.selective {
            self.game.select_moves(state, moves);
        }
        let dropped = moves.len() < listed;
        // Step 8. The window narrowed to what the game proves possible.
        let (alpha, beta) = match self.exact_window(state, at, narrowed, alpha, beta) {
            Ok(window) => window,
            Err(v) => return Ok((v, true)),
        };
        // Step 9. The moves in order, the likely best first: the table's
        // move alone when there is one (the rest are ordered only if it
        // does not cut the node off, which it usually does).
        let tt_move = self.natural_order(state, at, moves, node.tt_index);
        let deferred = self.table_move_first(moves, at.ply as usize, tt_move);
        if !deferred {
            self.order(state, moves, at.ply as usize, tt_move);
        }
        // Step 10. The moves searched.
        let filtered = narrowed && G::FORCED_MOVES_PREVENT_WINS;
        let mut best =
            self.move_loop(state, node, moves, tt_move, deferred, filtered, alpha, beta)?;
        let won = is_decided(best.value.0) && best.value.0 > 0;
        if dropped && best.value < beta && !won {
            best.proven = false;
        }
        // Step 11. The result remembered.
        self.store(at, &best, beta);
        Ok((best.value, best.proven))
    }

    /// Step 7: appends the moves the search lists at a node, in the game's
    /// natural order: every legal move, or with the solver shortcuts those
    /// [`Shortcuts::forced_moves`] keeps. A best move in the table is an
    /// index into this list. `Some(value)` (shortcuts only): every move
    /// loses at once, with this value, and the list is unspecified.
    #[inline]
    fn list_moves(&self, state: &G::State, moves: &mut Vec<G::Move>) -> Option<MaxScore> {
        if self.shortcuts() {
            let lost = self.game.forced_moves(state, moves);
            if lost.is_some() {
                return lost;
            }
        } else {
            self.game.legal_moves(state, moves);
        }
        None
    }

    /// Step 8: the value cannot leave the game's exact bounds, so the
    /// window shrinks to them (proven facts, whatever the depth). `Err`:
    /// the bounds alone decide the node, with this value. The root keeps
    /// the caller's window: narrowed, a move equal to a bound could not
    /// show itself best.
    #[inline(always)]
    fn exact_window(
        &self,
        state: &G::State,
        at: At,
        narrowed: bool,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> Result<(MoverScore, MoverScore), MoverScore> {
        if !narrowed || self.scoring.decided {
            return Ok((alpha, beta));
        }
        let Some((lo, hi)) = self.game.exact_bounds(state) else {
            return Ok((alpha, beta));
        };
        let (lo, hi) = match at.player {
            Player::Max => (lo.0, hi.0),
            Player::Min => (-hi.0, -lo.0),
        };
        let a = if alpha.0 < lo { MoverScore(lo) } else { alpha };
        let b = if beta.0 > hi { MoverScore(hi) } else { beta };
        if a >= b && at.ply > 0 {
            return Err(if alpha.0 < lo { a } else { b });
        }
        if at.ply > 0 {
            Ok((a, b))
        } else {
            Ok((alpha, beta))
        }
    }

    /// Step 9a: keeps the moves in their natural order (after the
    /// shortcuts' narrowing, which depends on the position alone), since
    /// the table names a best move by its index there, and prefetches the
    /// children's table entries. Returns the table's move. Only with a
    /// table, and only for nodes that search their moves.
    #[inline(always)]
    fn natural_order(
        &mut self,
        state: &G::State,
        at: At,
        moves: &[G::Move],
        tt_index: Option<u8>,
    ) -> Option<G::Move> {
        let tt = self.engine.tt.as_ref().filter(|_| !PLAIN)?;
        let natural = &mut self.engine.stack[at.ply as usize].natural;
        natural.clear();
        natural.extend_from_slice(moves);
        let tt_move = tt_index.and_then(|i| natural.get(usize::from(i)).copied());
        // A lone move is searched at once: no time to hide a load.
        if self.f.tuning.prefetch_children && moves.len() > 1 {
            let game = self.game;
            for &mv in moves {
                tt.prefetch(game.hash_key(&game.play(state, mv)));
            }
        }
        tt_move
    }

    /// Step 9b: puts the table's move first and says so, leaving the
    /// others to be ordered after it is searched ([`Self::order`] on the
    /// rest gives the order it would have given the whole list, the
    /// table's move aside). Not for a helper thread's turned plies, whose
    /// whole list is turned.
    #[inline(always)]
    fn table_move_first(
        &self,
        moves: &mut [G::Move],
        ply: usize,
        tt_move: Option<G::Move>,
    ) -> bool {
        if PLAIN {
            return false;
        }
        let turned = self.engine.variant > 0 && ply % 2 == 1 && ply <= HELPER_TURNED_PLY;
        match tt_move.and_then(|t| moves.iter().position(|&m| m == t)) {
            Some(pos) if !turned && moves.len() > 1 => {
                moves[..=pos].rotate_right(1);
                true
            }
            _ => false,
        }
    }

    /// Step 9c, move ordering: what is likely best first. Any order gives
    /// the same value; a good one makes cutoffs come on the first move.
    fn order(
        &mut self,
        state: &G::State,
        moves: &mut [G::Move],
        ply: usize,
        tt_move: Option<G::Move>,
    ) {
        if PLAIN {
            return;
        }
        if self.f.ordering {
            let game = self.game;
            // History heuristic: moves that often refuted elsewhere, first
            // (and, with continuation history, after these last two moves).
            if !self.engine.history.is_empty() {
                let history = &self.engine.history;
                let before = self.continued(ply);
                sort_by_priority(moves, |m| {
                    let h = game.history_slot(state, m).map_or(0, |i| history[i]);
                    h + self
                        .continuation_scores(state, m, before)
                        .into_iter()
                        .sum::<i32>()
                });
            }
            // Killer move: what refuted a sibling at this ply probably refutes here.
            if let Some(k) = self.killer(ply)
                && let Some(pos) = moves.iter().position(|&m| m == k)
            {
                moves[..=pos].rotate_right(1);
            }
            // The game's own hints come last and are a stable sort: they
            // decide, and killers and history only break their ties. (Killers
            // ahead of a winning or blocking move cost nodes on tic-tac-toe.)
            game.order_moves(state, moves);
        }
        // The table's move: the best move when this position was last searched.
        if let Some(t) = tt_move
            && let Some(pos) = moves.iter().position(|&m| m == t)
        {
            moves[..=pos].rotate_right(1);
        }
        // A helper thread starts where the main thread will come later
        // (see HELPER_TURNED_PLY).
        if self.engine.variant > 0 && ply % 2 == 1 && ply <= HELPER_TURNED_PLY && moves.len() > 1 {
            let turn = self.engine.variant % moves.len();
            moves.rotate_left(turn);
        }
    }

    /// The continuation slots of the moves that led to ply `p`: the
    /// opponent's last move and the mover's own before it (`None` where
    /// there is none, a null move, or no continuation history).
    #[inline]
    fn continued(&self, p: usize) -> [Option<usize>; 2] {
        if PLAIN || !self.f.continuation {
            return [None, None];
        }
        let at = |back: usize| {
            p.checked_sub(back)
                .and_then(|q| self.engine.stack.get(q))
                .and_then(|f| f.current)
        };
        [at(1), at(2)]
    }

    /// The continuation scores of `mv` after the moves `before`.
    #[inline]
    fn continuation_scores(
        &self,
        state: &G::State,
        mv: G::Move,
        before: [Option<usize>; 2],
    ) -> [i32; 2] {
        let table = &self.engine.continuation;
        continuation_cells(self.game, state, mv, before)
            .map(|cell| cell.and_then(|i| table.get(i).copied()).unwrap_or(0))
    }

    /// Notes that ply `p` now searches `mv` (or passes, with `None`), for
    /// the continuation history of the replies below it.
    #[inline]
    fn searching(&mut self, p: usize, state: &G::State, mv: Option<G::Move>) {
        if PLAIN || !self.f.continuation {
            return;
        }
        let slot = mv.and_then(|m| self.game.continuation_slot(state, m));
        if let Some(f) = self.engine.stack.get_mut(p) {
            f.current = slot;
        }
    }

    /// The killer move at `ply`, when killers are on.
    #[inline]
    fn killer(&self, ply: usize) -> Option<G::Move> {
        if !PLAIN && self.f.killers {
            self.engine.stack[ply].killer
        } else {
            None
        }
    }

    /// Step 10: every move searched in order until one cuts the node off.
    /// `deferred`: the first move is the table's, the rest still to order.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn move_loop(
        &mut self,
        state: &G::State,
        node: &Node,
        moves: &mut [G::Move],
        tt_move: Option<G::Move>,
        deferred: bool,
        filtered: bool,
        mut alpha: MoverScore,
        beta: MoverScore,
    ) -> Result<Best<G::Move>, SearchError> {
        let (game, at) = (self.game, node.at);
        let (ply, p) = (at.ply, at.ply as usize);
        let mut best = Best {
            value: MoverScore::NEG_INF,
            mv: None,
            proven: true,
            alpha0: alpha,
        };
        let n = moves.len();
        // Quiet moves met so far, for late-move pruning.
        let mut quiets = 0;
        for i in 0..n {
            if deferred && i == 1 {
                self.order(state, &mut moves[1..], p, None);
            }
            let mv = moves[i];
            let child = game.play(state, mv);
            // Check extension: a forcing move is searched a ply deeper, so
            // a sequence of checks is not cut off in the middle (bounded:
            // no deeper than twice the root's depth).
            let extend = LIMITED
                && self.f.check_extension
                && ply < self.limit.saturating_mul(2)
                && game.in_check(&child);
            let child_depth = if LIMITED {
                at.depth - 1 + u32::from(extend)
            } else {
                at.depth
            };
            let mover = (i, mv, extend, alpha);
            if self.skip_quiet(state, node, mover, tt_move, &mut quiets, &mut best) {
                continue;
            }
            self.searching(p, state, Some(mv));
            let reduce = self.reduction(state, node, (i, mv, extend), tt_move);
            let child_at = Child {
                ply: ply + 1,
                index: i,
                depth: child_depth,
                reduce,
                filtered,
            };
            let (v, child_proven) = self.child(&child, child_at, i == 0, alpha, beta)?;
            if v > best.value {
                best.value = v;
                best.mv = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.engine.pv_update(p, mv);
                }
            }
            let window = Window::from_mover(alpha, beta, at.player);
            let (v_max, best_max) = (v.to_max(at.player), best.value.to_max(at.player));
            self.observer
                .child_value(ply, i, v_max, best_max, None, Some(window));
            // The opponent already has a better alternative elsewhere: no
            // reply here can bring this node back into the window. The bound
            // rests on this child alone, so it is proven when the child is.
            if alpha >= beta {
                best.proven = child_proven;
                if !PLAIN && self.f.ordering {
                    self.remember_cutoff(state, p, at.depth, mv, &moves[..i]);
                }
                if i + 1 < n {
                    self.observer.cutoff(ply, i, n - i - 1);
                }
                break;
            }
            best.proven &= child_proven;
        }
        if n == 0 {
            // A game that reports no moves in a non-terminal state: score it
            // as a leaf rather than return an infinity.
            let v = self.scoring.leaf(game, state, false, ply);
            best.value = v.for_player(at.player);
            best.proven = false;
        }
        Ok(best)
    }

    /// Step 10's pruning near the horizon (of quiet moves, and of any move
    /// that loses its exchange): whether move `i` (`mv`, with its check
    /// extension and the window's alpha) is skipped. `quiets` counts the
    /// quiet moves met; a skipped move leaves the node unproven, and
    /// futility raises its value to the evaluation.
    #[inline(always)]
    fn skip_quiet(
        &self,
        state: &G::State,
        node: &Node,
        (i, mv, extend, alpha): (usize, G::Move, bool, MoverScore),
        tt_move: Option<G::Move>,
        quiets: &mut usize,
        best: &mut Best<G::Move>,
    ) -> bool {
        let (game, at) = (self.game, node.at);
        // Whether the move is quiet, asked of the game at most once.
        let mut known = None;
        let mut quiet = || *known.get_or_insert_with(|| game.is_quiet(state, mv));
        // Futility pruning: next to the horizon, a quiet move from a
        // position a margin per ply below alpha will not reach it.
        if let (true, Some(margin), Some(eval)) = (LIMITED, self.f.futility, node.eval)
            && i > 0
            && at.depth <= FUTILITY_DEPTH
            && !extend
            && !is_decided(alpha.0)
            && eval.0 + margin * at.depth as i32 <= alpha.0
            && quiet()
        {
            if eval > best.value {
                best.value = eval;
            }
            best.proven = false;
            return true;
        }
        // Late-move pruning: next to the horizon, once the first quiet
        // moves of a well-ordered list are searched, the later ones are
        // skipped (never in check, nor at the root: both have no
        // evaluation). Quiet moves are counted, not all moves: captures
        // come first, and counting them left no quiet move searched.
        let lmp = LIMITED && at.depth <= self.f.tuning.late_move_pruning;
        if lmp && quiet() {
            *quiets += 1;
        }
        if lmp
            && node.eval.is_some()
            && *quiets > late_moves(at.depth, node.improving)
            && !extend
            && !is_decided(alpha.0)
            && Some(mv) != tt_move
            && quiet()
        {
            best.proven = false;
            return true;
        }
        // Static-exchange pruning: next to the horizon, a move that only
        // gives material away (by more than a margin per ply) is skipped;
        // never at the root, in check, for a check or the table's move,
        // and, like late-move pruning, only where the node has its static
        // evaluation (the engine's pruning is on: not a textbook search).
        let t = &self.f.tuning;
        if LIMITED
            && at.depth <= t.see_pruning
            && i > 0
            && at.ply > 0
            && !node.in_check
            && node.eval.is_some()
            && !extend
            && !is_decided(alpha.0)
            && Some(mv) != tt_move
            && let Some(gain) = game.exchange(state, mv)
        {
            let margin = if quiet() {
                t.see_quiet_margin
            } else {
                t.see_noisy_margin
            };
            if gain < -margin * at.depth as i32 {
                best.proven = false;
                return true;
            }
        }
        false
    }

    /// Step 10's late-move reductions: how many plies shallower move `i`
    /// (`mv`, with its check extension) is first searched. In a
    /// well-ordered list a quiet move late in the list rarely turns out
    /// best, so it is searched shallower; only if it beats alpha is it
    /// searched again at full depth. Never in check, never for checks,
    /// captures, the table's move or the killer. With
    /// [`crate::Tuning::history_reduction`], a move with a good history
    /// is reduced less and one with a bad history more.
    #[inline(always)]
    fn reduction(
        &self,
        state: &G::State,
        node: &Node,
        (i, mv, extend): (usize, G::Move, bool),
        tt_move: Option<G::Move>,
    ) -> u32 {
        let (game, at) = (self.game, node.at);
        if !(LIMITED
            && self.f.reductions
            && at.depth >= 3
            && i >= 3
            && !node.in_check
            && !extend
            && Some(mv) != tt_move
            && self.killer(at.ply as usize) != Some(mv)
            && game.is_quiet(state, mv))
        {
            return 0;
        }
        let r = lmr_reduction(at.depth, i, &self.f.tuning);
        let per = self.f.tuning.history_reduction;
        match game
            .history_slot(state, mv)
            .and_then(|s| self.engine.history.get(s))
        {
            Some(&h) if per > 0 => {
                let r = r as i32 - h / per;
                r.clamp(0, at.depth.saturating_sub(2).max(1) as i32) as u32
            }
            _ => r,
        }
    }

    /// Step 10's re-search ladder: one child's value, from the parent's
    /// view, searched with the window (alpha, beta).
    #[inline(always)]
    fn child(
        &mut self,
        child: &G::State,
        c: Child,
        first: bool,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> NodeResult {
        // The child searched to `depth` with window (lo, hi), its own view.
        let search = |s: &mut Self, depth, lo, hi| {
            s.search(child, c.ply, depth, Some(c.index), c.filtered, lo, hi)
        };
        if first || PLAIN || !self.f.pvs {
            // A reduced search that beats alpha is not believed: searched
            // again at full depth.
            let (mut v, mut proven) = search(self, c.depth - c.reduce, -beta, -alpha)?;
            if c.reduce > 0 && -v > alpha {
                (v, proven) = search(self, c.depth, -beta, -alpha)?;
            }
            return Ok((-v, proven));
        }
        // Principal-variation search: the first move is probably best, so
        // prove the others no better with a null window (cheap), and search
        // again in full only if one is. Same value: the re-search restores
        // the exact window.
        let null = MoverScore(-alpha.0 - 1);
        let (mut v, mut proven) = search(self, c.depth - c.reduce, null, -alpha)?;
        if c.reduce > 0 && -v > alpha {
            (v, proven) = search(self, c.depth, null, -alpha)?;
        }
        let v = -v;
        if v > alpha && v < beta {
            let (v, proven) = search(self, c.depth, -beta, -alpha)?;
            return Ok((-v, proven));
        }
        Ok((v, proven))
    }

    /// Step 11: the node's result goes into the table, with its bound
    /// against the window it was searched with, and its best move (none
    /// after a fail-low, where every move was refuted).
    #[inline(always)]
    fn store(&mut self, at: At, best: &Best<G::Move>, beta: MoverScore) {
        let Some(tt) = self.engine.tt.as_ref().filter(|_| !PLAIN) else {
            return;
        };
        let bound = if best.value >= beta {
            Bound::Lower
        } else if best.value <= best.alpha0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let score = if self.scoring.distance {
            distance_to_node(best.value.0, at.ply)
        } else {
            best.value.0
        };
        let depth = if best.proven { COMPLETE } else { at.need };
        let natural = &self.engine.stack[at.ply as usize].natural;
        let mv = match bound {
            Bound::Upper => None,
            _ => best.mv.and_then(|b| natural.iter().position(|&m| m == b)),
        };
        let cost = self.engine.nodes - at.nodes_before;
        let helper = self.engine.variant > 0;
        tt.store_as(at.key, score, depth, bound, mv, cost, helper);
    }

    /// Quiescence search: past the depth limit, only the game's noisy
    /// moves (captures, promotions) are searched, until the position is
    /// quiet, so the horizon never falls in the middle of an exchange.
    /// The player to move may "stand pat" (take the static evaluation)
    /// instead of capturing, since captures are not forced; in check it
    /// may not, and every legal reply is searched. At its `first` ply the
    /// game's quiet checks are tried too ([`EngineHooks::quiet_checks`]):
    /// a mate by a quiet move is then seen at the horizon (and so is the
    /// threat of one that a null move allows). Proven only at the end of
    /// the game.
    fn quiesce(
        &mut self,
        state: &G::State,
        ply: u32,
        index: Option<usize>,
        first: bool,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> NodeResult {
        let player = self.game.to_move(state);
        let result = match self.enter_node(ply, index, player, alpha, beta) {
            Ok(()) => self.quiet_node(state, ply, first, player, alpha, beta),
            Err(e) => Err(e),
        };
        self.exit_node(ply, player, &result);
        result
    }

    /// The body of a quiescence node: the end of the game, or the stand-pat
    /// evaluation and the noisy moves in this ply's buffer (handed back
    /// here whatever the loop returns).
    #[inline(always)]
    fn quiet_node(
        &mut self,
        state: &G::State,
        ply: u32,
        first: bool,
        player: Player,
        mut alpha: MoverScore,
        beta: MoverScore,
    ) -> NodeResult {
        let game = self.game;
        if G::HAS_CHANCE && game.is_chance(state) {
            return Err(SearchError::Chance);
        }
        let terminal = game.is_terminal(state);
        if terminal || ply >= MAX_QUIESCENCE_PLY {
            let v = self.scoring.leaf(game, state, terminal, ply);
            self.observer.leaf(ply, v, terminal);
            return Ok((v.for_player(player), terminal));
        }
        // Solver shortcut: a move that wins at once ends the line here too.
        if self.shortcuts()
            && let Some((_, raw)) = game.immediate_win(state)
        {
            let v = self.scoring.decided(raw, ply + 1);
            self.observer.leaf(ply, v, true);
            return Ok((v.for_player(player), true));
        }
        let p = ply as usize;
        let mut moves = self.take_moves(p);
        let mut best = MoverScore::NEG_INF;
        if game.in_check(state) {
            // No standing pat: every reply the node would list is searched
            // (with the shortcuts, only those that do not lose at once).
            if let Some(raw) = self.list_moves(state, &mut moves) {
                self.engine.stack[p].moves = moves;
                let v = self.scoring.decided(raw, ply + 2);
                self.observer.leaf(ply, v, true);
                return Ok((v.for_player(player), true));
            }
        } else {
            let stand = self.scoring.leaf(game, state, false, ply);
            self.observer.leaf(ply, stand, false);
            best = stand.for_player(player);
            if best >= beta || !game.noisy_moves(state, &mut moves) {
                self.engine.stack[p].moves = moves;
                return Ok((best, false));
            }
            if first && self.f.tuning.quiet_checks {
                game.quiet_checks(state, &mut moves);
            }
            if best > alpha {
                alpha = best;
            }
        }
        game.order_moves(state, &mut moves);
        let result = self.noisy_loop(state, ply, &moves, best, alpha, beta);
        self.engine.stack[p].moves = moves;
        result
    }

    /// The quiescence node's moves, searched in order until one cuts off.
    #[inline(always)]
    fn noisy_loop(
        &mut self,
        state: &G::State,
        ply: u32,
        moves: &[G::Move],
        mut best: MoverScore,
        mut alpha: MoverScore,
        beta: MoverScore,
    ) -> NodeResult {
        let n = moves.len();
        for (i, &mv) in moves.iter().enumerate() {
            let child = self.game.play(state, mv);
            let v = -self
                .quiesce(&child, ply + 1, Some(i), false, -beta, -alpha)?
                .0;
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.engine.pv_update(ply as usize, mv);
                }
            }
            if alpha >= beta {
                if i + 1 < n {
                    self.observer.cutoff(ply, i, n - i - 1);
                }
                break;
            }
        }
        Ok((best, false))
    }

    /// Records a move that caused a cutoff, for the killer and history
    /// heuristics; `tried` are the moves searched before it at this node.
    fn remember_cutoff(
        &mut self,
        state: &G::State,
        ply: usize,
        depth: u32,
        mv: G::Move,
        tried: &[G::Move],
    ) {
        self.engine.stack[ply].killer = Some(mv);
        let d = depth.min(HISTORY_DEPTH_CAP) as i32;
        let game = self.game;
        let slot = |m| game.history_slot(state, m);
        if !self.f.tuning.history_gravity {
            let history = &mut self.engine.history;
            if let Some(h) = slot(mv).and_then(|i| history.get_mut(i)) {
                *h = h.saturating_add(d * d + 1);
            }
            return;
        }
        // With gravity only quiet moves are scored (captures have their own
        // order): the cutoff move gains, the quiet moves tried before it
        // lose as much. The bonus grows linearly with depth up to a tenth
        // of the bound (the shape of Stockfish's `stat_bonus`), so that a
        // few deep cutoffs move a score by a good part of its range.
        if !game.is_quiet(state, mv) {
            return;
        }
        let bonus = (300 * d - 250).clamp(50, HISTORY_GRAVITY_MAX / 10);
        let before = self.continued(ply);
        let Engine {
            history,
            continuation,
            ..
        } = &mut *self.engine;
        let gravity = |h: &mut i32, change: i32| {
            *h += change - *h * change.abs() / HISTORY_GRAVITY_MAX;
        };
        let mut update = |m, change| {
            if let Some(h) = slot(m).and_then(|i| history.get_mut(i)) {
                gravity(h, change);
            }
            for i in continuation_cells(game, state, m, before)
                .into_iter()
                .flatten()
            {
                if let Some(h) = continuation.get_mut(i) {
                    gravity(h, change);
                }
            }
        };
        update(mv, bonus);
        for &m in tried.iter().filter(|&&m| game.is_quiet(state, m)) {
            update(m, -bonus);
        }
    }

    /// Table cutoffs can cut the principal variation short: continue it from
    /// the table's exact entries, as far as they go and stay legal. Not for
    /// games whose keys merge mirror images: a stored move may be mirrored.
    fn extend_pv(&self, state: &G::State, pv: &mut Vec<G::Move>) {
        let Some(tt) = self.engine.tt.as_ref().filter(|_| !PLAIN) else {
            return;
        };
        if G::SYMMETRIC_KEYS {
            return;
        }
        let game = self.game;
        let mut s = state.clone();
        for &m in pv.iter() {
            s = game.play(&s, m);
        }
        let mut legal = Vec::new();
        while pv.len() < 256 && !game.is_terminal(&s) {
            let Some(e) = tt.probe(game.hash_key(&s)) else {
                break;
            };
            let Some(i) = e.best.filter(|_| e.bound == Bound::Exact) else {
                break;
            };
            legal.clear();
            if self.list_moves(&s, &mut legal).is_some() {
                break;
            }
            let Some(&m) = legal.get(usize::from(i)) else {
                break;
            };
            pv.push(m);
            s = game.play(&s, m);
        }
    }

    /// The root with a window one below the best so far, so that a move equal
    /// to the best is proven equal (not merely "no better"), then a seeded
    /// choice among the ties. Scores are integers, so `best - 1` is the
    /// largest window that still separates "equal" from "worse".
    fn random_root(
        &mut self,
        state: &G::State,
        seed: u64,
    ) -> Result<Outcome<G::Move>, SearchError> {
        let game = self.game;
        let player = game.to_move(state);
        self.observer
            .enter(0, None, player.into(), Some(Window::FULL));
        self.engine.pv_clear(0);
        let terminal = game.is_terminal(state);
        if terminal || self.limit == 0 {
            let v = self.scoring.leaf(game, state, terminal, 0);
            self.observer.leaf(0, v, terminal);
            self.observer.exit(0, v);
            let (value, distance) = self.scoring.report(v);
            return Ok(Outcome {
                value,
                best_move: None,
                pv: Vec::new(),
                distance,
                proven: terminal,
            });
        }
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let mut best = MoverScore::NEG_INF;
        let mut ties = RootTies::new();
        let mut proven = true;
        let depth = if self.scoring.exact {
            self.limit
        } else {
            self.limit - 1
        };
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.play(state, mv);
            self.searching(0, state, Some(mv));
            let alpha = if best == MoverScore::NEG_INF {
                best
            } else {
                MoverScore(best.0 - 1)
            };
            let (v, c) = self.search(
                &child,
                1,
                depth,
                Some(i),
                false,
                MoverScore::NEG_INF,
                -alpha,
            )?;
            let v = -v;
            proven &= c;
            let better = v > best;
            if better {
                best = v;
            }
            if better || v == best {
                self.engine.pv_update(0, mv);
                let mut line = self.engine.root_line();
                self.extend_pv(state, &mut line);
                ties.offer(v.to_max(player), better, &line);
            }
            let window = Window::from_mover(alpha, MoverScore::INF, player);
            let (v, b) = (v.to_max(player), best.to_max(player));
            self.observer.child_value(0, i, v, b, None, Some(window));
        }
        let score = best.to_max(player);
        self.observer.exit(0, score);
        let pv = ties.choose(seed).unwrap_or_default();
        let (value, distance) = self.scoring.report(score);
        Ok(Outcome {
            value,
            best_move: pv.first().copied(),
            pv,
            distance,
            proven,
        })
    }
}

/// A node's facts that its move loop reads: where it stands, whether the
/// mover is in check, its static evaluation, the table's best move.
struct Node {
    at: At,
    in_check: bool,
    eval: Option<MoverScore>,
    /// Step 4b's verdict: the mover's position is better than at its last turn.
    improving: bool,
    tt_index: Option<u8>,
}

/// How one child is searched.
#[derive(Clone, Copy)]
struct Child {
    ply: u32,
    index: usize,
    /// Its full depth.
    depth: u32,
    /// Plies it is first searched shallower (late-move reduction).
    reduce: u32,
    /// The move to it was kept by forced moves that prevent wins.
    filtered: bool,
}

/// The best a node's moves found.
struct Best<M> {
    value: MoverScore,
    mv: Option<M>,
    proven: bool,
    /// The window's lower end when the moves were first searched: the bound
    /// of the table entry is set against it.
    alpha0: MoverScore,
}

/// Alpha-beta from `state` with the full window, reporting every event to
/// `observer`. With default options, the textbook search: it returns
/// minimax's value, visiting no more nodes (18,297 on empty tic-tac-toe with
/// moves in square order). Options switch on the engine features. A position
/// from which chance can be reached is refused with [`SearchError::Chance`].
pub fn alphabeta<G, O>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    observer: &mut O,
) -> Result<Outcome<G::Move>, SearchError>
where
    G: EngineGame,
    O: Observer,
{
    crate::search::refuse_chance(game, state)?;
    let mut engine = Engine::new(game, options);
    let budget = Budget::default();
    engine.search(game, state, options.depth, false, &budget, observer)
}
