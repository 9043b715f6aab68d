//! Go's own playouts ([`Playouts::playout`](ply_core::Playouts::playout)):
//! one board played in place to the end, with the knowledge that made
//! Monte Carlo Go work (MoGo's playouts, simplified).
//!
//! Through the `Game` interface a playout lists every legal move and
//! copies the whole state at every ply; here a move is drawn first and
//! checked after, and the board is the only thing that changes. Each move:
//!
//! 1. **Answers** to the last move: capture the stones it just played if
//!    they are in atari; else, if it put a group of the mover's in atari,
//!    capture a group of the opponent's beside that group which is in
//!    atari too, or extend at the group's liberty when that gives it two.
//! 2. Otherwise, with [`Policy::SHAPES`], a **shape**: an empty point
//!    beside the last move with a hane or a cut around it (the `patterns`
//!    module), drawn evenly among those that step 3 would accept.
//! 3. Otherwise a **random** point, scanning from a random start, that is
//!    legal, not one of the mover's own eyes, and not a self-atari of two
//!    stones or more (throwing a single stone in is sometimes right; a
//!    bigger group in atari by its own hand almost never is).
//! 4. A pass when no point qualifies; two passes end the playout.
//!
//! The first move obeys the whole repetition rule (the state's history);
//! later ones only the simple ko, as every playout engine does: a
//! longer cycle in a random game costs nothing but that game's accuracy,
//! and the plies are capped.

use ply_core::{Player, RngCore};

use super::board::{BLACK, Board, EMPTY, opposite};
use super::patterns::shape_at;
use super::{Go, GoMove, GoState};

/// Which parts of the policy are on ([`Policy::FULL`] by default: all
/// but the shapes); each switch was measured in games (README, Go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Capture the last move's stones in atari, save one's own group the
    /// last move put in atari (step 1 above).
    pub answers: bool,
    /// Refuse self-ataris of two stones or more (steps 2 and 3).
    pub no_self_atari: bool,
    /// Prefer a hane or a cut beside the last move (step 2; the
    /// `patterns` module's shapes).
    pub shapes: bool,
}

impl Policy {
    /// Everything on.
    pub const SHAPES: Policy = Policy {
        answers: true,
        no_self_atari: true,
        shapes: true,
    };
    /// The default: everything but the shapes, which did not pay for
    /// themselves in games (README, Go).
    pub const FULL: Policy = Policy {
        shapes: false,
        ..Policy::SHAPES
    };
    /// Random moves that keep out of one's own eyes, and nothing more.
    pub const LIGHT: Policy = Policy {
        answers: false,
        no_self_atari: false,
        shapes: false,
    };
}

/// xorshift64*: a playout draws a few hundred numbers, and the engine's
/// own generator sits behind a `dyn` call.
struct Fast(u64);

impl Fast {
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        ((u128::from(x) * n as u128) >> 64) as usize
    }
}

const NO_POINT: usize = usize::MAX;

/// One playout in place: see the module's notes. Returns the final board.
pub(super) fn play_out(
    go: &Go,
    s: &GoState,
    policy: Policy,
    rng: &mut dyn RngCore,
    moves: &mut Vec<(Player, GoMove)>,
) -> Board {
    let mut r = Fast(rng.next_u64() | 1);
    let mut board = s.board.clone();
    let mut colour = s.colour();
    let mut passes = s.passes;
    let mut last = s
        .last_move()
        .filter(|m| !m.is_pass())
        .map_or(NO_POINT, |m| usize::from(m.0));
    let mut ko = NO_POINT;
    let cap = 3 * go.points.len() + 20;
    let mut first = true;
    for _ in 0..cap {
        if passes >= 2 {
            break;
        }
        let legal = |p: usize, board: &Board| {
            if !first {
                return p != ko && board.breathes(p, colour);
            }
            board
                .outcome(p, colour, &go.zobrist)
                .is_some_and(|o| !s.repeats(o.hash, o.stones))
        };
        let mut p = if policy.answers {
            answer(&board, colour, last, &legal)
        } else {
            NO_POINT
        };
        if p == NO_POINT && policy.shapes {
            p = shape_point(&board, colour, last, policy, &mut r, &legal);
        }
        if p == NO_POINT {
            p = random_point(go, &board, colour, policy, &mut r, &legal);
        }
        let player = if colour == BLACK {
            Player::Max
        } else {
            Player::Min
        };
        if p == NO_POINT {
            passes += 1;
            ko = NO_POINT;
            moves.push((player, GoMove::PASS));
        } else {
            passes = 0;
            let taken = board.place(p, colour, &go.zobrist);
            let g = board.head(p);
            ko = if taken == 1 && board.group_size(g) == 1 && board.in_atari(g) {
                board.atari_liberty(g)
            } else {
                NO_POINT
            };
            moves.push((player, GoMove(p as u16)));
        }
        last = p;
        colour = opposite(colour);
        first = false;
    }
    board
}

/// Step 1: a capture of the last move's stones, or a rescue of a group
/// of the mover's that the last move put in atari.
fn answer(board: &Board, colour: u8, last: usize, legal: &impl Fn(usize, &Board) -> bool) -> usize {
    if last == NO_POINT {
        return NO_POINT;
    }
    let enemy = opposite(colour);
    if board.colour(last) == enemy {
        let g = board.head(last);
        if board.in_atari(g) {
            let l = board.atari_liberty(g);
            if legal(l, board) {
                return l;
            }
        }
    }
    for q in board.neighbours(last) {
        if board.colour(q) != colour || !board.in_atari(board.head(q)) {
            continue;
        }
        // Take a neighbouring group in atari: that frees a liberty.
        for s in board.group(q) {
            for n in board.neighbours(s) {
                if board.colour(n) == enemy && board.in_atari(board.head(n)) {
                    let l = board.atari_liberty(board.head(n));
                    if legal(l, board) {
                        return l;
                    }
                }
            }
        }
        // Or run, when running gives two liberties.
        let l = board.atari_liberty(board.head(q));
        if legal(l, board) && board.self_atari(l, colour).is_none() {
            return l;
        }
    }
    NO_POINT
}

/// Whether a random move may be played at `p`: empty, legal, not the
/// mover's own eye, and (by the policy) not a self-atari of two stones.
fn acceptable(
    board: &Board,
    p: usize,
    colour: u8,
    policy: Policy,
    legal: &impl Fn(usize, &Board) -> bool,
) -> bool {
    board.colour(p) == EMPTY
        && !board.is_eye(p, colour)
        && legal(p, board)
        && !(policy.no_self_atari && board.self_atari(p, colour).is_some_and(|size| size >= 2))
}

/// Step 2: one of the points beside the last move with a hane or a cut
/// around it, drawn evenly.
fn shape_point(
    board: &Board,
    colour: u8,
    last: usize,
    policy: Policy,
    r: &mut Fast,
    legal: &impl Fn(usize, &Board) -> bool,
) -> usize {
    if last == NO_POINT {
        return NO_POINT;
    }
    let mut found = [NO_POINT; 8];
    let mut n = 0;
    for q in board.neighbours8(last) {
        if board.colour(q) == EMPTY
            && shape_at(board, q)
            && acceptable(board, q, colour, policy, legal)
        {
            found[n] = q;
            n += 1;
        }
    }
    if n == 0 { NO_POINT } else { found[r.below(n)] }
}

/// Step 3: the first acceptable point from a random start.
fn random_point(
    go: &Go,
    board: &Board,
    colour: u8,
    policy: Policy,
    r: &mut Fast,
    legal: &impl Fn(usize, &Board) -> bool,
) -> usize {
    let n = go.points.len();
    let start = r.below(n);
    for i in 0..n {
        let j = start + i;
        let p = usize::from(go.points[if j >= n { j - n } else { j }]);
        if acceptable(board, p, colour, policy, legal) {
            return p;
        }
    }
    NO_POINT
}
