//! Solving by the score: a sequence of null-window alpha-beta searches that
//! narrows the range the value can lie in until it is one number. Pascal
//! Pons calls it iterative deepening on the score; it is MTD with a
//! bisection. Each probe `(v, v + 1)` only asks "is the value above v?",
//! which prunes far more than a full window, and the table carries what
//! each probe learned into the next.

use crate::game::EngineGame;
use crate::observe::{NoObserver, Observer};
use crate::score::{MaxScore, MoverScore};
use crate::search::alphabeta::{Budget, Engine};
use crate::search::smp::with_helpers;
use crate::search::{SearchError, refuse_chance};

/// What a score search proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreResult {
    /// The value, MAX's view (in weak mode, only its sign: -1, 0 or +1).
    pub value: MaxScore,
    /// Null-window probes run.
    pub probes: u32,
}

/// Solves `state` exactly (or, `weak`, only win/draw/loss) with null-window
/// probes over the range the game's bounds allow. Uses the engine's options
/// (table, ordering, shortcuts); no depth limit. `on_probe(lo, hi)` is told
/// the range, mover's view, before each probe. [`SearchError::Stopped`] if
/// the budget ran out; a position with chance nodes is refused.
///
/// With `options.threads` above 1, helper threads run the same probes on a
/// shared table (lazy SMP, [`with_helpers`]) until this one ends.
pub fn score_search<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    weak: bool,
    budget: &Budget,
    observer: &mut O,
    on_probe: &mut dyn FnMut(i32, i32),
) -> Result<ScoreResult, SearchError> {
    refuse_chance(game, state)?;
    let threads = engine.options().threads;
    with_helpers(
        engine,
        threads,
        |e| probe_alone(e, game, state, weak, budget, observer, on_probe),
        |h, _, stop| {
            let helper_budget = Budget {
                stop: Some(stop),
                ..Budget::default()
            };
            // The same probes as the main thread: a helper that probed
            // other windows would overwrite the bounds the main thread
            // needs (measured: more nodes for it, not fewer). The helper
            // differs in its move order at some plies instead.
            let _ = probe_alone(
                h,
                game,
                state,
                weak,
                &helper_budget,
                &mut NoObserver,
                &mut |_, _| {},
            );
        },
    )
    .0
}

fn probe_alone<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    weak: bool,
    budget: &Budget,
    observer: &mut O,
    on_probe: &mut dyn FnMut(i32, i32),
) -> Result<ScoreResult, SearchError> {
    let player = game.to_move(state);
    // Weak mode reports only the sign of what it proved.
    let done = |v: MaxScore, probes: u32| {
        let value = if weak { MaxScore(v.0.signum()) } else { v };
        Ok(ScoreResult { value, probes })
    };
    if game.is_terminal(state) {
        return done(game.utility(state), 0);
    }
    if let Some((_, v)) = game.immediate_win(state) {
        return done(v, 0);
    }
    if let Some(v) = game.forced_moves(state, &mut Vec::new()) {
        return done(v, 0);
    }
    let (mut lo, mut hi) = match game.score_range(state) {
        Some((a, b)) => {
            let (a, b) = (a.for_player(player).0, b.for_player(player).0);
            (a.min(b), a.max(b))
        }
        None => (-crate::score::MAX_GAME_SCORE, crate::score::MAX_GAME_SCORE),
    };
    if weak {
        lo = lo.max(-1);
        hi = hi.min(1);
    }
    let mut probes = 0;
    while lo < hi {
        // Bisect, but lean towards 0: probes near 0 are the cheapest.
        let mut med = lo + (hi - lo) / 2;
        if med <= 0 && lo / 2 < med {
            med = lo / 2;
        } else if med >= 0 && hi / 2 > med {
            med = hi / 2;
        }
        on_probe(lo, hi);
        let out = engine.search_window(
            game,
            state,
            None,
            false,
            (MoverScore(med), MoverScore(med + 1)),
            budget,
            observer,
        )?;
        probes += 1;
        let r = out.value.for_player(player).0;
        if r <= med {
            hi = r.min(med);
        } else {
            lo = r.max(med + 1);
        }
    }
    done(MoverScore(lo).to_max(player), probes)
}

/// [`score_search`] without a budget: it finishes, unless the position has
/// chance nodes.
pub fn solve_score<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    weak: bool,
    observer: &mut O,
) -> Result<ScoreResult, SearchError> {
    score_search(
        engine,
        game,
        state,
        weak,
        &Budget::default(),
        observer,
        &mut |_, _| {},
    )
}

/// An exact solve by [`score_search`], then the best move by one more search
/// with a window around the value, and the principal variation by repeating
/// that along the line (the table keeps it cheap; in weak mode only the move).
/// `observer` sees the solve only, so its node count is the solve's (the
/// public solver's measure). An error when the budget ran out or the
/// position has chance nodes.
pub fn solve_exact<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    weak: bool,
    budget: &Budget,
    observer: &mut O,
    on_probe: &mut dyn FnMut(i32, i32),
) -> Result<Solved<G::Move>, SearchError> {
    let r = score_search(engine, game, state, weak, budget, observer, on_probe)?;
    let mut pv = Vec::new();
    let mut s = state.clone();
    let mut v = r.value.for_player(game.to_move(state)).0;
    while !game.is_terminal(&s) && pv.len() < 64 {
        // Exact: a window around the value. Weak: the null window just below
        // it, where any move that reaches the value fails high and is named.
        let window = if weak { (v - 1, v) } else { (v - 1, v + 1) };
        let out = engine.search_window(
            game,
            &s,
            None,
            false,
            (MoverScore(window.0), MoverScore(window.1)),
            budget,
            &mut NoObserver,
        )?;
        let Some(m) = out.best_move else { break };
        pv.push(m);
        if weak {
            break;
        }
        s = game.play(&s, m);
        v = -v;
    }
    Ok(Solved {
        result: r,
        best_move: pv.first().copied(),
        pv,
    })
}

/// What [`solve_exact`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// The value and the probes it took.
    pub result: ScoreResult,
    /// A move that keeps the value; `None` in a terminal position.
    pub best_move: Option<M>,
    /// Best play from the position (only the first move in weak mode).
    pub pv: Vec<M>,
}
