//! 3×3 shapes for the playouts, in the manner of MoGo's (Gelly, Wang,
//! Munos and Teytaud 2006): after a move, a playout prefers an empty point
//! beside it whose 3×3 neighbourhood is a hane or a cut, the local
//! answers a player makes without reading. MoGo's paper lists more shapes
//! and exceptions than these; this is the core of them, written from the
//! Go they describe, and measured in games (README, Go).
//!
//! A shape is written as three rows, the centre the empty point to play:
//! `X` and `O` the two colours (either may be the mover: a point good
//! for one side is good for the other), `.` empty, `?` anything, `x` not
//! `X` (an `O`, an empty point or the edge). Each shape matches in its
//! eight orientations. The neighbourhood's eight points, two bits each,
//! index a table of 65,536 answers built once.

use std::sync::OnceLock;

use super::board::{BLACK, BORDER, Board, EMPTY, WHITE};

/// The shapes: hanes (a stone reaching diagonally around an opponent's
/// contact stone) and cuts (separating two diagonal stones).
const SHAPES: [[&str; 3]; 5] = [
    // Hane, the opponent's stone between two of ours.
    ["XOX", "...", "???"],
    // Hane, open on the far side.
    ["XO.", "...", "?.?"],
    // Hane, backed by a stone below ours.
    ["XO?", "X..", "?.?"],
    // Cut: two opponent stones touching the point, ours on the diagonal.
    ["XO?", "O.?", "???"],
    // Cut between two stones, nothing of ours under it.
    ["?X?", "O.O", "xxx"],
];

/// The neighbours' order in a code: NW, N, NE, W, E, SW, S, SE.
const CELLS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Whether the neighbourhood whose cells are `cells` (in [`CELLS`]'s
/// order; [`EMPTY`], [`BLACK`], [`WHITE`] or [`BORDER`]) matches a shape.
fn matches(cells: [u8; 8]) -> bool {
    let at = |dx: i32, dy: i32| {
        let i = CELLS.iter().position(|&c| c == (dx, dy)).expect("a neighbour");
        cells[i]
    };
    let fits = |want: u8, have: u8, x: u8, o: u8| match want {
        b'X' => have == x,
        b'O' => have == o,
        b'.' => have == EMPTY,
        b'x' => have != x,
        _ => true,
    };
    SHAPES.iter().any(|shape| {
        (0..8).any(|sym| {
            [(BLACK, WHITE), (WHITE, BLACK)].into_iter().any(|(x, o)| {
                (0..3).all(|row| {
                    (0..3).all(|col| {
                        let (dx, dy) = (col as i32 - 1, row as i32 - 1);
                        if (dx, dy) == (0, 0) {
                            return true;
                        }
                        let (tx, ty) = orient(dx, dy, sym);
                        fits(shape[row].as_bytes()[col], at(tx, ty), x, o)
                    })
                })
            })
        })
    })
}

/// `(dx, dy)` under the symmetry `sym` of the square (0 to 7).
fn orient(dx: i32, dy: i32, sym: usize) -> (i32, i32) {
    let (x, y) = if sym & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let x = if sym & 1 != 0 { -x } else { x };
    let y = if sym & 2 != 0 { -y } else { y };
    (x, y)
}

/// The table: bit `code` set when that neighbourhood matches.
fn table() -> &'static [u64] {
    static TABLE: OnceLock<Vec<u64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut bits = vec![0u64; 1 << 10];
        for code in 0..1usize << 16 {
            let cells: [u8; 8] = std::array::from_fn(|i| ((code >> (2 * i)) & 3) as u8);
            if matches(cells) {
                bits[code >> 6] |= 1 << (code & 63);
            }
        }
        bits
    })
}

/// Whether the empty point `p` of `board` has a shape around it.
#[inline]
pub(super) fn shape_at(board: &Board, p: usize) -> bool {
    let s = board.stride() as isize;
    let mut code = 0usize;
    for (i, &(dx, dy)) in CELLS.iter().enumerate() {
        let q = (p as isize + dx as isize + dy as isize * s) as usize;
        code |= usize::from(board.colour(q) & 3) << (2 * i);
    }
    table()[code >> 6] & (1 << (code & 63)) != 0
}

/// Colours fit in two bits: the code reads them as they are.
const _: () = assert!(EMPTY == 0 && BLACK == 1 && WHITE == 2 && BORDER == 3);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Go;
    use ply_core::Notation;

    /// The shapes found on boards drawn by hand, in several orientations
    /// and both colours, and not where a shape is missing a stone.
    #[test]
    fn hanes_and_cuts_are_found_in_every_orientation() {
        let g = Go::new(5, 0).unwrap();
        let at = |diagram: &str, point: &str| {
            let s = g.parse_position(diagram).unwrap();
            let p = g.parse_move(&s, point).unwrap();
            shape_at(s.board(), usize::from(p.0))
        };
        // Hane: X O X over the point C3 (C4 white between B4 and D4).
        assert!(at("...../.XOX./...../...../.....", "C3"));
        // The same turned a quarter and in the other colours.
        assert!(at("...../.O.../.X.../.O.../.....", "C3"));
        // Cut: C4 and B3 white around C3, B4 black on the diagonal.
        assert!(at("...../.XO../.O.../...../.....", "C3"));
        // The cut mirrored, colours swapped.
        assert!(at("...../..XO./...X./...../.....", "C3"));
        // Nothing around, or a lone stone: no shape.
        assert!(!at("...../...../...../...../.....", "C3"));
        assert!(!at("...../..O../...../...../.....", "C3"));
        // Two friendly stones, no opponent: no shape.
        assert!(!at("...../.XX../...../...../.....", "C3"));
    }
}
