//! The numbers the textbooks and published references quote, exactly.

use ply_core::explore::{count_positions, leaf_paths, perft};
use ply_core::observe::path_name;
use ply_core::prelude::*;
use ply_core::search::{SearchError, expectiminimax};
use ply_games::coins::CoinsState;
use ply_games::{Coins, TicTacToe, Tree};

#[test]
fn empty_tictactoe_minimax_visits_every_node() {
    let g = TicTacToe::classic();
    let r = solve(
        &g,
        &g.initial_state(),
        Algorithm::Minimax,
        &SearchOptions::exact(),
    )
    .unwrap();
    assert_eq!(r.outcome.value, MaxScore(0));
    assert_eq!(r.stats.nodes, 549_946);
    assert_eq!(r.stats.leaves, 255_168);
    assert_eq!(r.stats.cutoffs, 0);
    assert_eq!(r.stats.max_ply, 9);
    // A draw under best play: the principal variation fills the board.
    assert_eq!(r.outcome.pv.len(), 9);
}

#[test]
fn empty_tictactoe_alphabeta_in_square_order() {
    let g = TicTacToe::classic();
    let r = solve(
        &g,
        &g.initial_state(),
        Algorithm::AlphaBeta,
        &SearchOptions::exact(),
    )
    .unwrap();
    assert_eq!(r.outcome.value, MaxScore(0));
    assert_eq!(r.stats.nodes, 18_297);
    assert_eq!(r.outcome.best_move, Some(0));
}

#[test]
fn tictactoe_position_count() {
    let g = TicTacToe::classic();
    let c = count_positions(&g, &g.initial_state());
    assert_eq!((c.positions, c.terminal), (5_478, 958));
    // Leaves of the full game tree = number of distinct games = 255,168.
    let leaves = leaf_paths(&g, &g.initial_state(), None, 300_000).unwrap();
    assert_eq!(leaves.len(), 255_168);
    assert_eq!(leaf_paths(&g, &g.initial_state(), None, 255_167), None);
    // Nodes of the full game tree: what minimax visits.
    let size = ply_core::explore::tree_size(&g, &g.initial_state(), None, 600_000);
    assert_eq!(size, Some(549_946));
    assert_eq!(
        ply_core::explore::tree_size(&g, &g.initial_state(), None, 549_945),
        None
    );
    assert_eq!(perft(&g, &g.initial_state(), 9), 127_872);
}

/// A line as long as the cap does not overflow a test thread's stack:
/// 200,000 coins taken one at a time is a chain of 200,001 nodes.
#[test]
fn tree_size_of_a_long_line() {
    let g = Coins::new(&[1]).unwrap();
    let s = g.parse_position("200000").unwrap();
    assert_eq!(
        ply_core::explore::tree_size(&g, &s, None, 300_000),
        Some(200_001)
    );
    assert_eq!(ply_core::explore::tree_size(&g, &s, None, 200_000), None);
    assert_eq!(
        ply_core::explore::tree_size(&g, &s, Some(10), 300_000),
        Some(11)
    );
}

/// Counts how often a search asks whether to stop.
#[derive(Default)]
struct Asked(u64);

impl Observer for Asked {
    fn should_stop(&mut self) -> bool {
        self.0 += 1;
        false
    }
}

/// Every search asks once per `CHECK_INTERVAL` nodes (so an observer may
/// read the clock each time): minimax over tic-tac-toe's 549,946 nodes
/// asks 549,946 / 1,024 = 537 times, alpha-beta over its 18,297 nodes 17.
#[test]
fn searches_ask_to_stop_once_per_interval() {
    use ply_core::search::CHECK_INTERVAL;
    let g = TicTacToe::classic();
    let s = g.initial_state();
    let mut asked = Asked::default();
    minimax(&g, &s, &SearchOptions::exact(), &mut asked).unwrap();
    assert_eq!(asked.0, 549_946 / CHECK_INTERVAL);
    let mut asked = Asked::default();
    alphabeta(&g, &s, &SearchOptions::exact(), &mut asked).unwrap();
    assert_eq!(asked.0, 18_297 / CHECK_INTERVAL);
    // Expectiminimax without chance is minimax: the same nodes.
    let mut asked = Asked::default();
    expectiminimax(&g, &s, &SearchOptions::exact(), false, &mut asked).unwrap();
    assert_eq!(asked.0, 549_946 / CHECK_INTERVAL);
}

/// A trace with a ply limit stops the search soon after a line passes it:
/// 5,000 coins taken one at a time is one line of 5,001 nodes. At the limit
/// exactly (a line of 100 plies under a limit of 100) it records all.
#[test]
fn a_trace_stops_past_its_ply_limit() {
    let g = Coins::new(&[1]).unwrap();
    let deep = g.parse_position("5000").unwrap();
    let mut t = Trace::with_max_ply(100);
    let r = minimax(&g, &deep, &SearchOptions::exact(), &mut t);
    assert!(matches!(r, Err(SearchError::Stopped)), "{r:?}");
    assert!(t.too_deep());
    // Stopped at the first question after ply 100: node 1,024.
    assert_eq!(t.steps.len(), ply_core::search::CHECK_INTERVAL as usize - 1);
    let mut t = Trace::with_max_ply(100);
    let r = alphabeta(&g, &deep, &SearchOptions::exact(), &mut t);
    assert!(matches!(r, Err(SearchError::Stopped)), "{r:?}");
    assert!(t.too_deep());

    let edge = g.parse_position("100").unwrap();
    let mut t = Trace::with_max_ply(100);
    minimax(&g, &edge, &SearchOptions::exact(), &mut t).unwrap();
    assert!(!t.too_deep());
    assert_eq!(t.evaluated, vec![path_name(&[0; 100])]);
}

#[test]
fn fork_position_analysis() {
    let g = TicTacToe::classic();
    let s = g.parse_position("XO.X..O..").unwrap();
    for algo in Algorithm::ALL {
        let a = analyze(&g, &s, algo, &SearchOptions::exact()).unwrap();
        let values: Vec<(u8, i32)> = a.moves.iter().map(|m| (m.mv, m.value.0)).collect();
        assert_eq!(
            values,
            vec![(4, 1), (7, 0), (2, -1), (5, -1), (8, -1)],
            "{algo:?}"
        );
    }
    let out = alphabeta(&g, &s, &SearchOptions::exact(), &mut NoObserver).unwrap();
    assert_eq!((out.value, out.best_move), (MaxScore(1), Some(4)));
}

#[test]
fn coins() {
    let g = Coins::new(&[1, 2]).unwrap();
    let at = |coins| CoinsState {
        coins,
        to_move: Player::Max,
    };
    let out = alphabeta(&g, &at(4), &SearchOptions::exact(), &mut NoObserver).unwrap();
    assert_eq!((out.value, out.best_move), (MaxScore(1), Some(1)));
    for n in [3, 6, 9, 12] {
        for algo in Algorithm::ALL {
            let r = solve(&g, &at(n), algo, &SearchOptions::exact()).unwrap();
            assert_eq!(r.outcome.value, MaxScore(-1), "{n} coins, {algo:?}");
        }
    }
}

/// Runs a traced alpha-beta on a tree; returns (value, evaluated, pruned).
fn trace(tree: &str) -> (i32, Vec<String>, Vec<String>) {
    let s = Tree.parse_position(tree).unwrap();
    let mut t = Trace::new();
    let out = alphabeta(&Tree, &s, &SearchOptions::exact(), &mut t).unwrap();
    let pruned = leaf_paths(&Tree, &s, None, usize::MAX)
        .unwrap()
        .iter()
        .map(|p| path_name(p))
        .filter(|p| !t.evaluated.contains(p))
        .collect();
    (out.value.0, t.evaluated, pruned)
}

#[test]
fn alphabeta_traces_on_textbook_trees() {
    assert_eq!(trace("((4 6) (3 9) (5 1))").2, ["2.2"]);
    assert_eq!(trace("((4 6) (3 9) (5 1))").0, 4);
    let (v, _, pruned) = trace("((3 5 7) (2 9 1))");
    assert_eq!((v, pruned), (3, vec!["2.2".to_string(), "2.3".to_string()]));
    let (v, evaluated, pruned) = trace("((4 6 9) (2 7 8) (5 3 9))");
    assert_eq!((v, evaluated.len()), (4, 6));
    assert_eq!(pruned, ["2.2", "2.3", "3.3"]);
    let (v, _, pruned) = trace("((3 12 8) (2 4 6) (14 5 2))");
    assert_eq!((v, pruned), (3, vec!["2.2".to_string(), "2.3".to_string()]));
}

#[test]
fn trace_steps_show_the_window() {
    let s = Tree.parse_position("((3 5 7) (2 9 1))").unwrap();
    let mut t = Trace::new();
    alphabeta(&Tree, &s, &SearchOptions::exact(), &mut t).unwrap();
    // Entering the second MIN node, MAX is already assured 3.
    let enter = t.steps.iter().find(|s| s.path == "2").unwrap();
    assert_eq!(enter.node, ply_core::observe::NodeKind::Min);
    assert_eq!(
        enter.window,
        Some(Window {
            alpha: MaxScore(3),
            beta: MaxScore::INF
        })
    );
    let cut = t
        .steps
        .iter()
        .find(|s| s.kind == ply_core::observe::StepKind::Cutoff)
        .unwrap();
    assert_eq!((cut.path.as_str(), cut.pruned, cut.value), ("2", 2, 2.0));
    assert_eq!(t.values[""], 3.0);
}

#[test]
fn random_tie_break_is_seeded_and_among_the_best() {
    let g = TicTacToe::classic();
    let s = g.initial_state();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let opts = SearchOptions {
            tie_break: TieBreak::Random(seed),
            ..SearchOptions::exact()
        };
        let a = alphabeta(&g, &s, &opts, &mut NoObserver).unwrap();
        let m = minimax(&g, &s, &opts, &mut NoObserver).unwrap();
        assert_eq!(a.value, MaxScore(0));
        assert_eq!(
            a,
            alphabeta(&g, &s, &opts, &mut NoObserver).unwrap(),
            "same seed, same answer"
        );
        // Every first move draws in tic-tac-toe, so all nine are candidates.
        seen.insert(a.best_move.unwrap());
        assert_eq!(m.value, MaxScore(0));
        assert_eq!(m.pv.first(), m.best_move.as_ref());
    }
    assert!(seen.len() > 3, "random tie-break should spread: {seen:?}");
    // On the fork position only square 4 wins, whatever the seed.
    let f = g.parse_position("XO.X..O..").unwrap();
    for seed in 0..10 {
        let opts = SearchOptions {
            tie_break: TieBreak::Random(seed),
            ..SearchOptions::exact()
        };
        assert_eq!(
            alphabeta(&g, &f, &opts, &mut NoObserver).unwrap().best_move,
            Some(4)
        );
    }
}

#[test]
fn depth_limited_uses_the_evaluation() {
    let g = TicTacToe::classic();
    let s = g.initial_state();
    for d in 0..=4 {
        let opts = SearchOptions::depth(d);
        let (mut sm, mut sa) = (Stats::default(), Stats::default());
        let m = minimax(&g, &s, &opts, &mut sm).unwrap();
        let a = alphabeta(&g, &s, &opts, &mut sa).unwrap();
        assert_eq!(m.value, a.value, "depth {d}");
        assert!(sa.nodes <= sm.nodes);
        assert_eq!(sm.max_ply, d);
        // Full-width to depth d: 1 + 9 + 9*8 + ... nodes (no game ends before ply 5).
        let expected: u64 = (0..=d)
            .map(|i| (0..i).map(|j| 9 - j as u64).product::<u64>())
            .sum();
        assert_eq!(sm.nodes, expected);
    }
    // Depth 1: the centre has the most open lines.
    assert_eq!(
        alphabeta(&g, &s, &SearchOptions::depth(1), &mut NoObserver)
            .unwrap()
            .best_move,
        Some(4)
    );
}
