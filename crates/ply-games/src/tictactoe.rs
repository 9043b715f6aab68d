//! Tic-tac-toe and its m,n,k generalisation: an m-row, n-column board, and
//! the first to get k in a row (across, down or diagonally) wins.
//!
//! Position notation: the squares row by row, `X`, `O` or `.`; rows may be
//! separated by `/` and are on boards other than 3×3 (`XO./.X./...`). X
//! moves first, so the player to move follows from the counts. Squares are
//! numbered row by row from 0 (top-left) and a move is a square number.

use ply_core::{
    EngineHooks, Evaluation, Game, Learn, MaxScore, Notation, ParseError, Player,
    sort_by_priority,
};

use ply_core::registry::{GameSpec, ParamKind, ParamSpec, ParamValues, Registered, SetupError};

/// Whether a board is still in play, and if not how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Moves remain and nobody has k in a row.
    Playing,
    /// X (MAX) has k in a row.
    XWins,
    /// O (MIN) has k in a row.
    OWins,
    /// The board is full and nobody has k in a row.
    Draw,
}

/// A position: one bitboard per player (bit `r * n + c`), and how it stands.
/// `Copy` and 17 bytes, so searches copy it freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// X's squares.
    pub x: u64,
    /// O's squares.
    pub o: u64,
    /// Derived from the two bitboards, kept so the terminal test is free.
    pub status: Status,
}

/// The m,n,k-game. Precomputes every winning line once.
#[derive(Clone, Debug)]
pub struct TicTacToe {
    m: u32,
    n: u32,
    k: u32,
    full: u64,
    lines: Vec<u64>,
    /// For each square, the lines through it: a move can only complete these.
    through: Vec<Vec<u64>>,
}

impl TicTacToe {
    /// The m-row, n-column board with k in a row to win. The board must fit in
    /// 64 squares and k must fit on it.
    pub fn new(m: u32, n: u32, k: u32) -> Result<Self, SetupError> {
        if m == 0 || n == 0 {
            return Err(SetupError("m and n must be at least 1".into()));
        }
        if m * n > 64 {
            return Err(SetupError(format!(
                "a {m}x{n} board has {} squares; at most 64 fit",
                m * n
            )));
        }
        if k == 0 || k > m.max(n) {
            return Err(SetupError(format!(
                "k={k} cannot fit on a {m}x{n} board: k must be from 1 to {}",
                m.max(n)
            )));
        }
        let mut lines = Vec::new();
        let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        for r in 0..m as i32 {
            for c in 0..n as i32 {
                for (dr, dc) in dirs {
                    let (er, ec) = (r + dr * (k as i32 - 1), c + dc * (k as i32 - 1));
                    if er < 0 || er >= m as i32 || ec < 0 || ec >= n as i32 {
                        continue;
                    }
                    let mut mask = 0u64;
                    for i in 0..k as i32 {
                        mask |= 1 << ((r + dr * i) * n as i32 + c + dc * i);
                    }
                    if !lines.contains(&mask) {
                        lines.push(mask);
                    }
                }
            }
        }
        let squares = (m * n) as usize;
        let through = (0..squares)
            .map(|sq| lines.iter().copied().filter(|l| l >> sq & 1 == 1).collect())
            .collect();
        let full = if squares == 64 {
            u64::MAX
        } else {
            (1u64 << squares) - 1
        };
        Ok(TicTacToe {
            m,
            n,
            k,
            full,
            lines,
            through,
        })
    }

    /// Classic 3×3 tic-tac-toe.
    pub fn classic() -> Self {
        Self::new(3, 3, 3).expect("3,3,3 is a valid board")
    }


    /// Rows, columns and line length.
    pub fn dims(&self) -> (u32, u32, u32) {
        (self.m, self.n, self.k)
    }

    /// Number of squares.
    pub fn squares(&self) -> u32 {
        self.m * self.n
    }

    fn has_line(&self, stones: u64) -> bool {
        self.lines.iter().any(|&l| l & !stones == 0)
    }

    /// The status of a board from its stones alone.
    fn status_of(&self, x: u64, o: u64) -> Status {
        if self.has_line(x) {
            Status::XWins
        } else if self.has_line(o) {
            Status::OWins
        } else if (x | o) == self.full {
            Status::Draw
        } else {
            Status::Playing
        }
    }

    /// A board with these stones, checked to be reachable in a real game.
    pub fn board(&self, x: u64, o: u64) -> Result<Board, String> {
        if x & o != 0 {
            return Err("a square holds both X and O".into());
        }
        if (x | o) & !self.full != 0 {
            return Err("a stone lies off the board".into());
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(format!(
                "X has {nx} stones and O {no}: X moves first and the players alternate, \
                 so X has as many stones as O or one more"
            ));
        }
        let (xw, ow) = (self.has_line(x), self.has_line(o));
        let k = self.k;
        if xw && ow {
            return Err(format!(
                "both X and O have {k} in a row; the game ends at the first"
            ));
        }
        if xw && nx != no + 1 {
            return Err(format!(
                "X has {k} in a row, so X moved last and must have one stone more than O"
            ));
        }
        if ow && nx != no {
            return Err(format!(
                "O has {k} in a row, so O moved last and must have as many stones as X"
            ));
        }
        for (won, stones, name) in [(xw, x, 'X'), (ow, o, 'O')] {
            // The winning move must have made every line: some stone of the
            // winner lies on all of them.
            if won && !bits(stones).any(|sq| !self.has_line(stones & !(1 << sq))) {
                return Err(format!(
                    "{name} has separate lines of {k}; the game would have ended at the first"
                ));
            }
        }
        Ok(Board {
            x,
            o,
            status: self.status_of(x, o),
        })
    }

    /// Draws the board with a label in each empty square (e.g. the value of
    /// playing there); `labels[sq]` is used for empty squares only.
    pub fn draw_labelled(&self, b: &Board, labels: &[Option<String>]) -> String {
        let width = labels
            .iter()
            .flatten()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(1)
            .max(1);
        let mut out = String::new();
        for r in 0..self.m {
            if r > 0 {
                let sep: Vec<String> = (0..self.n).map(|_| "-".repeat(width + 2)).collect();
                out.push_str(&sep.join("+"));
                out.push('\n');
            }
            let cells: Vec<String> = (0..self.n)
                .map(|c| {
                    let sq = r * self.n + c;
                    let text = if b.x >> sq & 1 == 1 {
                        "X".to_string()
                    } else if b.o >> sq & 1 == 1 {
                        "O".to_string()
                    } else {
                        labels
                            .get(sq as usize)
                            .cloned()
                            .flatten()
                            .unwrap_or_else(|| ".".to_string())
                    };
                    format!(" {text:^width$} ")
                })
                .collect();
            out.push_str(cells.join("|").trim_end());
            out.push('\n');
        }
        out
    }

    /// A heuristic for depth-limited search: for each line not yet blocked,
    /// the square of its stone count, X's minus O's. Kept inside ±999 so a
    /// proven win (±1000) always outranks it.
    fn heuristic(&self, b: &Board) -> i32 {
        let mut score = 0i32;
        for &l in &self.lines {
            let (cx, co) = ((b.x & l).count_ones() as i32, (b.o & l).count_ones() as i32);
            if co == 0 {
                score += cx * cx;
            } else if cx == 0 {
                score -= co * co;
            }
        }
        score.clamp(-(EVAL_WIN - 1), EVAL_WIN - 1)
    }
}

/// What a won board is worth to [`Game::evaluate`].
pub const EVAL_WIN: i32 = 1000;

fn bits(mut b: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let sq = b.trailing_zeros();
            b &= b - 1;
            Some(sq)
        }
    })
}

impl Game for TicTacToe {
    type State = Board;
    type Move = u8;

    fn initial_state(&self) -> Board {
        Board {
            x: 0,
            o: 0,
            status: Status::Playing,
        }
    }

    #[inline]
    fn to_move(&self, b: &Board) -> Player {
        if b.x.count_ones() == b.o.count_ones() {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn legal_moves(&self, b: &Board, moves: &mut Vec<u8>) {
        if b.status == Status::Playing {
            moves.extend(bits(!(b.x | b.o) & self.full).map(|sq| sq as u8));
        }
    }

    #[inline]
    fn play(&self, b: &Board, mv: u8) -> Board {
        let bit = 1u64 << mv;
        let mut next = *b;
        let (stones, win) = if self.to_move(b) == Player::Max {
            next.x |= bit;
            (next.x, Status::XWins)
        } else {
            next.o |= bit;
            (next.o, Status::OWins)
        };
        if self.through[mv as usize].iter().any(|&l| l & !stones == 0) {
            next.status = win;
        } else if next.x | next.o == self.full {
            next.status = Status::Draw;
        }
        next
    }

    #[inline]
    fn is_terminal(&self, b: &Board) -> bool {
        b.status != Status::Playing
    }

    #[inline]
    fn utility(&self, b: &Board) -> MaxScore {
        match b.status {
            Status::XWins => MaxScore(1),
            Status::OWins => MaxScore(-1),
            _ => MaxScore(0),
        }
    }

    #[inline]
    fn hash_key(&self, b: &Board) -> u64 {
        // The two bitboards determine the position; mix them into one key.
        (b.x ^ b.o.rotate_left(32).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }
}

impl Evaluation for TicTacToe {
    fn evaluate(&self, b: &Board) -> MaxScore {
        match b.status {
            Status::XWins => MaxScore(EVAL_WIN),
            Status::OWins => MaxScore(-EVAL_WIN),
            Status::Draw => MaxScore(0),
            Status::Playing => MaxScore(self.heuristic(b)),
        }
    }

    /// Winning moves first, then blocks of the opponent's win, then squares
    /// on the most lines still open for the mover: the moves a player would
    /// look at first. A stable sort, so history's order survives within a class.
    fn order_moves(&self, b: &Board, moves: &mut [u8]) {
        let (own, other) = if self.to_move(b) == Player::Max {
            (b.x, b.o)
        } else {
            (b.o, b.x)
        };
        let priority = |sq: u8| {
            let bit = 1u64 << sq;
            let mut p = 0i32;
            for &l in &self.through[sq as usize] {
                if l & !(own | bit) == 0 {
                    p += 10_000; // completes a line: wins
                } else if l & !(other | bit) == 0 {
                    p += 1_000; // the opponent would complete it: block
                } else if l & other == 0 {
                    // Still open for the mover: more so with stones on it already.
                    let c = (l & own).count_ones() as i32 + 1;
                    p += c * c;
                }
            }
            p
        };
        sort_by_priority(moves, priority);
    }


}

/// Only the history heuristic's slots: one per square.
impl EngineHooks for TicTacToe {
    fn history_slots(&self) -> usize {
        self.squares() as usize
    }
    fn history_slot(&self, _: &Board, mv: u8) -> Option<usize> {
        Some(mv as usize)
    }
}

ply_core::no_hooks!(TicTacToe: Shortcuts, Chance, Playouts, Impartial);

/// Two planes, the mover's marks then the other player's, one cell per
/// square; a move's policy index is its square. The board's symmetries:
/// the eight of the square (rotations and reflections), or the four that
/// keep a rectangle's shape (the identity, two reflections, the half
/// turn).
impl Learn for TicTacToe {
    const LEARNABLE: bool = true;

    fn planes(&self) -> [usize; 3] {
        [2, self.m as usize, self.n as usize]
    }

    fn encode(&self, b: &Board, out: &mut [f32]) {
        let (mine, theirs) = if self.to_move(b) == Player::Max {
            (b.x, b.o)
        } else {
            (b.o, b.x)
        };
        let cells = self.squares() as usize;
        for sq in bits(mine) {
            out[sq as usize] = 1.0;
        }
        for sq in bits(theirs) {
            out[cells + sq as usize] = 1.0;
        }
    }

    fn policy_size(&self) -> usize {
        self.squares() as usize
    }

    fn policy_index(&self, _: &Board, mv: u8) -> usize {
        usize::from(mv)
    }

    fn symmetries(&self) -> usize {
        if self.m == self.n { 8 } else { 4 }
    }

    fn symmetric_state(&self, b: &Board, sym: usize) -> Board {
        let map = |stones: u64| {
            bits(stones).fold(0u64, |acc, sq| {
                acc | 1 << self.symmetric_square(sq as usize, sym)
            })
        };
        Board {
            x: map(b.x),
            o: map(b.o),
            status: b.status,
        }
    }

    fn symmetric_index(&self, index: usize, sym: usize) -> usize {
        self.symmetric_square(index, sym)
    }
}

impl TicTacToe {
    /// Where square `sq` goes under symmetry `sym`: bit 0 reflects the
    /// rows, bit 1 the columns, bit 2 (square boards only) transposes.
    fn symmetric_square(&self, sq: usize, sym: usize) -> usize {
        let (m, n) = (self.m as usize, self.n as usize);
        let (mut r, mut c) = (sq / n, sq % n);
        if sym & 1 != 0 {
            r = m - 1 - r;
        }
        if sym & 2 != 0 {
            c = n - 1 - c;
        }
        if sym & 4 != 0 {
            (r, c) = (c, r);
        }
        r * n + c
    }
}

impl Registered for TicTacToe {
    const SPEC: GameSpec = GameSpec {
        params: &[
            ParamSpec {
                name: "m",
                kind: ParamKind::Int {
                    default: 3,
                    min: 1,
                    max: 64,
                },
                meaning: "rows",
            },
            ParamSpec {
                name: "n",
                kind: ParamKind::Int {
                    default: 3,
                    min: 1,
                    max: 64,
                },
                meaning: "columns",
            },
            ParamSpec {
                name: "k",
                kind: ParamKind::Int {
                    default: 3,
                    min: 1,
                    max: 64,
                },
                meaning: "stones in a row to win",
            },
        ],
        default_position: ".........",
        ..GameSpec::new(
            "tictactoe",
            "the m,n,k-game: m rows, n columns, the first to get k in a row (across, down, diagonally) wins; X moves first",
            "the squares row by row as X, O or '.', e.g. XO.X..O..; rows separated by '/' on boards other than 3x3; the player to move follows from the counts",
            "a square number, 0 (top-left) to m*n-1, row by row",
        )
    };

    fn from_params(values: &ParamValues) -> Result<Self, SetupError> {
        let dim = |name| values.int(name) as u32;
        Self::new(dim("m"), dim("n"), dim("k"))
    }
}

impl Notation for TicTacToe {
    fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
        let (m, n) = (self.m as usize, self.n as usize);
        let with_rows = text.contains('/');
        let mut rows: Vec<Vec<(usize, char)>> = vec![Vec::new()];
        for (i, ch) in text.chars().enumerate() {
            let col = i + 1;
            match ch {
                '/' => rows.push(Vec::new()),
                'X' | 'x' | 'O' | 'o' | '.' => rows.last_mut().unwrap().push((col, ch)),
                c if c.is_whitespace() => {}
                c => {
                    return Err(ParseError::at(
                        col,
                        format!("unexpected '{c}': a square is X, O or '.'"),
                    ));
                }
            }
        }
        let squares: Vec<(usize, char)> = if with_rows {
            if rows.len() != m {
                return Err(ParseError::new(format!(
                    "expected {m} rows separated by '/', found {}",
                    rows.len()
                )));
            }
            let mut col_start = 1;
            for (r, row) in rows.iter().enumerate() {
                if row.len() != n {
                    let at = row.first().map_or(col_start, |&(c, _)| c);
                    return Err(ParseError::at(
                        at,
                        format!("row {} has {} squares, expected {n}", r + 1, row.len()),
                    ));
                }
                col_start = row.last().map_or(col_start, |&(c, _)| c + 2);
            }
            rows.concat()
        } else {
            rows.concat()
        };
        if squares.len() != m * n {
            let hint = if m * n == 9 {
                String::new()
            } else {
                format!(" ({m} rows of {n}; separate rows with '/')")
            };
            let col = if squares.len() > m * n {
                Some(squares[m * n].0)
            } else {
                None
            };
            let msg = format!("expected {} squares{hint}, found {}", m * n, squares.len());
            return Err(match col {
                Some(c) => ParseError::at(c, msg),
                None => ParseError::new(msg),
            });
        }
        let (mut x, mut o) = (0u64, 0u64);
        for (sq, &(_, ch)) in squares.iter().enumerate() {
            match ch {
                'X' | 'x' => x |= 1 << sq,
                'O' | 'o' => o |= 1 << sq,
                _ => {}
            }
        }
        self.board(x, o)
            .map_err(|e| ParseError::new(format!("impossible position: {e}")))
    }

    fn format_position(&self, b: &Board) -> String {
        let mut s = String::new();
        for r in 0..self.m {
            if r > 0 && !(self.m == 3 && self.n == 3) {
                s.push('/');
            }
            for c in 0..self.n {
                let sq = r * self.n + c;
                s.push(if b.x >> sq & 1 == 1 {
                    'X'
                } else if b.o >> sq & 1 == 1 {
                    'O'
                } else {
                    '.'
                });
            }
        }
        s
    }

    fn parse_move(&self, b: &Board, text: &str) -> Result<u8, ParseError> {
        let t = text.trim();
        let last = self.squares() - 1;
        let sq: u32 = t
            .parse()
            .map_err(|_| ParseError::new(format!("'{t}' is not a square number (0 to {last})")))?;
        if sq > last {
            return Err(ParseError::new(format!(
                "square {sq} is off the board: squares are 0 to {last}"
            )));
        }
        if (b.x | b.o) >> sq & 1 == 1 {
            let who = if b.x >> sq & 1 == 1 { 'X' } else { 'O' };
            return Err(ParseError::new(format!("square {sq} is taken by {who}")));
        }
        Ok(sq as u8)
    }

    fn format_move(&self, _: &Board, mv: u8) -> String {
        mv.to_string()
    }

    fn draw(&self, b: &Board) -> String {
        self.draw_labelled(b, &[])
    }

    fn draw_annotated(&self, b: &Board, notes: &[(u8, String)]) -> Option<String> {
        let mut labels = vec![None; self.squares() as usize];
        for (sq, note) in notes {
            labels[*sq as usize] = Some(note.clone());
        }
        Some(self.draw_labelled(b, &labels))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::conformance;

    #[test]
    fn conformance_3x3_with_published_perft() {
        let perft = [9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872];
        let cfg = conformance::Config {
            perft: perft
                .iter()
                .enumerate()
                .map(|(i, &n)| (i as u32 + 1, n))
                .collect(),
            ..Default::default()
        };
        let summary = conformance::check(&TicTacToe::classic(), &cfg).unwrap();
        assert!(summary.values > 500, "{summary:?}");
        assert!(summary.symmetries > 1000, "{summary:?}");
        assert!(summary.symmetric_values > 1000, "{summary:?}");
    }

    /// Tic-tac-toe has 5,478 legal positions, 765 of them essentially
    /// different (up to the board's eight symmetries): the published
    /// counts, found here by walking every position and keeping the least
    /// of each one's images.
    #[test]
    fn symmetries_leave_the_765_essentially_different_positions() {
        use ply_core::Learn;
        use std::collections::HashSet;
        let g = TicTacToe::classic();
        let mut seen = HashSet::new();
        let mut classes = HashSet::new();
        let mut stack = vec![g.initial_state()];
        let mut moves = Vec::new();
        while let Some(b) = stack.pop() {
            if !seen.insert(b) {
                continue;
            }
            let class = (0..g.symmetries())
                .map(|sym| {
                    let image = g.symmetric_state(&b, sym);
                    (image.x, image.o)
                })
                .min();
            classes.insert(class);
            moves.clear();
            g.legal_moves(&b, &mut moves);
            stack.extend(moves.iter().map(|&m| g.play(&b, m)));
        }
        assert_eq!((seen.len(), classes.len()), (5_478, 765));
    }

    #[test]
    fn conformance_other_boards() {
        for (m, n, k) in [
            (4, 4, 3),
            (3, 4, 3),
            (5, 5, 4),
            (2, 2, 2),
            (1, 5, 3),
            (8, 8, 5),
        ] {
            let g = TicTacToe::new(m, n, k).unwrap();
            conformance::check(
                &g,
                &conformance::Config {
                    playouts: 50,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{m},{n},{k}: {e}"));
        }
    }

    #[test]
    fn rejects_impossible_positions() {
        let g = TicTacToe::classic();
        for bad in [
            "XXXXXXXXX",
            "XXX......",
            "OO.......",
            "XXXOOO...",
            "XXXOO.XOO",
        ] {
            let e = g.parse_position(bad).unwrap_err();
            assert!(e.message.starts_with("impossible position"), "{bad}: {e}");
        }
        assert_eq!(g.parse_position("XO.X..O.").unwrap_err().column, None);
        assert_eq!(g.parse_position("XO.X..O...").unwrap_err().column, Some(10));
        assert_eq!(g.parse_position("XO.Z..O..").unwrap_err().column, Some(4));
        // Two lines through one stone: a legal final move.
        assert_eq!(g.parse_position("XXXXOOXOO").unwrap().status, Status::XWins);
    }

    #[test]
    fn rows_notation_on_larger_boards() {
        let g = TicTacToe::new(4, 4, 3).unwrap();
        let b = g.parse_position("X.../.O../..../....").unwrap();
        assert_eq!(g.format_position(&b), "X.../.O../..../....");
        assert_eq!(
            g.parse_position("X.../.O../..../...").unwrap_err().column,
            Some(16)
        );
    }
}
