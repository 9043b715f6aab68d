//! The divisor game (the lesson's `ab-divisor`): a number n; a move picks a
//! divisor x of n with 0 < x < n and replaces n by n - x; the player who
//! cannot move (n = 1) loses.
//!
//! Theory: the first player wins exactly when n is even. From an even n,
//! taking 1 leaves an odd number; every divisor of an odd number is odd, so
//! from odd n every move leaves an even number, and 1 (the loss) is odd.
//!
//! Position notation: `n`, then `/min` when MIN is to move (`12`,
//! `12/min`). A move is the divisor taken (`3`: 12 becomes 9).

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};
use ply_core::{Game, Impartial, MaxScore, Notation, ParseError, Player};

use crate::common::{normal_play, numbers, split_side, with_side};

/// The largest n a position may start from.
pub const MAX_N: u64 = 1_000_000;

/// The divisor game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Divisor;

/// A number and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DivisorState {
    /// The number.
    pub n: u32,
    /// Who is to move.
    pub to_move: Player,
}

impl Game for Divisor {
    type State = DivisorState;
    type Move = u32;

    fn initial_state(&self) -> DivisorState {
        DivisorState {
            n: 12,
            to_move: Player::Max,
        }
    }

    fn to_move(&self, s: &DivisorState) -> Player {
        s.to_move
    }

    /// The proper divisors of n, smallest first.
    fn legal_moves(&self, s: &DivisorState, moves: &mut Vec<u32>) {
        let n = s.n;
        let mut large = Vec::new();
        let mut x = 1;
        while x * x <= n {
            if n.is_multiple_of(x) {
                moves.push(x);
                let y = n / x;
                if y != x && y != n {
                    large.push(y);
                }
            }
            x += 1;
        }
        moves.retain(|&x| x < n);
        moves.extend(large.iter().rev());
    }

    fn play(&self, s: &DivisorState, x: u32) -> DivisorState {
        DivisorState {
            n: s.n - x,
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &DivisorState) -> bool {
        s.n <= 1
    }

    fn utility(&self, s: &DivisorState) -> MaxScore {
        normal_play(s.to_move)
    }
}

ply_core::no_hooks!(Divisor: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Learn);

/// Both players have the same moves; who cannot move loses.
impl Impartial for Divisor {
    const IMPARTIAL: bool = true;
}

impl Registered for Divisor {
    const SPEC: GameSpec = GameSpec {
        default_position: "12",
        ..GameSpec::new(
            "divisor",
            "a number n; a move picks a divisor x of n with 0 < x < n and leaves n - x; who cannot move (n = 1) loses",
            "n, optionally /min for MIN to move (12, 12/min)",
            "the divisor taken (3: 12 becomes 9)",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Divisor)
    }
}

impl Notation for Divisor {
    fn parse_position(&self, text: &str) -> Result<DivisorState, ParseError> {
        let (body, to_move) = split_side(text.trim())?;
        let n = numbers(body, "a number", 1, MAX_N)?;
        if n.len() > 1 {
            return Err(ParseError::new("the divisor game has one number"));
        }
        Ok(DivisorState {
            n: n[0] as u32,
            to_move,
        })
    }

    fn format_position(&self, s: &DivisorState) -> String {
        with_side(s.n.to_string(), s.to_move)
    }

    fn parse_move(&self, _: &DivisorState, text: &str) -> Result<u32, ParseError> {
        text.trim()
            .parse()
            .map_err(|_| ParseError::new(format!("'{text}' is not a divisor (a whole number)")))
    }

    fn format_move(&self, _: &DivisorState, x: u32) -> String {
        x.to_string()
    }

    fn draw(&self, s: &DivisorState) -> String {
        format!("n = {} ({} to move)", s.n, s.to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::observe::NoObserver;
    use ply_core::search::{SearchOptions, alphabeta, minimax, nimber};

    #[test]
    fn conformance_kit() {
        let starts: Vec<String> = (1..=40).map(|n| n.to_string()).collect();
        let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
        let summary = crate::common::conformance_from(&Divisor, &starts, 5);
        assert!(summary.values > 100, "{summary:?}");
    }

    /// The first player wins exactly when n is even: minimax on small n,
    /// alpha-beta with a table and the nimber search much further.
    #[test]
    fn the_first_player_wins_exactly_on_even_numbers() {
        let table = SearchOptions {
            tt_mb: 4,
            ..SearchOptions::default()
        };
        for n in 1..=300 {
            let s = DivisorState {
                n,
                to_move: Player::Max,
            };
            let expect = if n % 2 == 0 { 1 } else { -1 };
            if n <= 20 {
                let v = minimax(&Divisor, &s, &SearchOptions::exact(), &mut NoObserver);
                assert_eq!(v.unwrap().value.0, expect, "minimax, n = {n}");
            }
            let v = alphabeta(&Divisor, &s, &table, &mut NoObserver).unwrap();
            assert_eq!(v.value.0, expect, "alpha-beta, n = {n}");
            let g = nimber(&Divisor, &s).unwrap();
            assert_eq!(g.nimber != 0, n % 2 == 0, "nimber, n = {n}");
        }
    }

    #[test]
    fn divisors_and_bad_input() {
        let mut moves = Vec::new();
        Divisor.legal_moves(&Divisor.parse_position("12").unwrap(), &mut moves);
        assert_eq!(moves, [1, 2, 3, 4, 6]);
        let e = Divisor.parse_position("0").unwrap_err();
        assert!(e.message.contains("out of range") && e.column == Some(1), "{e}");
        assert!(Divisor.parse_position("x").unwrap_err().message.contains("'x'"));
        assert!(Divisor.parse_position("").is_err());
        assert!(Divisor.parse_position("12/foo").unwrap_err().column == Some(4));
    }
}
