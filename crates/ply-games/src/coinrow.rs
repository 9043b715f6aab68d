//! The coin row (the lesson's `ab-coin-pick`): a row of coins with positive
//! values; a move takes the leftmost (`L`) or the rightmost (`R`) coin; the
//! game ends when the row is empty. The utility is MAX's total minus MIN's.
//!
//! Theory: an interval dynamic program gives the exact value (the best
//! difference the mover can secure from coins i..j); and with an even number
//! of coins the first player never loses (colour the coins alternately: the
//! first player can take all of one colour, the heavier).
//!
//! Position notation: the values separated by spaces (`10 30 5 8`, MAX to
//! move, difference 0); a signed number after them is the difference so far,
//! MAX's total minus MIN's (`5 8 +25`), and `/min` says MIN is to move. The
//! empty row, the game over, is just the difference (`+23`, `+0`). With one
//! coin left, `L` and `R` take the same coin.

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};
use ply_core::{Game, MaxScore, Notation, ParseError, Player};

use crate::common::{split_side, with_side};

/// The largest coin value.
pub const MAX_COIN: u64 = 10_000;
/// The most coins in a row.
pub const MAX_COINS: usize = 64;

/// The coin row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoinRow;

/// The coins left, the difference so far and who moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// The coins left, left to right.
    pub coins: Vec<u16>,
    /// MAX's total minus MIN's so far.
    pub diff: i32,
    /// Who is to move.
    pub to_move: Player,
}

/// Which end a coin is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The leftmost coin.
    Left,
    /// The rightmost coin.
    Right,
}

impl Game for CoinRow {
    type State = Row;
    type Move = End;

    fn initial_state(&self) -> Row {
        Row {
            coins: vec![10, 30, 5, 8],
            diff: 0,
            to_move: Player::Max,
        }
    }

    fn to_move(&self, s: &Row) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &Row, moves: &mut Vec<End>) {
        if !s.coins.is_empty() {
            moves.extend([End::Left, End::Right]);
        }
    }

    fn play(&self, s: &Row, mv: End) -> Row {
        let mut coins = s.coins.clone();
        let coin = match mv {
            End::Left => coins.remove(0),
            End::Right => coins.pop().unwrap_or(0),
        };
        Row {
            coins,
            diff: s.diff + i32::from(coin) * s.to_move.sign(),
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &Row) -> bool {
        s.coins.is_empty()
    }

    fn utility(&self, s: &Row) -> MaxScore {
        MaxScore(s.diff)
    }
}

ply_core::no_hooks!(CoinRow: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Impartial, Learn);

impl Registered for CoinRow {
    const SPEC: GameSpec = GameSpec {
        default_position: "10 30 5 8",
        ..GameSpec::new(
            "coinrow",
            "a row of coins; a move takes the leftmost (L) or rightmost (R) coin; the value is MAX's total minus MIN's",
            "coin values separated by spaces, then optionally the signed difference so far (MAX's total minus MIN's) and /min (10 30 5 8, 5 8 +25/min)",
            "L (the leftmost coin) or R (the rightmost)",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(CoinRow)
    }
}

impl Notation for CoinRow {
    fn parse_position(&self, text: &str) -> Result<Row, ParseError> {
        let (body, to_move) = split_side(text.trim())?;
        let mut coins = Vec::new();
        let mut diff = None;
        let mut column = 1;
        for word in body.split(' ') {
            if !word.is_empty() {
                let at = |m: String| ParseError::at(column, m);
                if diff.is_some() {
                    return Err(at(format!("'{word}' after the difference: it comes last")));
                }
                if word.starts_with(['+', '-']) {
                    let d: i32 = word.parse().map_err(|_| {
                        at(format!("'{word}' is not a difference (a signed whole number)"))
                    })?;
                    diff = Some(d);
                } else {
                    let v: u64 = word.parse().map_err(|_| {
                        at(format!("'{word}' is not a coin value (a whole number)"))
                    })?;
                    if !(1..=MAX_COIN).contains(&v) {
                        return Err(at(format!("coin value {v} must be from 1 to {MAX_COIN}")));
                    }
                    coins.push(v as u16);
                }
            }
            column += word.chars().count() + 1;
        }
        if coins.is_empty() && diff.is_none() {
            return Err(ParseError::new(
                "an empty row: write coin values separated by spaces, e.g. 10 30 5 8",
            ));
        }
        if coins.len() > MAX_COINS {
            return Err(ParseError::new(format!("at most {MAX_COINS} coins")));
        }
        let diff = diff.unwrap_or(0);
        if diff.unsigned_abs() > (MAX_COIN * MAX_COINS as u64) as u32 {
            return Err(ParseError::new(format!("the difference {diff} is too large")));
        }
        Ok(Row {
            coins,
            diff,
            to_move,
        })
    }

    fn format_position(&self, s: &Row) -> String {
        let mut words: Vec<String> = s.coins.iter().map(u16::to_string).collect();
        if s.diff != 0 || s.coins.is_empty() {
            words.push(format!("{:+}", s.diff));
        }
        with_side(words.join(" "), s.to_move)
    }

    fn parse_move(&self, _: &Row, text: &str) -> Result<End, ParseError> {
        match text.trim().to_ascii_uppercase().as_str() {
            "L" => Ok(End::Left),
            "R" => Ok(End::Right),
            _ => Err(ParseError::new(format!(
                "'{text}' is not a move: L (leftmost coin) or R (rightmost)"
            ))),
        }
    }

    fn format_move(&self, _: &Row, mv: End) -> String {
        match mv {
            End::Left => "L".into(),
            End::Right => "R".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::observe::NoObserver;
    use ply_core::search::{SearchOptions, alphabeta, minimax};

    fn row(text: &str) -> Row {
        CoinRow.parse_position(text).unwrap()
    }

    fn value(s: &Row) -> i32 {
        alphabeta(&CoinRow, s, &SearchOptions::exact(), &mut NoObserver)
            .unwrap()
            .value
            .0
    }

    /// The interval dynamic program: the best difference the player to move
    /// can secure from coins i..=j.
    fn dp(coins: &[u16]) -> i32 {
        let n = coins.len();
        let mut best = vec![vec![0i32; n]; n];
        for len in 1..=n {
            for i in 0..=n - len {
                let j = i + len - 1;
                let take = |c: u16| i32::from(c);
                best[i][j] = if len == 1 {
                    take(coins[i])
                } else {
                    (take(coins[i]) - best[i + 1][j]).max(take(coins[j]) - best[i][j - 1])
                };
            }
        }
        best[0][n - 1]
    }

    #[test]
    fn the_lessons_rows() {
        for (text, v) in [
            ("10 30 5 8", 23),
            ("4 4 9 4", 5),
            ("8 15 3 7", 11),
            ("2 2 2 2", 0),
            ("20 30 2 2 2 10", 18),
        ] {
            let s = row(text);
            assert_eq!(value(&s), v, "{text}");
            let m = minimax(&CoinRow, &s, &SearchOptions::exact(), &mut NoObserver);
            assert_eq!(m.unwrap().value.0, v, "minimax on {text}");
        }
    }

    /// Against the interval program on random rows; an even row never loses
    /// for the first player; MIN to move and a difference so far shift it.
    #[test]
    fn random_rows_match_the_interval_program() {
        let mut next = crate::common::xorshift(0x123456789abcdef1);
        let table = SearchOptions {
            tt_mb: 4,
            ..SearchOptions::default()
        };
        for _ in 0..100 {
            let n = 1 + next(12) as usize;
            let coins: Vec<u16> = (0..n).map(|_| 1 + next(50) as u16).collect();
            let s = Row {
                coins: coins.clone(),
                diff: 0,
                to_move: Player::Max,
            };
            let v = alphabeta(&CoinRow, &s, &table, &mut NoObserver).unwrap().value.0;
            assert_eq!(v, dp(&coins), "{coins:?}");
            if n.is_multiple_of(2) {
                assert!(v >= 0, "the first player loses an even row {coins:?}");
            }
            let min = Row {
                diff: 7,
                to_move: Player::Min,
                ..s
            };
            let v = alphabeta(&CoinRow, &min, &table, &mut NoObserver).unwrap().value.0;
            assert_eq!(v, 7 - dp(&coins), "{coins:?} with MIN to move");
        }
    }

    #[test]
    fn conformance_kit() {
        let starts = ["10 30 5 8", "1 2 3 4 5 6 7", "5 8 +25/min"];
        let summary = crate::common::conformance_from(&CoinRow, &starts, 30);
        assert!(summary.values > 50, "{summary:?}");
    }

    #[test]
    fn notation_and_bad_input() {
        let s = row("5 8 +25/min");
        assert_eq!((s.coins.len(), s.diff, s.to_move), (2, 25, Player::Min));
        assert_eq!(CoinRow.format_position(&s), "5 8 +25/min");
        let end = CoinRow.play(&CoinRow.play(&s, End::Left), End::Left);
        // MIN takes 5, MAX takes 8: 25 - 5 + 8.
        assert_eq!(CoinRow.format_position(&end), "+28/min");
        for (bad, column) in [("5 x", Some(3)), ("5 0", Some(3)), ("+3 5", Some(4))] {
            assert_eq!(CoinRow.parse_position(bad).unwrap_err().column, column, "{bad}");
        }
        assert!(CoinRow.parse_position("").unwrap_err().message.contains("empty row"));
        assert!(CoinRow.parse_move(&s, "M").is_err());
    }
}
