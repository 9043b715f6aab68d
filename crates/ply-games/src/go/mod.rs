//! Go: area scoring (Tromp–Taylor), positional superko, suicide illegal,
//! on a board of 2×2 to 19×19 (9×9 by default) with a komi for White.
//!
//! The rules as played here: Black (X, MAX) moves first. A move is a pass
//! or a play on an empty point; a play removes the opponent's groups it
//! leaves without a liberty, and may not leave its own group without one
//! (suicide) nor recreate the stones of any earlier position of the game
//! (positional superko: whose turn it is does not count; passes never
//! repeat anything, since they place no stone). Two passes in a row end
//! the game. Each side then scores its stones plus the empty points that
//! reach only its stones; the utility is Black's area minus White's minus
//! the komi.
//!
//! ## The history is part of the state
//!
//! Superko makes the legal moves depend on every board the game has
//! shown, so a [`GoState`] carries them: the line of moves from the start
//! (shared between states, one allocation a move) with each board's hash
//! and stone count. Two states are equal when their stones, mover, passes
//! and *set* of earlier boards are equal: that is everything the rest of
//! the game depends on (the order of the earlier boards does not matter,
//! nor the moves that made them). [`Game::hash_key`] hashes the same
//! things, the set of earlier boards as a sum of their mixed hashes, so a
//! transposition table can only merge states whose futures are the same:
//! two move orders to one board with different boards on the way are two
//! entries. That costs transpositions on small boards and keeps every
//! table-backed search exact; a search that ignored the history would
//! prove values for the wrong game (the graph-history interaction).
//!
//! A play is checked against the history cheaply: a board with more
//! stones than any earlier one cannot repeat, which settles every play
//! that captures nothing until the first capture; only the others walk the
//! line, comparing stone counts before hashes.
//!
//! Notation: a point in GTP coordinates, a column letter (A to T without
//! I) and a row from 1 at the bottom (`D4`), or `pass`. A position is the
//! moves from the empty board (`D4 E5 pass`; `''` is the empty board), or
//! a diagram, its rows from the top separated by `/` (`X` black, `O`
//! white, `.` empty), then `b` or `w` for the player to move (black when
//! absent), then moves played from it: `.X./XO./... w B1`.

mod board;
mod patterns;
mod playout;
mod priors;

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use ply_core::registry::{GameSpec, ParamKind, ParamSpec, ParamValues, Registered, SetupError};
use ply_core::{
    Evaluation, Game, MaxScore, Notation, ParseError, Player, Playouts, RngCore, Shortcuts,
};

pub use board::{BLACK, BORDER, Board, EMPTY, WHITE};
use board::{Zobrist, mix};
pub use playout::Policy;
pub use priors::Priors;

/// The largest board (GTP's letters reach T).
pub const MAX_SIZE: usize = 19;

/// Column letters, I left out as Go players do.
const LETTERS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// A move: a play on a point of the padded grid, or [`GoMove::PASS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoMove(pub u16);

impl GoMove {
    /// Passing (the grid's corner, never a point of the board).
    pub const PASS: GoMove = GoMove(0);

    /// Whether this is a pass.
    pub fn is_pass(self) -> bool {
        self == GoMove::PASS
    }
}

/// Go on a `size` × `size` board with `komi` points for White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Go {
    size: usize,
    komi: i32,
    zobrist: Zobrist,
    /// The points of the board in the natural order (A1, B1, ... row by
    /// row from the bottom).
    points: Vec<u16>,
    /// How MCTS's playouts are played: in place with this policy, or
    /// (`None`) move by move through the `Game` interface.
    playouts: Option<Policy>,
    /// What a new node's moves start with in MCTS ([`Playouts::prior`]).
    priors: Priors,
}

/// One move of a game's line: the move and the board after it.
#[derive(Debug)]
struct Ply {
    mv: GoMove,
    hash: u64,
    stones: u16,
    prev: Option<Arc<Ply>>,
}

/// Dropping a long line one link at a time: the derived drop would recurse
/// once per move and overflow the stack on a long game.
impl Drop for Ply {
    fn drop(&mut self) {
        let mut prev = self.prev.take();
        while let Some(link) = prev {
            match Arc::try_unwrap(link) {
                Ok(mut ply) => prev = ply.prev.take(),
                Err(_) => break,
            }
        }
    }
}

/// Where a game's line starts: the empty board or a diagram.
#[derive(Debug)]
struct Start {
    board: Board,
    /// The diagram as written (rows and side), `None` for the empty board.
    diagram: Option<String>,
}

/// A position: the stones, the mover, the passes in a row, and the
/// history the repetition rule reads (see the module's notes).
#[derive(Clone, Debug)]
pub struct GoState {
    board: Board,
    to_move: Player,
    passes: u8,
    start: Arc<Start>,
    /// The moves since the start, the last first.
    line: Option<Arc<Ply>>,
    /// Moves since the start.
    plies: u32,
    /// The sum of the mixed hashes of every board of the game (the start
    /// and each play's): the set's part of the key.
    history_key: u64,
    /// How many boards that sum holds.
    history_len: u32,
    /// The most stones any board of the game held.
    most_stones: u16,
    /// Stones each side has captured (black's, white's).
    prisoners: [u16; 2],
}

impl GoState {
    /// The stones.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Passes in a row just before this position (2: the game is over).
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The last move, if any since the start.
    pub fn last_move(&self) -> Option<GoMove> {
        self.line.as_ref().map(|p| p.mv)
    }

    /// The stones each side has captured: (black's, white's).
    pub fn prisoners(&self) -> (u16, u16) {
        (self.prisoners[0], self.prisoners[1])
    }

    /// The moves from the start, in order.
    pub fn moves(&self) -> Vec<GoMove> {
        let mut out = Vec::with_capacity(self.plies as usize);
        let mut at = self.line.as_deref();
        while let Some(p) = at {
            out.push(p.mv);
            at = p.prev.as_deref();
        }
        out.reverse();
        out
    }

    /// The boards of the game (hash, stones), the start's included.
    fn history(&self) -> Vec<(u64, u16)> {
        let mut out = vec![(self.start.board.hash(), self.start.board.stone_count())];
        let mut at = self.line.as_deref();
        while let Some(p) = at {
            if !p.mv.is_pass() {
                out.push((p.hash, p.stones));
            }
            at = p.prev.as_deref();
        }
        out.sort_unstable();
        out
    }

    /// Whether a board of `stones` stones with this hash has been seen.
    fn repeats(&self, hash: u64, stones: u16) -> bool {
        if stones > self.most_stones {
            return false;
        }
        let mut at = self.line.as_deref();
        while let Some(p) = at {
            if p.stones == stones && p.hash == hash && !p.mv.is_pass() {
                return true;
            }
            at = p.prev.as_deref();
        }
        self.start.board.stone_count() == stones && self.start.board.hash() == hash
    }

    fn colour(&self) -> u8 {
        match self.to_move {
            Player::Max => BLACK,
            Player::Min => WHITE,
        }
    }
}

impl PartialEq for GoState {
    fn eq(&self, other: &Self) -> bool {
        self.to_move == other.to_move
            && self.passes == other.passes
            && self.history_key == other.history_key
            && self.history_len == other.history_len
            && self.board.same_stones(&other.board)
            && ((Arc::ptr_eq(&self.start, &other.start)
                && same_line(self.line.as_ref(), other.line.as_ref()))
                || self.history() == other.history())
    }
}

/// Whether two lines are the same moves back to a shared link (or both
/// to the start): the cheap case of equal histories, met when a state
/// is compared with one played from the same parent.
fn same_line(mut a: Option<&Arc<Ply>>, mut b: Option<&Arc<Ply>>) -> bool {
    loop {
        match (a, b) {
            (None, None) => return true,
            (Some(x), Some(y)) if Arc::ptr_eq(x, y) => return true,
            (Some(x), Some(y)) if x.mv == y.mv => {
                a = x.prev.as_ref();
                b = y.prev.as_ref();
            }
            _ => return false,
        }
    }
}

impl Eq for GoState {}

impl Hash for GoState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.board.hash().hash(state);
        self.to_move.hash(state);
        self.passes.hash(state);
        self.history_key.hash(state);
    }
}

impl Go {
    /// Go on a `size` × `size` board, `komi` points to White.
    pub fn new(size: usize, komi: i32) -> Result<Self, SetupError> {
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(SetupError(format!(
                "a {size}x{size} board is not played here: the size must be from 2 to {MAX_SIZE}"
            )));
        }
        let stride = size + 2;
        let points = (1..=size)
            .flat_map(|row| (1..=size).map(move |col| (row * stride + col) as u16))
            .collect();
        Ok(Go {
            size,
            komi,
            zobrist: Zobrist::new(stride * stride),
            points,
            playouts: Some(Policy::FULL),
            priors: Priors::Knowledge,
        })
    }

    /// The same game with MCTS's playouts played in place by `policy`, or
    /// (`None`) move by move through the `Game` interface, with
    /// [`Playouts::playout_choice`]'s light policy.
    pub fn with_playouts(mut self, policy: Option<Policy>) -> Self {
        self.playouts = policy;
        self
    }

    /// The same game with MCTS's new moves starting from `priors`.
    pub fn with_priors(mut self, priors: Priors) -> Self {
        self.priors = priors;
        self
    }

    /// The board's width and height.
    pub fn size(&self) -> usize {
        self.size
    }

    /// White's compensation, in points.
    pub fn komi(&self) -> i32 {
        self.komi
    }

    /// The points of the board, A1 first, row by row from the bottom.
    pub fn points(&self) -> &[u16] {
        &self.points
    }

    /// The point at column `col` and row `row`, both from 0 at the bottom left.
    pub fn point(&self, col: usize, row: usize) -> GoMove {
        GoMove(((row + 1) * (self.size + 2) + col + 1) as u16)
    }

    /// The column and row (from 0 at the bottom left) of a point.
    pub fn coordinates(&self, mv: GoMove) -> (usize, usize) {
        let stride = self.size + 2;
        let p = usize::from(mv.0);
        (p % stride - 1, p / stride - 1)
    }

    /// A game starting from `board` with `to_move` to play: the empty
    /// board, or stones set out by a diagram (written as `diagram`).
    fn start_state(&self, board: Board, to_move: Player, diagram: Option<String>) -> GoState {
        let (hash, stones) = (board.hash(), board.stone_count());
        GoState {
            board: board.clone(),
            to_move,
            passes: 0,
            start: Arc::new(Start { board, diagram }),
            line: None,
            plies: 0,
            history_key: mix(hash),
            history_len: 1,
            most_stones: stones,
            prisoners: [0, 0],
        }
    }

    /// Who owns each point of the board (A1 first) under area scoring
    /// now: [`BLACK`], [`WHITE`] or [`EMPTY`] (a point no one owns).
    pub fn owners(&self, s: &GoState) -> Vec<u8> {
        let all = s.board.owners();
        self.points.iter().map(|&p| all[usize::from(p)]).collect()
    }

    /// The area of each side (stones and the empty points reaching only
    /// theirs): (black, white).
    pub fn area(&self, s: &GoState) -> (i32, i32) {
        s.board.area()
    }

    /// A point's name: `D4`.
    pub fn point_name(&self, mv: GoMove) -> String {
        let (col, row) = self.coordinates(mv);
        format!("{}{}", LETTERS[col] as char, row + 1)
    }

    fn parse_point(&self, text: &str) -> Result<GoMove, String> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(GoMove::PASS);
        }
        let last = LETTERS[self.size - 1] as char;
        let how = format!(
            "a move is a point, a column letter A to {last} (no I) and a row 1 to {}, or 'pass'",
            self.size
        );
        let mut chars = t.chars();
        let letter = chars.next().map(|c| c.to_ascii_uppercase());
        let row: Option<usize> = chars.as_str().parse().ok();
        let (Some(letter), Some(row)) = (letter, row) else {
            return Err(format!("'{t}' is not a move: {how}"));
        };
        if letter == 'I' {
            return Err(format!(
                "'{t}': Go's columns skip the letter I (H is followed by J)"
            ));
        }
        let col = LETTERS[..self.size].iter().position(|&l| l as char == letter);
        match col {
            Some(col) if (1..=self.size).contains(&row) => Ok(self.point(col, row - 1)),
            _ => Err(format!("'{t}' is off the {0}x{0} board: {how}", self.size)),
        }
    }

    /// Reads a diagram's rows (top first, separated by `/`).
    fn parse_diagram(&self, rows: &str) -> Result<Board, ParseError> {
        let lines: Vec<&str> = rows.split('/').collect();
        if lines.len() != self.size {
            return Err(ParseError::new(format!(
                "a diagram of a {0}x{0} board has {0} rows separated by '/'; this one has {1}",
                self.size,
                lines.len()
            )));
        }
        let mut board = Board::new(self.size);
        let mut column = 1;
        for (i, line) in lines.iter().enumerate() {
            let row = self.size - 1 - i;
            if line.chars().count() != self.size {
                return Err(ParseError::at(
                    column,
                    format!(
                        "row {} of the diagram has {} points; each row has {}",
                        row + 1,
                        line.chars().count(),
                        self.size
                    ),
                ));
            }
            for (col, ch) in line.chars().enumerate() {
                let colour = match ch {
                    'X' | 'x' => BLACK,
                    'O' | 'o' => WHITE,
                    '.' => EMPTY,
                    _ => {
                        return Err(ParseError::at(
                            column + col,
                            format!("'{ch}' is not a point of a diagram: X black, O white, . empty"),
                        ));
                    }
                };
                if colour != EMPTY {
                    let p = usize::from(self.point(col, row).0);
                    // Stones are only added, so a stone set out without a
                    // liberty, or taking an earlier group's last one, leaves
                    // a group that has none in the finished diagram.
                    if board
                        .outcome(p, colour, &self.zobrist)
                        .is_none_or(|o| o.captures)
                    {
                        return Err(ParseError::at(
                            column + col,
                            format!(
                                "the diagram has a group without a liberty (at {})",
                                self.point_name(GoMove(p as u16))
                            ),
                        ));
                    }
                    board.place(p, colour, &self.zobrist);
                }
            }
            column += line.chars().count() + 1;
        }
        Ok(board)
    }

    /// The diagram of a board: rows from the top, separated by `/`.
    fn diagram(&self, board: &Board) -> String {
        let rows: Vec<String> = (0..self.size)
            .rev()
            .map(|row| {
                (0..self.size)
                    .map(|col| stone_char(board.colour(usize::from(self.point(col, row).0))))
                    .collect()
            })
            .collect();
        rows.join("/")
    }

    /// Plays the moves written in `words` (each with its column in the
    /// position's text) from `state`, checking each.
    fn play_words(&self, mut s: GoState, words: &[(usize, &str)]) -> Result<GoState, ParseError> {
        let mut legal = Vec::new();
        for (i, &(column, word)) in words.iter().enumerate() {
            let at = |m: String| ParseError::at(column, format!("move {}: {m}", i + 1));
            if self.is_terminal(&s) {
                return Err(at("the game is over: two passes in a row ended it".into()));
            }
            let mv = self.parse_point(word).map_err(at)?;
            legal.clear();
            self.legal_moves(&s, &mut legal);
            if !legal.contains(&mv) {
                return Err(at(self.why_illegal(&s, mv)));
            }
            s = self.play(&s, mv);
        }
        Ok(s)
    }

    /// Why the play `mv` is not legal in `s`, in a player's words.
    pub fn why_illegal(&self, s: &GoState, mv: GoMove) -> String {
        let name = self.point_name(mv);
        let p = usize::from(mv.0);
        if s.board.colour(p) != EMPTY {
            return format!("{name} is not empty");
        }
        match s.board.outcome(p, s.colour(), &self.zobrist) {
            None => format!("{name} is suicide: the stone would have no liberty"),
            Some(o) if s.repeats(o.hash, o.stones) => format!(
                "{name} would repeat an earlier position (superko; a simple ko is the same rule): play elsewhere first"
            ),
            Some(_) => format!("{name} is legal"),
        }
    }
}

impl Game for Go {
    type State = GoState;
    type Move = GoMove;

    fn initial_state(&self) -> GoState {
        self.start_state(Board::new(self.size), Player::Max, None)
    }

    fn to_move(&self, s: &GoState) -> Player {
        s.to_move
    }

    fn legal_moves(&self, s: &GoState, moves: &mut Vec<GoMove>) {
        if s.passes >= 2 {
            return;
        }
        let colour = s.colour();
        // A play that captures nothing adds a stone; while no earlier
        // board held that many, it cannot repeat one, and then a point
        // with an empty neighbour is legal without computing the board
        // after it (most points, most of a game).
        let fresh = s.board.stone_count() + 1 > s.most_stones;
        for &p in &self.points {
            let p = usize::from(p);
            if s.board.colour(p) != EMPTY {
                continue;
            }
            if fresh && s.board.has_empty_neighbour(p) && !s.board.captures(p, colour) {
                moves.push(GoMove(p as u16));
            } else if let Some(o) = s.board.outcome(p, colour, &self.zobrist)
                && !s.repeats(o.hash, o.stones)
            {
                moves.push(GoMove(p as u16));
            }
        }
        moves.push(GoMove::PASS);
    }

    fn play(&self, s: &GoState, mv: GoMove) -> GoState {
        let mut next = s.clone();
        next.to_move = s.to_move.opponent();
        next.plies += 1;
        if mv.is_pass() {
            next.passes = s.passes + 1;
        } else {
            next.passes = 0;
            let colour = s.colour();
            let taken = next
                .board
                .place(usize::from(mv.0), colour, &self.zobrist);
            next.prisoners[usize::from(colour - 1)] += taken;
            next.history_key = next.history_key.wrapping_add(mix(next.board.hash()));
            next.history_len += 1;
            next.most_stones = next.most_stones.max(next.board.stone_count());
        }
        next.line = Some(Arc::new(Ply {
            mv,
            hash: next.board.hash(),
            stones: next.board.stone_count(),
            prev: s.line.clone(),
        }));
        next
    }

    fn is_terminal(&self, s: &GoState) -> bool {
        s.passes >= 2
    }

    fn utility(&self, s: &GoState) -> MaxScore {
        let (black, white) = s.board.area();
        MaxScore(black - white - self.komi)
    }

    fn hash_key(&self, s: &GoState) -> u64 {
        let side = match s.to_move {
            Player::Max => 0,
            Player::Min => 0x5bd1_e995_7f4a_7c15,
        };
        s.board.hash()
            ^ side
            ^ mix(u64::from(s.passes) + 1).rotate_left(17)
            ^ mix(s.history_key ^ 0x2545_f491_4f6c_dd1d)
    }
}

impl Shortcuts for Go {
    /// Every point is someone's or no one's: the margin lies within the
    /// board's area either way of the komi.
    fn exact_bounds(&self, _s: &GoState) -> Option<(MaxScore, MaxScore)> {
        let n = (self.size * self.size) as i32;
        Some((MaxScore(-n - self.komi), MaxScore(n - self.komi)))
    }
}

impl Playouts for Go {
    /// A random move that does not fill one of the mover's own eyes; a
    /// pass only when every other move would. Without the eye rule a
    /// playout fills its own eyes and throws its living groups away.
    fn playout_choice(&self, s: &GoState, moves: &[GoMove], random: u64) -> usize {
        let plays = moves.len() - 1; // the pass is last
        if plays == 0 {
            return 0;
        }
        let first = ((u128::from(random) * plays as u128) >> 64) as usize;
        let colour = s.colour();
        (0..plays)
            .map(|i| (first + i) % plays)
            .find(|&i| !s.board.is_eye(usize::from(moves[i].0), colour))
            .unwrap_or(plays)
    }

    /// Every cell of the padded grid: a point's slot is its index.
    fn move_slots(&self) -> usize {
        (self.size + 2) * (self.size + 2)
    }

    fn move_slot(&self, mv: GoMove) -> Option<usize> {
        (!mv.is_pass()).then_some(usize::from(mv.0))
    }

    /// A pass and a play in one's own eye start as worth little (as ten
    /// virtual results averaging 0.3 and 0.1): a pass has no AMAF value of
    /// its own (it means nothing out of its place), and a playout never
    /// fills its own eye, so neither would otherwise learn anything
    /// before it is expanded, and each would sit at the neutral 1/2 while
    /// a losing position's real moves fall below it. A pass must still be
    /// reachable (0.3): when every play looks worse, it is tried. Other
    /// plays start from the `priors` module's knowledge
    /// ([`Priors::Knowledge`], the default) or as one virtual draw.
    fn prior(&self, s: &GoState, mv: GoMove) -> (f32, f32) {
        let colour = s.colour();
        if mv.is_pass() {
            (10.0, 3.0)
        } else if s.board.is_eye(usize::from(mv.0), colour) {
            (10.0, 1.0)
        } else if self.priors == Priors::Knowledge {
            let last = s.last_move().filter(|m| !m.is_pass()).map(|m| usize::from(m.0));
            priors::knowledge(&s.board, usize::from(mv.0), colour, last)
        } else {
            (1.0, 0.5)
        }
    }

    /// One board played in place by the game's [`Policy`] (see the
    /// `playout` module), scored by area.
    fn playout(
        &self,
        s: &GoState,
        rng: &mut dyn RngCore,
        moves: &mut Vec<(Player, GoMove)>,
    ) -> Option<f64> {
        let (black, white) = self.played_out(s, rng, moves)?.area();
        Some(win_draw_loss(black - white - self.komi))
    }

    /// The same playout, each point's owner at the end counted (the
    /// area's own count: a stone's colour, an empty region's one colour).
    fn playout_owned(
        &self,
        s: &GoState,
        rng: &mut dyn RngCore,
        moves: &mut Vec<(Player, GoMove)>,
        owners: &mut [i64],
    ) -> Option<f64> {
        let who = self.played_out(s, rng, moves)?.owners();
        let mut margin = -self.komi;
        for &p in &self.points {
            let p = usize::from(p);
            match who[p] {
                BLACK => {
                    owners[p] += 1;
                    margin += 1;
                }
                WHITE => {
                    owners[p] -= 1;
                    margin -= 1;
                }
                _ => {}
            }
        }
        Some(win_draw_loss(margin))
    }

    /// A point of the board (a slot is a point's index).
    fn slot_move(&self, slot: usize) -> Option<GoMove> {
        let p = u16::try_from(slot).ok()?;
        self.points.contains(&p).then_some(GoMove(p))
    }
}

impl Go {
    /// The final board of a playout by the game's [`Policy`] (see the
    /// `playout` module); `None` with move-by-move playouts or at the end.
    fn played_out(
        &self,
        s: &GoState,
        rng: &mut dyn RngCore,
        moves: &mut Vec<(Player, GoMove)>,
    ) -> Option<Board> {
        let policy = self.playouts?;
        if self.is_terminal(s) {
            return None;
        }
        Some(playout::play_out(self, s, policy, rng, moves))
    }
}

/// How a point is drawn: `X` black, `O` white, `.` empty.
fn stone_char(colour: u8) -> char {
    match colour {
        BLACK => 'X',
        WHITE => 'O',
        _ => '.',
    }
}

/// A playout's result for Black from the final margin.
fn win_draw_loss(margin: i32) -> f64 {
    match margin.signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    }
}

impl Evaluation for Go {
    /// Passing first. On small boards the game is decided by who can stop
    /// first: John Tromp's 2×2 solver searches 1,446 nodes trying the pass
    /// first and 19,397,529 trying it last. A stable sort keeps the
    /// history's order among the plays.
    fn order_moves(&self, _s: &GoState, moves: &mut [GoMove]) {
        if let Some(i) = moves.iter().position(|m| m.is_pass()) {
            moves[..=i].rotate_right(1);
        }
    }
}

ply_core::no_hooks!(Go: EngineHooks, Chance, Impartial, Learn);

impl Registered for Go {
    const SPEC: GameSpec = GameSpec {
        mcts_default: true,
        mcts_rave: Some(300),
        params: &[
            ParamSpec {
                name: "size",
                kind: ParamKind::Int {
                    default: 9,
                    min: 2,
                    max: MAX_SIZE as i64,
                },
                meaning: "the board's width and height",
            },
            ParamSpec {
                name: "komi",
                kind: ParamKind::Int {
                    default: 7,
                    min: -400,
                    max: 400,
                },
                meaning: "points added to White's area (whole points: an even margin is a draw)",
            },
            ParamSpec {
                name: "playouts",
                kind: ParamKind::Choice {
                    default: "full",
                    values: &["full", "shapes", "light", "moves"],
                },
                meaning: "how MCTS plays a position out: full (one board in place, answering ataris and refusing self-ataris), shapes (full, and hanes and cuts beside the last move), light (in place, random moves that keep out of one's own eyes), moves (the light policy move by move through the game's rules, as every other game's playouts)",
            },
            ParamSpec {
                name: "priors",
                kind: ParamKind::Choice {
                    default: "knowledge",
                    values: &["knowledge", "plain"],
                },
                meaning: "what MCTS's new moves start with under RAVE: knowledge (captures, escapes and the last move's neighbours high; self-ataris and empty edges low) or plain (one virtual draw; a pass and one's own eye low in both)",
            },
        ],
        ..GameSpec::new(
            "go",
            "place stones; a group with no liberty is captured; suicide is illegal and no play may repeat an earlier board (positional superko); two passes end the game, scored by area (stones plus the empty points reaching only yours) minus komi for White; black (X) moves first",
            "the moves in order from the empty board, e.g. D4 E5 pass ('' is the empty board); or a diagram, rows from the top separated by '/' (X black, O white, . empty), then b or w for the player to move, then moves: .X./XO./... w B1",
            "a point in GTP coordinates, a column letter (no I) and a row from 1 at the bottom (D4), or pass",
        )
    };

    fn from_params(values: &ParamValues) -> Result<Self, SetupError> {
        let policy = match values.choice("playouts") {
            "shapes" => Some(Policy::SHAPES),
            "light" => Some(Policy::LIGHT),
            "moves" => None,
            _ => Some(Policy::FULL),
        };
        let priors = match values.choice("priors") {
            "plain" => Priors::Plain,
            _ => Priors::Knowledge,
        };
        Ok(Self::new(values.int("size") as usize, values.int("komi") as i32)?
            .with_playouts(policy)
            .with_priors(priors))
    }
}

impl Notation for Go {
    fn parse_position(&self, text: &str) -> Result<GoState, ParseError> {
        let mut words = Vec::new();
        let mut column = 1;
        for word in text.split(' ') {
            if !word.is_empty() && word != "-" {
                words.push((column, word));
            }
            column += word.chars().count() + 1;
        }
        let Some(&(_, first)) = words.first().filter(|(_, w)| w.contains('/')) else {
            return self.play_words(self.initial_state(), &words);
        };
        let board = self.parse_diagram(first)?;
        let mut rest = &words[1..];
        let mut to_move = Player::Max;
        if let Some(&(_, side)) = rest.first() {
            match side.to_ascii_lowercase().as_str() {
                "b" => rest = &rest[1..],
                "w" => {
                    to_move = Player::Min;
                    rest = &rest[1..];
                }
                _ => {}
            }
        }
        let side = if to_move == Player::Max { "b" } else { "w" };
        let diagram = format!("{} {side}", self.diagram(&board));
        self.play_words(self.start_state(board, to_move, Some(diagram)), rest)
    }

    fn format_position(&self, s: &GoState) -> String {
        let mut words: Vec<String> = s.start.diagram.iter().cloned().collect();
        words.extend(s.moves().into_iter().map(|m| self.format_move(s, m)));
        words.join(" ")
    }

    fn parse_move(&self, _s: &GoState, text: &str) -> Result<GoMove, ParseError> {
        self.parse_point(text).map_err(ParseError::new)
    }

    fn format_move(&self, _s: &GoState, mv: GoMove) -> String {
        if mv.is_pass() {
            "pass".into()
        } else {
            self.point_name(mv)
        }
    }

    fn draw(&self, s: &GoState) -> String {
        let n = self.size;
        let letters: String = LETTERS[..n].iter().map(|&l| format!(" {}", l as char)).collect();
        let last = s.last_move().filter(|m| !m.is_pass());
        let is_last = |col: usize, row: usize| last == Some(self.point(col, row));
        let mut out = format!("   {letters}\n");
        for row in (0..n).rev() {
            let _ = write!(out, "{:>2} ", row + 1);
            for col in 0..n {
                out.push(if is_last(col, row) {
                    '('
                } else if col > 0 && is_last(col - 1, row) {
                    ')'
                } else {
                    ' '
                });
                out.push(stone_char(s.board.colour(usize::from(self.point(col, row).0))));
            }
            out.push(if is_last(n - 1, row) { ')' } else { ' ' });
            let _ = writeln!(out, "{}", row + 1);
        }
        let _ = write!(out, "   {letters}");
        let (b, w) = s.prisoners();
        let _ = write!(out, "\ncaptured: {b} by X, {w} by O");
        if s.last_move() == Some(GoMove::PASS) {
            let who = match s.to_move {
                Player::Max => "O",
                Player::Min => "X",
            };
            let _ = write!(out, "; {who} passed");
        }
        out
    }

    /// The board with a note on each point that has one (a visit count,
    /// an owner's mark), the stones and empty points elsewhere; every
    /// column as wide as the widest note.
    fn draw_annotated(&self, s: &GoState, notes: &[(GoMove, String)]) -> Option<String> {
        let mut labels: Vec<Option<&str>> = vec![None; s.board.cells()];
        for (mv, note) in notes.iter().filter(|(m, _)| !m.is_pass()) {
            labels[usize::from(mv.0)] = Some(note);
        }
        let width = notes.iter().map(|(_, n)| n.chars().count()).max().unwrap_or(1).max(1);
        let n = self.size;
        let letters: String = LETTERS[..n]
            .iter()
            .map(|&l| format!(" {:>width$}", l as char))
            .collect();
        let mut out = format!("   {letters}\n");
        for row in (0..n).rev() {
            let _ = write!(out, "{:>2} ", row + 1);
            for col in 0..n {
                let p = usize::from(self.point(col, row).0);
                let cell = labels[p].map_or_else(|| stone_char(s.board.colour(p)).to_string(), str::to_string);
                let _ = write!(out, " {cell:>width$}");
            }
            let _ = writeln!(out, " {}", row + 1);
        }
        let _ = write!(out, "   {letters}");
        Some(out)
    }

    fn score_note(&self, _s: &GoState, score: i32) -> Option<String> {
        let points = |n: i32| if n.abs() == 1 { "point" } else { "points" };
        Some(match score.signum() {
            1 => format!("win by {score} {}", points(score)),
            -1 => format!("loss by {} {}", -score, points(score)),
            _ => "draw (jigo)".into(),
        })
    }
}

#[cfg(test)]
mod tests;
