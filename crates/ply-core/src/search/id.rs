//! Iterative deepening: alpha-beta to depth 1, then 2, then 3 ... until the
//! time runs out, the depth limit is reached, or the value is proven.
//!
//! It looks wasteful (every iteration repeats the last) but costs little,
//! since each ply multiplies the tree: the last iteration dominates. And it
//! pays: each iteration's table and principal variation order the next, so
//! the deep search prunes far more, and there is always a move ready when
//! the clock says stop.

use crate::game::EngineGame;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::observe::{NoObserver, Observer};
use crate::score::MoverScore;
use crate::search::alphabeta::{Budget, Engine};
use crate::search::smp::with_helpers;
use crate::search::{Outcome, SearchError, SearchOptions, refuse_chance};

/// What one completed iteration found.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// The depth searched.
    pub depth: u32,
    /// What it found.
    pub outcome: Outcome<M>,
    /// Nodes visited so far, all iterations together.
    pub nodes: u64,
    /// The deepest ply this iteration reached (extensions and quiescence included).
    pub seldepth: u32,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// A new iteration is not started once this fraction of the time budget is
/// spent: each one takes several times the last, so it would most likely be
/// cut off and thrown away.
const START_FRACTION: f64 = 0.5;

/// Iterative deepening from `state`: returns the outcome of the last
/// completed iteration (at least depth 1 always completes), and calls
/// `on_iteration` after each. Stops when the value is proven (the search
/// never needed its depth limit), at `options.depth`, at
/// `options.time_limit` or `options.node_limit`, or when `stop` is set.
/// A position with chance nodes is refused ([`SearchError::Chance`]).
pub fn iterative_deepening<G: EngineGame, O: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    stop: Option<&AtomicBool>,
    observer: &mut O,
    mut on_iteration: impl FnMut(&Iteration<G::Move>),
) -> Result<Outcome<G::Move>, SearchError> {
    let mut engine = Engine::new(game, options);
    iterate(&mut engine, game, state, stop, observer, &mut on_iteration)
}

/// [`iterative_deepening`] with an engine kept by the caller, so the table
/// and heuristics carry over from one move of a game to the next. With
/// `options.threads` above 1, helper threads deepen too, sharing the table
/// (lazy SMP, [`with_helpers`]); odd-numbered helpers start a ply deeper,
/// so the threads do not search in lockstep. Only the main thread reports.
pub fn iterate<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    stop: Option<&AtomicBool>,
    observer: &mut O,
    on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
) -> Result<Outcome<G::Move>, SearchError> {
    refuse_chance(game, state)?;
    if let Some(outcome) = threat_first(engine, game, state, on_iteration) {
        return Ok(outcome);
    }
    let threads = engine.options().threads;
    let depth = engine.options().depth;
    with_helpers(
        engine,
        threads,
        |e| deepen(e, game, state, stop, observer, on_iteration, 1),
        |h, i, helper_stop| {
            // The main thread keeps the clock; a helper stops when it ends.
            h.set_limits(depth, None, None, None);
            let first = 1 + (i % 2) as u32;
            let _ = deepen(
                h,
                game,
                state,
                Some(helper_stop),
                &mut NoObserver,
                &mut |_| {},
                first,
            );
        },
    )
    .0
}

/// The threat search's budget per millisecond of the search's time
/// limit, and in all: it must leave the main search most of the time
/// (gomoku's VCF visits about 120 positions a millisecond: a fifth of the
/// time at most).
const THREAT_NODES_PER_MS: u64 = 20;
const THREAT_NODES: u64 = 1_000_000;

/// Before the main search, with the solver shortcuts: a forced win by
/// threats ([`EngineHooks::threat_win`]) ends the search at once, with the
/// winning line as its principal variation. It finds wins far deeper than
/// the main search reaches, and costs little when there is none.
fn threat_first<G: EngineGame>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
) -> Option<Outcome<G::Move>> {
    let options = *engine.options();
    if !G::THREAT_SEARCH || !options.shortcuts || game.is_terminal(state) {
        return None;
    }
    let start = Instant::now();
    let budget = options.time_limit.map_or(THREAT_NODES, |t| {
        (t.as_millis() as u64 * THREAT_NODES_PER_MS).clamp(1_000, THREAT_NODES)
    });
    let found = game.threat_win(state, budget);
    engine.nodes += found.nodes;
    let line = found.win?;
    let mut end = state.clone();
    for &mv in &line {
        end = game.play(&end, mv);
    }
    if !game.is_terminal(&end) {
        debug_assert!(false, "a threat search's line must end the game");
        return None;
    }
    let plies = line.len() as u32;
    let outcome = Outcome {
        value: game.utility(&end),
        best_move: line.first().copied(),
        pv: line,
        distance: options.fast_win.then_some(plies),
        proven: true,
    };
    on_iteration(&Iteration {
        depth: plies,
        outcome: outcome.clone(),
        nodes: found.nodes,
        seldepth: plies,
        elapsed: start.elapsed(),
    });
    Some(outcome)
}

fn deepen<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    stop: Option<&AtomicBool>,
    observer: &mut O,
    on_iteration: &mut dyn FnMut(&Iteration<G::Move>),
    first_depth: u32,
) -> Result<Outcome<G::Move>, SearchError> {
    let options = *engine.options();
    let start = Instant::now();
    let deadline = options.time_limit.map(|t| start + t);
    let node_limit = options.node_limit.map(|n| engine.nodes + n);
    let max_depth = options.depth.unwrap_or(u32::MAX);
    let mut best: Option<Outcome<G::Move>> = None;
    let start_nodes = engine.nodes;
    let mut depth = first_depth;
    // Time management: no new iteration past the soft limit, stretched
    // while the best move keeps changing (the position is hard).
    let soft = options
        .soft_time_limit
        .or(options.time_limit.map(|t| t.mul_f64(START_FRACTION)));
    let mut stretch = 1.0;
    let window = options
        .tuning
        .unwrap_or(G::TUNING)
        .aspiration_width
        .filter(|_| options.aspiration);
    loop {
        // Depth 1 runs to the end unless the clock's hard limit passes (or
        // `stop`), so there is always a move: its best so far, or the first
        // in the game's order (a pathological position must not lose on time).
        let budget = if best.is_none() {
            Budget {
                deadline,
                nodes: None,
                stop,
            }
        } else {
            Budget {
                deadline,
                nodes: node_limit,
                stop,
            }
        };
        engine.seldepth = 0;
        let found = match (window, &best) {
            (Some(w), Some(last)) if depth >= 4 && last.distance.is_none() && !last.proven => {
                aspiration(engine, game, state, depth, last, w, &budget, observer)
            }
            _ => engine.search(game, state, Some(depth), true, &budget, observer),
        };
        let outcome = match found {
            Ok(outcome) => outcome,
            // Out of budget: the last completed iteration stands, or the
            // better move the aborted one had already found.
            Err(SearchError::Stopped) => {
                match &mut best {
                    Some(last) => adopt_partial(engine, game, state, last),
                    None => best = Some(fallback(engine, game, state)),
                }
                break;
            }
            Err(e) => return Err(e),
        };
        let proven = outcome.proven;
        if let Some(last) = &best
            && last.best_move != outcome.best_move
        {
            stretch = 2.0;
        } else {
            stretch = f64::max(1.0, stretch * 0.75);
        }
        let it = Iteration {
            depth,
            outcome,
            nodes: engine.nodes - start_nodes,
            seldepth: engine.seldepth,
            elapsed: start.elapsed(),
        };
        on_iteration(&it);
        best = Some(it.outcome);
        if proven || depth >= max_depth || game.is_terminal(state) {
            break;
        }
        if let Some(t) = soft
            && start.elapsed().as_secs_f64() > t.as_secs_f64() * stretch
        {
            break;
        }
        if node_limit.is_some_and(|n| engine.nodes >= n)
            || stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            break;
        }
        depth += 1;
    }
    Ok(best.expect("depth 1 always completes"))
}

/// Uses what an aborted iteration settled: the root's line is cleared when
/// the iteration starts and set only when a move's search completes with a
/// value inside or above the window, better than every move before it at
/// the new depth. That move, searched a ply deeper than the last completed
/// iteration looked, replaces its choice. The value stays the last
/// iteration's (the new move's exact value is not known), and a mate found
/// is never given up for it.
fn adopt_partial<G: EngineGame>(
    engine: &Engine<G::Move>,
    game: &G,
    state: &G::State,
    last: &mut Outcome<G::Move>,
) {
    if last.distance.is_some() || last.proven {
        return;
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    if let Some(line) = interrupted_line(engine, &moves) {
        last.best_move = line.first().copied();
        last.pv = line;
    }
}

/// The interrupted search's line at the root, if its first move is one of
/// `legal` (the line may be empty, or left from another position).
fn interrupted_line<M: Copy + Eq>(engine: &Engine<M>, legal: &[M]) -> Option<Vec<M>> {
    let line = engine.root_line();
    line.first()
        .is_some_and(|m| legal.contains(m))
        .then_some(line)
}

/// A move when even depth 1 ran out of time: the interrupted search's best
/// so far if it is legal here, else the first move in the game's order.
fn fallback<G: EngineGame>(
    engine: &Engine<G::Move>,
    game: &G,
    state: &G::State,
) -> Outcome<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let best = match interrupted_line(engine, &moves) {
        Some(line) => line.first().copied(),
        None => {
            if engine.options().selective {
                game.select_moves(state, &mut moves);
            }
            game.order_moves(state, &mut moves);
            moves.first().copied()
        }
    };
    Outcome {
        value: game.evaluate(state),
        best_move: best,
        pv: best.into_iter().collect(),
        distance: None,
        proven: false,
    }
}

/// One iteration with an aspiration window: `width` either side of the
/// last iteration's value, widened (three times as wide each time, then to
/// the full window) while the value falls outside it. A value inside the
/// window is exact, as a full-window search would give; most iterations
/// need one narrow search, which prunes more than a full one.
#[allow(clippy::too_many_arguments)]
fn aspiration<G: EngineGame, O: Observer>(
    engine: &mut Engine<G::Move>,
    game: &G,
    state: &G::State,
    depth: u32,
    last: &Outcome<G::Move>,
    width: i32,
    budget: &Budget,
    observer: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let player = game.to_move(state);
    let centre = last.value.for_player(player).0;
    let (mut below, mut above) = (width, width);
    loop {
        let wide = below > width * 27 || above > width * 27;
        let window = if wide {
            (MoverScore::NEG_INF, MoverScore::INF)
        } else {
            (MoverScore(centre - below), MoverScore(centre + above))
        };
        let outcome =
            engine.search_window(game, state, Some(depth), true, window, budget, observer)?;
        let v = outcome.value.for_player(player).0;
        if wide {
            return Ok(outcome);
        }
        if outcome.distance.is_some() {
            // A decided score (a mate) lies far outside any narrow window:
            // find it exactly with the full one.
            below = width * 28;
        } else if v <= window.0.0 {
            below *= 3;
        } else if v >= window.1.0 {
            above *= 3;
        } else {
            return Ok(outcome);
        }
    }
}
