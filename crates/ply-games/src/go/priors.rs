//! What a new node's moves are worth before the search has tried them
//! ([`Playouts::prior`](ply_core::Playouts::prior)): Go knowledge as
//! virtual AMAF results, in the manner of Gelly and Silver's "prior
//! knowledge" for MoGo (2007) and Pachi's priors. Each heuristic that
//! fires adds some virtual games at some rate; a move no heuristic
//! speaks for starts at one virtual draw, as without knowledge.
//!
//! The knowledge here reads only the 3×3 (and, for the edge, the 7×7)
//! neighbourhood and the groups beside the point, so that it costs a
//! small part of a playout: it is computed for every move of every new
//! node.

use super::board::{BORDER, Board, EMPTY, opposite};
use super::patterns::shape_at;

/// Which knowledge a new node's moves start with (the game's `priors`
/// parameter); measured in games (README, Go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priors {
    /// Only what the search cannot learn by itself: a pass and a play
    /// in one's own eye start low (neither gathers AMAF results).
    Plain,
    /// Plain, and the tactical and shape knowledge below.
    Knowledge,
}

/// Virtual results `(games, wins)` for the play of `colour` at the empty
/// point `p`, `last` the last move's point (if a play).
///
/// - a capture: 20 games at 90% (more when it takes the last move's stones);
/// - saving a group of one's own in atari by extending to two liberties:
///   20 at 85%;
/// - a self-atari of two stones or more: 20 at 5% (a lost group);
/// - beside the last move (its eight neighbours): 10 at 65%, the local
///   answer most strong moves are; with a hane or cut shape there, 10
///   more at 70%;
/// - on the first line with no stone within three points: 20 at 15%; on
///   the second, 10 at 35% (an empty area's edge is worth little).
pub(super) fn knowledge(board: &Board, p: usize, colour: u8, last: Option<usize>) -> (f32, f32) {
    let mut games = 0.0;
    let mut wins = 0.0;
    let mut add = |n: f32, rate: f32| {
        games += n;
        wins += n * rate;
    };
    let enemy = opposite(colour);
    let near_last = last.is_some_and(|l| board.neighbours8(l).contains(&p));
    if board.captures(p, colour) {
        let takes_last = last.is_some_and(|l| {
            board.colour(l) == enemy
                && board.in_atari(board.head(l))
                && board.atari_liberty(board.head(l)) == p
        });
        add(if takes_last { 30.0 } else { 20.0 }, 0.9);
    } else if let Some(size) = board.self_atari(p, colour) {
        if size >= 2 {
            add(20.0, 0.05);
        }
    } else if saves(board, p, colour) {
        add(20.0, 0.85);
    }
    if near_last {
        add(10.0, 0.65);
        if shape_at(board, p) {
            add(10.0, 0.7);
        }
    }
    match edge_line(board, p) {
        1 if alone(board, p, 3) => add(20.0, 0.15),
        2 if alone(board, p, 3) => add(10.0, 0.35),
        _ => {}
    }
    if games == 0.0 { (1.0, 0.5) } else { (games, wins) }
}

/// Whether `p` is the liberty of a group of `colour`'s in atari (and the
/// caller has checked that the play leaves two liberties or more).
fn saves(board: &Board, p: usize, colour: u8) -> bool {
    board
        .neighbours(p)
        .into_iter()
        .any(|q| board.colour(q) == colour && board.in_atari(board.head(q)))
}

/// Which line from the edge `p` is on (1 for the edge itself).
fn edge_line(board: &Board, p: usize) -> usize {
    let s = board.stride();
    let size = s - 2;
    let (col, row) = (p % s, p / s);
    col.min(row).min(size + 1 - col).min(size + 1 - row)
}

/// Whether no stone lies within Manhattan distance `d` of `p`.
fn alone(board: &Board, p: usize, d: isize) -> bool {
    let s = board.stride() as isize;
    let (col, row) = ((p as isize) % s, (p as isize) / s);
    for dy in -d..=d {
        let r = row + dy;
        if r < 0 || r >= s {
            continue;
        }
        let reach = d - dy.abs();
        for dx in -reach..=reach {
            let c = col + dx;
            if c < 0 || c >= s {
                continue;
            }
            let colour = board.colour((r * s + c) as usize);
            if colour != EMPTY && colour != BORDER {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::Go;
    use super::*;
    use ply_core::Notation;

    /// The virtual results of `point` for the side to move in `position`
    /// (moves from the empty board, or a diagram and moves).
    fn prior_of(go: &Go, position: &str, point: &str) -> (f32, f32) {
        let s = go.parse_position(position).unwrap();
        let mv = go.parse_move(&s, point).unwrap();
        let last = s.last_move().filter(|m| !m.is_pass()).map(|m| usize::from(m.0));
        knowledge(&s.board, usize::from(mv.0), s.colour(), last)
    }

    fn rate(go: &Go, position: &str, point: &str) -> f32 {
        let (games, wins) = prior_of(go, position, point);
        wins / games
    }

    #[test]
    fn captures_and_escapes_start_high() {
        let go = Go::new(9, 7).unwrap();
        // White surrounds black's E5 on three sides: black to move.
        let pos = "E5 D5 A9 E4 B9 E6";
        assert!(rate(&go, pos, "F5") > 0.75, "F5 saves E5 with three liberties");
        // The same with black passing: white's F5 takes E5.
        assert_eq!(prior_of(&go, &format!("{pos} pass"), "F5"), (20.0, 18.0));
        // Black's last stone walks into atari; taking it weighs more.
        let (games, _) = prior_of(&go, "A9 D5 B9 E4 C9 E6 E5", "F5");
        assert!(games >= 40.0, "{games}: the capture of the last move, beside it");
        assert!(rate(&go, "A9 D5 B9 E4 C9 E6 E5", "F5") > 0.8);
    }

    #[test]
    fn self_ataris_and_empty_edges_start_low() {
        // Black's A1 joins A2 and B1 into three stones with one liberty.
        let go5 = Go::new(5, 0).unwrap();
        let sa = "...../...../O..../XO.../.X.O. b";
        assert_eq!(prior_of(&go5, sa, "A1"), (20.0, 1.0));
        // C1 gives B1 two liberties: nothing to say.
        assert_eq!(prior_of(&go5, sa, "C1"), (1.0, 0.5));
        let go = Go::new(9, 7).unwrap();
        assert_eq!(prior_of(&go, "", "A5"), (20.0, 3.0));
        assert_eq!(prior_of(&go, "", "B5"), (10.0, 3.5));
        assert_eq!(prior_of(&go, "", "C5"), (1.0, 0.5));
        // The first line near stones is not an empty area's edge.
        assert_eq!(prior_of(&go, "C5 G5", "A5"), (1.0, 0.5));
    }

    #[test]
    fn the_last_moves_neighbours_start_higher() {
        let go = Go::new(9, 7).unwrap();
        assert!(rate(&go, "E5", "E6") >= 0.65);
        assert!(rate(&go, "E5", "F6") >= 0.65);
        assert_eq!(prior_of(&go, "E5", "E7"), (1.0, 0.5));
    }
}
