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

    /// An `f64` value from MAX's view (an expectiminimax mean) seen by this
    /// player: higher is better for it.
    #[inline]
    pub fn view(self, max_view: f64) -> f64 {
        max_view * f64::from(self.sign())
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
pub const INF: i32 = 2_000_000_000;

/// The largest magnitude a game's utility or evaluation may take.
pub const MAX_GAME_SCORE: i32 = 1_000_000;

/// Where proven results live in an engine search: every decided terminal
/// score (a win or loss, by utility) is at least this large in magnitude, so
/// no evaluation of an undecided position (at most [`MAX_GAME_SCORE`]) can
/// outrank a proof.
pub const DECIDED: i32 = 100_000_000;

/// The scale of utilities inside the decided band: room for a distance of
/// up to `DIST_SCALE - 1` plies below each utility step.
pub const DIST_SCALE: i32 = 1024;

/// The engine score of a leaf worth `raw` (utility if `terminal`, else
/// evaluation) at `ply` from the root.
///
/// An undecided leaf (not terminal, or a drawn terminal) keeps its value.
/// A decided terminal moves into the band beyond [`DECIDED`], ordered by
/// utility first and then, with `distance`, by how soon it comes: a win in
/// 3 beats a win in 5, a loss in 9 beats a loss in 1 ("prefer a fast win
/// and a slow loss", as chess engines encode "mate in n"). An odd function,
/// so it works in either point of view.
#[inline]
pub fn encode_leaf(raw: i32, terminal: bool, ply: u32, distance: bool) -> i32 {
    if !terminal || raw == 0 {
        return raw;
    }
    let d = if distance {
        (ply as i32).min(DIST_SCALE - 1)
    } else {
        0
    };
    let mag = DECIDED + raw.abs() * DIST_SCALE - d;
    mag * raw.signum()
}

/// Whether an engine score is a decided (proven win or loss) score.
#[inline]
pub fn is_decided(score: i32) -> bool {
    score.abs() >= DECIDED && score.abs() < INF
}

/// The game score and, for a decided result, the distance in plies from the
/// root, of an engine score made by [`encode_leaf`].
pub fn decode_score(score: i32) -> (i32, Option<u32>) {
    if !is_decided(score) {
        return (score, None);
    }
    let mag = score.abs() - DECIDED;
    let value = (mag + DIST_SCALE - 1) / DIST_SCALE;
    let distance = (value * DIST_SCALE - mag) as u32;
    (value * score.signum(), Some(distance))
}

/// A decided score seen at `ply`, made relative to that node (for a table,
/// which may meet the node again at another ply): a win `d` plies from the
/// root is a win `d - ply` plies from the node.
#[inline]
pub fn distance_to_node(score: i32, ply: u32) -> i32 {
    if !is_decided(score) {
        score
    } else if score > 0 {
        score + ply as i32
    } else {
        score - ply as i32
    }
}

/// The inverse of [`distance_to_node`]: a node-relative score seen from the root.
#[inline]
pub fn distance_to_root(score: i32, ply: u32) -> i32 {
    if !is_decided(score) {
        score
    } else if score > 0 {
        score - ply as i32
    } else {
        score + ply as i32
    }
}

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
    fn distance_scores_order_and_decode() {
        let win3 = encode_leaf(1, true, 3, true);
        let win5 = encode_leaf(1, true, 5, true);
        let loss1 = encode_leaf(-1, true, 1, true);
        let loss9 = encode_leaf(-1, true, 9, true);
        assert!(win3 > win5 && win5 > encode_leaf(0, true, 4, true));
        assert!(loss9 > loss1);
        assert!(
            encode_leaf(999, false, 3, true) < win5,
            "a guess never beats a proof"
        );
        assert!(
            encode_leaf(2, true, 9, true) > win3,
            "utility first, then distance"
        );
        assert_eq!(decode_score(win3), (1, Some(3)));
        assert_eq!(decode_score(loss9), (-1, Some(9)));
        assert_eq!(decode_score(encode_leaf(-7, false, 2, true)), (-7, None));
        assert_eq!(
            decode_score(encode_leaf(1000, true, 7, true)),
            (1000, Some(7))
        );
        assert_eq!(decode_score(encode_leaf(5, true, 7, false)), (5, Some(0)));
        // Relative to a node at ply 2, the win at ply 5 is 3 plies away.
        let rel = distance_to_node(win5, 2);
        assert_eq!(decode_score(rel), (1, Some(3)));
        assert_eq!(distance_to_root(rel, 2), win5);
        assert_eq!(distance_to_node(17, 3), 17);
    }

    #[test]
    fn min_window_swaps_bounds() {
        let w = Window::from_mover(MoverScore(-2), MoverScore(5), Player::Min);
        assert_eq!(w.alpha, MaxScore(-5));
        assert_eq!(w.beta, MaxScore(2));
        assert_eq!(format!("{}", MaxScore::NEG_INF), "-inf");
    }
}
