//! Notation and rules that several games share: who is to move when the
//! position does not say (`/min`), normal play, lists of numbers.

use ply_core::{MaxScore, ParseError, Player};

/// Splits an optional `/max` or `/min` off a position: the player to move
/// (MAX when absent) and the rest.
pub fn split_side(text: &str) -> Result<(&str, Player), ParseError> {
    let Some((body, side)) = text.rsplit_once('/') else {
        return Ok((text, Player::Max));
    };
    match side.trim().to_ascii_lowercase().as_str() {
        "max" => Ok((body, Player::Max)),
        "min" => Ok((body, Player::Min)),
        s => Err(ParseError::at(
            body.chars().count() + 2,
            format!("expected 'max' or 'min' after '/', found '{s}'"),
        )),
    }
}

/// `body` with `/min` when MIN is to move.
pub fn with_side(body: String, to_move: Player) -> String {
    match to_move {
        Player::Max => body,
        Player::Min => format!("{body}/min"),
    }
}

/// The utility under normal play: the player to move cannot move and loses.
pub fn normal_play(to_move: Player) -> MaxScore {
    MaxScore(-to_move.sign())
}

/// Reads whole numbers separated by spaces, each from `min` to `max`,
/// naming `what` they are and the column of a bad one.
pub fn numbers(text: &str, what: &str, min: u64, max: u64) -> Result<Vec<u64>, ParseError> {
    let mut out = Vec::new();
    let mut column = 1;
    for word in text.split(' ') {
        if !word.is_empty() {
            let n: u64 = word.parse().map_err(|_| {
                ParseError::at(column, format!("'{word}' is not {what} (a whole number)"))
            })?;
            if !(min..=max).contains(&n) {
                return Err(ParseError::at(
                    column,
                    format!("{what} {n} is out of range: it must be from {min} to {max}"),
                ));
            }
            out.push(n);
        }
        column += word.chars().count() + 1;
    }
    if out.is_empty() {
        return Err(ParseError::new(format!(
            "no {what}s: write them separated by spaces"
        )));
    }
    Ok(out)
}

/// A seeded xorshift for tests: `next(m)` is a number below `m`. Tests
/// need reproducible random positions, not good randomness.
#[cfg(test)]
pub fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    }
}

/// The conformance kit from the positions written in `starts`, with
/// `playouts` random games from each: what every game's test runs.
#[cfg(test)]
pub fn conformance_from<G: ply_core::Notation + ply_core::Searchable>(
    game: &G,
    starts: &[&str],
    playouts: usize,
) -> ply_core::conformance::Summary {
    let starts = starts
        .iter()
        .map(|t| game.parse_position(t).expect("a start position parses"))
        .collect();
    let config = ply_core::conformance::Config {
        starts,
        playouts,
        ..Default::default()
    };
    ply_core::conformance::check(game, &config).unwrap_or_else(|e| panic!("{e}"))
}
