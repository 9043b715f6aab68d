//! Connect Four batch lines (`moves [expected]`), as `ply solve connect4
//! --batch` reads them: a line that reads gives a position that prints
//! back to its moves, and a shallow search of it does not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_cli::commands::solve::batch_line;
use ply_core::search::{SearchOptions, alphabeta};
use ply_core::{Game, Notation};
use ply_games::connect4::Connect4;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let game = Connect4::standard();
    for line in text.lines().take(16) {
        let Ok(Some((moves, _expected))) = batch_line(line) else {
            continue;
        };
        let Ok(state) = game.parse_position(moves) else {
            continue;
        };
        let printed = game.format_position(&state);
        assert_eq!(
            game.parse_position(&printed).ok(),
            Some(state),
            "'{moves}' printed as '{printed}'"
        );
        if !game.is_terminal(&state) {
            let _ = alphabeta(
                &game,
                &state,
                &SearchOptions::depth(3),
                &mut ply_core::observe::NoObserver,
            );
        }
    }
});
