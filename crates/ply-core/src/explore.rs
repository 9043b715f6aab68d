//! Walking the whole game tree or graph without scoring it: perft, distinct
//! positions, and the names of all leaves. These are the independent counts
//! that rules are checked against, and what a trace compares with to list
//! the pruned leaves.

use std::collections::HashSet;

use crate::game::{Chance, Game};
use crate::notation::Notation;

/// The number of move sequences of exactly `depth` moves from `state`
/// (sequences that end the game earlier are not counted), over the
/// moves [`Notation::perft_moves`] lists. Perft is the
/// standard test of a move generator: each game has published counts.
pub fn perft<G: Notation>(game: &G, state: &G::State, depth: u32) -> u64 {
    perft_until(game, state, depth, &mut || false).expect("never stopped")
}

/// How often a walk of the tree ([`perft_until`], [`count_positions_until`])
/// asks whether to stop: every this many positions (a few milliseconds).
const ASK_EVERY: u64 = 1 << 14;

/// A perft walk: the move buffers it reuses, and its stop.
struct Walk<'a, M> {
    buffers: Vec<Vec<M>>,
    interior: u64,
    stop: &'a mut dyn FnMut() -> bool,
    stopped: bool,
}

/// [`perft`], asking `stop` every few thousand positions: `None` once it
/// answers true (Ctrl-C, a client gone, a server's time limit).
pub fn perft_until<G: Notation>(
    game: &G,
    state: &G::State,
    depth: u32,
    stop: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    let mut walk = Walk {
        buffers: Vec::new(),
        interior: 0,
        stop,
        stopped: false,
    };
    let n = perft_rec(game, state, depth, &mut walk);
    (!walk.stopped).then_some(n)
}

fn perft_rec<G: Notation>(
    game: &G,
    state: &G::State,
    depth: u32,
    walk: &mut Walk<'_, G::Move>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    walk.interior += 1;
    if walk.interior.is_multiple_of(ASK_EVERY) && (walk.stop)() {
        walk.stopped = true;
    }
    if walk.stopped {
        return 0;
    }
    let mut moves = walk.buffers.pop().unwrap_or_default();
    moves.clear();
    game.perft_moves(state, &mut moves);
    let n = if depth == 1 {
        moves.len() as u64
    } else {
        moves
            .iter()
            .map(|&m| perft_rec(game, &game.play(state, m), depth - 1, walk))
            .sum()
    };
    walk.buffers.push(moves);
    n
}

/// Perft split by first move: each legal move with the perft of `depth - 1`
/// after it. The numbers add up to `perft(depth)`.
pub fn perft_divide<G: Notation>(game: &G, state: &G::State, depth: u32) -> Vec<(G::Move, u64)> {
    perft_divide_until(game, state, depth, &mut || false).expect("never stopped")
}

/// [`perft_divide`], stopped as [`perft_until`] is.
pub fn perft_divide_until<G: Notation>(
    game: &G,
    state: &G::State,
    depth: u32,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Vec<(G::Move, u64)>> {
    let mut moves = Vec::new();
    if depth == 0 {
        return Some(Vec::new());
    }
    game.perft_moves(state, &mut moves);
    moves
        .into_iter()
        .map(|m| Some((m, perft_until(game, &game.play(state, m), depth - 1, stop)?)))
        .collect()
}

/// Distinct positions reachable from a start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionCount {
    /// Distinct positions, the start included.
    pub positions: u64,
    /// How many of them are terminal.
    pub terminal: u64,
}

/// Counts the distinct positions reachable from `state` (the start
/// included) and how many are terminal, by a depth-first walk that visits
/// each position once. Memory grows with the answer: for small games.
pub fn count_positions<G: Game>(game: &G, state: &G::State) -> PositionCount {
    count_positions_within(game, state, u64::MAX).expect("no cap")
}

/// [`count_positions`], giving up (`None`) once more than `max` distinct
/// positions are found: every one is kept, so the cap is what bounds the
/// memory.
pub fn count_positions_within<G: Game>(
    game: &G,
    state: &G::State,
    max: u64,
) -> Option<PositionCount> {
    count_positions_until(game, state, max, &mut || false).ok()
}

/// Why a count ended without its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountEnded {
    /// More than the cap of distinct positions.
    Cap,
    /// `stop` answered true.
    Stopped,
}

/// [`count_positions_within`], asking `stop` every few thousand positions
/// (Ctrl-C, a client gone, a server's time limit).
pub fn count_positions_until<G: Game>(
    game: &G,
    state: &G::State,
    max: u64,
    stop: &mut dyn FnMut() -> bool,
) -> Result<PositionCount, CountEnded> {
    let mut seen: HashSet<G::State> = HashSet::new();
    let mut stack = vec![state.clone()];
    seen.insert(state.clone());
    let mut terminal = 0;
    let mut moves = Vec::new();
    let mut walked = 0u64;
    while let Some(s) = stack.pop() {
        walked += 1;
        if walked.is_multiple_of(ASK_EVERY) && stop() {
            return Err(CountEnded::Stopped);
        }
        if game.is_terminal(&s) {
            terminal += 1;
            continue;
        }
        moves.clear();
        game.legal_moves(&s, &mut moves);
        for &m in &moves {
            let child = game.play(&s, m);
            if !seen.contains(&child) {
                if seen.len() as u64 >= max {
                    return Err(CountEnded::Cap);
                }
                seen.insert(child.clone());
                stack.push(child);
            }
        }
    }
    Ok(PositionCount {
        positions: seen.len() as u64,
        terminal,
    })
}

/// The longest line [`leaf_paths`] follows: deep enough for any tree a
/// trace can show, shallow enough for its recursion on any thread's stack.
pub const LEAF_PATHS_MAX_PLY: usize = 1_000;

/// The paths (indices into each node's legal moves, in the game's order)
/// of every leaf of the tree below `state`, in depth-first order, stopping at
/// `depth` plies if given. A trace lists as pruned the leaves here that it
/// did not evaluate. `None` when there are more than `max_leaves` (the tree
/// can be exponentially large), or when a line is longer than
/// [`LEAF_PATHS_MAX_PLY`]: the walk recurses, and a trace that lists a
/// pruned leaf that deep would not be read.
pub fn leaf_paths<G: Game>(
    game: &G,
    state: &G::State,
    depth: Option<u32>,
    max_leaves: usize,
) -> Option<Vec<Vec<usize>>> {
    fn rec<G: Game>(
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        path: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
        max: usize,
    ) -> bool {
        let mut moves = Vec::new();
        if !game.is_terminal(state) && depth != Some(0) {
            game.legal_moves(state, &mut moves);
        }
        if moves.is_empty() {
            out.push(path.clone());
            return out.len() <= max;
        }
        if path.len() >= LEAF_PATHS_MAX_PLY {
            return false;
        }
        for (i, &m) in moves.iter().enumerate() {
            path.push(i);
            let more = rec(
                game,
                &game.play(state, m),
                depth.map(|d| d - 1),
                path,
                out,
                max,
            );
            path.pop();
            if !more {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    rec(game, state, depth, &mut Vec::new(), &mut out, max_leaves).then_some(out)
}

/// The number of nodes of the tree below `state` (the root included, to
/// `depth` plies if given), or `None` when it passes `max_nodes`. A walk
/// with its own stack, not recursion: a line may be as long as the cap
/// (pig's rolls, a long row of coins), deeper than a thread's stack
/// allows (the api fuzz target overflowed it on a trace of pig). Each
/// level keeps its state and its moves, as the recursion did, so memory
/// grows with the line's length, not with the tree's width.
pub fn tree_size<G: Game>(
    game: &G,
    state: &G::State,
    depth: Option<u32>,
    max_nodes: u64,
) -> Option<u64> {
    let children = |s: &G::State, d: Option<u32>| {
        let mut moves = Vec::new();
        if !(game.is_terminal(s) || d == Some(0)) {
            game.legal_moves(s, &mut moves);
        }
        moves
    };
    if max_nodes == 0 {
        return None;
    }
    let mut count = 1;
    let mut stack = vec![(state.clone(), depth, children(state, depth), 0)];
    while let Some((s, d, moves, next)) = stack.last_mut() {
        let Some(&m) = moves.get(*next) else {
            stack.pop();
            continue;
        };
        *next += 1;
        count += 1;
        if count > max_nodes {
            return None;
        }
        let (child, child_depth) = (game.play(s, m), d.map(|d| d - 1));
        let moves = children(&child, child_depth);
        if !moves.is_empty() {
            stack.push((child, child_depth, moves, 0));
        }
    }
    Some(count)
}

/// Whether a chance node is reachable from `state` within the first
/// `max_nodes` positions of a depth-first walk (a conservative "maybe" when
/// the walk is cut short: it then answers `true` if the game has chance at all).
pub fn reaches_chance<G: Chance>(game: &G, state: &G::State, max_nodes: usize) -> bool {
    if !G::HAS_CHANCE {
        return false;
    }
    let mut stack = vec![state.clone()];
    let mut seen = 0;
    let mut moves = Vec::new();
    while let Some(s) = stack.pop() {
        if game.is_chance(&s) {
            return true;
        }
        seen += 1;
        if seen > max_nodes {
            return true;
        }
        if game.is_terminal(&s) {
            continue;
        }
        moves.clear();
        game.legal_moves(&s, &mut moves);
        stack.extend(moves.iter().map(|&m| game.play(&s, m)));
    }
    false
}
