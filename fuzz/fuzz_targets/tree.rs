//! The tree syntax (chance nodes too), and `trace` on what parses: a tree
//! of at most 2,000 nodes is traced by minimax, alpha-beta and
//! expectiminimax, as `ply trace` and the web page do.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_core::Notation;
use ply_core::explore::tree_size;
use ply_core::observe::Trace;
use ply_core::search::{SearchOptions, alphabeta, expectiminimax, minimax};
use ply_games::tree::Tree;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let game = Tree;
    let Ok(state) = game.parse_position(&text) else {
        return;
    };
    let printed = game.format_position(&state);
    let again = game
        .parse_position(&printed)
        .expect("a printed tree parses");
    assert_eq!(again, state, "'{text}' printed as '{printed}'");
    if tree_size(&game, &state, None, 2_000).is_none() {
        return;
    }
    let options = SearchOptions::exact();
    let mut trace = Trace::new();
    let expected = expectiminimax(&game, &state, &options, false, &mut trace);
    let pruned = expectiminimax(&game, &state, &options, true, &mut Trace::new());
    if let (Ok(a), Ok(b)) = (&expected, &pruned) {
        assert!(
            (a.value - b.value).abs() < 1e-6,
            "Star1 changed the value of '{text}'"
        );
    }
    let plain = minimax(&game, &state, &options, &mut Trace::new());
    let pruning = alphabeta(&game, &state, &options, &mut Trace::new());
    match (plain, pruning) {
        (Ok(a), Ok(b)) => assert_eq!(
            a.value, b.value,
            "alpha-beta and minimax differ on '{text}'"
        ),
        (Err(_), Err(_)) => {} // chance nodes: both refuse
        (a, b) => panic!("minimax {a:?} but alpha-beta {b:?} on '{text}'"),
    }
});
