//! Grundy's game (the lesson's `ab-stone-div`, dividing stones): heaps of
//! stones; a move splits one heap into two non-empty heaps of different
//! sizes; the player who cannot move (every heap has 1 or 2 stones) loses.
//!
//! Theory: a heap's nimber is OEIS A002188 (0, 0, 0, 1, 0, 2, 1, 0, 2, ...);
//! the heaps are independent, so the first player wins exactly when the XOR
//! of their nimbers is not 0. The nimber search splits a position into its
//! heaps ([`Impartial::components`]) and solves `40 50 60` at once.
//!
//! Position notation: heap sizes separated by spaces, in any order (printed
//! smallest first), `/min` when MIN is to move (`7`, `3 5 9/min`). A move
//! is `7=3+4` (the heap of 7 into 3 and 4; `7:3` is read the same).

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};
use ply_core::{Game, Impartial, MaxScore, Notation, ParseError, Player};

use crate::common::{normal_play, numbers, split_side, with_side};

/// The largest heap a position may have.
pub const MAX_HEAP: u64 = 1000;
/// The most heaps a position may have.
pub const MAX_HEAPS: usize = 64;

/// Grundy's game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grundy;

/// Heap sizes, smallest first (a multiset: the order carries nothing).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Heaps {
    /// The sizes, sorted.
    pub heaps: Vec<u16>,
    /// Who is to move.
    pub to_move: Player,
}

/// A split: a heap of `heap` stones into `part` and `heap - part`, `part`
/// the smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The heap split.
    pub heap: u16,
    /// The smaller of the two new heaps.
    pub part: u16,
}

impl Game for Grundy {
    type State = Heaps;
    type Move = Split;

    fn initial_state(&self) -> Heaps {
        Heaps {
            heaps: vec![7],
            to_move: Player::Max,
        }
    }

    fn to_move(&self, s: &Heaps) -> Player {
        s.to_move
    }

    /// Each distinct heap of 3 or more, smallest first, split every way.
    fn legal_moves(&self, s: &Heaps, moves: &mut Vec<Split>) {
        let mut last = 0;
        for &heap in &s.heaps {
            if heap != last {
                moves.extend((1..heap.div_ceil(2)).map(|part| Split { heap, part }));
                last = heap;
            }
        }
    }

    fn play(&self, s: &Heaps, mv: Split) -> Heaps {
        let mut heaps = s.heaps.clone();
        if let Some(i) = heaps.iter().position(|&h| h == mv.heap) {
            heaps.remove(i);
        }
        for h in [mv.part, mv.heap - mv.part] {
            let at = heaps.partition_point(|&x| x < h);
            heaps.insert(at, h);
        }
        Heaps {
            heaps,
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &Heaps) -> bool {
        s.heaps.iter().all(|&h| h < 3)
    }

    fn utility(&self, s: &Heaps) -> MaxScore {
        normal_play(s.to_move)
    }
}

ply_core::no_hooks!(Grundy: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Learn);

/// Impartial, and a sum of its heaps.
impl Impartial for Grundy {
    const IMPARTIAL: bool = true;

    fn components(&self, s: &Heaps, parts: &mut Vec<Heaps>) -> bool {
        // Heaps of 1 or 2 are worth 0: leave them out.
        let big: Vec<u16> = s.heaps.iter().copied().filter(|&h| h >= 3).collect();
        if big.len() == s.heaps.len() && big.len() <= 1 {
            return false;
        }
        parts.extend(big.iter().map(|&h| Heaps {
            heaps: vec![h],
            to_move: s.to_move,
        }));
        true
    }
}

impl Registered for Grundy {
    const SPEC: GameSpec = GameSpec {
        default_position: "7",
        ..GameSpec::new(
            "grundy",
            "Grundy's game: heaps of stones; a move splits one heap into two non-empty heaps of different sizes; who cannot move loses",
            "heap sizes separated by spaces (printed smallest first), optionally /min (7, 3 5 9/min)",
            "heap=part+part, e.g. 7=3+4 (7:3 also reads)",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Grundy)
    }
}

impl Notation for Grundy {
    fn parse_position(&self, text: &str) -> Result<Heaps, ParseError> {
        let (body, to_move) = split_side(text.trim())?;
        let sizes = numbers(body, "a heap size", 1, MAX_HEAP)?;
        if sizes.len() > MAX_HEAPS {
            return Err(ParseError::new(format!("at most {MAX_HEAPS} heaps")));
        }
        let mut heaps: Vec<u16> = sizes.iter().map(|&h| h as u16).collect();
        heaps.sort_unstable();
        Ok(Heaps { heaps, to_move })
    }

    fn format_position(&self, s: &Heaps) -> String {
        let sizes: Vec<String> = s.heaps.iter().map(u16::to_string).collect();
        with_side(sizes.join(" "), s.to_move)
    }

    fn parse_move(&self, _: &Heaps, text: &str) -> Result<Split, ParseError> {
        let bad = || {
            ParseError::new(format!(
                "'{text}' is not a split: write heap=part+part, e.g. 7=3+4"
            ))
        };
        let t = text.trim();
        let (heap, rest) = t.split_once(['=', ':']).ok_or_else(bad)?;
        let heap: u16 = heap.trim().parse().map_err(|_| bad())?;
        let first = rest.split('+').next().unwrap_or("");
        let a: u16 = first.trim().parse().map_err(|_| bad())?;
        if a == 0 || a >= heap {
            return Err(bad());
        }
        if let Some((_, b)) = rest.split_once('+') {
            let b: u16 = b.trim().parse().map_err(|_| bad())?;
            if a.checked_add(b) != Some(heap) {
                return Err(ParseError::new(format!("{a} + {b} is not {heap}")));
            }
        }
        Ok(Split {
            heap,
            part: a.min(heap - a),
        })
    }

    fn format_move(&self, _: &Heaps, mv: Split) -> String {
        format!("{}={}+{}", mv.heap, mv.part, mv.heap - mv.part)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::observe::NoObserver;
    use ply_core::search::{Nimbers, SearchOptions, alphabeta, minimax};

    /// OEIS A002188: the nimbers of single heaps of 0, 1, 2, ... stones.
    const A002188: [u32; 30] = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
    ];

    fn heaps(h: &[u16]) -> Heaps {
        let mut heaps = h.to_vec();
        heaps.sort_unstable();
        Heaps {
            heaps,
            to_move: Player::Max,
        }
    }

    #[test]
    fn single_heaps_have_the_published_nimbers() {
        let mut search = Nimbers::new(&Grundy).unwrap();
        for (n, &g) in A002188.iter().enumerate().skip(1) {
            assert_eq!(search.nimber(&heaps(&[n as u16])), g, "heap of {n}");
        }
    }

    /// The first player wins exactly when the XOR of the heaps' nimbers is
    /// not 0: alpha-beta on small positions (minimax on the smallest), the
    /// nimber search without splitting on larger ones.
    #[test]
    fn sums_follow_sprague_grundy() {
        let mut next = crate::common::xorshift(0x2545f4914f6cdd1d);
        let table = SearchOptions {
            tt_mb: 4,
            ..SearchOptions::default()
        };
        let mut whole = Nimbers::new(&Grundy).unwrap();
        whole.split = false;
        for round in 0..60 {
            let count = 1 + next(3) as usize;
            let h: Vec<u16> = (0..count).map(|_| 1 + next(11) as u16).collect();
            let s = heaps(&h);
            let xor = h.iter().fold(0, |x, &n| x ^ A002188[n as usize]);
            let v = alphabeta(&Grundy, &s, &table, &mut NoObserver).unwrap().value.0;
            assert_eq!(v == 1, xor != 0, "alpha-beta on {h:?}");
            if round < 15 && h.iter().map(|&n| n as u32).sum::<u32>() <= 14 {
                let m = minimax(&Grundy, &s, &SearchOptions::exact(), &mut NoObserver);
                assert_eq!(m.unwrap().value.0, v, "minimax on {h:?}");
            }
            assert_eq!(whole.nimber(&s), xor, "unsplit nimber of {h:?}");
        }
    }

    #[test]
    fn big_sums_are_solved_at_once() {
        let r = ply_core::search::nimber(&Grundy, &heaps(&[40, 50, 60])).unwrap();
        let mut single = Nimbers::new(&Grundy).unwrap();
        let parts: u32 = [40, 50, 60]
            .iter()
            .fold(0, |x, &n| x ^ single.nimber(&heaps(&[n])));
        assert_eq!(r.nimber, parts);
        assert!(r.computed < 5_000, "{} positions", r.computed);
    }

    #[test]
    fn conformance_kit() {
        let starts = ["7", "3 5 9", "12", "4 4 6"];
        let summary = crate::common::conformance_from(&Grundy, &starts, 30);
        assert!(summary.values > 50, "{summary:?}");
    }

    #[test]
    fn notation_and_bad_input() {
        let s = Grundy.parse_position("9 3 5/min").unwrap();
        assert_eq!(Grundy.format_position(&s), "3 5 9/min");
        assert_eq!(
            Grundy.parse_move(&s, "7:3").unwrap(),
            Grundy.parse_move(&s, "7=4+3").unwrap()
        );
        let e = Grundy.parse_position("3 0 5").unwrap_err();
        assert!(e.message.contains("out of range") && e.column == Some(3), "{e}");
        assert!(Grundy.parse_position("3 x").unwrap_err().column == Some(3));
        assert!(Grundy.parse_move(&s, "7=3+5").is_err());
        assert!(Grundy.parse_move(&s, "7=0+7").is_err());
    }
}
