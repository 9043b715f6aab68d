//! Every registered game's position and move notation. The first byte
//! picks the game (so a game is fuzzed the day it is registered), the
//! second whether the rest is a position or a move at the start.
//!
//! What parses must round-trip: printed and parsed again, the same state
//! (or move); every legal move of a parsed position prints and parses back
//! to itself; a small search of it does not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_core::registry::{GameSpec, GameVisitor, Registered};
use ply_core::search::{SearchOptions, alphabeta, expectiminimax};

use ply_games::{GAMES, Params};

struct Check<'a> {
    text: &'a str,
    as_move: bool,
}

impl GameVisitor for Check<'_> {
    type Output = ();
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) {
        let start = game.initial_state();
        if self.as_move {
            if let Ok(mv) = game.parse_move(&start, self.text) {
                let printed = game.format_move(&start, mv);
                let again = game.parse_move(&start, &printed);
                assert_eq!(
                    again.ok(),
                    Some(mv),
                    "{}: move '{}' printed as '{printed}'",
                    spec.name,
                    self.text
                );
            }
            return;
        }
        let Ok(state) = game.parse_position(self.text) else {
            return;
        };
        let printed = game.format_position(&state);
        let again = game.parse_position(&printed).unwrap_or_else(|e| {
            panic!(
                "{}: '{}' printed as '{printed}', which does not parse: {e}",
                spec.name, self.text
            )
        });
        assert_eq!(
            game.format_position(&again),
            printed,
            "{}: printing is not stable",
            spec.name
        );
        assert_eq!(
            again, state,
            "{}: '{}' printed as '{printed}' parses to another state",
            spec.name, self.text
        );
        let mut moves = Vec::new();
        if !game.is_terminal(&state) && !game.is_chance(&state) {
            game.legal_moves(&state, &mut moves);
        }
        for &mv in moves.iter().take(64) {
            let text = game.format_move(&state, mv);
            assert_eq!(
                game.parse_move(&state, &text).ok(),
                Some(mv),
                "{}: move '{text}'",
                spec.name
            );
        }
        // A small search (depth 2, or 1 where the moves are many): it must not panic.
        let options = SearchOptions::depth(if moves.len() <= 64 { 2 } else { 1 });
        if G::HAS_CHANCE {
            let _ = expectiminimax(
                &game,
                &state,
                &options,
                false,
                &mut ply_core::observe::NoObserver,
            );
        } else {
            let _ = alphabeta(&game, &state, &options, &mut ply_core::observe::NoObserver);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [which, kind, rest @ ..] = data else {
        return;
    };
    let spec = GAMES[*which as usize % GAMES.len()];
    let text = String::from_utf8_lossy(rest);
    if text.len() > 4096 {
        return;
    }
    let check = Check {
        text: &text,
        as_move: kind & 1 == 1,
    };
    let _ = ply_games::visit(spec.name, &Params::default(), check);
});
