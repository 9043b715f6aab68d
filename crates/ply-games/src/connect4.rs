//! Connect Four on bitboards: W columns of H cells (default 7×6), the first
//! to get four in a row (across, down or diagonally) wins. Any size whose
//! board fits in 64 bits with a spare row, W*(H+1) <= 64, and W <= 9.
//!
//! Position notation: the sequence of columns played, 1-based digits, as in
//! the public test sets (`4453`; the empty board is the empty string or `-`).
//! A move is a column digit.
//!
//! Scores follow the public test sets: a win is worth more the sooner it
//! comes, |score| = floor((W*H + 1 - n) / 2) with n the stones on the board
//! just before the winning stone (for 7×6: 22 minus the winner's stones).
//! [`Game::utility`] gives that from MAX's (the first player's) view.
//!
//! The bitboard follows Pascal Pons' solver: column c holds bits
//! c*(H+1) .. c*(H+1)+H-1 bottom up, with one spare bit on top so that
//! shifts never carry into the next column.

use ply_core::{
    Evaluation, Game, MaxScore, Notation, ParseError, Player, Shortcuts, sort_by_priority,
};

use ply_core::registry::{GameSpec, ParamKind, ParamSpec, ParamValues, Registered, SetupError};

/// What one point of score is worth to [`Game::evaluate`]: a proven result
/// outranks every estimate.
pub const EVAL_WIN_SCALE: i32 = 1000;

/// Connect Four of a given size, with its bit masks precomputed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connect4 {
    width: u32,
    height: u32,
    bottom: u64,
    board: u64,
    /// Columns from the centre outwards (the natural order to try them
    /// in), each with its cells, for listing the open ones.
    order_columns: Vec<(u8, u64)>,
    /// For the mirror image: each pair of columns that trade places, as
    /// (the left column's bits, the distance in bits to its partner).
    mirror_pairs: [(u64, u32); 4],
    /// The middle column's bits (odd widths; it stays where it is).
    middle: u64,
    /// Per column (index masked to 0..16, so no bounds check): its bottom
    /// cell, its mirror column's bottom cell, and its cells. Looked up
    /// where a shift by `col * (height + 1)` cost a multiply and a shift
    /// at every `play` (the mirror's table saves a subtraction there too:
    /// measured, 1.6% of the solver's instructions).
    bottoms: [u64; 16],
    mirror_bottoms: [u64; 16],
    columns: [u64; 16],
}

/// A position: the stones of the player to move, every stone, and the count;
/// and the same two boards for the mirror image, which [`Game::play`] keeps
/// up to date in three operations, so the mirror-symmetric table key costs
/// a comparison instead of a column-by-column reversal at every node.
/// `Copy`: 33 bytes of data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct C4State {
    /// The stones of the player to move.
    pub current: u64,
    /// Every stone on the board.
    pub mask: u64,
    /// `current` and `mask` of the mirror image (columns reversed).
    mirror: [u64; 2],
    /// Stones played.
    pub moves: u8,
}

impl Connect4 {
    /// A board of `width` columns and `height` rows.
    pub fn new(width: u32, height: u32) -> Result<Self, SetupError> {
        if !(1..=9).contains(&width) || height == 0 || width * (height + 1) > 64 {
            return Err(SetupError(format!(
                "a {width}x{height} board does not fit: the width must be 1 to 9 and width*(height+1) at most 64"
            )));
        }
        let mut bottom = 0u64;
        for c in 0..width {
            bottom |= 1 << (c * (height + 1));
        }
        let board = bottom * ((1 << height) - 1);
        let mut order: Vec<u8> = (0..width as u8).collect();
        let centre = (width as i32 - 1) as f64 / 2.0;
        order.sort_by(|&a, &b| {
            let (da, db) = ((f64::from(a) - centre).abs(), (f64::from(b) - centre).abs());
            da.partial_cmp(&db).unwrap_or(std::cmp::Ordering::Equal)
        });
        // A key marks the cell above each column's top stone, so a column's
        // key bits are all its H + 1 bits.
        let stride = height + 1;
        let column = |c: u32| ((1u64 << stride) - 1) << (c * stride);
        let mut mirror_pairs = [(0, 0); 4];
        for (c, pair) in mirror_pairs.iter_mut().enumerate().take(width as usize / 2) {
            let c = c as u32;
            *pair = (column(c), (width - 1 - 2 * c) * stride);
        }
        let middle = if width % 2 == 1 { column(width / 2) } else { 0 };
        let (mut bottoms, mut mirror_bottoms, mut columns) = ([0; 16], [0; 16], [0; 16]);
        for c in 0..width {
            bottoms[c as usize] = 1 << (c * stride);
            mirror_bottoms[c as usize] = 1 << ((width - 1 - c) * stride);
            columns[c as usize] = column(c) & board;
        }
        let order_columns = order
            .iter()
            .map(|&c| (c, columns[usize::from(c)]))
            .collect();
        Ok(Connect4 {
            width,
            height,
            bottom,
            board,
            order_columns,
            mirror_pairs,
            middle,
            bottoms,
            mirror_bottoms,
            columns,
        })
    }

    /// The standard 7×6 board.
    pub fn standard() -> Self {
        Self::new(7, 6).expect("7x6 fits")
    }


    /// Columns and rows.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Cells on the board.
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    #[inline]
    fn top(&self, col: u32) -> u64 {
        1 << (self.height - 1 + col * (self.height + 1))
    }

    #[inline]
    fn bottom_of(&self, col: u32) -> u64 {
        self.bottoms[col as usize & 15]
    }

    #[inline]
    fn column(&self, col: u32) -> u64 {
        self.columns[col as usize & 15]
    }

    /// Whether `col` has room.
    #[inline]
    pub fn can_play(&self, s: &C4State, col: u32) -> bool {
        s.mask & self.top(col) == 0
    }

    /// The cells where a stone can go now (one per open column).
    #[inline]
    pub fn possible(&self, s: &C4State) -> u64 {
        (s.mask + self.bottom) & self.board
    }

    /// Whether `stones` hold four in a row.
    #[inline]
    pub fn aligned(&self, stones: u64) -> bool {
        // The standard height as a constant: its shifts become immediates
        // (fewer instructions and registers in the solver's inner loop).
        if self.height == 6 {
            aligned_fixed::<6>(stones)
        } else {
            aligned(stones, u64::from(self.height))
        }
    }

    /// The empty cells (on the board, playable or not) that would give
    /// `stones` four in a row: a player's threats.
    #[inline]
    pub fn winning_cells(&self, stones: u64, mask: u64) -> u64 {
        let cells = if self.height == 6 {
            threats_fixed::<6>(stones)
        } else {
            threats(stones, u64::from(self.height))
        };
        cells & (self.board ^ mask)
    }

    /// The columns the mover can play without handing the opponent an
    /// immediate win, as a bitmap of cells: forced to block a threat when
    /// there is one, and never under an opponent's winning cell. Empty when
    /// every move loses at once.
    #[inline]
    pub fn non_losing(&self, s: &C4State) -> u64 {
        let mut possible = self.possible(s);
        let opp_win = self.winning_cells(s.current ^ s.mask, s.mask);
        let forced = possible & opp_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two threats at once: no way to block both
            }
            possible = forced;
        }
        possible & !(opp_win >> 1)
    }

    /// Appends the columns that hold a cell of `cells`, centre first (the
    /// natural order to try them in).
    #[inline]
    fn push_columns(&self, cells: u64, moves: &mut Vec<u8>) {
        moves.reserve(self.order_columns.len());
        for &(c, column) in &self.order_columns {
            if cells & column != 0 {
                moves.push(c);
            }
        }
    }

    /// How many threats the mover has after dropping a stone in `col`
    /// (`threats`: [`threats`] for this board's height).
    #[inline(always)]
    fn threats_after(&self, s: &C4State, col: u8, threats: impl Fn(u64) -> u64) -> i32 {
        let cell = self.landing(s, u32::from(col));
        (threats(s.current | cell) & self.board & !(s.mask | cell)).count_ones() as i32
    }

    /// The cell a stone dropped in `col` lands on.
    #[inline]
    fn landing(&self, s: &C4State, col: u32) -> u64 {
        (s.mask + self.bottom_of(col)) & self.column(col)
    }

    /// The key Pascal Pons uses: unique per position (current + mask).
    #[inline]
    pub fn key(&self, s: &C4State) -> u64 {
        s.current + s.mask
    }

    /// The key of the mirror image (columns reversed).
    #[inline]
    pub fn mirror_key(&self, s: &C4State) -> u64 {
        s.mirror[0] + s.mirror[1]
    }

    /// A bitboard with its columns reversed.
    fn mirrored(&self, bits: u64) -> u64 {
        let mut m = bits & self.middle;
        for &(left, shift) in &self.mirror_pairs {
            m |= (bits & left) << shift | (bits >> shift) & left;
        }
        m
    }

    /// The state with these stones (`current`: the mover's), its mirror
    /// boards computed.
    fn state(&self, current: u64, mask: u64, moves: u8) -> C4State {
        C4State {
            current,
            mask,
            mirror: [self.mirrored(current), self.mirrored(mask)],
            moves,
        }
    }

    /// The score of a decided game from the winner's view: floor((W*H + 1 - n)/2),
    /// n the stones before the winning one.
    #[inline]
    pub fn win_score(&self, stones_before: u32) -> i32 {
        ((self.cells() + 1 - stones_before) / 2) as i32
    }

    fn state_from_moves(&self, text: &str) -> Result<C4State, ParseError> {
        let mut s = self.initial_state();
        let t = text.trim();
        if t == "-" {
            return Ok(s);
        }
        for (i, ch) in t.chars().enumerate() {
            let col = i + 1;
            let Some(d) = ch.to_digit(10).filter(|d| (1..=self.width).contains(d)) else {
                return Err(ParseError::at(
                    col,
                    format!("'{ch}' is not a column: columns are 1 to {}", self.width),
                ));
            };
            if self.is_terminal(&s) {
                let why = if s.moves as u32 == self.cells() {
                    "full"
                } else {
                    "won"
                };
                return Err(ParseError::at(
                    col,
                    format!(
                        "the game is already over ({why}) after move {i}: no move {} in column {d}",
                        i + 1
                    ),
                ));
            }
            if !self.can_play(&s, d - 1) {
                return Err(ParseError::at(
                    col,
                    format!("column {d} is full (move {})", i + 1),
                ));
            }
            s = self.play(&s, (d - 1) as u8);
        }
        Ok(s)
    }

    /// A move sequence that reaches `s`: stones are taken back top-down,
    /// last mover first, never through a position that was already won.
    fn moves_to(&self, s: &C4State) -> Option<Vec<u8>> {
        if s.moves == 0 {
            return Some(Vec::new());
        }
        let last = s.current ^ s.mask; // stones of the player who moved last
        // Rightmost first: sequences typed left to right come back as typed
        // more often (any order that reaches the position is correct).
        for c in (0..self.width).rev() {
            let col = self.column(c);
            let in_col = s.mask & col;
            if in_col == 0 {
                continue;
            }
            let top = 1u64 << (63 - in_col.leading_zeros());
            if last & top == 0 {
                continue;
            }
            let prev = self.state(last ^ top, s.mask ^ top, s.moves - 1);
            if self.aligned(prev.current ^ prev.mask) || self.aligned(prev.current) {
                continue;
            }
            if let Some(mut seq) = self.moves_to(&prev) {
                seq.push(c as u8);
                return Some(seq);
            }
        }
        None
    }
}

/// Whether `stones` hold four in a row on a board `h` rows high.
#[inline(always)]
fn aligned(stones: u64, h: u64) -> bool {
    for shift in [1, h, h + 1, h + 2] {
        let m = stones & (stones >> shift);
        if m & (m >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// [`aligned`] for a height known when compiling.
#[inline(always)]
fn aligned_fixed<const H: u64>(stones: u64) -> bool {
    aligned(stones, H)
}

/// The cells (empty or not, on the board or in the spare row) that would
/// complete four in a row for `stones` on a board `h` rows high.
#[inline(always)]
fn threats(stones: u64, h: u64) -> u64 {
    // Vertical: three stacked stones, the cell above.
    let vertical = (stones << 1) & (stones << 2) & (stones << 3);
    // Horizontal (h+1) and the two diagonals (h, h+2), written out rather
    // than looped so that with a constant height every shift is an
    // immediate.
    vertical | line_threats(stones, h + 1) | line_threats(stones, h) | line_threats(stones, h + 2)
}

/// The cells that complete four along one direction (`shift` bits apart):
/// three stones on one side, or two and one around the cell.
#[inline(always)]
fn line_threats(stones: u64, shift: u64) -> u64 {
    let p = (stones << shift) & (stones << (2 * shift));
    let mut r = p & (stones << (3 * shift));
    r |= p & (stones >> shift);
    let p = (stones >> shift) & (stones >> (2 * shift));
    r |= p & (stones << shift);
    r | p & (stones >> (3 * shift))
}

/// [`threats`] for a height known when compiling.
#[inline(always)]
fn threats_fixed<const H: u64>(stones: u64) -> u64 {
    threats(stones, H)
}

impl Game for Connect4 {
    type State = C4State;
    type Move = u8;

    fn initial_state(&self) -> C4State {
        self.state(0, 0, 0)
    }

    #[inline]
    fn to_move(&self, s: &C4State) -> Player {
        if s.moves & 1 == 0 {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn legal_moves(&self, s: &C4State, moves: &mut Vec<u8>) {
        if self.is_terminal(s) {
            return;
        }
        self.push_columns(self.possible(s), moves);
    }

    #[inline]
    fn play(&self, s: &C4State, col: u8) -> C4State {
        let col = u32::from(col);
        // The same move on both boards: the mirror's column is reversed.
        let [m_current, m_mask] = s.mirror;
        let m_bottom = self.mirror_bottoms[col as usize & 15];
        C4State {
            current: s.current ^ s.mask,
            mask: s.mask | (s.mask + self.bottom_of(col)),
            mirror: [m_current ^ m_mask, m_mask | (m_mask + m_bottom)],
            moves: s.moves + 1,
        }
    }

    #[inline]
    fn is_terminal(&self, s: &C4State) -> bool {
        u32::from(s.moves) == self.cells() || self.aligned(s.current ^ s.mask)
    }

    fn utility(&self, s: &C4State) -> MaxScore {
        if !self.aligned(s.current ^ s.mask) {
            return MaxScore(0);
        }
        let score = self.win_score(u32::from(s.moves) - 1);
        // The player who moved last won.
        MaxScore(score * -self.to_move(s).sign())
    }

    /// Mirror-symmetric: a position and its mirror image share an entry.
    #[inline]
    fn hash_key(&self, s: &C4State) -> u64 {
        let k = self.key(s).min(self.mirror_key(s));
        k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Evaluation for Connect4 {
    /// Threats, for depth-limited play where the solve does not finish: each
    /// empty cell that would complete a four counts for its owner, double on
    /// the rows where it tends to be decisive (odd rows from the bottom for
    /// the first player, even rows for the second), plus a little for
    /// centre stones. A won game is worth its score times [`EVAL_WIN_SCALE`],
    /// above any estimate.
    fn evaluate(&self, s: &C4State) -> MaxScore {
        if self.is_terminal(s) {
            return MaxScore(self.utility(s).0 * EVAL_WIN_SCALE);
        }
        let first = if s.moves & 1 == 0 {
            s.current
        } else {
            s.current ^ s.mask
        };
        let second = first ^ s.mask;
        let stride = self.height + 1;
        let mut odd_rows = 0u64; // rows 1, 3, 5 counted from 1 at the bottom
        for c in 0..self.width {
            for r in (0..self.height).step_by(2) {
                odd_rows |= 1 << (r + c * stride);
            }
        }
        let even_rows = self.board & !odd_rows;
        let t1 = self.winning_cells(first, s.mask);
        let t2 = self.winning_cells(second, s.mask);
        let threats = (t1.count_ones() + (t1 & odd_rows).count_ones()) as i32
            - (t2.count_ones() + (t2 & even_rows).count_ones()) as i32;
        let centre = self.column(self.width / 2);
        let centre_stones =
            (first & centre).count_ones() as i32 - (second & centre).count_ones() as i32;
        MaxScore(
            (threats * 10 + centre_stones * 3).clamp(-(EVAL_WIN_SCALE - 1), EVAL_WIN_SCALE - 1),
        )
    }

    /// Moves that create the most threats first (Pons' move score), the
    /// centre first among equals (a stable sort of the centre-first order
    /// the moves come in).
    #[inline]
    fn order_moves(&self, s: &C4State, moves: &mut [u8]) {
        // One test of the height for the whole list (see `aligned`).
        if self.height == 6 {
            sort_by_priority(moves, |c| self.threats_after(s, c, threats_fixed::<6>));
        } else {
            let h = u64::from(self.height);
            sort_by_priority(moves, |c| self.threats_after(s, c, |x| threats(x, h)));
        }
    }
}

ply_core::no_hooks!(Connect4: EngineHooks, Chance, Playouts, Impartial);

/// Two planes of the board as it is drawn (the top row first), the
/// mover's stones then the other player's; a move's policy index is its
/// column. The one symmetry is the mirror, which the state keeps up to
/// date already.
impl ply_core::Learn for Connect4 {
    const LEARNABLE: bool = true;

    fn planes(&self) -> [usize; 3] {
        [2, self.height as usize, self.width as usize]
    }

    fn encode(&self, s: &C4State, out: &mut [f32]) {
        let (w, h) = (self.width as usize, self.height as usize);
        let theirs = s.current ^ s.mask;
        for col in 0..w {
            for row in 0..h {
                let bit = 1u64 << (col * (h + 1) + row);
                let cell = (h - 1 - row) * w + col;
                if s.current & bit != 0 {
                    out[cell] = 1.0;
                } else if theirs & bit != 0 {
                    out[w * h + cell] = 1.0;
                }
            }
        }
    }

    fn policy_size(&self) -> usize {
        self.width as usize
    }

    fn policy_index(&self, _: &C4State, col: u8) -> usize {
        usize::from(col)
    }

    fn symmetries(&self) -> usize {
        2
    }

    fn symmetric_state(&self, s: &C4State, sym: usize) -> C4State {
        if sym == 0 {
            return *s;
        }
        C4State {
            current: s.mirror[0],
            mask: s.mirror[1],
            mirror: [s.current, s.mask],
            moves: s.moves,
        }
    }

    fn symmetric_index(&self, index: usize, sym: usize) -> usize {
        if sym == 0 {
            index
        } else {
            self.width as usize - 1 - index
        }
    }
}

impl Shortcuts for Connect4 {
    const SYMMETRIC_KEYS: bool = true;

    /// A stone that makes four at once.
    #[inline]
    fn immediate_win(&self, s: &C4State) -> Option<(u8, MaxScore)> {
        let wins = self.winning_cells(s.current, s.mask) & self.possible(s);
        if wins == 0 || self.is_terminal(s) {
            return None;
        }
        let stride = self.height + 1;
        let col = (wins.trailing_zeros() / stride) as u8;
        let score = self.win_score(u32::from(s.moves));
        Some((col, MaxScore(score * self.to_move(s).sign())))
    }

    /// Only moves that do not lose at once; when none is left the opponent
    /// wins with the next stone.
    #[inline]
    fn forced_moves(&self, s: &C4State, moves: &mut Vec<u8>) -> Option<MaxScore> {
        let keep = self.non_losing(s);
        if keep == 0 {
            let score = self.win_score(u32::from(s.moves) + 1);
            return Some(MaxScore(-score * self.to_move(s).sign()));
        }
        self.push_columns(keep, moves);
        None
    }

    /// A kept move blocks the opponent's one playable threat (with two,
    /// nothing is kept) and never fills the cell under a threat.
    const FORCED_MOVES_PREVENT_WINS: bool = true;

    fn score_range(&self, s: &C4State) -> Option<(MaxScore, MaxScore)> {
        Some(self.mover_range(s))
    }

    /// With no immediate win and a move that does not lose at once, the mover
    /// cannot win before its second stone from now nor lose before the
    /// opponent's second: the score lies between those two extremes.
    #[inline]
    fn exact_bounds(&self, s: &C4State) -> Option<(MaxScore, MaxScore)> {
        let n = u32::from(s.moves);
        let cells = self.cells();
        if n + 2 >= cells {
            return Some((MaxScore(0), MaxScore(0)));
        }
        let lo = -(((cells - 2 - n) / 2) as i32);
        let hi = ((cells - 1 - n) / 2) as i32;
        Some(match self.to_move(s) {
            Player::Max => (MaxScore(lo), MaxScore(hi)),
            Player::Min => (MaxScore(-hi), MaxScore(-lo)),
        })
    }
}

impl Connect4 {
    /// Plies until the end under best play for a position of `s` whose score
    /// for the side to move is `score` (0 for a draw: the board fills up).
    pub fn plies_to_end(&self, s: &C4State, score: i32) -> u32 {
        let k = u32::from(s.moves);
        if score == 0 {
            return self.cells() - k;
        }
        // The winning stone comes when n stones are down, with
        // floor((cells + 1 - n) / 2) = |score| and n of the winner's parity.
        let winner_parity = if score > 0 { k % 2 } else { (k + 1) % 2 };
        let base = self.cells() + 1 - 2 * score.unsigned_abs();
        let n = if base % 2 == winner_parity {
            base
        } else {
            base - 1
        };
        n + 1 - k
    }

    fn mover_range(&self, s: &C4State) -> (MaxScore, MaxScore) {
        let n = u32::from(s.moves);
        // At best the mover wins with this stone; at worst the opponent wins
        // with its next (the public solver's starting range).
        let hi = self.win_score(n);
        let lo = -self.win_score(n + 1);
        match self.to_move(s) {
            Player::Max => (MaxScore(lo), MaxScore(hi)),
            Player::Min => (MaxScore(-hi), MaxScore(-lo)),
        }
    }
}

impl Registered for Connect4 {
    const SPEC: GameSpec = GameSpec {
        params: &[
            ParamSpec {
                name: "width",
                kind: ParamKind::Int {
                    default: 7,
                    min: 1,
                    max: 9,
                },
                meaning: "columns",
            },
            ParamSpec {
                name: "height",
                kind: ParamKind::Int {
                    default: 6,
                    min: 1,
                    max: 63,
                },
                meaning: "rows; width*(height+1) at most 64",
            },
        ],
        exact_solver: true,
        ..GameSpec::new(
            "connect4",
            "Connect Four: drop stones into columns; four in a row (across, down, diagonally) wins; solved exactly by the score search",
            "the columns played so far, 1-based digits, e.g. 4453 (empty: the empty board); scores: positive = the side to move wins, |score| = (W*H+1-n)/2 with n the stones before the winning one",
            "a column digit, 1 to W",
        )
    };

    fn from_params(values: &ParamValues) -> Result<Self, SetupError> {
        Self::new(values.int("width") as u32, values.int("height") as u32)
    }
}

impl Notation for Connect4 {
    fn parse_position(&self, text: &str) -> Result<C4State, ParseError> {
        self.state_from_moves(text)
    }

    fn format_position(&self, s: &C4State) -> String {
        match self.moves_to(s) {
            Some(seq) if seq.is_empty() => String::new(),
            Some(seq) => seq.iter().map(|c| char::from(b'1' + c)).collect(),
            None => "?".into(),
        }
    }

    fn parse_move(&self, s: &C4State, text: &str) -> Result<u8, ParseError> {
        let t = text.trim();
        match t.parse::<u32>() {
            Ok(d) if (1..=self.width).contains(&d) => {
                if self.can_play(s, d - 1) {
                    Ok((d - 1) as u8)
                } else {
                    Err(ParseError::new(format!("column {d} is full")))
                }
            }
            _ => Err(ParseError::new(format!(
                "'{t}' is not a column: columns are 1 to {}",
                self.width
            ))),
        }
    }

    fn format_move(&self, _: &C4State, col: u8) -> String {
        char::from(b'1' + col).to_string()
    }

    fn draw(&self, s: &C4State) -> String {
        let first = if s.moves & 1 == 0 {
            s.current
        } else {
            s.current ^ s.mask
        };
        let mut out = String::new();
        for r in (0..self.height).rev() {
            out.push('|');
            for c in 0..self.width {
                let bit = 1u64 << (r + c * (self.height + 1));
                out.push(if s.mask & bit == 0 {
                    '.'
                } else if first & bit != 0 {
                    'X'
                } else {
                    'O'
                });
                out.push(if c + 1 < self.width { ' ' } else { '|' });
            }
            out.push('\n');
        }
        out.push(' ');
        for c in 0..self.width {
            out.push(char::from(b'1' + c as u8));
            out.push(' ');
        }
        out.push('\n');
        out
    }

    fn score_note(&self, s: &C4State, score: i32) -> Option<String> {
        let plies = self.plies_to_end(s, score);
        Some(match score.signum() {
            1 => format!("win in {plies} plies"),
            -1 => format!("loss in {plies} plies"),
            _ => "draw".into(),
        })
    }

    fn draw_annotated(&self, s: &C4State, notes: &[(u8, String)]) -> Option<String> {
        let mut out = self.draw(s);
        let width = notes.iter().map(|(_, n)| n.len()).max().unwrap_or(1).max(1);
        let mut line = String::from(" ");
        for c in 0..self.width as u8 {
            let note = notes
                .iter()
                .find(|(m, _)| *m == c)
                .map_or(".", |(_, n)| n.as_str());
            line.push_str(&format!("{note:>width$} "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::conformance;

    /// The mirror image of a position on `g`'s board, for the kit: every
    /// column c played becomes W + 1 - c.
    fn mirror(g: Connect4) -> conformance::Mirror<C4State> {
        std::sync::Arc::new(move |s| {
            let w = g.size().0 as u8;
            let moves: String = g
                .format_position(s)
                .chars()
                .map(|c| char::from(b'0' + w + 1 - (c as u8 - b'0')))
                .collect();
            g.parse_position(&moves).expect("a mirrored game is a game")
        })
    }

    /// The learning symmetry is the mirror the notation makes (each column
    /// numbered from the other side), and its planes are the position's
    /// with the columns reversed; the planes show each stone once, the
    /// mover's first, the top row first.
    #[test]
    fn learning_planes_and_mirror() {
        use ply_core::Learn;
        let g = Connect4::standard();
        let mirror = mirror(g.clone());
        let s = g.parse_position("4453").unwrap();
        let mut planes = vec![0.0; 84];
        g.encode(&s, &mut planes);
        // X (to move: 4 stones played) has d1 and e1; O has d2 and c1.
        let cell = |plane: usize, row: usize, col: usize| planes[plane * 42 + (5 - row) * 7 + col];
        assert_eq!([cell(0, 0, 3), cell(0, 0, 4), cell(1, 1, 3), cell(1, 0, 2)], [1.0; 4]);
        assert_eq!(planes.iter().sum::<f32>(), 4.0);
        for line in ["", "4", "4453", "1234567", "44444422"] {
            let s = g.parse_position(line).unwrap();
            let image = g.symmetric_state(&s, 1);
            assert_eq!(image, mirror(&s), "{line}");
            let mut a = vec![0.0; 84];
            let mut b = vec![0.0; 84];
            g.encode(&s, &mut a);
            g.encode(&image, &mut b);
            for (i, &x) in a.iter().enumerate() {
                let (row, col) = (i / 7, i % 7);
                assert_eq!(x, b[row * 7 + 6 - col], "{line} cell {i}");
            }
        }
    }

    #[test]
    fn conformance_with_perft() {
        // Published perft for 7x6 Connect Four: 7, 49, 343, 2401, 16807, 117649, 823536.
        let cfg = conformance::Config {
            playouts: 100,
            perft: vec![
                (1, 7),
                (2, 49),
                (3, 343),
                (4, 2401),
                (5, 16807),
                (6, 117_649),
                (7, 823_536),
            ],
            mirror: Some(mirror(Connect4::standard())),
            ..Default::default()
        };
        let summary = conformance::check(&Connect4::standard(), &cfg).unwrap();
        // Every shortcut's promise was exercised: wins at once, forced
        // moves, values with and without them, bounds, mirror keys.
        assert!(summary.immediate_wins > 100, "{summary:?}");
        assert!(summary.forced > 500, "{summary:?}");
        assert!(summary.values > 150, "{summary:?}");
        assert!(summary.bounds > 30, "{summary:?}");
        assert!(summary.mirrors > 500, "{summary:?}");
        assert!(summary.symmetries > 500, "{summary:?}");
        assert!(summary.symmetric_values > 150, "{summary:?}");
        for (w, h) in [(6, 5), (8, 7), (4, 4), (5, 4)] {
            let g = Connect4::new(w, h).unwrap();
            conformance::check(
                &g,
                &conformance::Config {
                    playouts: 50,
                    mirror: Some(mirror(g.clone())),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{w}x{h}: {e}"));
        }
    }

    #[test]
    fn scores_and_notation() {
        let g = Connect4::standard();
        let s = g.parse_position("4455").unwrap();
        // Printing gives a move order that reaches the same position.
        assert_eq!(g.parse_position(&g.format_position(&s)).unwrap(), s);
        // Four in a row across the bottom: X wins with its 4th stone, 22 - 4.
        let won = g.parse_position("1122334").unwrap();
        assert!(g.is_terminal(&won));
        assert_eq!(g.utility(&won), MaxScore(18));
        let e = g
            .parse_position("1122334 5".replace(' ', "").as_str())
            .unwrap_err();
        assert_eq!(e.column, Some(8));
        assert!(e.message.contains("already over"), "{e}");
        assert_eq!(g.parse_position("4480").unwrap_err().column, Some(3));
        assert!(
            g.parse_position("1111111")
                .unwrap_err()
                .message
                .contains("full")
        );
        assert_eq!(g.key(&s), g.mirror_key(&g.parse_position("4433").unwrap()));
        // 4455: X wins with its 4th stone, 3 plies from now (X, O, X).
        assert_eq!(g.plies_to_end(&s, 18), 3);
        let lost = g.parse_position("44455554221").unwrap();
        assert_eq!(g.plies_to_end(&lost, -15), 2, "O moves, X's 7th stone wins");
    }

    /// The mirror key is the key of the position played with every column
    /// reversed, on every board size, for random games (an independent
    /// construction: the mirrored move sequence).
    #[test]
    fn mirror_key_is_the_mirrored_games_key() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for (w, h) in [
            (7, 6),
            (6, 5),
            (8, 7),
            (9, 6),
            (4, 4),
            (1, 1),
            (2, 3),
            (5, 4),
        ] {
            let g = Connect4::new(w, h).unwrap();
            for _ in 0..50 {
                let (mut s, mut m) = (g.initial_state(), g.initial_state());
                loop {
                    assert_eq!(g.mirror_key(&s), g.key(&m), "{w}x{h}");
                    assert_eq!(g.hash_key(&s), g.hash_key(&m), "{w}x{h}");
                    let mut moves = Vec::new();
                    g.legal_moves(&s, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let c = moves[random(moves.len())];
                    s = g.play(&s, c);
                    m = g.play(&m, (w - 1) as u8 - c);
                }
            }
        }
    }
}
