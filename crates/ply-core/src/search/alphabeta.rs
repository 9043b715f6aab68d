//! Alpha-beta, in negamax form: the one alpha-beta of ply.
//!
//! With default [`SearchOptions`] it is the textbook algorithm: a full
//! window (-inf, +inf) at the root, moves in the game's order, a cut as soon
//! as alpha >= beta, no table. That is what the published node counts
//! measure (18,297 on empty tic-tac-toe). Each engine feature is a named
//! block below, switched on by its option, with the reason it is safe:
//!
//! - **transposition table** (`tt_mb`): a position met again returns what
//!   was learned the first time, when that is enough to decide the node;
//! - **move ordering** (`ordering`): the table's move, killer moves and the
//!   history heuristic first, so cutoffs come sooner;
//! - **principal-variation search** (`pvs`): after the first move, prove
//!   with a null window that the others are no better, and only re-search
//!   when one is;
//! - **distance-to-end scores** (`fast_win`): the quickest win, the slowest loss.
//!
//! Fail-soft: a node returns the best value it saw even outside its window,
//! which proves the same bound as fail-hard but a tighter one.
//!
//! Internally every value is a [`MoverScore`]; the observer sees MAX-view
//! values and windows through the one conversion in [`crate::score`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::{Chance, EngineHooks, Evaluation, Shortcuts, sort_by_priority};
use crate::observe::Observer;
use crate::score::{MaxScore, MoverScore, Window, distance_to_node, distance_to_root, is_decided};
use crate::search::tt::{Bound, COMPLETE, TransTable};
use crate::search::{Outcome, PvTable, RootTies, Scoring, SearchOptions, TieBreak};

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

/// Nodes between looks at the clock: rare enough to cost nothing, frequent
/// enough (well under a millisecond) to stop on time.
const CHECK_INTERVAL: u64 = 1024;

/// Killer moves kept per ply: the latest refutation at that ply. One slot:
/// on tic-tac-toe a second one sent the search into more nodes than plain
/// alpha-beta on some positions.
const KILLERS: usize = 1;

/// The largest history bonus, reached at this many plies of remaining depth.
const HISTORY_DEPTH_CAP: u32 = 20;

/// Null-move pruning needs this much depth left, so that the reduced
/// search after the pass is at least one full ply (quiescence alone
/// cannot see a quiet threat, such as a mate, that the pass allows).
const NULL_MOVE_MIN_DEPTH: u32 = 4;

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
/// and the later the move (logarithmic in both, as is usual), never so
/// much that the reduced search has no full ply left.
fn lmr_reduction(depth: u32, index: usize) -> u32 {
    let r = 0.5 + (depth as f64).ln() * (index as f64).ln() / 2.5;
    (r as u32).clamp(1, depth.saturating_sub(2).max(1))
}

/// Quiescence stops here whatever the position (a guard: captures run
/// out long before in any real game).
const MAX_QUIESCENCE_PLY: u32 = 200;

/// What an engine keeps between searches: the table, the killer moves and
/// the history scores, which make the next search (the next iteration, the
/// next move of a game) faster.
pub struct Engine<M> {
    options: SearchOptions,
    tt: Option<Arc<TransTable>>,
    killers: Vec<[Option<M>; KILLERS]>,
    history: Vec<u32>,
    moves: Vec<Vec<M>>,
    /// Each ply's moves in the game's natural order (after the solver
    /// shortcuts' narrowing): the table
    /// stores a best move as its index there.
    natural: Vec<Vec<M>>,
    pv: PvTable<M>,
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
    pub fn new<G: Evaluation<Move = M>>(game: &G, options: &SearchOptions) -> Self {
        Engine {
            options: *options,
            tt: (options.tt_mb > 0).then(|| Arc::new(TransTable::new(options.tt_mb))),
            killers: Vec::new(),
            history: vec![
                0;
                if options.ordering {
                    game.history_slots()
                } else {
                    0
                }
            ],
            moves: Vec::new(),
            natural: Vec::new(),
            pv: PvTable::new(),
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
            killers: Vec::new(),
            history: vec![0; self.history.len()],
            moves: Vec::new(),
            natural: Vec::new(),
            pv: PvTable::new(),
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
        self.killers.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Searches `state` to `depth` plies (`None`: to the end), scoring as
    /// `engine_scoring` says (see [`Scoring`]). `None` when the budget ran out first.
    pub fn search<G: Evaluation + Shortcuts + EngineHooks + Chance<Move = M>, O: Observer>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        engine_scoring: bool,
        budget: &Budget,
        observer: &mut O,
    ) -> Option<Outcome<M>> {
        self.search_window(
            game,
            state,
            depth,
            engine_scoring,
            (MoverScore::NEG_INF, MoverScore::INF),
            budget,
            observer,
        )
    }

    /// [`Engine::search`] with a root window `(alpha, beta)` from the view of
    /// the player to move: the value returned is exact inside it, and an
    /// upper (at most alpha) or lower (at least beta) bound outside. A null
    /// window `(v, v + 1)` answers "is the value above v?" cheaply: the
    /// building block of solving by the score ([`crate::search::score_search`]).
    #[allow(clippy::too_many_arguments)]
    pub fn search_window<
        G: Evaluation + Shortcuts + EngineHooks + Chance<Move = M>,
        O: Observer,
    >(
        &mut self,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        engine_scoring: bool,
        window: (MoverScore, MoverScore),
        budget: &Budget,
        observer: &mut O,
    ) -> Option<Outcome<M>> {
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
        // Two compilations of the search: with a depth limit, and to the
        // end (where the depth-limited machinery, from quiescence to
        // futility pruning, is compiled out of every node).
        let run = if options.depth.is_some() {
            Self::run_root::<G, O, true>
        } else {
            Self::run_root::<G, O, false>
        };
        run(
            self,
            game,
            state,
            &options,
            engine_scoring,
            window,
            budget,
            observer,
        )
    }

    /// [`Engine::search_window`] from the root, after the table is aged,
    /// compiled for a search with a depth limit (`LIMITED`) or without.
    #[allow(clippy::too_many_arguments)]
    fn run_root<
        G: Evaluation + Shortcuts + EngineHooks + Chance<Move = M>,
        O: Observer,
        const LIMITED: bool,
    >(
        &mut self,
        game: &G,
        state: &G::State,
        options: &SearchOptions,
        engine_scoring: bool,
        window: (MoverScore, MoverScore),
        budget: &Budget,
        observer: &mut O,
    ) -> Option<Outcome<M>> {
        let mut s = Searcher::<G, O, LIMITED> {
            game,
            observer,
            scoring: Scoring::new(options, engine_scoring),
            limit: options.ply_limit(),
            quiescence: options.quiescence,
            null_move: options.null_move && options.depth.is_some(),
            reductions: options.reductions && options.depth.is_some(),
            check_extension: options.check_extension && options.depth.is_some(),
            futility: if options.futility && options.depth.is_some() {
                options.futility_margin.or(G::TUNING.futility_margin)
            } else {
                None
            },
            repetition: options.futility && options.depth.is_some(),
            ordering: options.ordering,
            pvs: options.pvs,
            tt_exact_depth: options.tt_exact_depth,
            shortcuts: options.shortcuts,
            killers: !options.no_killers,
            engine: self,
            budget,
            aborted: false,
        };
        let player = game.to_move(state);
        let outcome = match options.tie_break {
            TieBreak::First => {
                let depth = s.limit;
                let (v, proven) = s.search(state, 0, depth, None, false, window.0, window.1);
                if s.aborted {
                    return None;
                }
                let score = v.to_max(player);
                let (value, distance) = s.scoring.report(score);
                let mut pv = s.engine.pv.line(0).to_vec();
                s.extend_pv(state, &mut pv);
                Outcome {
                    value,
                    best_move: pv.first().copied(),
                    pv,
                    distance,
                    proven,
                }
            }
            TieBreak::Random(seed) => s.random_root(state, seed)?,
        };
        Some(outcome)
    }
}

/// One search's state. `LIMITED`: the search has a depth limit; without
/// one, the depth-limited features (quiescence, null move, reductions,
/// futility, check extensions, repetition) are off, and compiled out.
struct Searcher<'a, 'b, G: Evaluation + Shortcuts + EngineHooks + Chance, O, const LIMITED: bool> {
    game: &'a G,
    observer: &'a mut O,
    scoring: Scoring,
    /// The root's depth (`u32::MAX`: to the end).
    limit: u32,
    quiescence: bool,
    null_move: bool,
    reductions: bool,
    check_extension: bool,
    /// The futility margin, when futility pruning is on.
    futility: Option<i32>,
    /// Score repeated positions as draws.
    repetition: bool,
    ordering: bool,
    pvs: bool,
    tt_exact_depth: bool,
    shortcuts: bool,
    killers: bool,
    engine: &'a mut Engine<G::Move>,
    budget: &'a Budget<'b>,
    aborted: bool,
}

impl<G: Evaluation + Shortcuts + EngineHooks + Chance, O: Observer, const LIMITED: bool>
    Searcher<'_, '_, G, O, LIMITED>
{
    #[inline]
    fn check_budget(&mut self) {
        let b = self.budget;
        if b.nodes.is_some_and(|n| self.engine.nodes >= n)
            || b.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || b.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// What every node does on entry, in the search and in quiescence: tell
    /// the observer, count the node (looking at the budget now and then),
    /// start its principal variation empty, note the depth reached.
    /// Returns the player to move.
    #[inline(always)]
    fn enter_node(
        &mut self,
        state: &G::State,
        ply: u32,
        index: Option<usize>,
        alpha: MoverScore,
        beta: MoverScore,
    ) -> crate::score::Player {
        let player = self.game.to_move(state);
        self.observer.enter(
            ply,
            index,
            player,
            Some(Window::from_mover(alpha, beta, player)),
        );
        self.engine.nodes += 1;
        if self.engine.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.check_budget();
        }
        self.engine.pv.clear(ply as usize);
        self.engine.seldepth = self.engine.seldepth.max(ply);
        player
    }

    /// The move buffer of ply `p`, empty (handed back with
    /// `self.engine.moves[p] = moves` to keep its allocation).
    fn take_moves(&mut self, p: usize) -> Vec<G::Move> {
        if self.engine.moves.len() <= p {
            self.engine.moves.resize_with(p + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.engine.moves[p]);
        moves.clear();
        moves
    }

    /// The value of `state` for the player to move, searched `depth` more
    /// plies (`u32::MAX`: to the end), and whether it is proven
    /// (independent of the depth limit). `no_win`: the move here was one
    /// that [`Shortcuts::forced_moves`](crate::game::Shortcuts::forced_moves) kept, so the mover has no immediate win
    /// (see [`Shortcuts::FORCED_MOVES_PREVENT_WINS`](crate::game::Shortcuts::FORCED_MOVES_PREVENT_WINS)).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        state: &G::State,
        ply: u32,
        depth: u32,
        index: Option<usize>,
        no_win: bool,
        mut alpha: MoverScore,
        beta: MoverScore,
    ) -> (MoverScore, bool) {
        if LIMITED && depth == 0 && self.quiescence {
            return self.quiesce(state, ply, index, alpha, beta);
        }
        let game = self.game;
        let player = self.enter_node(state, ply, index, alpha, beta);
        if self.aborted {
            self.observer.exit(ply, MoverScore(0).to_max(player));
            return (MoverScore(0), false);
        }
        let p = ply as usize;
        let mut beta_narrow: Option<MoverScore> = None;
        // The subtree's size is what its table entry cost.
        let nodes_before = self.engine.nodes - 1;

        let terminal = game.is_terminal(state);
        if terminal || (LIMITED && depth == 0) {
            let v = self.scoring.leaf(game, state, terminal, ply);
            self.observer.leaf(ply, v, terminal);
            self.observer.exit(ply, v);
            return (v.for_player(player), terminal);
        }

        // A repeated position: a draw, as far as the search is concerned.
        if LIMITED && self.repetition && ply > 0 && game.is_repetition(state) {
            self.observer.leaf(ply, MaxScore::ZERO, false);
            self.observer.exit(ply, MaxScore::ZERO);
            return (MoverScore(0), false);
        }

        // Solver shortcut: a move that wins at once decides the node (it is
        // the best possible result), with no search below it.
        if self.shortcuts
            && !no_win
            && let Some((mv, raw)) = game.immediate_win(state)
        {
            let v = self.scoring.decided(raw, ply + 1);
            if ply == 0 {
                self.engine.pv.update(0, mv);
            }
            self.observer.leaf(ply, v, true);
            self.observer.exit(ply, v);
            return (v.for_player(player), true);
        }

        // The depth this node is searched to, as the table records it.
        let need = if !LIMITED {
            COMPLETE
        } else {
            depth.min(u32::from(COMPLETE) - 1) as u8
        };

        // Transposition table: a result for this position from elsewhere in
        // the tree is as good as searching it again when it was searched at
        // least as deep (or to the end) and its bound decides this window.
        // Never at the root, which must produce a move.
        let mut tt_index = None;
        let mut key = 0;
        if let Some(tt) = &self.engine.tt {
            key = game.hash_key(state);
            let entry = tt.probe(key);
            self.observer.tt_probe(ply, entry.is_some());
            if let Some(e) = entry {
                tt_index = e.best;
                let deep_enough = if self.tt_exact_depth {
                    e.depth == need
                } else {
                    e.depth >= need
                };
                if ply > 0 && deep_enough {
                    let s = MoverScore(if self.scoring.distance {
                        distance_to_root(e.score, ply)
                    } else {
                        e.score
                    });
                    let decides = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if decides {
                        self.observer.tt_cutoff(ply);
                        self.observer.exit(ply, s.to_max(player));
                        return (s, e.depth == COMPLETE);
                    }
                }
            }
        }

        let in_check = LIMITED
            && (self.null_move || self.reductions || self.check_extension)
            && game.in_check(state);
        let null_window = beta.0 - alpha.0 == 1;
        // The static evaluation, for the pruning decisions below (not in
        // check, where it means little, nor at the root).
        let static_eval =
            if ply > 0 && !in_check && LIMITED && (self.null_move || self.futility.is_some()) {
                Some(
                    self.scoring
                        .leaf(game, state, false, ply)
                        .for_player(player),
                )
            } else {
                None
            };

        // Reverse futility pruning: a few plies from the horizon, a quiet
        // position that stands a margin per ply above beta is not going to
        // fall below it: take the evaluation.
        if let (Some(margin), Some(eval)) = (self.futility, static_eval)
            && null_window
            && depth <= FUTILITY_DEPTH
            && !is_decided(beta.0)
            && eval.0 - margin * depth as i32 >= beta.0
        {
            self.observer.exit(ply, eval.to_max(player));
            return (eval, false);
        }

        // Null-move pruning: let the opponent move twice. If a shallower
        // search still fails high, a real move would too (the null-move
        // observation: a move is almost always better than none), so the
        // node is cut without searching its moves. Not at the root, not
        // in the principal variation (a null window here means "not PV"),
        // not in check, not near decided scores, and only where the game
        // says passing is safe (not in chess pawn endings: zugzwang).
        if LIMITED
            && self.null_move
            && ply > 0
            && depth >= NULL_MOVE_MIN_DEPTH
            && !in_check
            && null_window
            && !is_decided(beta.0)
            && static_eval.is_some_and(|e| e >= beta)
            && let Some(passed) = game.null_move(state)
        {
            let r = if depth >= 7 { 3 } else { 2 };
            let (v, _) = self.search(&passed, ply + 1, depth - 1 - r, None, false, -beta, -alpha);
            let v = -v;
            if self.aborted {
                self.observer.exit(ply, MoverScore(0).to_max(player));
                return (MoverScore(0), false);
            }
            if v >= beta {
                // A null-move bound is not a proof of a mate.
                let v = if is_decided(v.0) { beta } else { v };
                if let Some(tt) = &self.engine.tt {
                    tt.store_as(
                        key,
                        v.0,
                        need,
                        Bound::Lower,
                        tt_index.map(usize::from),
                        self.engine.nodes - nodes_before,
                        self.engine.variant > 0,
                    );
                }
                self.observer.exit(ply, v.to_max(player));
                return (v, false);
            }
        }

        let mut moves = self.take_moves(p);
        // Whether the shortcuts narrowed the moves to those worth searching.
        let mut narrowed = false;
        match self.list_moves(state, &mut moves) {
            // Solver shortcut: every move loses at once, and the game says
            // how (two plies on). The root keeps its moves: it must still
            // name one.
            Some(raw) => {
                if ply > 0 {
                    self.engine.moves[p] = moves;
                    let v = self.scoring.decided(raw, ply + 2);
                    self.observer.leaf(ply, v, true);
                    self.observer.exit(ply, v);
                    return (v.for_player(player), true);
                }
                moves.clear();
                game.legal_moves(state, &mut moves);
            }
            None => narrowed = self.shortcuts,
        }
        // Whether the moves below leave the opponent no immediate win.
        let filtered = narrowed && G::FORCED_MOVES_PREVENT_WINS;
        if narrowed
            && !self.scoring.decided
            && let Some((lo, hi)) = game.exact_bounds(state)
        {
            // Solver shortcut: the value cannot leave these bounds, so
            // the window shrinks to them (proven facts, whatever the depth).
            let (lo, hi) = match player {
                crate::score::Player::Max => (lo.0, hi.0),
                crate::score::Player::Min => (-hi.0, -lo.0),
            };
            let (mut a, mut b) = (alpha, beta);
            if a.0 < lo {
                a = MoverScore(lo);
            }
            if b.0 > hi {
                b = MoverScore(hi);
            }
            if a >= b && ply > 0 {
                self.engine.moves[p] = moves;
                let v = if alpha.0 < lo { a } else { b };
                self.observer.exit(ply, v.to_max(player));
                return (v, true);
            }
            // The root keeps the caller's window: narrowed, a move equal
            // to a bound could not show itself best.
            if ply > 0 {
                alpha = a;
                beta_narrow = Some(b);
            }
        }
        let beta = beta_narrow.unwrap_or(beta);
        // The moves in their natural order (after the shortcuts' narrowing,
        // which depends on the position alone): the table names a best move
        // by its index here. Copied only for nodes that search their moves.
        let mut tt_move = None;
        if let Some(tt) = &self.engine.tt {
            if self.engine.natural.len() <= p {
                self.engine.natural.resize_with(p + 1, Vec::new);
            }
            let natural = &mut self.engine.natural[p];
            natural.clear();
            natural.extend_from_slice(&moves);
            tt_move = tt_index.and_then(|i| natural.get(usize::from(i)).copied());
            // A lone move is searched at once: no time to hide a load.
            if moves.len() > 1 {
                for &mv in &moves {
                    tt.prefetch(game.hash_key(&game.play(state, mv)));
                }
            }
        }
        self.order(state, &mut moves, p, tt_move);

        let alpha0 = alpha;
        let mut best = MoverScore::NEG_INF;
        let mut best_move = None;
        let mut proven = true;
        let n = moves.len();
        let exact = !LIMITED;
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.play(state, mv);
            // Check extension: a forcing move is searched a ply deeper, so
            // a sequence of checks is not cut off in the middle (bounded:
            // no deeper than twice the root's depth).
            let extend = LIMITED
                && self.check_extension
                && ply < self.limit.saturating_mul(2)
                && game.in_check(&child);
            let child_depth = if exact {
                depth
            } else {
                depth - 1 + u32::from(extend)
            };
            // Futility pruning: next to the horizon, a quiet move from a
            // position a margin per ply below alpha will not reach it.
            if let (Some(margin), Some(eval)) = (self.futility, static_eval)
                && i > 0
                && depth <= FUTILITY_DEPTH
                && !extend
                && !is_decided(alpha.0)
                && eval.0 + margin * depth as i32 <= alpha.0
                && game.is_quiet(state, mv)
            {
                if eval > best {
                    best = eval;
                }
                proven = false;
                continue;
            }
            // Late-move reductions: in a well-ordered list, a quiet move
            // late in the list rarely turns out best, so it is first
            // searched shallower; only if it beats alpha is it searched
            // again at full depth. Never in check, never for checks,
            // captures, the table's move or the killer.
            let reduce = if LIMITED
                && self.reductions
                && depth >= 3
                && i >= 3
                && !in_check
                && !extend
                && Some(mv) != tt_move
                && !self.is_killer(p, mv)
                && game.is_quiet(state, mv)
            {
                lmr_reduction(depth, i)
            } else {
                0
            };
            // The child searched to `depth` with window (lo, hi), its view.
            let search_child = |s: &mut Self, depth, lo, hi| {
                s.search(&child, ply + 1, depth, Some(i), filtered, lo, hi)
            };
            let (v, child_proven) = if i == 0 || !self.pvs {
                let (mut v, mut c) = search_child(self, child_depth - reduce, -beta, -alpha);
                if reduce > 0 && -v > alpha && !self.aborted {
                    (v, c) = search_child(self, child_depth, -beta, -alpha);
                }
                (-v, c)
            } else {
                // Principal-variation search: the first move is probably
                // best, so prove the others no better with a null window
                // (cheap), and search again in full only if one is. Same
                // value: the re-search restores the exact window.
                let null = MoverScore(-alpha.0 - 1);
                let (mut v, mut c) = search_child(self, child_depth - reduce, null, -alpha);
                if reduce > 0 && -v > alpha && !self.aborted {
                    (v, c) = search_child(self, child_depth, null, -alpha);
                }
                let v = -v;
                if v > alpha && v < beta && !self.aborted {
                    let (v, c) = search_child(self, child_depth, -beta, -alpha);
                    (-v, c)
                } else {
                    (v, c)
                }
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.engine.pv.update(p, mv);
                }
            }
            self.observer.child_value(
                ply,
                i,
                v.to_max(player),
                best.to_max(player),
                Some(Window::from_mover(alpha, beta, player)),
            );
            // The opponent already has a better alternative elsewhere: no
            // reply here can bring this node back into the window. The bound
            // rests on this child alone, so it is proven when the child is.
            if alpha >= beta {
                proven = child_proven;
                if self.ordering {
                    self.remember_cutoff(state, p, depth, mv);
                }
                if i + 1 < n {
                    self.observer.cutoff(ply, i, n - i - 1);
                }
                break;
            }
            proven &= child_proven;
        }
        if n == 0 {
            // A game that reports no moves in a non-terminal state: score it
            // as a leaf rather than return an infinity.
            best = self
                .scoring
                .leaf(game, state, false, ply)
                .for_player(player);
            proven = false;
        }
        self.engine.moves[p] = moves;
        if self.aborted {
            self.observer.exit(ply, MoverScore(0).to_max(player));
            return (MoverScore(0), false);
        }

        if let Some(tt) = &self.engine.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best <= alpha0 {
                Bound::Upper
            } else {
                Bound::Exact
            };
            let score = if self.scoring.distance {
                distance_to_node(best.0, ply)
            } else {
                best.0
            };
            let depth = if proven { COMPLETE } else { need };
            // After a fail-low every move was refuted: none is known best.
            let mv = if bound == Bound::Upper {
                None
            } else {
                best_move.and_then(|b| self.engine.natural[p].iter().position(|&m| m == b))
            };
            tt.store_as(
                key,
                score,
                depth,
                bound,
                mv,
                self.engine.nodes - nodes_before,
                self.engine.variant > 0,
            );
        }
        self.observer.exit(ply, best.to_max(player));
        (best, proven)
    }

    /// Appends the moves the search lists at a node, in the game's
    /// natural order: every legal move, or with the solver shortcuts those
    /// [`Shortcuts::forced_moves`](crate::game::Shortcuts::forced_moves) keeps. A best move in the table is an index
    /// into this list. `Some(value)` (shortcuts only): every move loses at
    /// once, with this value, and the list is unspecified.
    #[inline]
    fn list_moves(&self, state: &G::State, moves: &mut Vec<G::Move>) -> Option<MaxScore> {
        if self.shortcuts {
            self.game.forced_moves(state, moves)
        } else {
            self.game.legal_moves(state, moves);
            None
        }
    }

    /// Move ordering: what is likely best first. Any order gives the same
    /// value; a good one makes cutoffs come on the first move.
    fn order(
        &mut self,
        state: &G::State,
        moves: &mut [G::Move],
        ply: usize,
        tt_move: Option<G::Move>,
    ) {
        if self.ordering {
            let game = self.game;
            // History heuristic: moves that often refuted elsewhere, first.
            if !self.engine.history.is_empty() {
                let history = &self.engine.history;
                sort_by_priority(moves, |m| {
                    game.history_slot(state, m)
                        .map_or(0, |i| history[i].min(i32::MAX as u32) as i32)
                });
            }
            // Killer moves: what refuted a sibling at this ply probably refutes here.
            if self.killers
                && let Some(killers) = self.engine.killers.get(ply)
            {
                for k in killers.iter().rev().flatten() {
                    if let Some(pos) = moves.iter().position(|m| m == k) {
                        moves[..=pos].rotate_right(1);
                    }
                }
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

    fn is_killer(&self, ply: usize, mv: G::Move) -> bool {
        self.killers
            && self
                .engine
                .killers
                .get(ply)
                .is_some_and(|k| k.contains(&Some(mv)))
    }

    /// Quiescence search: past the depth limit, only the game's noisy
    /// moves (captures, promotions) are searched, until the position is
    /// quiet, so the horizon never falls in the middle of an exchange.
    /// The player to move may "stand pat" (take the static evaluation)
    /// instead of capturing, since captures are not forced; in check it
    /// may not, and every legal reply is searched. Proven only at the end
    /// of the game.
    fn quiesce(
        &mut self,
        state: &G::State,
        ply: u32,
        index: Option<usize>,
        mut alpha: MoverScore,
        beta: MoverScore,
    ) -> (MoverScore, bool) {
        let game = self.game;
        let player = self.enter_node(state, ply, index, alpha, beta);
        let p = ply as usize;
        let terminal = game.is_terminal(state);
        if self.aborted || terminal || ply >= MAX_QUIESCENCE_PLY {
            let v = self.scoring.leaf(game, state, terminal, ply);
            self.observer.leaf(ply, v, terminal);
            self.observer.exit(ply, v);
            return (v.for_player(player), terminal);
        }
        let mut moves = self.take_moves(p);
        let mut best = MoverScore::NEG_INF;
        if game.in_check(state) {
            game.legal_moves(state, &mut moves);
        } else {
            let stand = self.scoring.leaf(game, state, false, ply);
            self.observer.leaf(ply, stand, false);
            best = stand.for_player(player);
            if best >= beta || !game.noisy_moves(state, &mut moves) {
                self.engine.moves[p] = moves;
                self.observer.exit(ply, stand);
                return (best, false);
            }
            if best > alpha {
                alpha = best;
            }
        }
        game.order_moves(state, &mut moves);
        let n = moves.len();
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.play(state, mv);
            let v = -self.quiesce(&child, ply + 1, Some(i), -beta, -alpha).0;
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.engine.pv.update(p, mv);
                }
            }
            if alpha >= beta {
                if i + 1 < n {
                    self.observer.cutoff(ply, i, n - i - 1);
                }
                break;
            }
        }
        self.engine.moves[p] = moves;
        self.observer.exit(ply, best.to_max(player));
        (best, false)
    }

    /// Records a move that caused a cutoff, for the killer and history heuristics.
    fn remember_cutoff(&mut self, state: &G::State, ply: usize, depth: u32, mv: G::Move) {
        if self.engine.killers.len() <= ply {
            self.engine.killers.resize(ply + 1, [None; KILLERS]);
        }
        let k = &mut self.engine.killers[ply];
        if k[0] != Some(mv) {
            k.rotate_right(1);
            k[0] = Some(mv);
        }
        if let Some(slot) = self.game.history_slot(state, mv)
            && let Some(h) = self.engine.history.get_mut(slot)
        {
            let d = depth.min(HISTORY_DEPTH_CAP);
            *h = h.saturating_add(d * d + 1);
        }
    }

    /// Table cutoffs can cut the principal variation short: continue it from
    /// the table's exact entries, as far as they go and stay legal. Not for
    /// games whose keys merge mirror images: a stored move may be mirrored.
    fn extend_pv(&self, state: &G::State, pv: &mut Vec<G::Move>) {
        let Some(tt) = &self.engine.tt else {
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
    fn random_root(&mut self, state: &G::State, seed: u64) -> Option<Outcome<G::Move>> {
        let game = self.game;
        let player = game.to_move(state);
        self.observer.enter(0, None, player, Some(Window::FULL));
        self.engine.pv.clear(0);
        let terminal = game.is_terminal(state);
        if terminal || self.limit == 0 {
            let v = self.scoring.leaf(game, state, terminal, 0);
            self.observer.leaf(0, v, terminal);
            self.observer.exit(0, v);
            let (value, distance) = self.scoring.report(v);
            return Some(Outcome {
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
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.play(state, mv);
            let alpha = if best == MoverScore::NEG_INF {
                best
            } else {
                MoverScore(best.0 - 1)
            };
            let depth = if self.scoring.exact {
                self.limit
            } else {
                self.limit - 1
            };
            let (v, c) = self.search(
                &child,
                1,
                depth,
                Some(i),
                false,
                MoverScore::NEG_INF,
                -alpha,
            );
            if self.aborted {
                return None;
            }
            let v = -v;
            proven &= c;
            let better = v > best;
            if better {
                best = v;
            }
            if better || v == best {
                self.engine.pv.update(0, mv);
                let mut line = self.engine.pv.line(0).to_vec();
                self.extend_pv(state, &mut line);
                ties.offer(v.to_max(player), better, &line);
            }
            self.observer.child_value(
                0,
                i,
                v.to_max(player),
                best.to_max(player),
                Some(Window::from_mover(alpha, MoverScore::INF, player)),
            );
        }
        let score = best.to_max(player);
        self.observer.exit(0, score);
        let pv = ties.choose(seed).unwrap_or_default();
        let (value, distance) = self.scoring.report(score);
        Some(Outcome {
            value,
            best_move: pv.first().copied(),
            pv,
            distance,
            proven,
        })
    }
}

/// Alpha-beta from `state` with the full window, reporting every event to
/// `observer`. With default options, the textbook search: it returns
/// minimax's value, visiting no more nodes (18,297 on empty tic-tac-toe with
/// moves in square order). Options switch on the engine features.
pub fn alphabeta<G: Evaluation + Shortcuts + EngineHooks + Chance, O: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    observer: &mut O,
) -> Outcome<G::Move> {
    let mut engine = Engine::new(game, options);
    engine
        .search(
            game,
            state,
            options.depth,
            false,
            &Budget::default(),
            observer,
        )
        .expect("a search without a budget always finishes")
}
