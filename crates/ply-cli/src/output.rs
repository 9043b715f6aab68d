//! Shared pieces of text and JSON output, and position set-up.

use ply_core::observe::Stats;
use ply_core::{MaxScore, Notation, play_moves};
use ply_games::Params;
use serde_json::{Value, json};

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

/// A line of moves written in the game's notation, each from the position it is played in.
pub fn line<G: Notation>(game: &G, state: &G::State, moves: &[G::Move]) -> Vec<String> {
    let mut s = state.clone();
    let mut out = Vec::new();
    for &m in moves {
        out.push(game.format_move(&s, m));
        s = game.play(&s, m);
    }
    out
}

/// [`line`], joined by spaces.
pub fn line_text<G: Notation>(game: &G, state: &G::State, moves: &[G::Move]) -> String {
    line(game, state, moves).join(" ")
}

/// A score for people: signed, infinities spelled out.
pub fn score_text(v: MaxScore) -> String {
    if v.0 > 0 && !v.is_infinite() {
        format!("+{}", v.0)
    } else {
        v.to_string()
    }
}

/// A JSON score: an integer, or "+inf"/"-inf".
pub fn score_json(v: MaxScore) -> Value {
    if v.is_infinite() {
        json!(v.to_string())
    } else {
        json!(v.0)
    }
}

/// A JSON number for an `f64` value: an integer when it is one, "+inf" or
/// "-inf" for the infinities.
pub fn num_json(v: f64) -> Value {
    if v.is_infinite() {
        json!(if v > 0.0 { "+inf" } else { "-inf" })
    } else if v.fract() == 0.0 && v.abs() < 9e15 {
        json!(v as i64)
    } else {
        json!((v * 1e9).round() / 1e9)
    }
}

/// Writes a count with thousands separators.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The statistics object of the JSON output.
pub fn stats_json(stats: &Stats, time: std::time::Duration) -> Value {
    let secs = time.as_secs_f64();
    json!({
        "nodes": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "depth": stats.max_ply,
        "tt_probes": stats.tt_probes,
        "tt_hits": stats.tt_hits,
        "tt_cutoffs": stats.tt_cutoffs,
        "time_ms": (secs * 1e6).round() / 1e3,
        "nodes_per_second": if secs > 0.0 { (stats.nodes as f64 / secs).round() } else { 0.0 },
    })
}

/// One line of statistics for people.
pub fn stats_text(stats: &Stats, time: std::time::Duration) -> String {
    let secs = time.as_secs_f64();
    let nps = if secs > 0.0 {
        format!(", {:.2} M nodes/s", stats.nodes as f64 / secs / 1e6)
    } else {
        String::new()
    };
    let tt = if stats.tt_probes > 0 {
        format!(
            ", table hits {} of {} probes ({} cutoffs)",
            thousands(stats.tt_hits),
            thousands(stats.tt_probes),
            thousands(stats.tt_cutoffs)
        )
    } else {
        String::new()
    };
    format!(
        "nodes {}, leaves {}, cutoffs {}, depth {}{tt}, time {:.3} ms{nps}",
        thousands(stats.nodes),
        thousands(stats.leaves),
        thousands(stats.cutoffs),
        stats.max_ply,
        secs * 1e3
    )
}

/// Prints JSON on stdout, pretty.
pub fn print_json(v: &Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(v).expect("JSON values always serialise")
    );
}
