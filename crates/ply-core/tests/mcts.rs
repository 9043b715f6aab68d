//! Monte Carlo tree search on tic-tac-toe: it finds the only winning move,
//! more iterations help, it never loses to perfect play, and it is
//! reproducible for a seed.

use ply_core::play::{SearchAgent, play_game};
use ply_core::prelude::*;
use ply_core::search::mcts::Mcts;
use ply_core::search::{MctsAgent, MctsNodeView, MctsOptions, mcts};
use ply_games::TicTacToe;

fn opts(iterations: u64, seed: u64) -> MctsOptions {
    MctsOptions {
        iterations: Some(iterations),
        seed,
        ..MctsOptions::default()
    }
}

/// Seeds among 1..=100 whose most visited move on the fork position is 4.
fn seeds_finding_the_fork(iterations: u64) -> (usize, f64) {
    let g = TicTacToe::classic();
    let s = g.parse_position("XO.X..O..").unwrap();
    let mut found = 0;
    let mut worst_mean = 1.0f64;
    for seed in 1..=100 {
        let r = mcts(&g, &s, &opts(iterations, seed));
        if r.best_move == Some(4) {
            found += 1;
            worst_mean = worst_mean.min(r.moves[0].mean);
        }
        assert_eq!(r.iterations, iterations);
    }
    (found, worst_mean)
}

#[test]
fn finds_the_only_winning_move_and_more_iterations_help() {
    let (at_1k, _) = seeds_finding_the_fork(1_000);
    let (at_10k, _) = seeds_finding_the_fork(10_000);
    let (at_20k, mean_20k) = seeds_finding_the_fork(20_000);
    println!(
        "seeds choosing square 4: {at_1k}/100 at 1,000, {at_10k}/100 at 10,000, {at_20k}/100 at 20,000 (lowest mean {mean_20k:.3})"
    );
    assert!(at_1k >= 95, "{at_1k}");
    assert_eq!(at_20k, 100);
    assert!(mean_20k > 0.85, "{mean_20k}");
    assert!(at_10k >= at_1k);
}

#[test]
fn reproducible_for_a_seed_and_threads_add_iterations() {
    let g = TicTacToe::classic();
    let s = g.initial_state();
    let a = mcts(&g, &s, &opts(3_000, 42));
    let b = mcts(&g, &s, &opts(3_000, 42));
    assert_eq!(a.moves, b.moves);
    let two = mcts(
        &g,
        &s,
        &MctsOptions {
            threads: 2,
            ..opts(3_000, 42)
        },
    );
    assert_eq!(two.iterations, 3_000);
    assert_eq!(two.moves.iter().map(|m| m.visits).sum::<u64>(), 3_000);
    let again = mcts(
        &g,
        &s,
        &MctsOptions {
            threads: 2,
            ..opts(3_000, 42)
        },
    );
    assert_eq!(two.moves, again.moves, "threads are seeded too");
    // Means are from the root mover's view, in [0, 1].
    assert!(a.moves.iter().all(|m| (0.0..=1.0).contains(&m.mean)));
}

#[test]
fn the_tree_is_kept_between_moves() {
    let g = TicTacToe::classic();
    let s = g.initial_state();
    let mut t = Mcts::new(&g, &s, std::f64::consts::SQRT_2, 3);
    t.run(&g, 5_000, None);
    let best = t.root_moves()[0].mv;
    let after = g.play(&g.play(&s, best), if best == 4 { 0 } else { 4 });
    let before = t.size();
    assert!(t.reroot(&g, &after));
    assert!(t.size() > 1 && t.size() < before);
    assert!(t.root_moves().iter().map(|m| m.visits).sum::<u64>() > 0);
}

/// A player's trees, one per thread, are kept from move to move: after
/// its move and the reply the root already holds the visits the likely
/// reply's subtree had (more than this move's iterations); forgotten,
/// the root's visits are exactly this move's iterations.
#[test]
fn an_agent_keeps_each_threads_tree_between_moves() {
    let g = TicTacToe::classic();
    let s = g.initial_state();
    let mut agent = MctsAgent::new(MctsOptions {
        threads: 2,
        ..opts(4_000, 3)
    });
    let first = agent.think(&g, &s);
    assert_eq!(first.iterations, 4_000);
    let visits =
        |r: &ply_core::search::MctsResult<_>| r.moves.iter().map(|m| m.visits).sum::<u64>();
    assert_eq!(visits(&first), 4_000);
    let mine = first.best_move.unwrap();
    let after = g.play(&s, mine);
    let reply = if mine == 4 { 0 } else { 4 };
    let next = g.play(&after, reply);
    let second = agent.think(&g, &next);
    assert_eq!(
        second.iterations, 4_000,
        "the report counts this move's iterations"
    );
    assert!(
        visits(&second) > 4_000,
        "the kept subtrees' visits: {}",
        visits(&second)
    );
    agent.forget();
    assert_eq!(visits(&agent.think(&g, &next)), 4_000);
}

#[test]
fn never_loses_to_perfect_play() {
    let g = TicTacToe::classic();
    for seed in 0..20 {
        for mcts_first in [true, false] {
            let mut m = MctsAgent::new(opts(20_000, seed));
            let perfect = SearchOptions {
                tie_break: TieBreak::Random(seed),
                ..SearchOptions::engine()
            };
            let mut ab = SearchAgent::new(
                Algorithm::AlphaBeta,
                SearchOptions {
                    tt_mb: 1,
                    ..perfect
                },
            );
            let r = if mcts_first {
                play_game(&g, &g.initial_state(), &mut m, &mut ab, 20)
            } else {
                play_game(&g, &g.initial_state(), &mut ab, &mut m, 20)
            };
            assert!(r.finished);
            let u = g.utility(&r.final_state).0 * if mcts_first { 1 } else { -1 };
            assert!(
                u >= 0,
                "MCTS lost game {seed} (first: {mcts_first}): {:?}",
                r.moves
            );
        }
    }
}

/// A tree stops growing at its cap: the search ends there, with fewer
/// iterations than asked, instead of growing until memory runs out.
#[test]
fn a_tree_stops_at_its_cap() {
    let g = ply_games::connect4::Connect4::standard();
    let s = g.initial_state();
    let capped = MctsOptions {
        max_nodes: 1_000,
        ..opts(5_000, 3)
    };
    let r = mcts(&g, &s, &capped);
    assert_eq!(r.tree_nodes, 1_000);
    assert!(r.iterations < 5_000, "{} iterations", r.iterations);
    assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), r.iterations);
    // With room for every node, the same search runs all its iterations.
    let roomy = mcts(
        &g,
        &s,
        &MctsOptions {
            max_nodes: 10_000,
            ..opts(5_000, 3)
        },
    );
    assert_eq!(roomy.iterations, 5_000);
    assert!(roomy.tree_nodes <= 5_001);
}

/// The node at `path` in a tree view, if it is there.
fn node_at<'a>(view: &'a MctsNodeView<u8>, path: &[u8]) -> Option<&'a MctsNodeView<u8>> {
    let mut n = view;
    for mv in path {
        n = n.children.iter().find(|c| c.mv == Some(*mv))?;
    }
    Some(n)
}

/// Every node of a view with its path, root first.
fn nodes(view: &MctsNodeView<u8>, path: &mut Vec<u8>, out: &mut Vec<(Vec<u8>, u64, f64)>) {
    out.push((path.clone(), view.visits, view.wins));
    for c in &view.children {
        path.push(c.mv.unwrap());
        nodes(c, path, out);
        path.pop();
    }
}

#[test]
fn a_traced_iteration_is_the_nth_of_the_same_search_and_tells_its_four_phases() {
    let g = TicTacToe::classic();
    let root = g.parse_position(".OX..X..O").unwrap();
    for seed in 1..=12 {
        for n in [1u64, 2, 9, 10, 137, 1000] {
            let mut tree = Mcts::new(&g, &root, std::f64::consts::SQRT_2, seed);
            assert_eq!(tree.run(&g, n - 1, None), n - 1);
            let before = tree.tree_view(9);
            let t = tree.iterate_traced(&g);
            let after = tree.tree_view(9);
            // The same tree as the untraced search of n iterations.
            let r = tree.result(&g, n, std::time::Duration::ZERO);
            assert_eq!(r.moves, mcts(&g, &root, &opts(n, seed)).moves);
            // Selection follows the highest UCT value, recomputed here from
            // the counts before the iteration.
            let mut path = Vec::new();
            let mut state = root;
            for step in &t.selection {
                let at = node_at(&before, &path).expect("selection walks the tree");
                assert_eq!(step.parent_visits, at.visits);
                assert_eq!(step.children.len(), at.children.len());
                let uct = |v: u64, w: f64| {
                    if v == 0 {
                        f64::INFINITY
                    } else {
                        w / v as f64
                            + std::f64::consts::SQRT_2 * ((at.visits as f64).ln() / v as f64).sqrt()
                    }
                };
                let best = step
                    .children
                    .iter()
                    .map(|c| uct(c.visits, c.wins))
                    .fold(f64::NEG_INFINITY, f64::max);
                let chosen = step.children.iter().find(|c| c.mv == step.chosen).unwrap();
                assert_eq!(uct(chosen.visits, chosen.wins), best);
                assert_eq!(chosen.uct, best);
                assert_eq!(at.untried, 0, "selection passes only fully expanded nodes");
                path.push(step.chosen);
                state = g.play(&state, step.chosen);
            }
            // Expansion adds one untried move; the playout then ends the game.
            if let Some(mv) = t.expanded {
                assert!(t.untried.contains(&mv));
                assert!(node_at(&before, &path).unwrap().untried == t.untried.len());
                path.push(mv);
                state = g.play(&state, mv);
                assert!(node_at(&before, &path).is_none());
            } else {
                assert!(g.is_terminal(&state));
            }
            for &mv in &t.playout {
                let mut legal = Vec::new();
                g.legal_moves(&state, &mut legal);
                assert!(legal.contains(&mv));
                state = g.play(&state, mv);
            }
            assert!(g.is_terminal(&state));
            let u = g.utility(&state).0.signum();
            assert_eq!(t.result_for_max, [0.0, 0.5, 1.0][(u + 1) as usize]);
            // Backpropagation: the path's nodes, and only they, gain a
            // visit and the result from their mover's view.
            let mut all = Vec::new();
            nodes(&after, &mut Vec::new(), &mut all);
            for (p, visits, wins) in all {
                let on_path = path.starts_with(&p);
                let old = node_at(&before, &p).map_or((0, 0.0), |b| (b.visits, b.wins));
                assert_eq!(visits, old.0 + u64::from(on_path), "{p:?}");
                let gain = if !on_path || p.is_empty() {
                    0.0
                } else if p.len() % 2 == 1 {
                    t.result_for_max // X (MAX) moves first here
                } else {
                    1.0 - t.result_for_max
                };
                assert_eq!(wins, old.1 + gain, "{p:?}");
            }
        }
    }
}
