//! The betting and the cards that Kuhn and Leduc poker share: a deck of
//! `ranks × suits` cards, one private card each, an ante, one or two
//! betting rounds (a public card dealt between them), fixed bet sizes and
//! a cap on raises per round. Kuhn poker is the smallest case (three
//! cards, one round, one bet); Leduc hold'em the next (six cards, two
//! rounds, two raises a round). The rules are OpenSpiel's `kuhn_poker`
//! and `leduc_poker` (the same deal order, moves and payoffs), so the
//! trees and values can be compared with it.
//!
//! A card is a number `rank * suits + suit` (OpenSpiel's numbering): in
//! Leduc, 0 and 1 are the jacks, 2 and 3 the queens, 4 and 5 the kings.
//! MAX is the first player; every round starts with MAX.

use ply_core::{MaxScore, ParseError, Player};

/// No card dealt yet in this slot.
pub const NONE: u8 = u8::MAX;

/// The rules of one poker game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Card ranks (Kuhn: J Q K).
    pub ranks: u8,
    /// Suits (cards of equal rank).
    pub suits: u8,
    /// Betting rounds: 1, or 2 with a public card before the second.
    pub rounds: u8,
    /// What each player puts in before the cards.
    pub ante: i32,
    /// The size of a bet or raise in each round.
    pub bets: [i32; 2],
    /// Bets and raises allowed in a round (a bet is the first raise).
    pub max_raises: u8,
}

/// A move: a card dealt, or a betting action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PokerMove {
    /// Nature deals this card (to MAX, then MIN, then the board).
    Deal(u8),
    /// Give up the pot (only facing a bet).
    Fold,
    /// Match the other's stake: a check when there is nothing to match.
    Call,
    /// Put in one bet more than the other: a bet when nobody has yet.
    Raise,
}

/// A poker position: the cards dealt and the actions of each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PokerState {
    /// MAX's card, MIN's card, the public card ([`NONE`] until dealt).
    pub cards: [u8; 3],
    /// The actions of each round, in order.
    pub actions: [[PokerMove; 4]; 2],
    /// How many actions each round has.
    pub len: [u8; 2],
}

/// What the betting of a round has come to.
struct Betting {
    /// What each player has put in, ante included.
    stake: [i32; 2],
    /// Raises in the current round.
    raises: u8,
}

impl Rules {
    /// The state before any card is dealt.
    pub fn initial(&self) -> PokerState {
        PokerState {
            cards: [NONE; 3],
            actions: [[PokerMove::Call; 4]; 2],
            len: [0, 0],
        }
    }

    /// The round being bet: 1 once the public card is out.
    fn round(s: &PokerState) -> usize {
        usize::from(s.cards[2] != NONE)
    }

    /// The actions of round `r`.
    pub fn round_actions(s: &PokerState, r: usize) -> &[PokerMove] {
        &s.actions[r][..usize::from(s.len[r])]
    }

    /// Whether round `r`'s betting is over: two actions or more, the last
    /// a call (check-check, or a bet called).
    fn closed(s: &PokerState, r: usize) -> bool {
        let a = Rules::round_actions(s, r);
        a.len() >= 2 && a.last() == Some(&PokerMove::Call)
    }

    fn folded(s: &PokerState) -> bool {
        Rules::round_actions(s, Rules::round(s)).last() == Some(&PokerMove::Fold)
    }

    /// The stakes after every action so far, and the raises of the
    /// current round.
    fn betting(&self, s: &PokerState) -> Betting {
        let mut stake = [self.ante; 2];
        let mut raises = 0;
        for r in 0..=Rules::round(s) {
            raises = 0;
            for (i, &a) in Rules::round_actions(s, r).iter().enumerate() {
                let who = i % 2;
                match a {
                    PokerMove::Call => stake[who] = stake[1 - who],
                    PokerMove::Raise => {
                        stake[who] = stake[1 - who] + self.bets[r];
                        raises += 1;
                    }
                    PokerMove::Fold | PokerMove::Deal(_) => {}
                }
            }
        }
        Betting { stake, raises }
    }

    /// What each player has put in so far, ante included.
    pub fn stakes(&self, s: &PokerState) -> [i32; 2] {
        self.betting(s).stake
    }

    /// Whether nature deals next.
    pub fn is_chance(&self, s: &PokerState) -> bool {
        s.cards[0] == NONE
            || s.cards[1] == NONE
            || (self.rounds == 2 && s.cards[2] == NONE && Rules::closed(s, 0))
    }

    /// Whether the hand is over: a fold, or the last round's betting closed.
    pub fn is_terminal(&self, s: &PokerState) -> bool {
        s.cards[1] != NONE && (Rules::folded(s) || Rules::closed(s, usize::from(self.rounds) - 1))
    }

    /// Who bets next: MAX opens every round.
    pub fn to_move(s: &PokerState) -> Player {
        if s.len[Rules::round(s)].is_multiple_of(2) {
            Player::Max
        } else {
            Player::Min
        }
    }

    /// The cards still in the deck.
    fn deck(&self, s: &PokerState) -> impl Iterator<Item = u8> + '_ {
        let cards = s.cards;
        (0..self.ranks * self.suits).filter(move |c| !cards.contains(c))
    }

    /// The legal moves: the deck's cards at a chance node; else call
    /// (check), raise while the round's raises allow, fold facing a bet.
    pub fn legal_moves(&self, s: &PokerState, moves: &mut Vec<PokerMove>) {
        if self.is_terminal(s) {
            return;
        }
        if self.is_chance(s) {
            moves.extend(self.deck(s).map(PokerMove::Deal));
            return;
        }
        let b = self.betting(s);
        let me = usize::from(Rules::to_move(s) == Player::Min);
        if b.stake[1 - me] > b.stake[me] {
            moves.push(PokerMove::Fold);
        }
        moves.push(PokerMove::Call);
        if b.raises < self.max_raises {
            moves.push(PokerMove::Raise);
        }
    }

    /// Each card left, equally likely.
    pub fn chance_outcomes(&self, s: &PokerState, outcomes: &mut Vec<(PokerMove, f64)>) {
        if self.is_terminal(s) || !self.is_chance(s) {
            return;
        }
        let left = self.deck(s).count() as f64;
        outcomes.extend(self.deck(s).map(|c| (PokerMove::Deal(c), 1.0 / left)));
    }

    /// The state after `mv`.
    pub fn play(&self, s: &PokerState, mv: PokerMove) -> PokerState {
        let mut n = *s;
        match mv {
            PokerMove::Deal(c) => {
                let slot = s.cards.iter().position(|&x| x == NONE).unwrap_or(2);
                n.cards[slot] = c;
            }
            a => {
                let r = Rules::round(s);
                n.actions[r][usize::from(s.len[r])] = a;
                n.len[r] += 1;
            }
        }
        n
    }

    /// A card's rank (0 the lowest).
    pub fn rank(&self, card: u8) -> u8 {
        card / self.suits
    }

    /// The winnings of MAX at the end: the loser's stake, 0 on a tie.
    pub fn utility(&self, s: &PokerState) -> MaxScore {
        let b = self.betting(s);
        if Rules::folded(s) {
            let r = Rules::round(s);
            let folder = (usize::from(s.len[r]) - 1) % 2;
            return MaxScore(if folder == 0 { -b.stake[0] } else { b.stake[1] });
        }
        let strength = |c: u8| {
            let pair = s.cards[2] != NONE && self.rank(c) == self.rank(s.cards[2]);
            (pair, self.rank(c))
        };
        match strength(s.cards[0]).cmp(&strength(s.cards[1])) {
            std::cmp::Ordering::Greater => MaxScore(b.stake[1]),
            std::cmp::Ordering::Less => MaxScore(-b.stake[0]),
            std::cmp::Ordering::Equal => MaxScore(0),
        }
    }

    /// The largest pot a player can lose: the ante and every bet of every
    /// round at its cap.
    pub fn max_loss(&self) -> i32 {
        self.ante
            + (0..usize::from(self.rounds))
                .map(|r| self.bets[r] * i32::from(self.max_raises))
                .sum::<i32>()
    }

    /// The state after `mv` if the rules allow it in `s`, else why not
    /// (checked before the move is made: an action past the round's last
    /// would not fit the state). `moves` is scratch.
    pub fn checked(
        &self,
        s: &PokerState,
        mv: PokerMove,
        moves: &mut Vec<PokerMove>,
    ) -> Result<PokerState, ParseError> {
        moves.clear();
        self.legal_moves(s, moves);
        if moves.contains(&mv) {
            return Ok(self.play(s, mv));
        }
        let why = match mv {
            PokerMove::Deal(_) if self.is_terminal(s) => "the hand is over",
            PokerMove::Deal(_) if !self.is_chance(s) => {
                "a card is dealt only when the betting allows"
            }
            PokerMove::Deal(_) => "that card is already dealt",
            _ if self.is_terminal(s) => "the hand is over",
            _ if self.is_chance(s) => "a card must be dealt first",
            PokerMove::Fold => "nobody has bet: there is nothing to fold to",
            PokerMove::Raise => "the raises of this round are used up",
            PokerMove::Call => "not a legal action here",
        };
        Err(ParseError::new(why))
    }
}

/// Every trait of a poker game but its [`Style`] and declaration: the
/// rules, chance and information sets, and the notation, all over the
/// style's `rules()` and writing.
macro_rules! poker_game {
    ($game:ty) => {
        impl ply_core::Game for $game {
            type State = crate::poker::PokerState;
            type Move = crate::poker::PokerMove;

            fn initial_state(&self) -> Self::State {
                crate::poker::Style::rules(self).initial()
            }
            fn to_move(&self, s: &Self::State) -> ply_core::Player {
                crate::poker::Rules::to_move(s)
            }
            fn legal_moves(&self, s: &Self::State, moves: &mut Vec<Self::Move>) {
                crate::poker::Style::rules(self).legal_moves(s, moves)
            }
            fn play(&self, s: &Self::State, mv: Self::Move) -> Self::State {
                crate::poker::Style::rules(self).play(s, mv)
            }
            fn is_terminal(&self, s: &Self::State) -> bool {
                crate::poker::Style::rules(self).is_terminal(s)
            }
            fn utility(&self, s: &Self::State) -> ply_core::MaxScore {
                crate::poker::Style::rules(self).utility(s)
            }
        }

        impl ply_core::Chance for $game {
            const HAS_CHANCE: bool = true;
            const HIDDEN: bool = true;

            fn is_chance(&self, s: &Self::State) -> bool {
                !crate::poker::Style::rules(self).is_terminal(s) && crate::poker::Style::rules(self).is_chance(s)
            }
            fn chance_outcomes(
                &self,
                s: &Self::State,
                outcomes: &mut Vec<(Self::Move, f64)>,
            ) {
                crate::poker::Style::rules(self).chance_outcomes(s, outcomes)
            }
            fn value_bounds(
                &self,
                _: &Self::State,
                _: bool,
            ) -> Option<(ply_core::MaxScore, ply_core::MaxScore)> {
                let m = crate::poker::Style::rules(self).max_loss();
                Some((ply_core::MaxScore(-m), ply_core::MaxScore(m)))
            }
            fn information_set(&self, s: &Self::State) -> String {
                crate::poker::information_set(self, s)
            }
        }

        impl ply_core::Notation for $game {
            fn parse_position(&self, text: &str) -> Result<Self::State, ply_core::ParseError> {
                crate::poker::parse_position(self, text)
            }
            fn format_position(&self, s: &Self::State) -> String {
                crate::poker::format_position(self, s)
            }
            fn parse_move(
                &self,
                s: &Self::State,
                text: &str,
            ) -> Result<Self::Move, ply_core::ParseError> {
                crate::poker::parse_move(self, s, text)
            }
            fn format_move(&self, s: &Self::State, mv: Self::Move) -> String {
                crate::poker::format_move(self, s, mv)
            }
            fn draw(&self, s: &Self::State) -> String {
                crate::poker::draw(self, s, None)
            }
            fn draw_for(&self, s: &Self::State, viewer: ply_core::Player) -> String {
                crate::poker::draw(self, s, Some(viewer))
            }
            fn describe_outcome(&self, s: &Self::State, outcome: Self::Move) -> String {
                crate::poker::describe_deal(self, s, outcome)
            }
        }

        ply_core::no_hooks!($game: Evaluation, Shortcuts, EngineHooks, Playouts, Impartial, Learn);
    };
}
pub(crate) use poker_game;

/// How a poker game writes its cards and actions; the positions, the
/// information sets and the picture are written the same way for both
/// games from these.
pub trait Style {
    /// The rules.
    fn rules(&self) -> Rules;
    /// A card's name (`K`, or `Ks` where suits count).
    fn card(&self, c: u8) -> String;
    /// The card named by `text` (any case), if any.
    fn parse_card(&self, text: &str) -> Option<u8>;
    /// Characters a card's name takes.
    fn card_len(&self) -> usize;
    /// An action's letter in `s`, where it is played.
    fn letter(&self, s: &PokerState, a: PokerMove) -> char;
    /// The action written as `text` in `s` (a letter or a word, any case).
    fn parse_action(&self, s: &PokerState, text: &str) -> Option<PokerMove>;
    /// The action letters, for messages (`p (pass) or b (bet)`).
    const ACTIONS: &'static str;
}

/// The actions of round `r` as letters, each in the state it was played in.
fn letters<S: Style>(style: &S, s: &PokerState, r: usize) -> String {
    let rules = style.rules();
    let mut t = rules.initial();
    t.cards = [
        s.cards[0],
        s.cards[1],
        if r == 1 { s.cards[2] } else { NONE },
    ];
    if r == 1 {
        t.actions[0] = s.actions[0];
        t.len[0] = s.len[0];
    }
    let mut out = String::new();
    for &a in Rules::round_actions(s, r) {
        out.push(style.letter(&t, a));
        t = rules.play(&t, a);
    }
    out
}

/// `KQ:pb` (Kuhn), `KsQh:crrc/Jh:c` (Leduc): the cards dealt (MAX's,
/// MIN's), the first round's actions, then the public card and the
/// second round's.
pub fn format_position<S: Style>(style: &S, s: &PokerState) -> String {
    let mut out: String = s.cards[..2]
        .iter()
        .filter(|&&c| c != NONE)
        .map(|&c| style.card(c))
        .collect();
    if s.len[0] > 0 || s.cards[2] != NONE {
        out.push(':');
        out.push_str(&letters(style, s, 0));
    }
    if s.cards[2] != NONE {
        out.push('/');
        out.push_str(&style.card(s.cards[2]));
        if s.len[1] > 0 {
            out.push(':');
            out.push_str(&letters(style, s, 1));
        }
    }
    out
}

/// Reads [`format_position`]'s notation, checking each card and action
/// against the rules in order.
pub fn parse_position<S: Style>(style: &S, text: &str) -> Result<PokerState, ParseError> {
    let rules = style.rules();
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (first, second) = match t.split_once('/') {
        Some((a, b)) => (a, Some(b)),
        None => (t.as_str(), None),
    };
    let (cards, round1) = first.split_once(':').unwrap_or((first, ""));
    let mut s = rules.initial();
    let mut column = 1;
    let deal = |s: PokerState, name: &str, column: usize| -> Result<PokerState, ParseError> {
        let c = style.parse_card(name).ok_or_else(|| {
            ParseError::at(column, format!("'{name}' is not a card of this deck"))
        })?;
        rules
            .checked(&s, PokerMove::Deal(c), &mut Vec::new())
            .map_err(|e| ParseError::at(column, format!("{name}: {}", e.message)))
    };
    let chars: Vec<char> = cards.chars().collect();
    if chars.len() > 2 * style.card_len() || !chars.len().is_multiple_of(style.card_len()) {
        return Err(ParseError::new(format!(
            "'{cards}' is not two cards: write MAX's card then MIN's, e.g. {}{}",
            style.card(rules.ranks * rules.suits - 1),
            style.card(rules.suits)
        )));
    }
    for name in chars.chunks(style.card_len()) {
        let name: String = name.iter().collect();
        s = deal(s, &name, column)?;
        column += style.card_len();
    }
    column += 1;
    let act = |s: PokerState, text: &str, column: &mut usize| {
        let mut s = s;
        for ch in text.chars() {
            let a = style.parse_action(&s, &ch.to_string()).ok_or_else(|| {
                ParseError::at(*column, format!("'{ch}' is not an action: {}", S::ACTIONS))
            })?;
            s = rules
                .checked(&s, a, &mut Vec::new())
                .map_err(|e| ParseError::at(*column, format!("'{ch}': {}", e.message)))?;
            *column += 1;
        }
        Ok::<_, ParseError>(s)
    };
    if !round1.is_empty() && s.cards[1] == NONE {
        return Err(ParseError::at(column, "the cards come before the actions"));
    }
    s = act(s, round1, &mut column)?;
    if let Some(second) = second {
        if rules.rounds < 2 {
            return Err(ParseError::new("this game has one betting round: no '/'"));
        }
        column += 1;
        let (public, round2) = second.split_once(':').unwrap_or((second, ""));
        s = deal(s, public, column)?;
        column += public.chars().count() + 1;
        s = act(s, round2, &mut column)?;
    }
    Ok(s)
}

/// What the player to move knows: their own card and every action, and
/// the public card once it is out (`K:pb`, `Ks:crrc/Jh:c`).
pub fn information_set<S: Style>(style: &S, s: &PokerState) -> String {
    view(style, s, Rules::to_move(s))
}

/// What `player` knows, written as an information set is.
fn view<S: Style>(style: &S, s: &PokerState, player: Player) -> String {
    let me = usize::from(player == Player::Min);
    let mut out = style.card(s.cards[me]);
    out.push(':');
    out.push_str(&letters(style, s, 0));
    if s.cards[2] != NONE {
        out.push('/');
        out.push_str(&style.card(s.cards[2]));
        out.push(':');
        out.push_str(&letters(style, s, 1));
    }
    out
}

/// A picture of the hand: each player's card, the public card, the pot
/// and the betting. With a `viewer`, the other player's card is face down
/// until the hand is over.
pub fn draw<S: Style>(style: &S, s: &PokerState, viewer: Option<Player>) -> String {
    let rules = style.rules();
    let over = rules.is_terminal(s);
    let card = |c: u8, owner: Player| {
        if c == NONE {
            "not dealt".to_string()
        } else if viewer.is_some_and(|v| v != owner) && !over {
            "face down".to_string()
        } else {
            style.card(c)
        }
    };
    let stakes = rules.stakes(s);
    let mut lines = vec![
        format!(
            "MAX holds {:<9} (has put in {})",
            card(s.cards[0], Player::Max),
            stakes[0]
        ),
        format!(
            "MIN holds {:<9} (has put in {})",
            card(s.cards[1], Player::Min),
            stakes[1]
        ),
    ];
    if rules.rounds == 2 {
        let board = if s.cards[2] == NONE {
            "not dealt".to_string()
        } else {
            style.card(s.cards[2])
        };
        lines.push(format!("board     {board}"));
    }
    for r in 0..usize::from(rules.rounds) {
        let a = letters(style, s, r);
        if !a.is_empty() {
            lines.push(format!("round {}   {a}", r + 1));
        }
    }
    if over {
        let won = rules.utility(s).0;
        lines.push(match won.signum() {
            0 => "over: a split pot".to_string(),
            1 => format!("over: MAX wins {won}"),
            _ => format!("over: MIN wins {}", -won),
        });
    } else if rules.is_chance(s) {
        lines.push("a card is being dealt".into());
    } else {
        let who = Rules::to_move(s);
        if viewer.is_none() {
            // Every player's view, the mover's first: what each knows
            // (whose turn it is, the caller says).
            for p in [who, who.opponent()] {
                lines.push(format!("{} sees {}", p.name(), view(style, s, p)));
            }
        } else if viewer == Some(who) {
            lines.push(format!(
                "{} to act, seeing {} (the other card is hidden)",
                who.name(),
                information_set(style, s)
            ));
        } else {
            lines.push(format!("{} to act", who.name()));
        }
    }
    lines.join("\n")
}

/// Reads a move: a card at a chance node, an action elsewhere.
pub fn parse_move<S: Style>(
    style: &S,
    s: &PokerState,
    text: &str,
) -> Result<PokerMove, ParseError> {
    let t = text.trim();
    let rules = style.rules();
    if rules.is_chance(s) && !rules.is_terminal(s) {
        return style.parse_card(t).map(PokerMove::Deal).ok_or_else(|| {
            ParseError::new(format!(
                "a card is being dealt: '{t}' is not a card of this deck"
            ))
        });
    }
    style
        .parse_action(s, t)
        .ok_or_else(|| ParseError::new(format!("'{t}' is not an action: {}", S::ACTIONS)))
}

/// Writes a move: the card dealt, or the action's letter.
pub fn format_move<S: Style>(style: &S, s: &PokerState, mv: PokerMove) -> String {
    match mv {
        PokerMove::Deal(c) => style.card(c),
        a => style.letter(s, a).to_string(),
    }
}

/// A deal as it happens, naming who gets the card.
pub fn describe_deal<S: Style>(style: &S, s: &PokerState, mv: PokerMove) -> String {
    let PokerMove::Deal(c) = mv else {
        return format_move(style, s, mv);
    };
    let to = match s.cards.iter().position(|&x| x == NONE) {
        Some(0) => "MAX is dealt",
        Some(1) => "MIN is dealt",
        _ => "the board shows",
    };
    format!("{to} {}", style.card(c))
}

#[cfg(test)]
mod tests {
    use crate::common::conformance_from;
    use crate::{Kuhn, Leduc};
    use ply_core::{Chance, Game, Notation, Player, play_moves};

    /// Both games keep every promise the kit checks, information sets
    /// included; every set met is checked against the others.
    #[test]
    fn conformance_kit() {
        let s = conformance_from(&Kuhn, &["", "KQ:p"], 200);
        assert!(s.information_sets > 200 && s.chance_nodes > 200, "{s:?}");
        let s = conformance_from(&Leduc, &["", "KsQh:cr", "JsJh:cc/Ks"], 300);
        assert!(s.information_sets > 500 && s.chance_nodes > 500, "{s:?}");
    }

    /// Showdowns and folds pay what OpenSpiel 2.0.2's `leduc_poker` pays
    /// (cards as its numbers: `Js` 0, `Jh` 1, `Qs` 2, ... `Kh` 5; each hand
    /// check-check, public card, check-check, so the pot is the antes):
    /// (0, 2, 4) -1, (0, 2, 1) +1, (0, 1, 4) 0, (1, 2, 0) +1, (4, 5, 0) 0,
    /// (2, 5, 3) +1, (0, 4, 5) -1: a pair beats a higher card, equal
    /// ranks split.
    #[test]
    fn leduc_pays_as_openspiel() {
        for (hand, want) in [
            ("JsQs:cc/Ks:cc", -1),
            ("JsQs:cc/Jh:cc", 1),
            ("JsJh:cc/Ks:cc", 0),
            ("JhQs:cc/Js:cc", 1),
            ("KsKh:cc/Js:cc", 0),
            ("QsKh:cc/Qh:cc", 1),
            ("JsKs:cc/Kh:cc", -1),
        ] {
            let s = Leduc.parse_position(hand).unwrap();
            assert!(Leduc.is_terminal(&s), "{hand}");
            assert_eq!(Leduc.utility(&s).0, want, "{hand}");
        }
        // Bets: 2 in the first round, 4 in the second, two raises a
        // round; OpenSpiel's returns for the same actions.
        for (hand, want) in [
            ("KsQh:rf", 1),
            ("KsQh:crf", -1),
            ("KsQh:rrf", -3),
            ("KsQh:rc/Js:rrc", 11),
            ("QsKh:rc/Js:rrc", -11),
            ("KsQh:rrc/Js:rrc", 13),
            ("KsQh:cc/Js:rf", 1),
        ] {
            let s = Leduc.parse_position(hand).unwrap();
            assert!(Leduc.is_terminal(&s), "{hand}");
            assert_eq!(Leduc.utility(&s).0, want, "{hand}");
        }
    }

    /// Kuhn's five lines: pass-pass and bet-call show down for 1 and 2,
    /// a fold loses the ante.
    #[test]
    fn kuhn_pays_its_five_lines() {
        for (hand, want) in [
            ("KQ:pp", 1),
            ("JQ:pp", -1),
            ("KQ:bb", 2),
            ("QK:pbb", -2),
            ("KJ:bp", 1),
            ("KJ:pbp", -1),
        ] {
            let s = Kuhn.parse_position(hand).unwrap();
            assert!(Kuhn.is_terminal(&s), "{hand}");
            assert_eq!(Kuhn.utility(&s).0, want, "{hand}");
        }
    }

    /// Moves, positions and information sets as written: a deal, the
    /// actions in each game's letters, what each player sees.
    #[test]
    fn notation_and_information_sets() {
        let s = play_moves(&Kuhn, &Kuhn.initial_state(), &["K", "q", "p", "b"]).unwrap();
        assert_eq!(Kuhn.format_position(&s), "KQ:pb");
        assert_eq!(Kuhn.to_move(&s), Player::Max);
        assert_eq!(Kuhn.information_set(&s), "K:pb");
        let mut moves = Vec::new();
        Kuhn.legal_moves(&s, &mut moves);
        let written: Vec<String> = moves.iter().map(|&m| Kuhn.format_move(&s, m)).collect();
        assert_eq!(written, ["p", "b"]);
        let t = Leduc.parse_position("KsQh:crrc/Jh:c").unwrap();
        assert_eq!(Leduc.format_position(&t), "KsQh:crrc/Jh:c");
        assert_eq!(Leduc.to_move(&t), Player::Min);
        assert_eq!(Leduc.information_set(&t), "Qh:crrc/Jh:c");
        assert!(Leduc.is_chance(&Leduc.parse_position("KsQh:cc").unwrap()));
        assert_eq!(
            Leduc.format_position(&Leduc.parse_position(" ks qh ").unwrap()),
            "KsQh"
        );
        let both = Leduc.draw(&t);
        assert!(
            both.contains("MIN sees Qh:crrc/Jh:c") && both.contains("MAX sees Ks:crrc/Jh:c"),
            "{both}"
        );
        let min = Leduc.draw_for(&t, Player::Min);
        assert!(
            min.contains("MIN to act, seeing Qh:crrc/Jh:c") && min.contains("MAX holds face down"),
            "{min}"
        );
        assert!(!Leduc.draw_for(&t, Player::Max).contains("Qh:"));
    }

    /// Impossible hands are refused where they go wrong, in the player's
    /// terms.
    #[test]
    fn bad_positions_are_named() {
        let err = |g: &dyn Fn(&str) -> Option<String>, text: &str| g(text).unwrap();
        let kuhn = |t: &str| Kuhn.parse_position(t).err().map(|e| e.to_string());
        let leduc = |t: &str| Leduc.parse_position(t).err().map(|e| e.to_string());
        assert!(
            err(&kuhn, "KK").contains("already dealt"),
            "{}",
            err(&kuhn, "KK")
        );
        assert!(err(&kuhn, "KA").contains("'A' is not a card"));
        assert!(err(&kuhn, "KQ:px").contains("'x' is not an action"));
        assert!(err(&kuhn, "KQ:ppb").contains("the hand is over"));
        assert!(err(&kuhn, "KQ/J").contains("one betting round"));
        assert!(err(&leduc, "KsQh:rrr").contains("raises of this round are used up"));
        // An action after a round's last, where the round has no room.
        assert!(err(&leduc, "KsQh:crrcc").contains("a card must be dealt first"));
        assert!(err(&leduc, "KsQh:crrc/Js:crrcc").contains("the hand is over"));
        assert!(err(&leduc, "KsQh/Js").contains("only when the betting allows"));
        assert!(err(&leduc, "KsQh:f").contains("nothing to fold to"));
        assert!(err(&leduc, "KsQh:c/Jh").contains("only when the betting allows"));
        assert!(err(&leduc, "KsKs").contains("already dealt"));
        assert!(err(&leduc, "Kx").contains("'Kx' is not a card"));
    }
}
