//! Parallel search (lazy SMP): with helper threads sharing the table, the
//! exact score search still returns every published Connect Four score,
//! and the chess engine still finds its mate.

use std::path::PathBuf;

use ply_core::prelude::*;
use ply_core::search::alphabeta::Budget;
use ply_core::search::{iterative_deepening, score_search};
use ply_games::{Chess, Connect4};

#[test]
fn two_threads_solve_connect4_exactly() {
    let g = Connect4::standard();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/connect4/Test_L2_R1");
    let text = std::fs::read_to_string(path).unwrap();
    let options = SearchOptions {
        tt_mb: 8,
        ordering: true,
        killers: false,
        shortcuts: true,
        threads: 2,
        ..SearchOptions::default()
    };
    let mut engine = Engine::new(&g, &options);
    for line in text.lines().take(60) {
        let (moves, score) = line.split_once(' ').unwrap();
        let s = g.parse_position(moves).unwrap();
        let expected: i32 = score.trim().parse().unwrap();
        engine.clear();
        let r = score_search(
            &mut engine,
            &g,
            &s,
            false,
            &Budget::default(),
            &mut NoObserver,
            &mut |_, _| {},
        )
        .unwrap();
        // Scores are from the side to move; the value is MAX's view.
        let mover = g.to_move(&s);
        assert_eq!(r.value.for_player(mover).0, expected, "{moves}");
    }
}

#[test]
fn two_threads_find_the_mate() {
    let g = Chess::new();
    let s = g
        .parse_position("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1")
        .unwrap();
    let options = SearchOptions {
        depth: Some(8),
        threads: 2,
        tt_mb: 16,
        ..SearchOptions::engine()
    };
    let out = iterative_deepening(&g, &s, &options, None, &mut NoObserver, |_| {}).unwrap();
    assert_eq!(g.format_move(&s, out.best_move.unwrap()), "g3g6");
    assert_eq!(out.distance, Some(3));
}
