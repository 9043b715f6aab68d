//! The rules of a game ([`Game`]) and what searches may use beyond them,
//! grouped by who uses it: [`Evaluation`] (depth-limited searches and move
//! ordering), [`Shortcuts`] (the exact solver), [`EngineHooks`] (the
//! depth-limited engine's tricks), [`Chance`] (expectiminimax), [`Playouts`]
//! (MCTS), [`Impartial`] (the nimber search), [`Learn`] (networks). Every capability method has a default that is always correct; a
//! game overrides some to search faster or deeper, never to change what a
//! search proves (the conformance kit checks each promise).
//!
//! A game that supplies none of them says so in one line:
//! `ply_core::no_hooks!(MyGame);`, or names those it leaves at their
//! defaults: `ply_core::no_hooks!(MyGame: Shortcuts, EngineHooks, Chance, Playouts, Impartial, Learn);`.

use std::fmt;
use std::hash::{Hash, Hasher};

pub use rand::RngCore;

use crate::score::{MaxScore, Player};

/// A two-player, zero-sum game, stated once as a search problem: the initial
/// state, the player to move, the legal moves, the result of a move, the
/// terminal test and the utility; and a key for tables.
///
/// Every search in ply is generic over this trait and monomorphised, so a game
/// with a small `Copy` state and a cheap move generator searches as fast as a
/// hand-written solver. The state is a value: [`Game::play`] returns a new
/// state, so a search never sees a half-applied move.
pub trait Game: Sync {
    /// A position, including whatever decides the player to move.
    ///
    /// `Eq + Hash` let ply count distinct positions and key tables on them;
    /// `Send + Sync` let several threads search one position.
    type State: Clone + Eq + Hash + fmt::Debug + Send + Sync;
    /// A move. Small and `Copy`: searches keep lists of them.
    type Move: Copy + Eq + fmt::Debug + Send + Sync;

    /// The position a game starts from.
    fn initial_state(&self) -> Self::State;

    /// Who moves in `state`. Meaningless, but must not panic, in a terminal state.
    fn to_move(&self, state: &Self::State) -> Player;

    /// Appends the legal moves of `state` to `moves`, in the game's natural
    /// order (the order textbook searches try them in). Appends nothing in a
    /// terminal state. The caller clears `moves` first; taking a buffer lets
    /// searches reuse one allocation per ply.
    fn legal_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>);

    /// The state after `mv`, which must be legal in `state`.
    fn play(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// Whether the game is over in `state`.
    fn is_terminal(&self, state: &Self::State) -> bool;

    /// The result of a terminal state from MAX's view: +1 win, 0 draw, -1 loss
    /// unless the game defines richer scores. Only called on terminal states.
    fn utility(&self, state: &Self::State) -> MaxScore;

    /// A 64-bit key for transposition tables: equal states must give equal
    /// keys. The default hashes the state with a fixed (reproducible) hasher;
    /// a game overrides it with something cheaper, such as Zobrist keys or
    /// the bitboard itself.
    fn hash_key(&self, state: &Self::State) -> u64 {
        let mut h = FixedHasher::default();
        state.hash(&mut h);
        h.finish()
    }
}

/// Evaluation and move ordering: what depth-limited searches score their
/// horizon with, and what ordered alpha-beta tries first.
pub trait Evaluation: Game {
    /// An estimate of `state` from MAX's view, for depth-limited searches.
    ///
    /// Depth-limited searches score every leaf with it, terminal or not, so
    /// on terminal states it must agree with [`Game::utility`]: a win above
    /// every non-terminal estimate, a loss below every one, a draw at the draw
    /// utility. The default knows nothing: the utility on terminal states and
    /// 0 ("even") elsewhere.
    fn evaluate(&self, state: &Self::State) -> MaxScore {
        if self.is_terminal(state) {
            self.utility(state)
        } else {
            MaxScore::ZERO
        }
    }

    /// [`Evaluation::evaluate`] on a state the caller has already found not
    /// to be terminal: engines test for the end first, so a game whose
    /// terminal test costs something (chess generates moves for it) can
    /// skip the second test here. The default is [`Evaluation::evaluate`].
    fn heuristic(&self, state: &Self::State) -> MaxScore {
        self.evaluate(state)
    }

    /// Reorders `moves` (the legal moves of `state`) so that the likely best
    /// come first. Any order is correct; a good one prunes more. The default
    /// keeps the natural order. Engines call it after sorting by history, so
    /// a stable sort by the game's own priority keeps history's order among
    /// moves the game ranks equal.
    fn order_moves(&self, _state: &Self::State, _moves: &mut [Self::Move]) {}
}

/// Solver shortcuts: proven facts that end or narrow a node without
/// searching it (used when `SearchOptions::shortcuts` is on). A wrong one
/// gives wrong values, so the conformance kit checks each against a plain
/// search.
pub trait Shortcuts: Game {
    /// Whether [`Game::hash_key`] gives symmetric positions (mirror images)
    /// one key. Tables then still order moves by a stored best move, but do
    /// not read principal variations from it (the move may be mirrored).
    const SYMMETRIC_KEYS: bool = false;

    /// Whether every move [`Shortcuts::forced_moves`] keeps leaves the
    /// opponent without an immediate win (it keeps only moves that do not
    /// lose at once, as Connect Four's does). The search then skips
    /// [`Shortcuts::immediate_win`] below those moves: one threat
    /// computation a node saved. Default: no such promise.
    const FORCED_MOVES_PREVENT_WINS: bool = false;

    /// A move that wins at once for the player to move, with the utility
    /// (MAX's view) it ends the game with. Engines with `shortcuts` on score
    /// such a node without searching it. Default: none.
    fn immediate_win(&self, _state: &Self::State) -> Option<(Self::Move, MaxScore)> {
        None
    }

    /// For a position that is not over and has no immediate win: appends to
    /// `moves` the moves worth searching, in the order of
    /// [`Game::legal_moves`], at least one best move among them; or, when
    /// every move loses in a way the game can tell at once, returns the
    /// position's value (MAX's view) instead, `moves` then unspecified.
    /// It replaces `legal_moves` where the search uses it, so a game can
    /// list the narrowed moves directly, without listing all first.
    /// Default: all legal moves.
    fn forced_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>) -> Option<MaxScore> {
        self.legal_moves(state, moves);
        None
    }

    /// Bounds (MAX's view) on the exact value of a position that is not
    /// terminal, has no immediate win and kept some moves after
    /// [`Shortcuts::forced_moves`]. Lets a search cut a window to what is possible.
    fn exact_bounds(&self, _state: &Self::State) -> Option<(MaxScore, MaxScore)> {
        None
    }

    /// The range (MAX's view) the score search bisects at a root that is not
    /// terminal: at best a win with the mover's next move, at worst a loss to
    /// the opponent's next. Where the bisection starts decides which probes
    /// it makes. The default is [`Shortcuts::exact_bounds`].
    fn score_range(&self, state: &Self::State) -> Option<(MaxScore, MaxScore)> {
        self.exact_bounds(state)
    }
}

/// The defaults of the depth-limited engine's tuning numbers for one game.
/// They are options of a search, not rules (`SearchOptions::tuning`
/// replaces them for one engine): a game only says what suits its
/// evaluation's scale. Every number of the engine lives here, once; the
/// options' switches turn the features that use them on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Futility pruning: how far, in evaluation units, one ply of search
    /// rarely moves a quiet position's evaluation. `None`: no futility pruning.
    pub futility_margin: Option<i32>,
    /// Aspiration windows: how far a position's value usually moves from
    /// one iteration of iterative deepening to the next. `None`: full windows.
    pub aspiration_width: Option<i32>,
    /// Before searching a node's moves, play each one to prefetch its
    /// table entry. Worth it where a move costs less than a cache miss
    /// (Connect Four's bitboards); not where playing a move is dearer and
    /// the first one usually cuts the node off (chess: measured, 16% of
    /// its search time went to these extra moves).
    pub prefetch_children: bool,
    /// Reverse futility pruning works this many plies from the horizon
    /// (with `futility_margin` per ply). The deeper, the more nodes a
    /// static evaluation far above beta settles; how deep is safe depends
    /// on how well the evaluation predicts a search.
    pub reverse_futility_depth: u32,
    /// Reverse futility pruning asks one ply's margin less of a position
    /// that is improving (better for its mover than at its last turn).
    pub reverse_futility_improving: bool,
    /// How much null-move pruning reduces.
    pub null_move: NullMoveRule,
    /// Quiescence tries [`EngineHooks::quiet_checks`] at its first ply.
    pub quiet_checks: bool,
    /// Late-move pruning works this many plies from the horizon (0: off):
    /// there, after the first `(3 + depth²) / 2` quiet moves (`3 + depth²`
    /// when the position is improving), the remaining ones are skipped.
    /// In a well-ordered list they almost never turn out best that close
    /// to the horizon.
    pub late_move_pruning: u32,
    /// History scores with gravity and a malus: only quiet moves are
    /// scored; a quiet move that cuts a node off gains, the quiet moves
    /// tried before it there (searched or pruned) lose as much, and every
    /// update is scaled so that scores stay within a bound and old ones
    /// fade. Without it a cutoff move of any kind only gains, and scores
    /// only grow, so the history of early moves outweighs the present.
    pub history_gravity: bool,
    /// Late-move reductions use the history (0 or less: they do not): a
    /// move is reduced one ply less for every this many points of history
    /// score, and one more for every this many below zero (with
    /// `history_gravity`, scores lie within ±16,384).
    pub history_reduction: i32,
    /// Internal iterative reduction from this depth (0: off): a node the
    /// table has no move for is searched a ply shallower.
    pub internal_reduction: u32,
    /// Late-move reductions reduce a late quiet move by
    /// `lmr_base + ln(depth) * ln(index) / lmr_divisor` plies (rounded
    /// down, at least one), both numbers in hundredths (50 and 250: 0.5
    /// and 2.5). The smaller the divisor, the more late moves are reduced.
    pub lmr_base: i32,
    /// See [`Tuning::lmr_base`]; at least 1.
    pub lmr_divisor: i32,
    /// Static-exchange pruning works this many plies from the horizon (0:
    /// off): there, a move after the first whose exchange
    /// ([`EngineHooks::exchange`]) loses more than `see_quiet_margin` per
    /// ply (a quiet move) or `see_noisy_margin` per ply (a capture or
    /// promotion) is skipped. A move that only hands material over so
    /// close to the horizon is almost never the best one, and searching it
    /// costs as much as a good move.
    pub see_pruning: u32,
    /// See [`Tuning::see_pruning`]: per ply, for quiet moves.
    pub see_quiet_margin: i32,
    /// See [`Tuning::see_pruning`]: per ply, for noisy moves.
    pub see_noisy_margin: i32,
    /// Continuation history (with `history_gravity`): a quiet move is
    /// also scored by what it did as the reply to the move one ply before
    /// it and as the follow-up to the mover's own previous move (each a
    /// table of [`Evaluation::continuation_slot`] pairs), and ordered by
    /// the sum of the three scores. A plain history says a move is good
    /// somewhere; these say it is good after this move.
    pub continuation_history: bool,
}

impl Tuning {
    /// No tuning: neither futility pruning nor aspiration windows.
    pub const NONE: Tuning = Tuning {
        futility_margin: None,
        aspiration_width: None,
        prefetch_children: true,
        reverse_futility_depth: 3,
        reverse_futility_improving: false,
        null_move: NullMoveRule::NONE,
        quiet_checks: false,
        late_move_pruning: 0,
        history_gravity: false,
        history_reduction: 0,
        internal_reduction: 0,
        lmr_base: 50,
        lmr_divisor: 250,
        see_pruning: 0,
        see_quiet_margin: 60,
        see_noisy_margin: 100,
        continuation_history: false,
    };

    /// These numbers with some replaced, from `key=value` pairs separated
    /// by commas (`reverse_futility_depth=5,null_base=2`): the keys are the
    /// field names, `null_*` for the [`NullMoveRule`]'s, and `none` turns
    /// off an optional margin. An unknown key or a bad value is an error
    /// that names it.
    pub fn with_overrides(mut self, text: &str) -> Result<Tuning, String> {
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(format!("'{pair}': expected key=value"));
            };
            let (key, value) = (key.trim(), value.trim());
            let bad = |what: &str| format!("{key}={value}: expected {what}");
            let number = || value.parse::<i32>().map_err(|_| bad("a whole number"));
            let depth = || {
                value
                    .parse::<u32>()
                    .map_err(|_| bad("a whole number from 0"))
            };
            let margin = || match value {
                "none" => Ok(None),
                _ => value
                    .parse::<i32>()
                    .map(Some)
                    .map_err(|_| bad("a whole number or none")),
            };
            let flag = || value.parse::<bool>().map_err(|_| bad("true or false"));
            match key {
                "futility_margin" => self.futility_margin = margin()?,
                "aspiration_width" => self.aspiration_width = margin()?,
                "prefetch_children" => self.prefetch_children = flag()?,
                "reverse_futility_depth" => self.reverse_futility_depth = depth()?,
                "reverse_futility_improving" => self.reverse_futility_improving = flag()?,
                "null_min_depth" => self.null_move.min_depth = depth()?,
                "null_base" => self.null_move.base = depth()?,
                "null_per_depth" => self.null_move.per_depth = depth()?,
                "null_per_eval" => self.null_move.per_eval = number()?,
                "quiet_checks" => self.quiet_checks = flag()?,
                "late_move_pruning" => self.late_move_pruning = depth()?,
                "history_gravity" => self.history_gravity = flag()?,
                "continuation_history" => self.continuation_history = flag()?,
                "history_reduction" => self.history_reduction = number()?,
                "internal_reduction" => self.internal_reduction = depth()?,
                "lmr_base" => self.lmr_base = number()?,
                "see_pruning" => self.see_pruning = depth()?,
                "see_quiet_margin" => self.see_quiet_margin = number()?,
                "see_noisy_margin" => self.see_noisy_margin = number()?,
                "lmr_divisor" => {
                    self.lmr_divisor = number()?;
                    if self.lmr_divisor < 1 {
                        return Err(bad("a whole number from 1"));
                    }
                }
                _ => return Err(format!("unknown tuning key '{key}'")),
            }
        }
        Ok(self)
    }
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning::NONE
    }
}

/// Null-move pruning's reduction `R` (the search after the pass goes
/// `depth - 1 - R` plies): `base + depth / per_depth`, plus one ply for
/// every `per_eval` units the evaluation stands above beta (at most 3):
/// the deeper the node and the surer the cut, the cheaper the proof may
/// be. `min_depth`: the least depth at which a node may pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullMoveRule {
    pub min_depth: u32,
    pub base: u32,
    pub per_depth: u32,
    /// 0: the evaluation's margin adds nothing.
    pub per_eval: i32,
}

impl NullMoveRule {
    /// R = 2, 3 from depth 7; only from depth 4, so that the search after
    /// the pass keeps a full ply (quiescence alone cannot see a quiet
    /// threat that the pass allows).
    pub const NONE: NullMoveRule = NullMoveRule {
        min_depth: 4,
        base: 2,
        per_depth: 7,
        per_eval: 0,
    };
}

/// Depth-limited engine hooks: what lets an engine look past its horizon
/// (quiescence, check extensions) and prune what a shallow look already
/// decides (null move, late-move reductions, futility). Chess supplies them;
/// a game without them is searched as if the features were off.
pub trait EngineHooks: Game {
    /// The defaults of the engine's tuning numbers for this game.
    const TUNING: Tuning = Tuning::NONE;

    /// The number of history-heuristic slots [`EngineHooks::history_slot`]
    /// maps moves into; 0 (the default) turns the history heuristic off.
    fn history_slots(&self) -> usize {
        0
    }
    /// The history-heuristic slot of `mv` in `state`, below
    /// [`EngineHooks::history_slots`]: moves that share a slot (the same
    /// square, the same from-to pair) share their record of causing cutoffs.
    fn history_slot(&self, _state: &Self::State, _mv: Self::Move) -> Option<usize> {
        None
    }
    /// The number of continuation-history slots
    /// [`EngineHooks::continuation_slot`] maps moves into; 0 (the default)
    /// leaves [`Tuning::continuation_history`] without effect.
    fn continuation_slots(&self) -> usize {
        0
    }
    /// The continuation-history slot of `mv` in `state`, below
    /// [`EngineHooks::continuation_slots`]: what the move does, as a reply
    /// could be conditioned on it (in chess, the piece and the square it
    /// goes to; the from-to pair of [`EngineHooks::history_slot`] says less
    /// about what a reply must answer).
    fn continuation_slot(&self, _state: &Self::State, _mv: Self::Move) -> Option<usize> {
        None
    }

    /// Quiescence: appends the *noisy* moves of `state` (in chess: captures
    /// and promotions), those that can change the evaluation by a lot, and
    /// returns `true`. A depth-limited engine with `quiescence` on keeps
    /// searching these past its depth limit until the position is quiet, so
    /// that it never scores a position in the middle of an exchange (the
    /// horizon effect). The default returns `false`: no quiescence, the
    /// horizon is scored by [`Evaluation::evaluate`] as it stands.
    fn noisy_moves(&self, _state: &Self::State, _moves: &mut Vec<Self::Move>) -> bool {
        false
    }

    /// Quiescence's first ply: appends the quiet moves (not among
    /// [`EngineHooks::noisy_moves`]) that force a reply, such as chess's
    /// quiet checks. Searched one ply past the horizon, they let the
    /// engine see a mate by a quiet move there, and the mate threat that
    /// a null move would otherwise miss. Default: none.
    fn quiet_checks(&self, _state: &Self::State, _moves: &mut Vec<Self::Move>) {}

    /// Whether the player to move must answer a threat at once (in chess:
    /// is in check). Engines then search the node one ply deeper (the check
    /// extension), never "stand pat" in quiescence, and neither pass (null
    /// move) nor reduce moves there. Default: never.
    fn in_check(&self, _state: &Self::State) -> bool {
        false
    }

    /// Null-move pruning: the state after the player to move passes, or
    /// `None` where passing is illegal or unsafe (in check; in chess, pawn
    /// endings, where having to move can be a disadvantage). If even passing
    /// keeps a shallow search above beta, a real move will too, and the node
    /// is cut. Default: `None` (never prune this way).
    fn null_move(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }

    /// Late-move reductions and futility: whether `mv` is quiet (in chess:
    /// not a capture nor a promotion). Quiet moves late in a well-ordered
    /// list rarely turn out best, so engines search them a ply shallower
    /// first and search again at full depth only if one surprises. Default:
    /// `false` (never reduce).
    fn is_quiet(&self, _state: &Self::State, _mv: Self::Move) -> bool {
        false
    }

    /// Static exchange: what `mv` wins for the player to move (negative:
    /// loses), in the evaluation's units, if both sides then keep trading
    /// on the square it moves to, each free to stop. Lets the engine skip,
    /// near the horizon, moves that only give material away
    /// ([`Tuning::see_pruning`]). Default: `None` (no such measure; never
    /// prune this way).
    fn exchange(&self, _state: &Self::State, _mv: Self::Move) -> Option<i32> {
        None
    }

    /// Whether `state` repeats an earlier position of the game (one that
    /// was reached before by the same moves' effect). Engines score such a
    /// position as a draw inside the search: whoever could repeat once can
    /// repeat again, so a line that goes round in a circle gains nothing.
    /// Default: never.
    fn is_repetition(&self, _state: &Self::State) -> bool {
        false
    }

    /// Selective search: narrows `moves` (what a depth-limited node listed)
    /// to those worth searching, keeping at least one. Unlike
    /// [`Shortcuts::forced_moves`] this is a judgement, not a proof: of
    /// gomoku's 225 points only those near the stones are worth a look, and
    /// against an open three only the blocks and one's own fours. So it acts
    /// only under a depth limit with `SearchOptions::selective`; exact
    /// searches still see every move. Default: keeps them all.
    fn select_moves(&self, _state: &Self::State, _moves: &mut Vec<Self::Move>) {}

    /// Whether [`EngineHooks::threat_win`] is implemented.
    const THREAT_SEARCH: bool = false;

    /// Threat-space search: a proof that the player to move wins by moves
    /// that each leave the opponent one reply (gomoku's victory by
    /// continuous fours), found within `max_nodes` positions. Such wins
    /// lie far beyond a full-width search's depth but cost little to find,
    /// since the defender never branches. Engines try it at the root before
    /// the main search (with `SearchOptions::shortcuts`). Default: none.
    fn threat_win(&self, _state: &Self::State, _max_nodes: u64) -> ThreatSearch<Self::Move> {
        ThreatSearch::default()
    }
}

/// What a threat search ([`EngineHooks::threat_win`]) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatSearch<M> {
    /// The winning line, both sides' moves from the root, the last one
    /// winning; `None` when no forced win was found.
    pub win: Option<Vec<M>>,
    /// Positions visited.
    pub nodes: u64,
    /// Whether the search ran to its end: without a win, a proof that no
    /// win of this kind exists; `false` when the budget ran out first.
    pub complete: bool,
}

impl<M> Default for ThreatSearch<M> {
    fn default() -> Self {
        ThreatSearch {
            win: None,
            nodes: 0,
            complete: false,
        }
    }
}

/// Chance: nature moves at some states (a die roll, a card dealt).
/// Expectiminimax and MCTS handle them; minimax, alpha-beta and the score
/// search refuse a position where chance is reachable
/// ([`crate::search::SearchError::Chance`]).
///
/// Chance also says what players see of nature's moves: a card dealt face
/// down is a chance outcome only one player sees ([`Chance::HIDDEN`],
/// [`Chance::information_set`]).
pub trait Chance: Game {
    /// Whether any state of this game can be a chance node. `false` (the
    /// default) compiles every chance test of every search away.
    const HAS_CHANCE: bool = false;

    /// Whether nature moves in `state` rather than a player. At a chance
    /// node [`Game::legal_moves`] lists the outcomes and
    /// [`Chance::chance_outcomes`] gives their probabilities;
    /// [`Game::to_move`] names the player who moves after the outcome.
    fn is_chance(&self, _state: &Self::State) -> bool {
        false
    }

    /// The outcomes of a chance node with their probabilities (f64, positive,
    /// summing to 1), in the order of [`Game::legal_moves`]. Appends nothing
    /// elsewhere.
    fn chance_outcomes(&self, _state: &Self::State, _outcomes: &mut Vec<(Self::Move, f64)>) {}

    /// Bounds on every value a search of `state` can meet, MAX's view: on
    /// utilities when `exact`, else on evaluations too. Star1 pruning at
    /// chance nodes needs them; `None` (the default) switches it off.
    fn value_bounds(&self, _state: &Self::State, _exact: bool) -> Option<(MaxScore, MaxScore)> {
        None
    }

    /// Whether a player may not see everything that happened: cards dealt
    /// face down. `false` (the default) for every game where both players
    /// see the whole position. Minimax, alpha-beta, expectiminimax and
    /// MCTS would read the hidden cards, so they refuse such a game
    /// ([`crate::search::SearchError::Hidden`]); the regret-minimisation
    /// searches ([`crate::search::cfr`]) play it by information sets.
    const HIDDEN: bool = false;

    /// The information set of the player to move in `state` (neither a
    /// chance node nor the end): everything that player knows, written
    /// out, so two states name the same set exactly when the mover cannot
    /// tell them apart. States of one set have the same player to move and
    /// the same legal moves (the conformance kit checks both); the name is
    /// what a strategy table shows (Kuhn poker's `K:pb`: holding the king
    /// after pass, bet). The default, for games without hidden
    /// information, is the whole state: each position is its own set.
    fn information_set(&self, state: &Self::State) -> String {
        format!("{state:?}")
    }
}

/// Playouts: how Monte Carlo tree search plays a position out.
pub trait Playouts: Game {
    /// The move a playout makes in `state`, as an index into `moves` (its
    /// legal moves), given a uniformly random 64-bit number. The default is
    /// uniform; a game may bias playouts toward sensible moves.
    fn playout_choice(&self, _state: &Self::State, moves: &[Self::Move], random: u64) -> usize {
        ((u128::from(random) * moves.len() as u128) >> 64) as usize
    }

    /// A whole playout from `state`, played by the game itself: the
    /// result for MAX (1 a win, 1/2 a draw, 0 a loss), or `None` (the
    /// default, and the answer at a terminal or chance node) to have MCTS play it move
    /// by move through [`Game::legal_moves`], [`Playouts::playout_choice`]
    /// and [`Game::play`]. A game whose states are costly to copy and
    /// whose legal moves are costly to list (Go) plays one board in place
    /// here, several times faster, and may use knowledge a move-by-move
    /// choice cannot keep between moves. It draws its random numbers from
    /// `rng` and pushes the moves it plays, with who played each, on
    /// `moves` (the lab's trace and RAVE read them). The default draws
    /// nothing, so the searches of games without it are unchanged.
    fn playout(
        &self,
        _state: &Self::State,
        _rng: &mut dyn RngCore,
        _moves: &mut Vec<(Player, Self::Move)>,
    ) -> Option<f64> {
        None
    }

    /// [`Playouts::playout`], also adding to `owners` (one entry a move
    /// slot, [`Playouts::move_slots`] of them) 1 for each slot MAX owns
    /// at the playout's end and -1 for each MIN owns: the ownership map of
    /// a territory game (Go), which MCTS keeps when asked
    /// ([`MctsOptions::ownership`](crate::search::MctsOptions::ownership)).
    /// `None` (the default) when the game counts no owners: MCTS then
    /// plays [`Playouts::playout`] and the playout counts for no map.
    fn playout_owned(
        &self,
        _state: &Self::State,
        _rng: &mut dyn RngCore,
        _moves: &mut Vec<(Player, Self::Move)>,
        _owners: &mut [i64],
    ) -> Option<f64> {
        None
    }

    /// The move a slot names ([`Playouts::move_slot`]'s inverse), for
    /// reports of the ownership map; `None` (the default) for a slot that
    /// names no move.
    fn slot_move(&self, _slot: usize) -> Option<Self::Move> {
        None
    }

    /// How many slots [`Playouts::move_slot`] numbers moves into: 0 (the
    /// default) when the game's moves have no such numbering, and then
    /// MCTS's RAVE is off for it.
    fn move_slots(&self) -> usize {
        0
    }

    /// For RAVE (all moves as first): a number below
    /// [`Playouts::move_slots`] that names a move wherever it is played
    /// (a point of the board), so that its result later in an iteration
    /// counts for the same move higher in the tree; `None` for a move that
    /// means nothing out of its place (a pass).
    fn move_slot(&self, _mv: Self::Move) -> Option<usize> {
        None
    }

    /// For RAVE: what MCTS believes of `mv` in `state` before any
    /// iteration has played it, as virtual AMAF results (visits, wins for
    /// the mover) added to the real ones. The default, one draw, makes an
    /// unknown move worth 1/2; a game lowers what its knowledge says is
    /// rarely right (Go: a pass mid-game, filling one's own eye).
    fn prior(&self, _state: &Self::State, _mv: Self::Move) -> (f32, f32) {
        (1.0, 0.5)
    }
}

/// Impartial games under normal play: both players have the same moves in
/// every position, and the player who cannot move loses. Every position
/// then has a nimber (its Sprague-Grundy value), 0 exactly when the player
/// to move loses, and a sum of independent games has the XOR of their
/// nimbers: the nimber search ([`crate::search::nimber`]) solves by that.
pub trait Impartial: Game {
    /// Whether the game is impartial under normal play. `false` (the
    /// default): the nimber search refuses it.
    const IMPARTIAL: bool = false;

    /// Appends to `parts` the independent components `state` is the sum
    /// of (heaps, numbers, trees), each a position of this game, and
    /// returns `true`; `false` (the default) when it is one component.
    /// The nimber search computes each part once and XORs them.
    fn components(&self, _state: &Self::State, _parts: &mut Vec<Self::State>) -> bool {
        false
    }
}

/// Learning: how a network sees a position and names its moves, for the
/// searches guided by a learned evaluator ([`crate::search::puct`]) and
/// for training one by self-play.
///
/// A network reads a fixed-size stack of planes and answers with one
/// number per *policy index*, whatever the position; the game says how
/// its positions become planes and its moves indices. Positions are
/// written from the view of the player to move (their stones in the first
/// plane), so one network plays both sides. Symmetries (a board's mirror
/// and rotations) multiply the training data: a position and its image
/// have the same value, and the image of a good move is a good move.
pub trait Learn: Game {
    /// Whether every game of the type can be learned; `false` (the
    /// default): the learned searches and `ply learn` refuse it.
    const LEARNABLE: bool = false;

    /// Whether this game can be learned: [`Learn::LEARNABLE`] for a type
    /// whose games all can or all cannot; a game written in Python can
    /// when it has an `encode`.
    fn learnable(&self) -> bool {
        Self::LEARNABLE
    }

    /// The input's shape: `[planes, height, width]`.
    fn planes(&self) -> [usize; 3] {
        [0, 0, 0]
    }

    /// Writes `state` (not over, not a chance node) as planes, from the
    /// mover's view, into `out` (`planes · height · width` numbers, all 0
    /// when given): plane-major, then row, then column.
    fn encode(&self, _state: &Self::State, _out: &mut [f32]) {}

    /// How many numbers the policy has: at least one index per move that
    /// can be legal anywhere.
    fn policy_size(&self) -> usize {
        0
    }

    /// The index of `mv`, legal in `state`, in the policy (below
    /// [`Learn::policy_size`]; two legal moves of a position never share
    /// one).
    fn policy_index(&self, _state: &Self::State, _mv: Self::Move) -> usize {
        0
    }

    /// How many symmetries the rules have, the identity (0) included.
    fn symmetries(&self) -> usize {
        1
    }

    /// The image of `state` under symmetry `sym` (0: itself).
    fn symmetric_state(&self, state: &Self::State, _sym: usize) -> Self::State {
        state.clone()
    }

    /// Where policy index `index` goes under symmetry `sym`: the index of
    /// the image of the move, in the image of the position.
    fn symmetric_index(&self, index: usize, _sym: usize) -> usize {
        index
    }
}

/// What the alpha-beta engine (alpha-beta, iterative deepening, the score
/// search) may ask of a game: its evaluation and ordering, the solver's
/// shortcuts, the engine's hooks, and whether chance is reachable (which
/// it refuses). One name for the bound every engine function shares.
pub trait EngineGame: Evaluation + Shortcuts + EngineHooks + Chance {}

impl<G: Evaluation + Shortcuts + EngineHooks + Chance> EngineGame for G {}

/// Every capability: what the CLI, the play loop and the conformance kit
/// ask of a registered game, since they offer every search.
pub trait Searchable: EngineGame + Playouts + Impartial + Learn {}

impl<G: EngineGame + Playouts + Impartial + Learn> Searchable for G {}

/// Declares capabilities a game leaves at their defaults, one line for all:
/// `no_hooks!(Nim);` for a game with none of its own, or
/// `no_hooks!(TicTacToe: Shortcuts, EngineHooks, Chance, Playouts, Learn);` for the
/// ones it does not override (the others it implements itself).
#[macro_export]
macro_rules! no_hooks {
    ($game:ty) => {
        $crate::no_hooks!($game: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Impartial, Learn);
    };
    ($game:ty: $($capability:ident),+ $(,)?) => {
        $(impl $crate::game::$capability for $game {})+
    };
}

/// Sorts `moves` by `priority`, highest first, keeping the current order
/// among equal priorities (a stable sort), computing each priority once.
/// For [`Game::order_moves`]: a plain `sort_by_key` calls the key function
/// twice per comparison, which for a move-ordering heuristic can cost more
/// than the pruning saves. Lists of up to 256 moves are sorted on the stack.
pub fn sort_by_priority<M: Copy>(moves: &mut [M], priority: impl FnMut(M) -> i32) {
    // The keys live on the stack, in an array no longer than needed: a
    // short list (Connect Four's seven columns) should not pay for
    // zeroing room for a chess position's.
    match moves.len() {
        0..=1 => {}
        2..=16 => insertion_sort_by_key::<M, 16>(moves, priority),
        17..=256 => insertion_sort_by_key::<M, 256>(moves, priority),
        _ => {
            let mut priority = priority;
            moves.sort_by_cached_key(|&m| std::cmp::Reverse(priority(m)));
        }
    }
}

/// Insertion sort, highest key first, for lists of at most `N` moves:
/// stable, and fast on the short lists games produce.
#[inline]
fn insertion_sort_by_key<M: Copy, const N: usize>(
    moves: &mut [M],
    mut priority: impl FnMut(M) -> i32,
) {
    let mut keys = [0i32; N];
    for (k, &m) in keys.iter_mut().zip(moves.iter()) {
        *k = priority(m);
    }
    for i in 1..moves.len() {
        let (k, m) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = k;
        moves[j] = m;
    }
}

/// A deterministic FNV-1a hasher, so that default hash keys are the same on
/// every run and platform (std's `RandomState` is not).
#[derive(Clone, Copy)]
pub struct FixedHasher(u64);

impl Default for FixedHasher {
    fn default() -> Self {
        FixedHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for FixedHasher {
    fn finish(&self) -> u64 {
        // A final avalanche, so keys that differ in one input bit differ in many.
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{NullMoveRule, Tuning, sort_by_priority};

    /// Overrides change the fields they name and nothing else; an unknown
    /// key or a bad value is refused with its name.
    #[test]
    fn tuning_overrides_name_their_fields() {
        let t = Tuning::NONE
            .with_overrides(
                "futility_margin=90, null_base=3,null_per_eval=200,quiet_checks=true,late_move_pruning=3,history_gravity=true,continuation_history=true,history_reduction=8192,internal_reduction=4,lmr_base=75,lmr_divisor=200,see_pruning=4,see_quiet_margin=50,see_noisy_margin=180",
            )
            .unwrap();
        let expected = Tuning {
            futility_margin: Some(90),
            null_move: NullMoveRule {
                base: 3,
                per_eval: 200,
                ..NullMoveRule::NONE
            },
            quiet_checks: true,
            late_move_pruning: 3,
            history_gravity: true,
            continuation_history: true,
            history_reduction: 8192,
            internal_reduction: 4,
            lmr_base: 75,
            lmr_divisor: 200,
            see_pruning: 4,
            see_quiet_margin: 50,
            see_noisy_margin: 180,
            ..Tuning::NONE
        };
        assert_eq!(t, expected);
        let off = expected.with_overrides("futility_margin=none").unwrap();
        assert_eq!(off.futility_margin, None);
        assert_eq!(Tuning::NONE.with_overrides("").unwrap(), Tuning::NONE);
        let err = |text: &str| Tuning::NONE.with_overrides(text).unwrap_err();
        assert_eq!(err("nul_base=2"), "unknown tuning key 'nul_base'");
        assert_eq!(
            err("null_base=-1"),
            "null_base=-1: expected a whole number from 0"
        );
        assert_eq!(
            err("quiet_checks=yes"),
            "quiet_checks=yes: expected true or false"
        );
        assert_eq!(err("quiet_checks"), "'quiet_checks': expected key=value");
        assert_eq!(
            err("lmr_divisor=0"),
            "lmr_divisor=0: expected a whole number from 1"
        );
    }

    /// Every list length (each of the three ways it is sorted) gives what
    /// std's stable sort gives: highest priority first, ties in order, and
    /// each priority computed once per move.
    #[test]
    fn sort_by_priority_is_a_stable_sort() {
        for len in [0, 1, 2, 7, 16, 17, 100, 256, 257, 300] {
            let moves: Vec<u32> = (0..len).map(|i| (i * 7919) % 1009).collect();
            let priority = |m: u32| (m % 5) as i32;
            let mut expected = moves.clone();
            expected.sort_by_key(|&m| std::cmp::Reverse(priority(m)));
            let mut sorted = moves.clone();
            let mut calls = 0;
            sort_by_priority(&mut sorted, |m| {
                calls += 1;
                priority(m)
            });
            assert_eq!(sorted, expected, "{len} moves");
            assert!(calls <= len as usize, "{len} moves: {calls} calls");
        }
    }
}
