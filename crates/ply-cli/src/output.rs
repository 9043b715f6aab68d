//! Reports printed as text or JSON.

use std::fmt::Display;

use ply_core::Notation;
use serde::Serialize;

/// A line of moves in the game's notation, joined by spaces.
pub fn line_text<G: Notation>(game: &G, state: &G::State, moves: &[G::Move]) -> String {
    ply_service::report::line(game, state, moves).join(" ")
}

/// Prints JSON on stdout, pretty.
pub fn print_json<T: Serialize + ?Sized>(v: &T) {
    println!(
        "{}",
        serde_json::to_string_pretty(v).expect("reports always serialise")
    );
}

/// Prints a report: its JSON with `--json`, else its text form.
pub fn emit<R: Serialize + Display>(report: &R, json: bool) {
    if json {
        print_json(report);
    } else {
        print!("{report}");
    }
}
