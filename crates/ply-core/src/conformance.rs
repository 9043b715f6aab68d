//! The conformance kit: one generic check every game runs, so a new game is
//! checked the day it is added.
//!
//! [`check`] plays seeded random games and, at every position on the way,
//! checks the contract of [`Game`](crate::Game) and [`Notation`]: positions
//! and moves print and parse back to themselves, equal positions hash
//! equally, there are legal moves exactly when the game is not over, no move
//! is listed twice, playing a move leaves the old state untouched and gives
//! the same result twice, every game ends.
//!
//! Then every promise a capability makes, since a wrong hook gives wrong
//! values without a word:
//! - evaluation: `evaluate` agrees with `utility` on terminal states (same
//!   sign, every decided one beyond every estimate), `heuristic` equals
//!   `evaluate` elsewhere, `order_moves` only reorders, history slots are in
//!   range;
//! - shortcuts: an immediate win is legal and ends the game with the utility
//!   it claims; forced moves are legal moves in their order, and with
//!   `FORCED_MOVES_PREVENT_WINS` none leaves the opponent a win at once;
//!   mirror images share a key with `SYMMETRIC_KEYS` (the caller gives the
//!   mirror); and on positions small enough to solve, the search with the
//!   shortcuts returns the plain search's value, a claimed forced value is
//!   the true one, and `exact_bounds` and `score_range` contain it;
//! - engine hooks: noisy moves are legal moves; a null move passes the turn;
//! - chance: outcomes are the legal moves, with positive probabilities
//!   summing to 1, only at chance nodes, only in games that declare chance;
//!   `value_bounds` hold every utility (exact) and evaluation below;
//! - hidden information: states the game puts in one information set have
//!   the same player to move and the same legal moves;
//! - playouts: a playout's choice is one of the moves;
//! - impartial games: the player who cannot move loses, and on solved
//!   positions the nimber is not 0 exactly when the mover wins, the same
//!   searched whole or split into its components.
//!
//! Last, perft counts against the references the caller knows.

use std::collections::HashMap;
use std::fmt::Debug;

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::explore::perft;
use crate::game::Searchable;
use crate::notation::Notation;
use crate::observe::NoObserver;
use crate::score::{MaxScore, Player};
use crate::search::alphabeta::{Budget, Engine};
use crate::search::{Nimbers, SearchOptions};

/// The mirror image of a position, as a game's test knows it.
pub type Mirror<S> = std::sync::Arc<dyn Fn(&S) -> S + Send + Sync>;

/// What to check, beyond the contract itself.
#[derive(Clone)]
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
    /// The mirror image of a position, for games whose keys merge mirror
    /// images (`SYMMETRIC_KEYS`); the kit fails such a game without one.
    pub mirror: Option<Mirror<S>>,
    /// The node budget of each exact search that checks a value; positions
    /// that need more are not value-checked. Each random game is checked
    /// from its end backwards until a position needs more.
    pub solve_nodes: u64,
}

impl<S: Debug> Debug for Config<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("playouts", &self.playouts)
            .field("seed", &self.seed)
            .field("max_plies", &self.max_plies)
            .field("starts", &self.starts)
            .field("perft", &self.perft)
            .field("mirror", &self.mirror.is_some())
            .field("solve_nodes", &self.solve_nodes)
            .finish()
    }
}

impl<S> Default for Config<S> {
    fn default() -> Self {
        Config {
            playouts: 200,
            seed: 1,
            max_plies: 10_000,
            starts: Vec::new(),
            perft: Vec::new(),
            mirror: None,
            solve_nodes: 20_000,
        }
    }
}

/// What a passing check covered: callers assert that the capabilities they
/// supply were exercised (a count of 0 means a promise went unchecked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions checked (with repetition).
    pub positions: u64,
    /// Terminal positions reached.
    pub terminals: u64,
    /// Moves round-tripped through the notation.
    pub moves: u64,
    /// Immediate wins played out and checked.
    pub immediate_wins: u64,
    /// Positions whose forced moves were checked against the legal ones.
    pub forced: u64,
    /// Positions solved with and without the shortcuts, values compared.
    pub values: u64,
    /// Exact bounds and score ranges checked against a solved value.
    pub bounds: u64,
    /// Mirror images whose keys were compared.
    pub mirrors: u64,
    /// Positions whose noisy moves were checked.
    pub noisy: u64,
    /// Chance nodes whose outcomes were checked.
    pub chance_nodes: u64,
    /// Positions of impartial games whose nimber was checked against the
    /// value, split into components and whole.
    pub nimbers: u64,
    /// Decisions of games with hidden information whose information set
    /// was checked against the others of that set met before.
    pub information_sets: u64,
    /// Images of positions under the game's symmetries (for learning)
    /// whose moves, children and end were checked against the position's.
    pub symmetries: u64,
    /// Images whose solved value was compared with the position's.
    pub symmetric_values: u64,
}

fn fail<T: Debug>(what: &str, state: &T) -> String {
    format!("{what} (state {state:?})")
}

/// Runs the conformance checks on `game`; the error says which rule broke and where.
pub fn check<G: Notation + Searchable>(
    game: &G,
    config: &Config<G::State>,
) -> Result<Summary, String> {
    if G::SYMMETRIC_KEYS && config.mirror.is_none() {
        return Err("the game's keys merge mirror images (SYMMETRIC_KEYS): give the kit a mirror function to check them".into());
    }
    let mut summary = Summary::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let starts = if config.starts.is_empty() {
        vec![game.initial_state()]
    } else {
        config.starts.clone()
    };
    let mut evals = EvalRange::default();
    let mut seen = SeenSets::new();
    let mut solver = Solver::new(game, config.solve_nodes);
    for start in &starts {
        for _ in 0..config.playouts {
            let path = random_game(
                game,
                start,
                config,
                &mut rng,
                &mut summary,
                (&mut evals, &mut seen),
            )?;
            check_bounds_along(game, &path)?;
            solver.check_values_backwards(game, &path, &mut summary)?;
        }
    }
    evals.check()?;
    let initial = game.initial_state();
    for &(depth, expected) in &config.perft {
        let got = perft(game, &initial, depth);
        if got != expected {
            return Err(format!("perft({depth}) = {got}, expected {expected}"));
        }
    }
    Ok(summary)
}

/// Plays one random game from `start`, checking every position on the way;
/// returns the positions, the terminal one last.
fn random_game<G: Notation + Searchable>(
    game: &G,
    start: &G::State,
    config: &Config<G::State>,
    rng: &mut Xoshiro256PlusPlus,
    summary: &mut Summary,
    (evals, seen): (&mut EvalRange, &mut SeenSets<G::Move>),
) -> Result<Vec<G::State>, String> {
    let mut state = start.clone();
    let mut path = Vec::new();
    let mut moves = Vec::new();
    loop {
        check_position(game, &state)?;
        summary.positions += 1;
        moves.clear();
        game.legal_moves(&state, &mut moves);
        if game.is_terminal(&state) {
            check_terminal(game, &state, &moves, evals)?;
            summary.terminals += 1;
            path.push(state);
            return Ok(path);
        }
        evals.open = evals.open.max(i64::from(game.evaluate(&state).0).abs());
        check_moves(game, &state, &moves, summary)?;
        check_capabilities(game, &state, &moves, config, summary, rng)?;
        check_information_set(game, &state, &moves, seen, summary)?;
        let m = moves[rng.random_range(0..moves.len())];
        let next = game.play(&state, m);
        if game.play(&state, m) != next {
            return Err(fail(
                &format!("playing {m:?} twice gave different states"),
                &state,
            ));
        }
        path.push(std::mem::replace(&mut state, next));
        if path.len() > config.max_plies {
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

/// The largest evaluation of an open position and the smallest of a
/// decided terminal one: a depth-limited search must never prefer a guess
/// to a proven result.
#[derive(Default)]
struct EvalRange {
    open: i64,
    decided: Option<i64>,
}

impl EvalRange {
    fn check(&self) -> Result<(), String> {
        match self.decided {
            Some(d) if self.open >= d => Err(format!(
                "a non-terminal evaluation ({}) is as large as a terminal win or loss ({d}): \
                 a depth-limited search would prefer a guess to a proven result",
                self.open
            )),
            _ => Ok(()),
        }
    }
}

fn check_terminal<G: Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    evals: &mut EvalRange,
) -> Result<(), String> {
    if !moves.is_empty() {
        return Err(fail("a terminal state has legal moves", state));
    }
    let u = game.utility(state).0;
    if G::IMPARTIAL && game.utility(state).for_player(game.to_move(state)).0 >= 0 {
        return Err(fail(
            "an impartial game's end is not a loss for the player who cannot move (normal play)",
            state,
        ));
    }
    let e = game.evaluate(state).0;
    if u.signum() != e.signum() {
        return Err(fail(
            &format!("evaluate ({e}) disagrees with utility ({u}) on a terminal state"),
            state,
        ));
    }
    if u != 0 {
        let d = i64::from(e).abs();
        evals.decided = Some(evals.decided.map_or(d, |m| m.min(d)));
    }
    Ok(())
}

/// The legal moves of an open position: there are some, none twice, each
/// prints and parses back, playing one leaves the position untouched.
fn check_moves<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    summary: &mut Summary,
) -> Result<(), String> {
    if game.heuristic(state) != game.evaluate(state) {
        return Err(fail(
            "heuristic differs from evaluate on a state that is not over",
            state,
        ));
    }
    if moves.is_empty() {
        return Err(fail("a non-terminal state has no legal moves", state));
    }
    for (i, &m) in moves.iter().enumerate() {
        if moves[..i].contains(&m) {
            return Err(fail(&format!("move {m:?} is listed twice"), state));
        }
        let text = game.format_move(state, m);
        match game.parse_move(state, &text) {
            Ok(back) if back == m => {}
            Ok(back) => {
                return Err(fail(
                    &format!("move {m:?} prints as '{text}', which parses as {back:?}"),
                    state,
                ));
            }
            Err(e) => {
                return Err(fail(
                    &format!("move {m:?} prints as '{text}', which does not parse: {e}"),
                    state,
                ));
            }
        }
        let before = state.clone();
        let _ = game.play(state, m);
        if *state != before {
            return Err(fail("play changed the state it was given", &before));
        }
        summary.moves += 1;
    }
    Ok(())
}

/// Every capability's promise at one open position.
fn check_capabilities<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    config: &Config<G::State>,
    summary: &mut Summary,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<(), String> {
    check_evaluation_hooks(game, state, moves)?;
    check_chance(game, state, moves, summary)?;
    check_engine_hooks(game, state, moves, summary)?;
    let choice = game.playout_choice(state, moves, rng.random());
    if choice >= moves.len() {
        return Err(fail(
            &format!("playout_choice chose {choice} of {} moves", moves.len()),
            state,
        ));
    }
    if let Some(mirror) = &config.mirror {
        let m = mirror(state);
        if G::SYMMETRIC_KEYS && game.hash_key(&m) != game.hash_key(state) {
            return Err(fail(
                "a mirror image has another key, though SYMMETRIC_KEYS says they share one",
                state,
            ));
        }
        summary.mirrors += 1;
    }
    if !game.is_chance(state) {
        check_shortcuts(game, state, moves, summary)?;
        check_learning(game, state, moves, summary)?;
    }
    Ok(())
}

/// A learnable game's promises at an open position: the planes have
/// their stated size; each legal move has its own policy index, in range;
/// each symmetry's image has the same player to move and, move for move,
/// the images of the moves (by index), the images of the children, and
/// the same end. By induction from the end, a position and its image then
/// have the same value; [`Solver::check_values_backwards`] compares the
/// values too where it can solve them.
fn check_learning<G: Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    summary: &mut Summary,
) -> Result<(), String> {
    if !game.learnable() {
        return Ok(());
    }
    let [p, h, w] = game.planes();
    let size = game.policy_size();
    if p * h * w == 0 || size == 0 {
        return Err(fail("a learnable game has no planes or no policy", state));
    }
    let mut planes = vec![0.0f32; p * h * w];
    game.encode(state, &mut planes);
    if planes.iter().any(|x| !x.is_finite()) {
        return Err(fail("the encoding has a number that is not finite", state));
    }
    let index: Vec<usize> = moves.iter().map(|&m| game.policy_index(state, m)).collect();
    for (i, (&m, &k)) in moves.iter().zip(&index).enumerate() {
        if k >= size {
            return Err(fail(
                &format!("move {m:?} has policy index {k}, past the policy's {size}"),
                state,
            ));
        }
        if index[..i].contains(&k) {
            return Err(fail(
                &format!("move {m:?} shares policy index {k} with another move"),
                state,
            ));
        }
    }
    if game.symmetric_state(state, 0) != *state {
        return Err(fail("symmetry 0 is not the identity", state));
    }
    let mut image_moves = Vec::new();
    for sym in 1..game.symmetries() {
        let image = game.symmetric_state(state, sym);
        if game.to_move(&image) != game.to_move(state) {
            return Err(fail(
                &format!("symmetry {sym} changes the player to move"),
                state,
            ));
        }
        image_moves.clear();
        game.legal_moves(&image, &mut image_moves);
        if image_moves.len() != moves.len() {
            return Err(fail(
                &format!(
                    "symmetry {sym}'s image has {} moves, the position {}",
                    image_moves.len(),
                    moves.len()
                ),
                state,
            ));
        }
        for (&m, &k) in moves.iter().zip(&index) {
            let k2 = game.symmetric_index(k, sym);
            let Some(&m2) = image_moves
                .iter()
                .find(|&&m2| game.policy_index(&image, m2) == k2)
            else {
                return Err(fail(
                    &format!(
                        "symmetry {sym} maps move {m:?} (index {k}) to index {k2}, no legal move of the image"
                    ),
                    state,
                ));
            };
            let child = game.play(state, m);
            let image_child = game.play(&image, m2);
            if game.symmetric_state(&child, sym) != image_child {
                return Err(fail(
                    &format!(
                        "under symmetry {sym}, the image of move {m:?}'s child is not the child of the image of the move"
                    ),
                    state,
                ));
            }
            let ended = game.is_terminal(&child);
            if ended != game.is_terminal(&image_child)
                || (ended && game.utility(&child) != game.utility(&image_child))
            {
                return Err(fail(
                    &format!(
                        "under symmetry {sym}, move {m:?} ends the game differently in the image"
                    ),
                    state,
                ));
            }
        }
        summary.symmetries += 1;
    }
    Ok(())
}

fn check_evaluation_hooks<G: Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
) -> Result<(), String> {
    // The moves are distinct (checked before), so the same length and
    // every move still there make a permutation.
    let mut ordered = moves.to_vec();
    game.order_moves(state, &mut ordered);
    if ordered.len() != moves.len() || !moves.iter().all(|m| ordered.contains(m)) {
        return Err(fail(
            "order_moves changed the moves, not only their order",
            state,
        ));
    }
    let (slots, continuations) = (game.history_slots(), game.continuation_slots());
    for &m in moves {
        if let Some(slot) = game.history_slot(state, m)
            && slot >= slots
        {
            return Err(fail(
                &format!("history slot {slot} of {m:?} is not below history_slots ({slots})"),
                state,
            ));
        }
        if let Some(slot) = game.continuation_slot(state, m)
            && slot >= continuations
        {
            return Err(fail(
                &format!(
                    "continuation slot {slot} of {m:?} is not below continuation_slots ({continuations})"
                ),
                state,
            ));
        }
    }
    Ok(())
}

/// Each information set met so far: its player and its moves.
type SeenSets<M> = HashMap<String, (Player, Vec<M>)>;

/// In a game with hidden information, a decision's information set must
/// have the player and the moves it had wherever it was met before: the
/// player cannot tell its states apart, so cannot be offered different
/// choices in them.
fn check_information_set<G: Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    seen: &mut SeenSets<G::Move>,
    summary: &mut Summary,
) -> Result<(), String> {
    if !G::HIDDEN || game.is_chance(state) {
        return Ok(());
    }
    let name = game.information_set(state);
    let player = game.to_move(state);
    match seen.get(&name) {
        Some((p, _)) if *p != player => Err(fail(
            &format!(
                "information set '{name}' has {} to move here, {} elsewhere",
                player.name(),
                p.name()
            ),
            state,
        )),
        Some((_, m)) if m != moves => Err(fail(
            &format!("information set '{name}' has the moves {moves:?} here, {m:?} elsewhere"),
            state,
        )),
        Some(_) => {
            summary.information_sets += 1;
            Ok(())
        }
        None => {
            seen.insert(name, (player, moves.to_vec()));
            summary.information_sets += 1;
            Ok(())
        }
    }
}

fn check_chance<G: Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    summary: &mut Summary,
) -> Result<(), String> {
    let mut outcomes = Vec::new();
    game.chance_outcomes(state, &mut outcomes);
    if !game.is_chance(state) {
        if !outcomes.is_empty() {
            return Err(fail(
                "chance outcomes at a node that is not a chance node",
                state,
            ));
        }
        return Ok(());
    }
    if !G::HAS_CHANCE {
        return Err(fail(
            "a chance node in a game whose HAS_CHANCE is false",
            state,
        ));
    }
    let listed: Vec<G::Move> = outcomes.iter().map(|&(m, _)| m).collect();
    if listed != moves {
        return Err(fail(
            "the chance outcomes are not the legal moves, in order",
            state,
        ));
    }
    if let Some(&(m, p)) = outcomes.iter().find(|&&(_, p)| p.is_nan() || p <= 0.0) {
        return Err(fail(&format!("outcome {m:?} has probability {p}"), state));
    }
    let sum: f64 = outcomes.iter().map(|&(_, p)| p).sum();
    if (sum - 1.0).abs() > 1e-9 {
        return Err(fail(
            &format!("the outcomes' probabilities sum to {sum}"),
            state,
        ));
    }
    summary.chance_nodes += 1;
    Ok(())
}

fn check_engine_hooks<G: Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    summary: &mut Summary,
) -> Result<(), String> {
    let mut noisy = Vec::new();
    if game.noisy_moves(state, &mut noisy) {
        if let Some(m) = noisy.iter().find(|m| !moves.contains(m)) {
            return Err(fail(
                &format!("noisy move {m:?} is not a legal move"),
                state,
            ));
        }
        summary.noisy += 1;
    }
    if let Some(passed) = game.null_move(state)
        && !game.is_terminal(&passed)
        && game.to_move(&passed) == game.to_move(state)
    {
        return Err(fail("the null move does not pass the turn", state));
    }
    // No contract to check, but they must not panic on any position.
    let _ = game.in_check(state);
    let _ = game.is_repetition(state);
    for &m in moves {
        let _ = game.is_quiet(state, m);
        let _ = game.exchange(state, m);
    }
    Ok(())
}

/// The shortcuts' promises that need no search: an immediate win is
/// legal and wins; forced moves are legal, in order, and with the promise
/// leave the opponent no immediate win.
fn check_shortcuts<G: Searchable>(
    game: &G,
    state: &G::State,
    moves: &[G::Move],
    summary: &mut Summary,
) -> Result<(), String> {
    let mover = game.to_move(state);
    if let Some((m, v)) = game.immediate_win(state) {
        if !moves.contains(&m) {
            return Err(fail(
                &format!("immediate win {m:?} is not a legal move"),
                state,
            ));
        }
        let child = game.play(state, m);
        if !game.is_terminal(&child) || game.utility(&child) != v || v.for_player(mover).0 <= 0 {
            return Err(fail(
                &format!(
                    "immediate win {m:?} does not end the game won with utility {}",
                    v.0
                ),
                state,
            ));
        }
        summary.immediate_wins += 1;
        return Ok(());
    }
    let mut kept = Vec::new();
    if game.forced_moves(state, &mut kept).is_some() {
        return Ok(()); // its value is checked against a search
    }
    let mut rest = moves.iter();
    if kept.is_empty() || !kept.iter().all(|k| rest.any(|m| m == k)) {
        return Err(fail(
            &format!(
                "forced moves {kept:?} are not some of the legal moves {moves:?} in their order"
            ),
            state,
        ));
    }
    if G::FORCED_MOVES_PREVENT_WINS {
        for &k in &kept {
            if opponent_wins_at_once(game, &game.play(state, k)) {
                return Err(fail(
                    &format!(
                        "forced move {k:?} leaves the opponent a win at once, though FORCED_MOVES_PREVENT_WINS promises none"
                    ),
                    state,
                ));
            }
        }
    }
    summary.forced += 1;
    Ok(())
}

/// Whether the player to move in `state` has a move that ends the game won.
fn opponent_wins_at_once<G: Searchable>(game: &G, state: &G::State) -> bool {
    if game.is_terminal(state) {
        return false;
    }
    let mover = game.to_move(state);
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves.iter().any(|&m| {
        let c = game.play(state, m);
        game.is_terminal(&c) && game.utility(&c).for_player(mover).0 > 0
    })
}

/// `value_bounds` along one random game: every position's exact bounds
/// contain the utility the game ended with, and its other bounds every
/// evaluation on the way there.
fn check_bounds_along<G: Searchable>(game: &G, path: &[G::State]) -> Result<(), String> {
    let Some(end) = path.last() else {
        return Ok(());
    };
    let u = game.utility(end);
    for (i, s) in path.iter().enumerate() {
        if let Some((lo, hi)) = game.value_bounds(s, true)
            && !(lo <= u && u <= hi)
        {
            return Err(fail(
                &format!(
                    "value_bounds (exact) [{}, {}] miss the utility {} reached below",
                    lo.0, hi.0, u.0
                ),
                s,
            ));
        }
        if let Some((lo, hi)) = game.value_bounds(s, false)
            && let Some(t) = path[i..].iter().find(|t| {
                let e = game.evaluate(t);
                e < lo || e > hi
            })
        {
            let e = game.evaluate(t).0;
            return Err(fail(
                &format!(
                    "value_bounds [{}, {}] miss the evaluation {e} reached below",
                    lo.0, hi.0
                ),
                s,
            ));
        }
    }
    Ok(())
}

/// Exact searches for the value checks: a plain one and one with the
/// solver shortcuts, each under a node budget.
struct Solver<M> {
    plain: Engine<M>,
    shortcuts: Engine<M>,
    nodes: u64,
}

impl<M: Copy + Eq> Solver<M> {
    fn new<G: Searchable<Move = M>>(game: &G, nodes: u64) -> Self {
        let plain = SearchOptions {
            tt_mb: 1,
            ordering: true,
            ..SearchOptions::default()
        };
        let shortcuts = SearchOptions {
            shortcuts: true,
            ..plain
        };
        Solver {
            plain: Engine::new(game, &plain),
            shortcuts: Engine::new(game, &shortcuts),
            nodes,
        }
    }

    /// The exact value of `state` by `engine`, `None` past the budget (or
    /// at a position alpha-beta cannot search).
    fn solve<G: Searchable<Move = M>>(
        engine: &mut Engine<M>,
        nodes: u64,
        game: &G,
        state: &G::State,
    ) -> Option<MaxScore> {
        engine.clear();
        let budget = Budget {
            nodes: Some(engine.nodes + nodes),
            ..Budget::default()
        };
        let out = engine.search(game, state, None, false, &budget, &mut NoObserver);
        out.ok().map(|o| o.value)
    }

    /// Checks the values the shortcuts claim on the positions of one game,
    /// from its end backwards, until one is too big to solve.
    fn check_values_backwards<G: Searchable<Move = M>>(
        &mut self,
        game: &G,
        path: &[G::State],
        summary: &mut Summary,
    ) -> Result<(), String> {
        for s in path.iter().rev().skip(1) {
            let Some(v) = Self::solve(&mut self.plain, self.nodes, game, s) else {
                break;
            };
            // The claims first: a wrong one is named, rather than found
            // later as a wrong value.
            check_claims(game, s, v, summary)?;
            let Some(w) = Self::solve(&mut self.shortcuts, self.nodes, game, s) else {
                break;
            };
            if v != w {
                return Err(fail(
                    &format!("with the shortcuts the value is {}, without {}", w.0, v.0),
                    s,
                ));
            }
            summary.values += 1;
            if game.learnable() {
                for sym in 1..game.symmetries() {
                    let image = game.symmetric_state(s, sym);
                    let Some(u) = Self::solve(&mut self.plain, self.nodes, game, &image) else {
                        break;
                    };
                    if u != v {
                        return Err(fail(
                            &format!(
                                "symmetry {sym}'s image has value {}, the position {}",
                                u.0, v.0
                            ),
                            s,
                        ));
                    }
                    summary.symmetric_values += 1;
                }
            }
            if G::IMPARTIAL {
                check_nimber(game, s, v)?;
                summary.nimbers += 1;
            }
        }
        Ok(())
    }
}

/// The shortcuts' claims about a position whose value `v` is known: a
/// forced value is `v`; exact bounds and the score range contain it.
fn check_claims<G: Searchable>(
    game: &G,
    s: &G::State,
    v: MaxScore,
    summary: &mut Summary,
) -> Result<(), String> {
    if game.immediate_win(s).is_some() {
        return Ok(());
    }
    let contains = |b: Option<(MaxScore, MaxScore)>, what: &str| match b {
        Some((lo, hi)) if !(lo.min(hi) <= v && v <= hi.max(lo)) => Err(fail(
            &format!(
                "{what} [{}, {}] do not contain the value {}",
                lo.0, hi.0, v.0
            ),
            s,
        )),
        _ => Ok(()),
    };
    if let Some(forced) = game.forced_moves(s, &mut Vec::new()) {
        if forced != v {
            return Err(fail(
                &format!(
                    "forced_moves claims the value {}, the search finds {}",
                    forced.0, v.0
                ),
                s,
            ));
        }
        return Ok(());
    }
    contains(game.score_range(s), "the score range's bounds")?;
    contains(game.exact_bounds(s), "exact bounds")?;
    summary.bounds += 1;
    Ok(())
}

/// An impartial game's nimber at a solved position: not 0 exactly when
/// the player to move wins, and the same whether the search splits the
/// position into its components or searches it whole.
fn check_nimber<G: Searchable>(game: &G, s: &G::State, v: MaxScore) -> Result<(), String> {
    let mut split = Nimbers::new(game).map_err(|e| e.to_string())?;
    let mut whole = Nimbers::new(game).map_err(|e| e.to_string())?;
    whole.split = false;
    let (g, w) = (split.nimber(s), whole.nimber(s));
    if g != w {
        return Err(fail(
            &format!("the nimber is {g} from the components, {w} searched whole"),
            s,
        ));
    }
    let wins = v.for_player(game.to_move(s)).0 > 0;
    if (g != 0) != wins {
        return Err(fail(
            &format!(
                "nimber {g}, but the player to move {}",
                if wins { "wins" } else { "loses" }
            ),
            s,
        ));
    }
    Ok(())
}

fn check_position<G: Notation + Searchable>(game: &G, state: &G::State) -> Result<(), String> {
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
