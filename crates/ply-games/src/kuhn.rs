//! Kuhn poker (Kuhn 1950), the textbook game of hidden information: a deck
//! of three cards (J, Q, K), one card each, an ante of 1; MAX acts first.
//! Pass or bet 1; after a pass the other may pass (showdown for the antes)
//! or bet; facing a bet a player folds (passes) or calls (bets). The higher
//! card wins a showdown. The first player's value is -1/18 at every
//! equilibrium. The rules and deal order are OpenSpiel's `kuhn_poker`.
//!
//! Position notation: the cards dealt, MAX's then MIN's, then `:` and the
//! actions: `KQ:pb` is MAX holding the king, MIN the queen, MAX passed and
//! MIN bet. `` (empty) is the deal, `K` the moment after MAX's card. Moves:
//! `p` (pass: check or fold) and `b` (bet: bet or call); the deal's
//! outcomes are the cards `J`, `Q`, `K`. An information set is what the
//! mover sees: `Q:pb`, their card and the actions.

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};

use crate::poker::{self, PokerMove, PokerState, Rules, Style};

/// Kuhn poker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kuhn;

const RULES: Rules = Rules {
    ranks: 3,
    suits: 1,
    rounds: 1,
    ante: 1,
    bets: [1, 1],
    max_raises: 1,
};

impl Kuhn {
    /// Whether the mover faces a bet (pass then folds, bet calls).
    fn facing_bet(s: &PokerState) -> bool {
        let stakes = RULES.stakes(s);
        stakes[0] != stakes[1]
    }
}

poker::poker_game!(Kuhn);

impl Style for Kuhn {
    const ACTIONS: &'static str = "p (pass) or b (bet)";

    fn rules(&self) -> Rules {
        RULES
    }

    fn card(&self, c: u8) -> String {
        ["J", "Q", "K"][usize::from(c)].to_string()
    }

    fn parse_card(&self, text: &str) -> Option<u8> {
        ["J", "Q", "K"]
            .iter()
            .position(|n| n.eq_ignore_ascii_case(text))
            .map(|i| i as u8)
    }

    fn card_len(&self) -> usize {
        1
    }

    fn letter(&self, s: &PokerState, a: PokerMove) -> char {
        match a {
            PokerMove::Raise => 'b',
            PokerMove::Call if Kuhn::facing_bet(s) => 'b',
            PokerMove::Deal(_) => '?',
            _ => 'p',
        }
    }

    fn parse_action(&self, s: &PokerState, text: &str) -> Option<PokerMove> {
        let facing = Kuhn::facing_bet(s);
        match text.to_ascii_lowercase().as_str() {
            "p" | "pass" | "check" => Some(PokerMove::Call),
            "fold" | "f" if facing => Some(PokerMove::Fold),
            "b" | "bet" | "call" | "c" => Some(PokerMove::Raise),
            _ => None,
        }
        .map(|a| match (a, facing) {
            (PokerMove::Call, true) => PokerMove::Fold,
            (PokerMove::Raise, true) => PokerMove::Call,
            (a, _) => a,
        })
    }
}

impl Registered for Kuhn {
    const SPEC: GameSpec = GameSpec {
        default_position: "",
        ..GameSpec::new(
            "kuhn",
            "Kuhn poker: three cards (J Q K), one each, ante 1; pass or bet 1, facing a bet fold or call; the higher card wins; hidden information (solve with --algo cfr+)",
            "the cards dealt, MAX's then MIN's, then : and the actions, e.g. KQ:pb (empty: the deal)",
            "p (pass: check or fold) or b (bet: bet or call); the deal's outcomes are the cards J, Q, K",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Kuhn)
    }
}
