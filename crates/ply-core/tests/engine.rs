//! The engine features (table, ordering, principal-variation search,
//! distance scores, iterative deepening) against independent oracles:
//! plain minimax for values, a brute-force distance-to-end solver for fast
//! wins, and whole games against perfect and random players.

use std::collections::HashMap;

use ply_core::play::{RandomAgent, SearchAgent, play_game};
mod common;

use common::random_position;
use ply_core::prelude::*;
use ply_core::search::comparison_set;
use ply_games::TicTacToe;
use ply_games::tictactoe::Board;

/// Runs every configuration of `ply compare`; checks the values against
/// minimax and returns the node counts in order.
fn compare_all(g: &TicTacToe, s: &Board, depth: Option<u32>) -> Vec<u64> {
    let mut nodes = Vec::new();
    let mut reference = None;
    for (algo, opts) in comparison_set(depth, 4) {
        let mut st = Stats::default();
        let out = algo.run(g, s, &opts, &mut st).unwrap();
        let r = *reference.get_or_insert(out.value);
        assert_eq!(
            out.value,
            r,
            "{algo:?} {opts:?} on {}",
            g.format_position(s)
        );
        nodes.push(st.nodes);
    }
    nodes
}

#[test]
fn every_configuration_agrees_and_ordering_and_table_never_cost_nodes() {
    let g = TicTacToe::classic();
    // The empty board and 100 random positions still in play.
    let mut positions = vec![g.initial_state()];
    let mut seed = 0;
    while positions.len() < 101 {
        let s = random_position(&g, seed, 1 + (seed % 8) as usize);
        if !g.is_terminal(&s) {
            positions.push(s);
        }
        seed += 1;
    }
    let mut totals = [0u64; 6];
    for s in &positions {
        let n = compare_all(&g, s, None);
        let ab = n[1];
        assert!(n[1] <= n[0], "alpha-beta above minimax");
        for (i, name) in [
            (2, "ordering"),
            (3, "ordering+table"),
            (4, "ordering+table+pvs"),
        ] {
            assert!(
                n[i] <= ab,
                "{name}: {} > alpha-beta {ab} on {}",
                n[i],
                g.format_position(s)
            );
        }
        for (t, x) in totals.iter_mut().zip(&n) {
            *t += x;
        }
    }
    let ab = totals[1] as f64;
    println!(
        "{} positions, nodes relative to alpha-beta: minimax {:.2}, +order {:.3}, +table {:.3}, +pvs {:.3}, id {:.3}",
        positions.len(),
        totals[0] as f64 / ab,
        totals[2] as f64 / ab,
        totals[3] as f64 / ab,
        totals[4] as f64 / ab,
        totals[5] as f64 / ab
    );
    // Principal-variation search: the same values, fewer nodes overall.
    assert!(totals[4] < totals[3]);
}

#[test]
fn depth_limited_configurations_agree() {
    let g = TicTacToe::classic();
    for seed in 0..30 {
        let s = random_position(&g, seed, (seed % 5) as usize);
        for d in 1..=4 {
            compare_all(&g, &s, Some(d));
        }
    }
}

#[test]
fn larger_boards_agree_and_ordering_helps() {
    for (m, n, k, plies) in [(4, 4, 3, 6), (3, 4, 3, 3), (4, 4, 4, 9)] {
        let g = TicTacToe::new(m, n, k).unwrap();
        let (mut ab, mut best) = (0, 0);
        for seed in 0..6 {
            let s = random_position(&g, seed, plies);
            let n = compare_all(&g, &s, None);
            ab += n[1];
            best += n[4];
        }
        println!(
            "{m},{n},{k}: full engine / alpha-beta nodes = {:.3}",
            best as f64 / ab as f64
        );
        assert!(best <= ab);
    }
}

/// Brute force, no pruning: the mover's result (+1/0/-1) and, under "win
/// fast, lose slow", the plies to the end.
fn oracle(g: &TicTacToe, s: &Board, memo: &mut HashMap<Board, (i32, u32)>) -> (i32, u32) {
    if let Some(&r) = memo.get(s) {
        return r;
    }
    let r = if g.is_terminal(s) {
        (g.utility(s).for_player(g.to_move(s)).0, 0)
    } else {
        let mut moves = Vec::new();
        g.legal_moves(s, &mut moves);
        let mut best: Option<(i32, u32)> = None;
        for m in moves {
            let (v, d) = oracle(g, &g.play(s, m), memo);
            let cand = (-v, d + 1);
            let better = match best {
                None => true,
                Some((bv, bd)) => {
                    cand.0 > bv
                        || cand.0 == bv && (cand.0 > 0 && cand.1 < bd || cand.0 < 0 && cand.1 > bd)
                }
            };
            if better {
                best = Some(cand);
            }
        }
        best.unwrap()
    };
    memo.insert(*s, r);
    r
}

#[test]
fn fast_win_matches_a_brute_force_distance_oracle_everywhere() {
    let g = TicTacToe::classic();
    let mut memo = HashMap::new();
    // Every reachable non-terminal position.
    let mut all = vec![g.initial_state()];
    let mut seen = std::collections::HashSet::new();
    let mut i = 0;
    while i < all.len() {
        let s = all[i];
        i += 1;
        if g.is_terminal(&s) {
            continue;
        }
        let mut moves = Vec::new();
        g.legal_moves(&s, &mut moves);
        for m in moves {
            let c = g.play(&s, m);
            if seen.insert(c) {
                all.push(c);
            }
        }
    }
    // A small table: a fresh engine per position, and zeroing 64 MiB each
    // time would dominate the test.
    let engine = SearchOptions {
        tt_mb: 1,
        ..SearchOptions::engine()
    };
    let textbook_fast = SearchOptions {
        fast_win: true,
        ..SearchOptions::default()
    };
    let mut checked = 0;
    for s in all.iter().filter(|s| !g.is_terminal(s)) {
        let (v, d) = oracle(&g, s, &mut memo);
        let p = g.to_move(s);
        for opts in [engine, textbook_fast] {
            for algo in [Algorithm::AlphaBeta, Algorithm::Id] {
                let out = algo.run(&g, s, &opts, &mut NoObserver).unwrap();
                assert_eq!(out.value.for_player(p).0, v, "{}", g.format_position(s));
                if v != 0 {
                    assert_eq!(out.distance, Some(d), "{} {algo:?}", g.format_position(s));
                }
                // The move chosen achieves the optimal distance.
                let after = g.play(s, out.best_move.unwrap());
                let (cv, cd) = oracle(&g, &after, &mut memo);
                assert_eq!(
                    (-cv, cd + 1),
                    (v, d),
                    "{} plays {:?}",
                    g.format_position(s),
                    out.best_move
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 5_478 - 958);
}

#[test]
fn fork_position_is_a_win_in_three() {
    let g = TicTacToe::classic();
    let s = g.parse_position("XO.X..O..").unwrap();
    let out = iterative_deepening(
        &g,
        &s,
        &SearchOptions::engine(),
        None,
        &mut NoObserver,
        |_| {},
    )
    .unwrap();
    assert_eq!(
        (out.best_move, out.value, out.distance),
        (Some(4), MaxScore(1), Some(3))
    );
    assert!(out.proven);
    assert_eq!(out.pv.len(), 3);
}

/// Whether some move ends the game with a win for the mover at once.
fn immediate_wins(g: &TicTacToe, s: &Board) -> Vec<u8> {
    let mut moves = Vec::new();
    g.legal_moves(s, &mut moves);
    let p = g.to_move(s);
    moves
        .into_iter()
        .filter(|&m| {
            let c = g.play(s, m);
            g.is_terminal(&c) && g.utility(&c).for_player(p).0 > 0
        })
        .collect()
}

#[test]
fn takes_the_win_in_one_over_a_slower_win() {
    // Positions where the textbook search (first winning move in square
    // order) picks a slower win although one wins at once.
    let g = TicTacToe::classic();
    let fast = SearchOptions {
        fast_win: true,
        ..SearchOptions::exact()
    };
    let mut found = 0;
    for seed in 0..400 {
        let s = random_position(&g, seed, 3 + (seed % 4) as usize);
        if g.is_terminal(&s) {
            continue;
        }
        let wins = immediate_wins(&g, &s);
        if wins.is_empty() {
            continue;
        }
        let slow = alphabeta(&g, &s, &SearchOptions::exact(), &mut NoObserver).unwrap();
        if wins.contains(&slow.best_move.unwrap()) {
            continue;
        }
        found += 1;
        let quick = alphabeta(&g, &s, &fast, &mut NoObserver).unwrap();
        assert!(
            wins.contains(&quick.best_move.unwrap()),
            "{}",
            g.format_position(&s)
        );
        assert_eq!(quick.distance, Some(1));
        assert_eq!(quick.value, slow.value);
    }
    assert!(found >= 5, "only {found} test positions");
}

#[test]
fn in_a_lost_position_it_loses_as_late_as_possible() {
    let g = TicTacToe::classic();
    let mut memo = HashMap::new();
    // O to move after X's fork: every move loses; some lose at once.
    let s = g.parse_position("XO.XX.O..").unwrap();
    let out = alphabeta(&g, &s, &SearchOptions::engine(), &mut NoObserver).unwrap();
    assert_eq!(out.value, MaxScore(1));
    let (v, d) = oracle(&g, &s, &mut memo);
    assert_eq!((v, out.distance), (-1, Some(d)));
    assert_eq!(d, 2, "O blocks one threat, X completes the other");
}

#[test]
fn table_size_does_not_change_values() {
    let g = TicTacToe::new(4, 4, 3).unwrap();
    for seed in 0..4 {
        let s = random_position(&g, seed, 4);
        let plain = alphabeta(
            &g,
            &s,
            &SearchOptions {
                ordering: true,
                ..SearchOptions::exact()
            },
            &mut NoObserver,
        )
        .unwrap();
        for mb in [1, 16] {
            let opts = SearchOptions {
                ordering: true,
                tt_mb: mb,
                ..SearchOptions::exact()
            };
            assert_eq!(
                alphabeta(&g, &s, &opts, &mut NoObserver).unwrap().value,
                plain.value
            );
        }
    }
    let g = TicTacToe::new(4, 4, 4).unwrap();
    let s = random_position(&g, 7, 5);
    let a = alphabeta(
        &g,
        &s,
        &SearchOptions {
            tt_mb: 1,
            ..SearchOptions::engine()
        },
        &mut NoObserver,
    )
    .unwrap();
    let b = alphabeta(
        &g,
        &s,
        &SearchOptions {
            tt_mb: 0,
            ..SearchOptions::engine()
        },
        &mut NoObserver,
    )
    .unwrap();
    assert_eq!(a.value, b.value);
}

#[test]
fn engine_against_engine_draws() {
    let g = TicTacToe::classic();
    for seed in 0..4 {
        let opts = SearchOptions {
            tie_break: TieBreak::Random(seed),
            ..SearchOptions::engine()
        };
        let mut x = SearchAgent::new(Algorithm::Id, opts);
        let mut o = SearchAgent::new(
            Algorithm::Id,
            SearchOptions {
                tie_break: TieBreak::Random(seed + 100),
                ..opts
            },
        );
        let r = play_game(&g, &g.initial_state(), &mut x, &mut o, 20);
        assert!(r.finished);
        assert_eq!(g.utility(&r.final_state), MaxScore(0));
    }
}

#[test]
fn engine_never_loses_to_a_random_mover() {
    let g = TicTacToe::classic();
    let opts = SearchOptions {
        tt_mb: 1,
        ..SearchOptions::engine()
    };
    let (mut wins, mut draws) = (0, 0);
    for seed in 0..200 {
        for engine_first in [true, false] {
            let mut engine = SearchAgent::new(Algorithm::Id, opts);
            let mut random = RandomAgent::new(seed);
            let r = if engine_first {
                play_game(&g, &g.initial_state(), &mut engine, &mut random, 20)
            } else {
                play_game(&g, &g.initial_state(), &mut random, &mut engine, 20)
            };
            let u = g.utility(&r.final_state).0 * if engine_first { 1 } else { -1 };
            assert!(
                u >= 0,
                "the engine lost game {seed} (first: {engine_first})"
            );
            if u > 0 { wins += 1 } else { draws += 1 }
        }
    }
    println!("engine against a random mover, 400 games: {wins} wins, {draws} draws, 0 losses");
    assert!(wins > 300);
}
