//! Leduc hold'em (Southey et al. 2005), the small poker of the research
//! papers: six cards (two each of J, Q, K), an ante of 1, one private card
//! each, a betting round, one public card, a second round. Bets are 2 in
//! the first round and 4 in the second, at most two raises a round (a bet
//! and a raise); fold only facing a bet. At showdown a pair with the
//! public card wins, else the higher card; equal ranks split. MAX opens
//! both rounds. The rules and deal order are OpenSpiel's `leduc_poker`.
//!
//! Cards are written rank then suit: `Js Jh Qs Qh Ks Kh` (OpenSpiel's
//! cards 0 to 5). Position notation: MAX's card and MIN's, `:` and the
//! first round's actions, then `/`, the public card, `:` and the second
//! round's: `KsQh:crrc/Jh:cr`. Moves: `f` (fold), `c` (check or call),
//! `r` (bet or raise); the deal's outcomes are cards. An information set
//! is what the mover sees: `Ks:crrc/Jh:c`.

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};

use crate::poker::{self, PokerMove, PokerState, Rules, Style};

/// Leduc hold'em.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Leduc;

const RULES: Rules = Rules {
    ranks: 3,
    suits: 2,
    rounds: 2,
    ante: 1,
    bets: [2, 4],
    max_raises: 2,
};

poker::poker_game!(Leduc);

impl Style for Leduc {
    const ACTIONS: &'static str = "f (fold), c (check or call) or r (bet or raise)";

    fn rules(&self) -> Rules {
        RULES
    }

    fn card(&self, c: u8) -> String {
        format!("{}{}", ["J", "Q", "K"][usize::from(c / 2)], ["s", "h"][usize::from(c % 2)])
    }

    fn parse_card(&self, text: &str) -> Option<u8> {
        let t = text.to_ascii_lowercase();
        let mut chars = t.chars();
        let rank = "jqk".find(chars.next()?)? as u8;
        let suit = "sh".find(chars.next()?)? as u8;
        chars.next().is_none().then_some(rank * 2 + suit)
    }

    fn card_len(&self) -> usize {
        2
    }

    fn letter(&self, _: &PokerState, a: PokerMove) -> char {
        match a {
            PokerMove::Fold => 'f',
            PokerMove::Call => 'c',
            PokerMove::Raise => 'r',
            PokerMove::Deal(_) => '?',
        }
    }

    fn parse_action(&self, _: &PokerState, text: &str) -> Option<PokerMove> {
        match text.to_ascii_lowercase().as_str() {
            "f" | "fold" => Some(PokerMove::Fold),
            "c" | "call" | "check" | "k" => Some(PokerMove::Call),
            "r" | "raise" | "bet" | "b" => Some(PokerMove::Raise),
            _ => None,
        }
    }
}

impl Registered for Leduc {
    const SPEC: GameSpec = GameSpec {
        default_position: "",
        ..GameSpec::new(
            "leduc",
            "Leduc hold'em: six cards (two each of J Q K), ante 1, one private card each, a betting round (bets of 2), a public card, a second round (bets of 4), at most two raises a round; a pair with the board wins, else the higher card; hidden information (solve with --algo cfr+)",
            "MAX's card and MIN's, : and the first round's actions, / the public card, : the second round's, e.g. KsQh:crrc/Jh:cr (empty: the deal)",
            "f (fold), c (check or call), r (bet or raise); the deal's outcomes are cards Js Jh Qs Qh Ks Kh",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Leduc)
    }
}
