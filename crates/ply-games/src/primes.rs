//! The prime game (the lesson's `ab-prime-game`, removing prime divisors):
//! a list of positive integers; a move picks a number n > 1 and a prime p
//! dividing it, and divides n by p^k for some k >= 1 with p^k dividing n;
//! the player who cannot move (every number is 1) loses.
//!
//! Theory: each prime's exponent in each number is a Nim heap (a move takes
//! some of one heap), so the nimber is the XOR of all the exponents:
//! `12 18` = 2²·3 · 2·3² has 2 ⊕ 1 ⊕ 1 ⊕ 2 = 0, and the mover loses.
//!
//! Position notation: the numbers separated by spaces, in any order
//! (printed smallest first), `/min` when MIN is to move (`12 18`). A move
//! is `n:p^k` (`12:2^2` leaves 3), or `n:p` for k = 1.

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};
use ply_core::{Game, Impartial, MaxScore, Notation, ParseError, Player};

use crate::common::{normal_play, numbers, split_side, with_side};

/// The largest number a position may hold.
pub const MAX_NUMBER: u64 = 1_000_000_000_000;
/// The most numbers a position may hold.
pub const MAX_NUMBERS: usize = 32;

/// The prime game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Primes;

/// The numbers, smallest first (a multiset), and who moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Numbers {
    /// The numbers, sorted.
    pub numbers: Vec<u64>,
    /// Who is to move.
    pub to_move: Player,
}

/// Divide `n` by `p^k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divide {
    /// The number divided.
    pub n: u64,
    /// The prime.
    pub p: u64,
    /// Its power taken out, at least 1.
    pub k: u8,
}

/// The prime factors of `n` with their exponents, smallest prime first.
pub fn factorize(mut n: u64) -> Vec<(u64, u8)> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        let mut e = 0;
        while n.is_multiple_of(p) {
            n /= p;
            e += 1;
        }
        if e > 0 {
            out.push((p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

impl Game for Primes {
    type State = Numbers;
    type Move = Divide;

    fn initial_state(&self) -> Numbers {
        Numbers {
            numbers: vec![12, 18],
            to_move: Player::Max,
        }
    }

    fn to_move(&self, s: &Numbers) -> Player {
        s.to_move
    }

    /// Each distinct number above 1, smallest first; its primes, smallest
    /// first; each power.
    fn legal_moves(&self, s: &Numbers, moves: &mut Vec<Divide>) {
        let mut last = 1;
        for &n in &s.numbers {
            if n != last {
                for (p, e) in factorize(n) {
                    moves.extend((1..=e).map(|k| Divide { n, p, k }));
                }
                last = n;
            }
        }
    }

    fn play(&self, s: &Numbers, mv: Divide) -> Numbers {
        let mut numbers = s.numbers.clone();
        if let Some(i) = numbers.iter().position(|&x| x == mv.n) {
            numbers.remove(i);
        }
        let m = mv.n / mv.p.pow(u32::from(mv.k));
        numbers.insert(numbers.partition_point(|&x| x < m), m);
        Numbers {
            numbers,
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &Numbers) -> bool {
        s.numbers.iter().all(|&n| n == 1)
    }

    fn utility(&self, s: &Numbers) -> MaxScore {
        normal_play(s.to_move)
    }
}

ply_core::no_hooks!(Primes: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Learn);

/// Impartial, and a sum of its numbers.
impl Impartial for Primes {
    const IMPARTIAL: bool = true;

    fn components(&self, s: &Numbers, parts: &mut Vec<Numbers>) -> bool {
        let big: Vec<u64> = s.numbers.iter().copied().filter(|&n| n > 1).collect();
        if big.len() == s.numbers.len() && big.len() <= 1 {
            return false;
        }
        parts.extend(big.iter().map(|&n| Numbers {
            numbers: vec![n],
            to_move: s.to_move,
        }));
        true
    }
}

impl Registered for Primes {
    const SPEC: GameSpec = GameSpec {
        default_position: "12 18",
        ..GameSpec::new(
            "primes",
            "positive integers; a move divides one of them by a power p^k of a prime dividing it; who cannot move (all are 1) loses",
            "numbers separated by spaces (printed smallest first), optionally /min (12 18)",
            "n:p^k, e.g. 12:2^2 (12 becomes 3); n:p for k = 1",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Primes)
    }
}

impl Notation for Primes {
    fn parse_position(&self, text: &str) -> Result<Numbers, ParseError> {
        let (body, to_move) = split_side(text.trim())?;
        let mut numbers = numbers(body, "a number", 1, MAX_NUMBER)?;
        if numbers.len() > MAX_NUMBERS {
            return Err(ParseError::new(format!("at most {MAX_NUMBERS} numbers")));
        }
        numbers.sort_unstable();
        Ok(Numbers { numbers, to_move })
    }

    fn format_position(&self, s: &Numbers) -> String {
        let n: Vec<String> = s.numbers.iter().map(u64::to_string).collect();
        with_side(n.join(" "), s.to_move)
    }

    fn parse_move(&self, _: &Numbers, text: &str) -> Result<Divide, ParseError> {
        let bad = || {
            ParseError::new(format!(
                "'{text}' is not a move: write n:p^k, e.g. 12:2^2, or n:p"
            ))
        };
        let (n, power) = text.trim().split_once(':').ok_or_else(bad)?;
        let (p, k) = power.split_once('^').unwrap_or((power, "1"));
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        let p: u64 = p.trim().parse().map_err(|_| bad())?;
        let k: u8 = k.trim().parse().map_err(|_| bad())?;
        if k == 0 || p < 2 {
            return Err(bad());
        }
        Ok(Divide { n, p, k })
    }

    fn format_move(&self, _: &Numbers, mv: Divide) -> String {
        if mv.k == 1 {
            format!("{}:{}", mv.n, mv.p)
        } else {
            format!("{}:{}^{}", mv.n, mv.p, mv.k)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::observe::NoObserver;
    use ply_core::search::{SearchOptions, alphabeta, minimax, nimber};

    fn position(n: &[u64]) -> Numbers {
        let mut numbers = n.to_vec();
        numbers.sort_unstable();
        Numbers {
            numbers,
            to_move: Player::Max,
        }
    }

    /// The XOR of every prime exponent of every number.
    fn exponents_xor(n: &[u64]) -> u32 {
        n.iter()
            .flat_map(|&x| factorize(x))
            .fold(0, |a, (_, e)| a ^ u32::from(e))
    }

    #[test]
    fn the_lesson_example_is_lost_for_the_mover() {
        let s = position(&[12, 18]);
        assert_eq!(exponents_xor(&[12, 18]), 0);
        let v = minimax(&Primes, &s, &SearchOptions::exact(), &mut NoObserver).unwrap();
        assert_eq!(v.value.0, -1);
        assert_eq!(nimber(&Primes, &s).unwrap().nimber, 0);
    }

    /// The nimber is the XOR of the exponents: against alpha-beta on small
    /// positions, the nimber search on ten numbers at once.
    #[test]
    fn nimbers_are_the_xor_of_the_exponents() {
        let mut next = crate::common::xorshift(0x9e3779b97f4a7c15);
        let table = SearchOptions {
            tt_mb: 4,
            ..SearchOptions::default()
        };
        for _ in 0..60 {
            let n: Vec<u64> = (0..1 + next(3)).map(|_| 1 + next(200)).collect();
            let s = position(&n);
            let x = exponents_xor(&n);
            let v = alphabeta(&Primes, &s, &table, &mut NoObserver).unwrap();
            assert_eq!(v.value.0 == 1, x != 0, "alpha-beta on {n:?}");
            assert_eq!(nimber(&Primes, &s).unwrap().nimber, x, "{n:?}");
        }
        for _ in 0..20 {
            let n: Vec<u64> = (0..10).map(|_| 1 + next(1_000_000_000)).collect();
            assert_eq!(nimber(&Primes, &position(&n)).unwrap().nimber, exponents_xor(&n));
        }
    }

    #[test]
    fn conformance_kit() {
        let starts = ["12 18", "60", "8 9 10"];
        let summary = crate::common::conformance_from(&Primes, &starts, 30);
        assert!(summary.nimbers > 50, "{summary:?}");
    }

    #[test]
    fn notation_and_bad_input() {
        let s = Primes.parse_position("18 12/min").unwrap();
        assert_eq!(Primes.format_position(&s), "12 18/min");
        let mv = Primes.parse_move(&s, "12:2^2").unwrap();
        assert_eq!(Primes.format_position(&Primes.play(&s, mv)), "3 18");
        let e = Primes.parse_position("12 0").unwrap_err();
        assert!(e.message.contains("out of range") && e.column == Some(4), "{e}");
        assert!(Primes.parse_position("").is_err());
        assert!(Primes.parse_move(&s, "12:2^0").is_err());
        assert_eq!(factorize(360), [(2, 3), (3, 2), (5, 1)]);
    }
}
