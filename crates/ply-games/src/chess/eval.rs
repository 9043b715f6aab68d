//! The chess evaluation as a sum of weighted terms, so that one function
//! both scores a position (with the weights of [`super::weights`]) and
//! tells the tuner which terms it used (`ply tune`, see [`super::tune`]).
//!
//! Every term is a count (how many pawns are doubled, how many squares a
//! knight reaches, ...) times a weight pair: one weight for the middlegame,
//! one for the endgame. The two sums are blended by the material left (the
//! phase), as PeSTO does. Terms are counted from White's side: a term of
//! Black's counts negatively, on the square seen from Black's side.
//!
//! A term for attacks on the squares around the king was tried and scored
//! 18.5/40 against this evaluation in self-play, so it is not here.

use cozy_chess::{
    BitBoard, Board, Color, File, Piece, Rank, Square, get_bishop_moves, get_knight_moves,
    get_rook_moves,
};

use super::weights::WEIGHTS;

/// A weight pair: middlegame, endgame, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i16, pub i16);

/// Declares the terms: each a name and a number of weights, laid out one
/// after the other in one flat array (what the tuner adjusts), with a
/// constant for where each starts.
macro_rules! terms {
    ($($name:ident: $len:expr, $doc:literal;)*) => {
        terms!(@offsets 0usize; $($name: $len;)*);
        /// How many weights the evaluation has.
        pub const N: usize = 0 $(+ $len)*;
        /// Each term's name, first index and number of weights, in order.
        pub const TERMS: &[(&str, usize, usize)] = &[$((stringify!($name), $name, $len)),*];
        /// What each term counts (for the tuner's report and the weights file).
        pub const DOCS: &[&str] = &[$($doc),*];
    };
    (@offsets $at:expr; $name:ident: $len:expr; $($rest:tt)*) => {
        #[doc = concat!("Where the weights of `", stringify!($name), "` start.")]
        pub const $name: usize = $at;
        terms!(@offsets $at + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {};
}

terms! {
    PSQT: 6 * 64, "material and square, by piece (pawn..king) and square (a1 = 0, White's side)";
    MOBILITY_KNIGHT: 9, "a knight reaching n squares not attacked by enemy pawns nor held by its own side";
    MOBILITY_BISHOP: 14, "the same for a bishop";
    MOBILITY_ROOK: 15, "the same for a rook";
    MOBILITY_QUEEN: 28, "the same for a queen";
    PASSED: 8, "a passed pawn, by rank from its own side";
    ISOLATED: 1, "a pawn with no pawn of its side on the files beside it";
    DOUBLED: 1, "each pawn beyond the first on a file";
    BISHOP_PAIR: 1, "two bishops or more";
    ROOK_OPEN: 1, "a rook on a file without pawns";
    ROOK_SEMI_OPEN: 1, "a rook on a file without pawns of its own side";
    KING_SHIELD: 1, "a pawn on the two ranks in front of its king (on its first two ranks), on its file or beside";
    TEMPO: 1, "the side to move";
}

/// Game phase weights of the pieces: 24 with all minor and major pieces on
/// the board (middlegame), 0 with none (endgame).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting position.
pub const PHASE_FULL: i32 = 24;

/// What the evaluation reports its terms to.
pub trait Sink {
    /// `count` more of weight `index` (negative: Black's).
    fn add(&mut self, index: usize, count: i32);
}

/// Adds up the weighted terms: the evaluation proper.
struct Score<'a> {
    weights: &'a [S; N],
    mg: i32,
    eg: i32,
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        let w = self.weights[index];
        self.mg += count * i32::from(w.0);
        self.eg += count * i32::from(w.1);
    }
}

/// Masks the evaluation computes from the board alone, once.
#[derive(Clone, Debug)]
pub struct Masks {
    /// Squares ahead of a pawn on its own and the neighbouring files, per
    /// colour: no enemy pawn there makes it a passed pawn.
    passed: [[BitBoard; 64]; 2],
}

impl Masks {
    pub fn new() -> Self {
        let mut passed = [[BitBoard::EMPTY; 64]; 2];
        for sq in Square::ALL {
            let files = sq.file().bitboard() | sq.file().adjacent();
            let (mut white, mut black) = (BitBoard::EMPTY, BitBoard::EMPTY);
            for r in Rank::ALL {
                if r > sq.rank() {
                    white |= r.bitboard();
                }
                if r < sq.rank() {
                    black |= r.bitboard();
                }
            }
            passed[0][sq as usize] = files & white;
            passed[1][sq as usize] = files & black;
        }
        Masks { passed }
    }
}

impl Default for Masks {
    fn default() -> Self {
        Self::new()
    }
}

/// The evaluation of `board` (not a finished game), centipawns from
/// White's view, with the built-in weights.
pub fn evaluate(masks: &Masks, board: &Board) -> i32 {
    evaluate_with(masks, board, &WEIGHTS)
}

/// The evaluation with other weights (the tuner's).
pub fn evaluate_with(masks: &Masks, board: &Board, weights: &[S; N]) -> i32 {
    let mut score = Score {
        weights,
        mg: 0,
        eg: 0,
    };
    let phase = terms(masks, board, &mut score);
    blend(score.mg, score.eg, phase)
}

/// The middlegame and endgame sums blended by the phase.
#[inline]
pub fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_FULL - phase)) / PHASE_FULL
}

/// Reports every term of `board` to `sink` and returns the phase (0 to
/// [`PHASE_FULL`]).
pub fn terms(masks: &Masks, board: &Board, sink: &mut impl Sink) -> i32 {
    let occupied = board.occupied();
    let pawns = board.pieces(Piece::Pawn);
    let mut phase = 0;
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let sign = if ci == 0 { 1 } else { -1 };
        let own = board.colors(color);
        let own_pawns = pawns & own;
        let their_pawns = pawns & !own;
        let their_pawn_attacks = pawn_attacks(their_pawns, !color);
        let reachable = !own & !their_pawn_attacks;
        for piece in Piece::ALL {
            let p = piece as usize;
            for sq in board.colored_pieces(color, piece) {
                let rel = if ci == 0 { sq } else { sq.flip_rank() } as usize;
                sink.add(PSQT + p * 64 + rel, sign);
                phase += PHASE[p];
                let (mobility, attacks) = match piece {
                    Piece::Knight => (MOBILITY_KNIGHT, get_knight_moves(sq)),
                    Piece::Bishop => (MOBILITY_BISHOP, get_bishop_moves(sq, occupied)),
                    Piece::Rook => (MOBILITY_ROOK, get_rook_moves(sq, occupied)),
                    Piece::Queen => (
                        MOBILITY_QUEEN,
                        get_bishop_moves(sq, occupied) | get_rook_moves(sq, occupied),
                    ),
                    _ => (usize::MAX, BitBoard::EMPTY),
                };
                if mobility != usize::MAX {
                    sink.add(mobility + (attacks & reachable).len() as usize, sign);
                }
                match piece {
                    Piece::Pawn => {
                        if (masks.passed[ci][sq as usize] & their_pawns).is_empty() {
                            let r = sq.rank().relative_to(color) as usize;
                            sink.add(PASSED + r, sign);
                        }
                        if (sq.file().adjacent() & own_pawns).is_empty() {
                            sink.add(ISOLATED, sign);
                        }
                    }
                    Piece::Rook => {
                        let file = sq.file().bitboard();
                        if (file & pawns).is_empty() {
                            sink.add(ROOK_OPEN, sign);
                        } else if (file & own_pawns).is_empty() {
                            sink.add(ROOK_SEMI_OPEN, sign);
                        }
                    }
                    _ => {}
                }
            }
        }
        for f in File::ALL {
            let n = (f.bitboard() & own_pawns).len() as i32;
            if n > 1 {
                sink.add(DOUBLED, sign * (n - 1));
            }
        }
        if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
            sink.add(BISHOP_PAIR, sign);
        }
        // Pawns on the two ranks in front of a king on its back ranks.
        let king = board.king(color);
        if king.rank().relative_to(color) <= Rank::Second {
            let files = king.file().bitboard() | king.file().adjacent();
            let ahead = match color {
                Color::White => king.bitboard().0 << 8 | king.bitboard().0 << 16,
                Color::Black => king.bitboard().0 >> 8 | king.bitboard().0 >> 16,
            };
            let rows = BitBoard(spread_ranks(ahead));
            let shield = (own_pawns & files & rows).len() as i32;
            if shield > 0 {
                sink.add(KING_SHIELD, sign * shield);
            }
        }
    }
    let mover = if board.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    sink.add(TEMPO, mover);
    phase.min(PHASE_FULL)
}

/// Every square a set of pawns of `color` attacks.
fn pawn_attacks(pawns: BitBoard, color: Color) -> BitBoard {
    let not_a = !File::A.bitboard().0;
    let not_h = !File::H.bitboard().0;
    let p = pawns.0;
    BitBoard(match color {
        Color::White => ((p & not_a) << 7) | ((p & not_h) << 9),
        Color::Black => ((p & not_a) >> 9) | ((p & not_h) >> 7),
    })
}

/// The whole ranks of every square in `bits`.
fn spread_ranks(bits: u64) -> u64 {
    let mut out = 0;
    for r in 0..8 {
        if bits & (0xff << (8 * r)) != 0 {
            out |= 0xff << (8 * r);
        }
    }
    out
}
