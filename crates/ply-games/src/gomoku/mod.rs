//! Gomoku: five in a row on a 15×15 board (or any size from 5 to 26),
//! freestyle (five or more wins) or standard (exactly five).
//!
//! The board is too big to solve, so the engine lives on what the state
//! keeps up to date as stones are played: for every empty point and each of
//! the four lines through it, the pattern a stone there would make for each
//! colour ([`patterns`]), and how many points of each pattern each colour
//! has. A move rewrites only the points within five of it along its four
//! lines (at most 40 of the 4 × 225), not the board. The evaluation reads
//! the counts; move ordering, the engine's candidate moves and the threat
//! search ([`vcf`]) read the patterns of single points.
//!
//! Points are numbered `y * size + x` with Gomocup's coordinates: `x` the
//! column from 0 at the left, `y` the row from 0 at the top. People write a
//! point as a column letter and a row number counted from 1 at the bottom:
//! on 15×15, `h8` is the centre, `x,y` = `7,7`.

pub mod patterns;
pub mod vcf;

use std::fmt;
use std::hash::{Hash, Hasher};

use ply_core::registry::{GameSpec, ParamKind, ParamSpec, ParamValues, Registered, SetupError};
use ply_core::{
    EngineHooks, Evaluation, Game, MaxScore, Notation, ParseError, Player, Shortcuts, ThreatSearch,
    Tuning, sort_by_priority,
};

use patterns::{B4, DEAD, F3, F4, F5, LEVELS, NEIGHBOURS, POW3, RADIUS, Table};

/// The largest board: columns are letters, `a` to `z`.
pub const MAX_SIZE: usize = 26;
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// A point, `y * size + x`.
pub type Point = u16;

/// The four lines through a point: across, down, and the two diagonals.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Black (the first player, MAX) and white.
const BLACK: usize = 0;
const WHITE: usize = 1;

/// Zobrist keys: one random number per colour and point.
static ZOBRIST: [[u64; MAX_CELLS]; 2] = {
    let mut keys = [[0u64; MAX_CELLS]; 2];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            // splitmix64
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    keys
};

/// A position: the stones with the order they were played in, and what is
/// kept up to date from them.
#[derive(Clone)]
pub struct Position {
    /// 0 for an empty point; else the number of the move that put a stone
    /// there, from 1: odd numbers are black's, even white's. The order makes
    /// the position printable as the moves that led to it.
    order: [u16; MAX_CELLS],
    /// For an empty point and each direction, the pattern a stone there
    /// would make: black's level in the low four bits, white's in the high.
    codes: [[u8; 4]; MAX_CELLS],
    /// How many stones lie within two points (in any direction): the engine
    /// looks only at points near the fight.
    near: [u8; MAX_CELLS],
    /// For each colour, how many (empty point, direction) pairs have each level.
    counts: [[u16; LEVELS]; 2],
    /// For each colour, the sum over empty points of what a stone there
    /// would make on its four lines together ([`point_value`]).
    values: [i32; 2],
    stones: u16,
    key: u64,
    /// 0 while nobody has five; 1 black, 2 white.
    winner: u8,
}

impl Position {
    /// The colour of the stone on `p`, if any.
    #[inline(always)]
    fn colour(&self, p: usize) -> Option<usize> {
        match self.order[p] {
            0 => None,
            n => Some(((n + 1) & 1) as usize),
        }
    }

    /// The colour to move.
    #[inline(always)]
    fn mover(&self) -> usize {
        (self.stones & 1) as usize
    }

    /// The level a stone of `colour` on empty `p` makes along direction `d`.
    #[inline(always)]
    fn level(&self, p: usize, d: usize, colour: usize) -> u8 {
        (self.codes[p][d] >> (4 * colour)) & 15
    }

    /// The highest level a stone of `colour` on `p` makes on any line.
    #[inline(always)]
    fn best_level(&self, p: usize, colour: usize) -> u8 {
        (0..4).map(|d| self.level(p, d, colour)).max().unwrap_or(DEAD)
    }

    /// How many (point, direction) pairs give `colour` this level.
    #[inline(always)]
    pub fn count(&self, colour: usize, level: u8) -> u16 {
        self.counts[colour][level as usize]
    }

    /// The number of stones on the board.
    pub fn stones(&self) -> usize {
        self.stones as usize
    }
}

impl PartialEq for Position {
    /// Positions are equal when the same stones stand on the same points,
    /// whatever order they were played in.
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
            && self.stones == other.stones
            && (0..MAX_CELLS).all(|p| self.colour(p) == other.colour(p))
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.key.hash(h);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} stones, key {:016x})", self.stones, self.key)
    }
}

/// Gomoku on a `size` × `size` board.
#[derive(Clone)]
pub struct Gomoku {
    size: usize,
    /// The standard rule: exactly five wins, an overline does not.
    exact: bool,
    table: &'static Table,
    /// For each point and direction, the points at offsets -5..-1 and
    /// 1..5 along the line (`None` off the board), in a key's digit order.
    lines: Vec<[[Option<u16>; NEIGHBOURS]; 4]>,
    /// For each point, the points within two of it.
    around: Vec<Vec<u16>>,
    empty: Box<Position>,
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gomoku({}x{}, {})", self.size, self.size, self.rule())
    }
}

/// Move-ordering weights, per direction of each level: the player to
/// move's own chances weigh more than the opponent's it would block.
const ATTACK: [i32; LEVELS] = [0, 1, 3, 6, 14, 18, 70, 80, 300, 0];
const DEFENCE: [i32; LEVELS] = [0, 1, 2, 5, 10, 14, 45, 55, 200, 0];
/// What a point is worth to a colour, from the levels a stone there makes
/// on its four lines: a point that wins (an open four, two fours), a
/// four-three or a double three at once, else the lines' worth added up.
/// Fives are left to the search, which plays or blocks them at once.
#[inline(always)]
fn point_value(code: [u8; 4], colour: usize) -> i32 {
    let (mut fours, mut open_fours, mut threes, mut sum) = (0, 0, 0, 0);
    for c in code {
        let l = (c >> (4 * colour)) & 15;
        fours += i32::from(l == B4);
        open_fours += i32::from(l == F4);
        threes += i32::from(l == F3);
        sum += LINE_VALUE[l as usize];
    }
    if open_fours > 0 || fours >= 2 {
        WINNING_POINT
    } else if fours > 0 && threes > 0 {
        FOUR_THREE_POINT
    } else if threes >= 2 {
        DOUBLE_THREE_POINT
    } else {
        sum
    }
}

/// A line's worth at a point, by the level a stone there makes.
const LINE_VALUE: [i32; LEVELS] = [0, 1, 2, 4, 10, 12, 40, 45, 0, 0];
const WINNING_POINT: i32 = 800;
const FOUR_THREE_POINT: i32 = 500;
const DOUBLE_THREE_POINT: i32 = 300;
/// The player to move's values count this many quarters.
const TEMPO: i32 = 5;

/// Evaluations of positions one move from decided.
const WIN_NEXT: i32 = 50_000;
const WIN_SOON: i32 = 20_000;
/// A finished game's evaluation: above every estimate.
pub const EVAL_WIN: i32 = 1_000_000;

/// The most moves a depth-limited node searches (the best by ordering).
const MAX_CANDIDATES: usize = 20;

impl Gomoku {
    /// A board of `size` × `size`; `exact`: the standard rule.
    pub fn new(size: usize, exact: bool) -> Result<Self, SetupError> {
        if !(5..=MAX_SIZE).contains(&size) {
            return Err(SetupError(format!(
                "a gomoku board is 5 to {MAX_SIZE} points wide, not {size}"
            )));
        }
        let n = size as i32;
        let mut lines = Vec::with_capacity(size * size);
        let mut around = Vec::with_capacity(size * size);
        for p in 0..size * size {
            let (x, y) = ((p % size) as i32, (p / size) as i32);
            let mut dirs = [[None; NEIGHBOURS]; 4];
            for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                let offsets = (-RADIUS..0).chain(1..=RADIUS);
                for (i, k) in offsets.enumerate() {
                    let (qx, qy) = (x + k * dx, y + k * dy);
                    if (0..n).contains(&qx) && (0..n).contains(&qy) {
                        dirs[d][i] = Some((qy * n + qx) as u16);
                    }
                }
            }
            lines.push(dirs);
            let mut near = Vec::new();
            for qy in (y - 2).max(0)..=(y + 2).min(n - 1) {
                for qx in (x - 2).max(0)..=(x + 2).min(n - 1) {
                    if (qx, qy) != (x, y) {
                        near.push((qy * n + qx) as u16);
                    }
                }
            }
            around.push(near);
        }
        let mut game = Gomoku {
            size,
            exact,
            table: patterns::table(exact),
            lines,
            around,
            empty: Box::new(Position {
                order: [0; MAX_CELLS],
                codes: [[0; 4]; MAX_CELLS],
                near: [0; MAX_CELLS],
                counts: [[0; LEVELS]; 2],
                values: [0; 2],
                stones: 0,
                key: 0,
                winner: 0,
            }),
        };
        let mut empty = (*game.empty).clone();
        game.recount(&mut empty);
        game.empty = Box::new(empty);
        Ok(game)
    }

    /// The board's width.
    pub fn size(&self) -> usize {
        self.size
    }

    /// `"freestyle"` or `"standard"`.
    pub fn rule(&self) -> &'static str {
        if self.exact { "standard" } else { "freestyle" }
    }

    fn cells(&self) -> usize {
        self.size * self.size
    }

    /// The pattern code of empty `p` along `d`, read from the board.
    #[inline(always)]
    fn code(&self, s: &Position, p: usize, d: usize) -> u8 {
        let (mut black, mut white) = (0, 0);
        for (i, q) in self.lines[p][d].iter().enumerate() {
            let (b, w) = match q.map(|q| s.colour(q as usize)) {
                None => (patterns::BLOCKED_DIGIT, patterns::BLOCKED_DIGIT),
                Some(None) => (patterns::EMPTY_DIGIT, patterns::EMPTY_DIGIT),
                Some(Some(BLACK)) => (patterns::OWN_DIGIT, patterns::BLOCKED_DIGIT),
                Some(Some(_)) => (patterns::BLOCKED_DIGIT, patterns::OWN_DIGIT),
            };
            black += POW3[i] * b;
            white += POW3[i] * w;
        }
        self.table.level(black) | self.table.level(white) << 4
    }

    /// Sets `p`'s code along `d`, keeping the counts and values in step.
    #[inline(always)]
    fn set_code(s: &mut Position, p: usize, d: usize, new: u8) {
        let old = s.codes[p][d];
        if old != new {
            s.counts[BLACK][(old & 15) as usize] -= 1;
            s.counts[WHITE][(old >> 4) as usize] -= 1;
            s.counts[BLACK][(new & 15) as usize] += 1;
            s.counts[WHITE][(new >> 4) as usize] += 1;
            for c in [BLACK, WHITE] {
                s.values[c] -= point_value(s.codes[p], c);
            }
            s.codes[p][d] = new;
            for c in [BLACK, WHITE] {
                s.values[c] += point_value(s.codes[p], c);
            }
        }
    }

    /// Recomputes every code, count and neighbourhood of `s` from its
    /// stones: what [`Game::play`] keeps up to date move by move. For the
    /// start position, and for tests and the benchmark that compare the two.
    pub fn recount(&self, s: &mut Position) {
        s.codes = [[0; 4]; MAX_CELLS];
        s.near = [0; MAX_CELLS];
        s.counts = [[0; LEVELS]; 2];
        s.values = [0; 2];
        for p in 0..self.cells() {
            if s.order[p] == 0 {
                for d in 0..4 {
                    let code = self.code(s, p, d);
                    s.codes[p][d] = code;
                    s.counts[BLACK][(code & 15) as usize] += 1;
                    s.counts[WHITE][(code >> 4) as usize] += 1;
                }
                for c in [BLACK, WHITE] {
                    s.values[c] += point_value(s.codes[p], c);
                }
            } else {
                for &q in &self.around[p] {
                    s.near[q as usize] += 1;
                }
            }
        }
    }

    /// The codes, counts and neighbourhoods of `a` and `b` agree (for tests).
    pub fn same_patterns(&self, a: &Position, b: &Position) -> bool {
        a.counts == b.counts
            && a.values == b.values
            && (0..self.cells()).all(|p| a.codes[p] == b.codes[p] && a.near[p] == b.near[p])
    }

    /// The distinct empty points where `colour` would make five.
    fn five_points(&self, s: &Position, colour: usize, out: &mut Vec<Point>) {
        if s.counts[colour][F5 as usize] == 0 {
            return;
        }
        for p in 0..self.cells() {
            if s.order[p] == 0 && (0..4).any(|d| s.level(p, d, colour) == F5) {
                out.push(p as Point);
            }
        }
    }

    /// How strongly the player to move wants `p`: its own threats there
    /// and the opponent's it would block, the decisive ones far ahead.
    fn priority(&self, s: &Position, p: usize) -> i32 {
        let (me, them) = (s.mover(), 1 - s.mover());
        let (mut score, mut my_fours, mut my_open, mut my_threes) = (0, 0, false, 0);
        let (mut their_fours, mut their_open, mut their_threes) = (0, false, 0);
        let (mut my_five, mut their_five) = (false, false);
        for d in 0..4 {
            let (a, b) = (s.level(p, d, me), s.level(p, d, them));
            score += ATTACK[a as usize] + DEFENCE[b as usize];
            my_five |= a == F5;
            their_five |= b == F5;
            my_open |= a == F4;
            their_open |= b == F4;
            my_fours += i32::from(a >= B4);
            their_fours += i32::from(b >= B4);
            my_threes += i32::from(a == F3);
            their_threes += i32::from(b == F3);
        }
        let tier = if my_five {
            9
        } else if their_five {
            8
        } else if my_open || my_fours >= 2 {
            7
        } else if their_open || their_fours >= 2 {
            6
        } else if my_fours >= 1 && my_threes >= 1 {
            5
        } else if their_fours >= 1 && their_threes >= 1 {
            4
        } else if my_threes >= 2 {
            3
        } else if their_threes >= 2 {
            2
        } else {
            0
        };
        tier * 100_000 + score
    }

    fn parse_point(&self, text: &str) -> Result<usize, String> {
        let t = text.trim();
        let n = self.size;
        let last_col = (b'a' + n as u8 - 1) as char;
        let how = format!(
            "a point is a column letter and a row number, a1 to {last_col}{n}, or x,y counted from 0"
        );
        let (x, y) = if let Some((xs, ys)) = t.split_once(',') {
            let read = |v: &str| v.trim().parse::<usize>().ok();
            match (read(xs), read(ys)) {
                (Some(x), Some(y)) if x < n && y < n => (x, y),
                (Some(_), Some(_)) => {
                    return Err(format!(
                        "'{t}' is off the board: x and y go from 0 to {}",
                        n - 1
                    ));
                }
                _ => return Err(format!("'{t}' is not a point: {how}")),
            }
        } else {
            let mut chars = t.chars();
            let letter = chars.next().map(|c| c.to_ascii_lowercase());
            let row: Option<usize> = chars.as_str().parse().ok();
            match (letter, row) {
                (Some(c @ 'a'..='z'), Some(r)) => {
                    let x = c as usize - 'a' as usize;
                    if x >= n || r == 0 || r > n {
                        return Err(format!(
                            "'{t}' is off the board: columns a to {last_col}, rows 1 to {n}"
                        ));
                    }
                    (x, n - r)
                }
                _ => return Err(format!("'{t}' is not a point: {how}")),
            }
        };
        Ok(y * n + x)
    }

    /// `p` as people write it: `h8`.
    pub fn point_name(&self, p: Point) -> String {
        let (x, y) = (p as usize % self.size, p as usize / self.size);
        format!("{}{}", (b'a' + x as u8) as char, self.size - y)
    }

    /// `p` in Gomocup's coordinates.
    pub fn xy(&self, p: Point) -> (usize, usize) {
        (p as usize % self.size, p as usize / self.size)
    }

    /// The point at Gomocup's `x,y`, if on the board.
    pub fn point_at(&self, x: usize, y: usize) -> Option<Point> {
        (x < self.size && y < self.size).then(|| (y * self.size + x) as Point)
    }

    /// Whether `p` is on the board and empty.
    pub fn is_empty(&self, s: &Position, p: Point) -> bool {
        (p as usize) < self.cells() && s.order[p as usize] == 0
    }

    /// The position after `moves` from the empty board, or the number (from
    /// 0) of the first move that is not legal.
    pub fn from_moves(&self, moves: &[Point]) -> Result<Position, usize> {
        let mut s = self.initial_state();
        for (i, &p) in moves.iter().enumerate() {
            if self.is_terminal(&s) || !self.is_empty(&s, p) {
                return Err(i);
            }
            s = self.play(&s, p);
        }
        Ok(s)
    }

    /// The moves that led to `s`, in order.
    pub fn moves_of(&self, s: &Position) -> Vec<Point> {
        let mut moves: Vec<(u16, Point)> = (0..self.cells())
            .filter(|&p| s.order[p] != 0)
            .map(|p| (s.order[p], p as Point))
            .collect();
        moves.sort_unstable();
        moves.into_iter().map(|(_, p)| p).collect()
    }

    /// A colour's name.
    fn colour_name(colour: usize) -> &'static str {
        if colour == BLACK { "black" } else { "white" }
    }
}

impl Game for Gomoku {
    type State = Position;
    type Move = Point;

    fn initial_state(&self) -> Position {
        (*self.empty).clone()
    }

    fn to_move(&self, s: &Position) -> Player {
        if s.mover() == BLACK {
            Player::Max
        } else {
            Player::Min
        }
    }

    fn legal_moves(&self, s: &Position, moves: &mut Vec<Point>) {
        if self.is_terminal(s) {
            return;
        }
        moves.extend((0..self.cells() as Point).filter(|&p| s.order[p as usize] == 0));
    }

    /// Places the stone and rewrites the codes of the empty points within
    /// five of it along its four lines: no other point's patterns change.
    fn play(&self, state: &Position, mv: Point) -> Position {
        let mut s = state.clone();
        let p = mv as usize;
        let colour = s.mover();
        let won = (0..4).any(|d| s.level(p, d, colour) == F5);
        for d in 0..4 {
            Self::set_code(&mut s, p, d, 0);
            // A stone's own point counts at level 0 for neither colour.
            s.counts[BLACK][0] -= 1;
            s.counts[WHITE][0] -= 1;
        }
        s.stones += 1;
        s.order[p] = s.stones;
        s.key ^= ZOBRIST[colour][p];
        for d in 0..4 {
            for q in self.lines[p][d].iter().flatten() {
                let q = *q as usize;
                if s.order[q] == 0 {
                    let code = self.code(&s, q, d);
                    Self::set_code(&mut s, q, d, code);
                }
            }
        }
        for &q in &self.around[p] {
            s.near[q as usize] += 1;
        }
        if won {
            s.winner = colour as u8 + 1;
        }
        s
    }

    fn is_terminal(&self, s: &Position) -> bool {
        s.winner != 0 || s.stones as usize == self.cells()
    }

    fn utility(&self, s: &Position) -> MaxScore {
        match s.winner {
            1 => MaxScore(1),
            2 => MaxScore(-1),
            _ => MaxScore(0),
        }
    }

    fn hash_key(&self, s: &Position) -> u64 {
        s.key
    }
}

impl Evaluation for Gomoku {
    /// On a finished game, the utility scaled past every estimate.
    fn evaluate(&self, s: &Position) -> MaxScore {
        if self.is_terminal(s) {
            MaxScore(self.utility(s).0 * EVAL_WIN)
        } else {
            self.heuristic(s)
        }
    }

    /// The patterns counted for both colours, from the player to move's
    /// view (a five to make wins next move; an open four to make, or two
    /// fives for the opponent, almost surely decide), then turned to MAX's.
    fn heuristic(&self, s: &Position) -> MaxScore {
        let (me, them) = (s.mover(), 1 - s.mover());
        let mine = |l: u8| s.counts[me][l as usize];
        let theirs = |l: u8| s.counts[them][l as usize];
        let v = if mine(F5) > 0 {
            WIN_NEXT
        } else if theirs(F5) >= 2 {
            -WIN_NEXT
        } else if mine(F4) > 0 && theirs(F5) == 0 {
            WIN_SOON
        } else {
            // The player to move gets to use its chances first.
            (s.values[me] * TEMPO - s.values[them] * 4) / 4
        };
        MaxScore(if me == BLACK { v } else { -v })
    }

    fn order_moves(&self, s: &Position, moves: &mut [Point]) {
        sort_by_priority(moves, |p| self.priority(s, p as usize));
    }


}

impl Shortcuts for Gomoku {
    /// A five to make wins at once.
    fn immediate_win(&self, s: &Position) -> Option<(Point, MaxScore)> {
        let me = s.mover();
        if s.counts[me][F5 as usize] == 0 || self.is_terminal(s) {
            return None;
        }
        let mut fives = Vec::new();
        self.five_points(s, me, &mut fives);
        let win = if me == BLACK { 1 } else { -1 };
        fives.first().map(|&p| (p, MaxScore(win)))
    }

    /// Against a four (a point where the opponent makes five) the only
    /// move is to take that point; against two such points every move
    /// loses.
    fn forced_moves(&self, s: &Position, moves: &mut Vec<Point>) -> Option<MaxScore> {
        let them = 1 - s.mover();
        if s.counts[them][F5 as usize] == 0 {
            self.legal_moves(s, moves);
            return None;
        }
        self.five_points(s, them, moves);
        if moves.len() >= 2 {
            return Some(MaxScore(if them == BLACK { 1 } else { -1 }));
        }
        None
    }
}

impl EngineHooks for Gomoku {
    fn history_slots(&self) -> usize {
        self.cells()
    }
    fn history_slot(&self, _: &Position, mv: Point) -> Option<usize> {
        Some(mv as usize)
    }

    const TUNING: Tuning = Tuning {
        aspiration_width: Some(60),
        ..Tuning::NONE
    };

    /// Quiescence: the fours that threaten to win outright (an open four,
    /// a double four, a four-three), each answered by its one block, so a
    /// winning attack is played out past the horizon. Plain fours are left
    /// to the VCF search: every side has several, and trying them all in
    /// every quiescence node grows the tree factorially.
    fn noisy_moves(&self, s: &Position, moves: &mut Vec<Point>) -> bool {
        let me = s.mover();
        if s.counts[me][B4 as usize] + s.counts[me][F4 as usize] == 0 {
            return true;
        }
        moves.extend(
            (0..self.cells())
                .filter(|&p| {
                    s.order[p] == 0
                        && s.near[p] > 0
                        && s.best_level(p, me) >= B4
                        && point_value(s.codes[p], me) >= FOUR_THREE_POINT
                })
                .map(|p| p as Point),
        );
        true
    }

    /// "In check": the opponent has a four, which must be blocked now.
    fn in_check(&self, s: &Position) -> bool {
        s.counts[1 - s.mover()][F5 as usize] > 0
    }

    /// Quiet: makes no open three or four of its own and blocks no four.
    fn is_quiet(&self, s: &Position, mv: Point) -> bool {
        let p = mv as usize;
        s.best_level(p, s.mover()) < F3 && s.best_level(p, 1 - s.mover()) < B4
    }

    /// Only points near the stones; against an open three (a point where
    /// the opponent makes an open four) only the points that stop it and
    /// one's own fours; at most the best [`MAX_CANDIDATES`] by ordering.
    fn select_moves(&self, s: &Position, moves: &mut Vec<Point>) {
        if moves.len() <= 1 {
            return;
        }
        if s.stones == 0 {
            let centre = (self.size / 2 * self.size + self.size / 2) as Point;
            moves.clear();
            moves.push(centre);
            return;
        }
        let (me, them) = (s.mover(), 1 - s.mover());
        let defend = s.counts[them][F4 as usize] > 0;
        let keep = |p: usize| {
            s.near[p] > 0 && (!defend || s.best_level(p, them) >= B4 || s.best_level(p, me) >= B4)
        };
        let before = moves.len();
        let first = moves[0];
        moves.retain(|&p| keep(p as usize));
        if moves.is_empty() {
            moves.push(first);
        }
        if moves.len() > MAX_CANDIDATES {
            self.order_moves(s, moves);
            moves.truncate(MAX_CANDIDATES);
        }
        debug_assert!(moves.len() <= before);
    }

    const THREAT_SEARCH: bool = true;

    fn threat_win(&self, s: &Position, max_nodes: u64) -> ThreatSearch<Point> {
        vcf::Vcf::new(self).search(s, max_nodes)
    }
}

ply_core::no_hooks!(Gomoku: Chance, Playouts, Impartial, Learn);

impl Registered for Gomoku {
    const SPEC: GameSpec = GameSpec {
        params: &[
            ParamSpec {
                name: "size",
                kind: ParamKind::Int {
                    default: 15,
                    min: 5,
                    max: MAX_SIZE as i64,
                },
                meaning: "the board's width and height (Gomocup's freestyle league plays 20)",
            },
            ParamSpec {
                name: "rule",
                kind: ParamKind::Choice {
                    default: "freestyle",
                    values: &["freestyle", "standard"],
                },
                meaning: "freestyle: five or more in a row wins; standard: exactly five (a longer row does not win)",
            },
        ],
        ..GameSpec::new(
            "gomoku",
            "five in a row across, down or diagonally wins (see the rule parameter for six); black (X) moves first; a full board is a draw",
            "the moves in order from the empty board, separated by spaces, e.g. h8 i9 h9; '' is the empty board",
            "a point: a column letter and a row number from 1 at the bottom (h8 is the centre of 15x15), or Gomocup's x,y counted from 0 at the top left",
        )
    };

    fn from_params(values: &ParamValues) -> Result<Self, SetupError> {
        Self::new(
            values.int("size") as usize,
            values.choice("rule") == "standard",
        )
    }
}

impl Notation for Gomoku {
    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let mut s = self.initial_state();
        let mut column = 1;
        for word in text.split(' ') {
            if !word.is_empty() {
                let n = s.stones + 1;
                let p = self
                    .parse_move(&s, word)
                    .map_err(|e| ParseError::at(column, format!("move {n}: {}", e.message)))?;
                s = self.play(&s, p);
            }
            column += word.chars().count() + 1;
        }
        Ok(s)
    }

    fn format_position(&self, s: &Position) -> String {
        let moves: Vec<String> = self
            .moves_of(s)
            .into_iter()
            .map(|p| self.point_name(p))
            .collect();
        moves.join(" ")
    }

    fn parse_move(&self, s: &Position, text: &str) -> Result<Point, ParseError> {
        let p = self.parse_point(text).map_err(ParseError::new)?;
        if let Some(c) = s.colour(p) {
            return Err(ParseError::new(format!(
                "{} is taken by {}",
                self.point_name(p as Point),
                Self::colour_name(c)
            )));
        }
        if self.is_terminal(s) {
            return Err(ParseError::new("the game is over"));
        }
        Ok(p as Point)
    }

    fn format_move(&self, _: &Position, mv: Point) -> String {
        self.point_name(mv)
    }

    /// The board with column letters and row numbers, `X` black and `O`
    /// white, the last stone in brackets.
    fn draw(&self, s: &Position) -> String {
        let n = self.size;
        let letters: String = (0..n).map(|x| format!(" {}", (b'a' + x as u8) as char)).collect();
        let is_last = |p: usize| s.stones > 0 && s.order[p] == s.stones;
        let mut out = format!("  {letters}\n");
        for y in 0..n {
            out.push_str(&format!("{:>2}", n - y));
            for x in 0..n {
                let p = y * n + x;
                out.push(if is_last(p) {
                    '('
                } else if x > 0 && is_last(p - 1) {
                    ')'
                } else {
                    ' '
                });
                out.push(match s.colour(p) {
                    Some(BLACK) => 'X',
                    Some(_) => 'O',
                    None => '.',
                });
            }
            out.push(if is_last(y * n + n - 1) { ')' } else { ' ' });
            out.push_str(&format!("{}\n", n - y));
        }
        out.push_str(&format!("  {letters}"));
        out
    }
}

#[cfg(test)]
mod tests;
