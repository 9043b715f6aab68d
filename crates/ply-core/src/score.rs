//! Scores, players and points of view.
//!
//! Whose view a number is from is the most common bug in game-search code: a
//! negamax that forgets to negate, an MCTS that backs up wins for the wrong
//! side, a search that does not block a win in one. ply makes the view part of
//! the type. A [`MaxScore`] is always from MAX's (the first player's) view; a
//! [`MoverScore`] is from the view of the player to move at the node it belongs
//! to. The only ways between them are [`MaxScore::for_player`] and
//! [`MoverScore::to_max`], and only `MoverScore` can be negated (the negamax
//! step), so mixing the two does not compile.

use std::fmt;
use std::ops::Neg;

/// The two players of a zero-sum game. MAX moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player, who maximises [`MaxScore`]s.
    Max,
    /// The second player, who minimises [`MaxScore`]s.
    Min,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::Max => Player::Min,
            Player::Min => Player::Max,
        }
    }

    /// +1 for MAX, -1 for MIN: the factor that turns a MAX-view number into
    /// this player's view.
    #[inline]
    pub fn sign(self) -> i32 {
        match self {
            Player::Max => 1,
            Player::Min => -1,
        }
    }

    /// "MAX" or "MIN", as traces print it.
    pub fn name(self) -> &'static str {
        match self {
            Player::Max => "MAX",
            Player::Min => "MIN",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bound beyond every score a game may produce: the initial alpha/beta.
///
/// Utilities and evaluations must stay strictly inside `-MAX_GAME_SCORE ..=
/// MAX_GAME_SCORE`, so that infinity, and the distance-to-end scores layered on
/// top of game scores, never collide with a real value.
pub const INF: i32 = 1_000_000_000;

/// The largest magnitude a game's utility or evaluation may take.
pub const MAX_GAME_SCORE: i32 = 100_000_000;

/// A score from MAX's point of view: higher is better for the first player.
///
/// Games report utilities and evaluations in this view; every result a search
/// returns to its caller is in this view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MaxScore(pub i32);

/// A score from the point of view of the player to move at its node: higher is
/// better for that player. Negamax searches work in this view; negating it
/// gives the parent's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MoverScore(pub i32);

impl MaxScore {
    /// Plus infinity, the initial beta.
    pub const INF: MaxScore = MaxScore(INF);
    /// Minus infinity, the initial alpha.
    pub const NEG_INF: MaxScore = MaxScore(-INF);
    /// A draw, or an even position.
    pub const ZERO: MaxScore = MaxScore(0);

    /// This score as seen by `player`: the one conversion from MAX's view.
    #[inline]
    pub fn for_player(self, player: Player) -> MoverScore {
        MoverScore(self.0 * player.sign())
    }

    /// True for the two infinities.
    pub fn is_infinite(self) -> bool {
        self.0.abs() >= INF
    }

    /// The worst score for `player`: where a node of that player starts
    /// before it has seen a child.
    pub fn worst_for(player: Player) -> MaxScore {
        match player {
            Player::Max => MaxScore::NEG_INF,
            Player::Min => MaxScore::INF,
        }
    }

    /// Whether `self` is strictly better than `other` for `player`.
    #[inline]
    pub fn better_for(self, other: MaxScore, player: Player) -> bool {
        match player {
            Player::Max => self > other,
            Player::Min => self < other,
        }
    }
}

impl MoverScore {
    /// Plus infinity.
    pub const INF: MoverScore = MoverScore(INF);
    /// Minus infinity.
    pub const NEG_INF: MoverScore = MoverScore(-INF);

    /// Back to MAX's view, given the player whose view this is: the one
    /// conversion to MAX's view.
    #[inline]
    pub fn to_max(self, mover: Player) -> MaxScore {
        MaxScore(self.0 * mover.sign())
    }
}

impl Neg for MoverScore {
    type Output = MoverScore;
    /// The same score seen by the opponent: the negamax step.
    #[inline]
    fn neg(self) -> MoverScore {
        MoverScore(-self.0)
    }
}

fn fmt_score(v: i32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if v >= INF {
        f.write_str("+inf")
    } else if v <= -INF {
        f.write_str("-inf")
    } else {
        write!(f, "{v}")
    }
}

impl fmt::Display for MaxScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_score(self.0, f)
    }
}

impl fmt::Display for MoverScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_score(self.0, f)
    }
}

/// An alpha-beta window from MAX's view: MAX is assured at least `alpha`, MIN
/// at most `beta`. Traces show windows in this view whatever the search does
/// internally, so a learner sees the textbook numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The value MAX can already force elsewhere.
    pub alpha: MaxScore,
    /// The value MIN can already force elsewhere.
    pub beta: MaxScore,
}

impl Window {
    /// The full window (-inf, +inf).
    pub const FULL: Window = Window {
        alpha: MaxScore::NEG_INF,
        beta: MaxScore::INF,
    };

    /// The MAX-view window of a negamax window `(alpha, beta)` held by `mover`.
    /// For MIN the bounds swap and negate: MIN's "at least a" is MAX's "at most -a".
    #[inline]
    pub fn from_mover(alpha: MoverScore, beta: MoverScore, mover: Player) -> Window {
        match mover {
            Player::Max => Window {
                alpha: MaxScore(alpha.0),
                beta: MaxScore(beta.0),
            },
            Player::Min => Window {
                alpha: MaxScore(-beta.0),
                beta: MaxScore(-alpha.0),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_round_trip() {
        for v in [-5, 0, 7] {
            for p in [Player::Max, Player::Min] {
                assert_eq!(MaxScore(v).for_player(p).to_max(p), MaxScore(v));
            }
        }
        assert_eq!(MaxScore(3).for_player(Player::Min), MoverScore(-3));
        assert_eq!(-MoverScore(4), MoverScore(-4));
    }

    #[test]
    fn min_window_swaps_bounds() {
        let w = Window::from_mover(MoverScore(-2), MoverScore(5), Player::Min);
        assert_eq!(w.alpha, MaxScore(-5));
        assert_eq!(w.beta, MaxScore(2));
        assert_eq!(format!("{}", MaxScore::NEG_INF), "-inf");
    }
}
