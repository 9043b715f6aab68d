//! Position set-up from the command line, and reports printed as text or JSON.

use std::fmt::Display;

use ply_core::{Notation, play_moves};
use ply_games::Params;
use serde::Serialize;

use crate::CliError;
use crate::args::GameArgs;

/// Reads the `--param` list.
pub fn params(args: &GameArgs) -> Result<Params, CliError> {
    Ok(Params::parse(&args.params)?)
}

/// The position named by `--position` and `--moves`.
pub fn setup<G: Notation>(game: &G, args: &GameArgs) -> Result<G::State, CliError> {
    let start = match &args.position {
        Some(text) => game.parse_position(text).map_err(|e| {
            CliError::input(format!("invalid {} position '{text}': {e}", args.game))
        })?,
        None => game.initial_state(),
    };
    let moves: Vec<&str> = args
        .moves
        .iter()
        .map(|m| m.trim())
        .filter(|m| !m.is_empty())
        .collect();
    play_moves(game, &start, &moves).map_err(|e| CliError::input(format!("--moves: {e}")))
}

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
