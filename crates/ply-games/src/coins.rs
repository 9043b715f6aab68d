//! The coin game: N coins on the table, a move takes k coins for some k in a
//! set S, and whoever takes the last coin wins (a player who cannot move
//! loses). Small enough to solve by hand, so it is the first test of any search.
//!
//! Position notation: the number of coins left, then `/max` or `/min` for the
//! player to move (`4` is `4/max`). A move is the number of coins taken.

use std::fmt::Write as _;

use ply_core::{Game, MaxScore, Notation, ParseError, Player};

use crate::common::{split_side, with_side};

use ply_core::registry::{GameSpec, ParamKind, ParamSpec, ParamValues, Registered, SetupError};

/// The coin game with its set of allowed takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coins {
    take: Vec<u32>,
    start: u32,
}

/// A coin position: coins left and who takes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CoinsState {
    /// Coins on the table.
    pub coins: u32,
    /// Who takes next.
    pub to_move: Player,
}

impl Coins {
    /// The default start: 4 coins.
    pub const DEFAULT_COINS: u32 = 4;

    /// A coin game where a move takes any count in `take`; rejects an empty
    /// set and takes of 0 (a game where a player may pass forever never ends).
    pub fn new(take: &[u32]) -> Result<Self, SetupError> {
        let mut t = take.to_vec();
        t.sort_unstable();
        t.dedup();
        if t.is_empty() {
            return Err(SetupError(
                "take: give at least one number of coins, e.g. take=1,2".into(),
            ));
        }
        if t[0] == 0 {
            return Err(SetupError(
                "take=0 is not allowed: every move must take at least one coin, or the game could go on forever".into(),
            ));
        }
        Ok(Coins {
            take: t,
            start: Self::DEFAULT_COINS,
        })
    }


    /// The allowed takes, ascending.
    pub fn takes(&self) -> &[u32] {
        &self.take
    }

    fn takes_text(&self) -> String {
        let mut s = String::new();
        for (i, t) in self.take.iter().enumerate() {
            if i > 0 {
                s.push_str(if i + 1 == self.take.len() {
                    " or "
                } else {
                    ", "
                });
            }
            let _ = write!(s, "{t}");
        }
        s
    }
}

impl Game for Coins {
    type State = CoinsState;
    type Move = u32;

    fn initial_state(&self) -> CoinsState {
        CoinsState {
            coins: self.start,
            to_move: Player::Max,
        }
    }

    fn to_move(&self, s: &CoinsState) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &CoinsState, moves: &mut Vec<u32>) {
        moves.extend(self.take.iter().copied().filter(|&t| t <= s.coins));
    }

    fn play(&self, s: &CoinsState, mv: u32) -> CoinsState {
        CoinsState {
            coins: s.coins - mv,
            to_move: s.to_move.opponent(),
        }
    }

    fn is_terminal(&self, s: &CoinsState) -> bool {
        s.coins < self.take[0]
    }

    /// The player to move at the end cannot move: the other took the last coin (or
    /// left too few to take), and wins.
    fn utility(&self, s: &CoinsState) -> MaxScore {
        MaxScore(-s.to_move.sign())
    }
}

ply_core::no_hooks!(Coins: Evaluation, Shortcuts, EngineHooks, Chance, Playouts, Learn);

/// Both players take from the same pile under the same rule, and the one
/// who cannot move loses: impartial (its nimbers are periodic).
impl ply_core::Impartial for Coins {
    const IMPARTIAL: bool = true;
}

fn parse_count(text: &str, column: usize, what: &str) -> Result<u32, ParseError> {
    if text.is_empty() {
        return Err(ParseError::at(column, format!("expected {what}")));
    }
    if let Some(rest) = text.strip_prefix('-')
        && !rest.is_empty()
        && rest.chars().all(|c| c.is_ascii_digit())
    {
        return Err(ParseError::at(
            column,
            format!("{what} cannot be negative, found {text}"),
        ));
    }
    if let Some((i, c)) = text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        return Err(ParseError::at(
            column + text[..i].chars().count(),
            format!("expected {what}, found '{c}'"),
        ));
    }
    text.parse::<u32>()
        .map_err(|_| ParseError::at(column, format!("{what} {text} is too large")))
}

impl Registered for Coins {
    const SPEC: GameSpec = GameSpec {
        params: &[ParamSpec {
            name: "take",
            kind: ParamKind::Ints {
                default: &[1, 2],
                min: 1,
                max: 1_000_000,
            },
            meaning: "the numbers of coins a move may take, comma-separated",
        }],
        default_position: "4",
        ..GameSpec::new(
            "coins",
            "N coins on the table; a move takes k coins for k in a set; whoever takes the last coin wins (a player who cannot move loses)",
            "the number of coins left, optionally /max or /min for the player to move (4 = 4/max)",
            "the number of coins taken",
        )
    };

    fn from_params(values: &ParamValues) -> Result<Self, SetupError> {
        let take: Vec<u32> = values.ints("take").iter().map(|&n| n as u32).collect();
        Coins::new(&take)
    }
}

impl Notation for Coins {
    fn parse_position(&self, text: &str) -> Result<CoinsState, ParseError> {
        let (count, to_move) = split_side(text)?;
        let coins = parse_count(count.trim(), 1, "a number of coins")?;
        Ok(CoinsState { coins, to_move })
    }

    fn format_position(&self, s: &CoinsState) -> String {
        with_side(s.coins.to_string(), s.to_move)
    }

    fn parse_move(&self, s: &CoinsState, text: &str) -> Result<u32, ParseError> {
        let k = parse_count(text.trim(), 1, "a number of coins to take")?;
        if !self.take.contains(&k) {
            return Err(ParseError::new(format!(
                "a move takes {} coins, not {k}",
                self.takes_text()
            )));
        }
        if k > s.coins {
            return Err(ParseError::new(format!(
                "cannot take {k}: only {} left",
                s.coins
            )));
        }
        Ok(k)
    }

    fn format_move(&self, _: &CoinsState, mv: u32) -> String {
        mv.to_string()
    }

    fn draw(&self, s: &CoinsState) -> String {
        let shown = s.coins.min(40) as usize;
        let more = if s.coins > 40 { " ..." } else { "" };
        format!(
            "{}{} ({} coins, {} to take {})",
            "o".repeat(shown),
            more,
            s.coins,
            s.to_move,
            self.takes_text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::conformance;
    use ply_core::prelude::*;

    #[test]
    fn conformance_kit() {
        for take in [&[1, 2][..], &[1, 3, 4], &[2, 3]] {
            let game = Coins::new(take).unwrap();
            let starts = (0..15)
                .map(|c| CoinsState {
                    coins: c,
                    to_move: Player::Max,
                })
                .collect();
            let cfg = conformance::Config {
                starts,
                playouts: 20,
                ..Default::default()
            };
            conformance::check(&game, &cfg).unwrap();
        }
    }

    /// Brute force: a position is lost for the mover iff every take leads to a
    /// won position for the opponent. Independent of the search code.
    fn mover_wins(take: &[u32], coins: u32) -> bool {
        let mut win = vec![false; coins as usize + 1];
        for c in 0..=coins as usize {
            win[c] = take
                .iter()
                .any(|&t| t as usize <= c && !win[c - t as usize]);
        }
        win[coins as usize]
    }

    #[test]
    fn values_match_brute_force() {
        for take in [&[1, 2][..], &[1, 3, 4], &[2, 5]] {
            let game = Coins::new(take).unwrap();
            for coins in 0..16 {
                for to_move in [Player::Max, Player::Min] {
                    let s = CoinsState { coins, to_move };
                    let out =
                        alphabeta(&game, &s, &SearchOptions::exact(), &mut NoObserver).unwrap();
                    let expect = if mover_wins(take, coins) { 1 } else { -1 };
                    assert_eq!(
                        out.value.for_player(to_move).0,
                        expect,
                        "take {take:?}, {s:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn notation_errors() {
        let g = Coins::new(&[1, 2]).unwrap();
        assert_eq!(g.parse_position("10/min").unwrap().coins, 10);
        assert_eq!(g.parse_position("-3").unwrap_err().column, Some(1));
        assert!(
            g.parse_position("-3")
                .unwrap_err()
                .message
                .contains("negative")
        );
        assert_eq!(g.parse_position("1x").unwrap_err().column, Some(2));
        assert_eq!(g.parse_position("4/foo").unwrap_err().column, Some(3));
        // The declaration checks the parameters before the game is built.
        let build = |k: &str, v: &str| {
            let p = ply_core::registry::Params::new().with(k, v);
            Coins::SPEC.check(&p).and_then(|v| Coins::from_params(&v))
        };
        assert!(build("take", "0").unwrap_err().0.contains("take=0"));
        assert!(build("take", "1,-2").unwrap_err().0.contains("take=-2"));
        assert!(build("take", "1,x").unwrap_err().0.contains("'x'"));
        assert!(build("size", "3").unwrap_err().0.contains("unknown parameter"));
        assert_eq!(build("take", "3,1,3").unwrap().takes(), &[1, 3]);
    }
}
