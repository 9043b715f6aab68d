//! Chess, on the cozy-chess move generator.
//!
//! The rules (legal moves, check, castling, en passant, promotion) come from
//! cozy-chess; this module adds what makes them a [`Game`]: the draws by the
//! fifty-move rule, threefold repetition and insufficient material, checkmate
//! and stalemate as terminal states, FEN and UCI/SAN notation, and the chess
//! knowledge the engine reaches through the trait's hooks: an evaluation in
//! centipawns, captures first by most-valuable-victim/least-valuable-attacker,
//! the noisy moves quiescence searches, the check test, the null move and
//! the quiet-move test for reductions.
//!
//! Castling is stored as cozy-chess stores it (the king takes its own rook,
//! `e1h1`) and always read and written in standard UCI (`e1g1`) through
//! `cozy_chess::util`.

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use cozy_chess::util::{display_san_move, display_uci_move, parse_san_move, parse_uci_move};
use cozy_chess::{
    BitBoard, Board, Color, File, Move, Piece, Rank, Square, get_between_rays, get_bishop_moves,
    get_bishop_rays, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
    get_rook_rays,
};
use ply_core::{
    EngineHooks, Evaluation, Game, MaxScore, Notation, ParseError, Player, Tuning,
    sort_by_priority,
};

use ply_core::registry::{GameSpec, ParamValues, Registered, SetupError};

pub mod eval;
pub mod tune;
pub mod weights;

/// The utility of a checkmate, in centipawns: far beyond any evaluation
/// (the conformance kit checks that), so a depth-limited search without the
/// engine's decided band still prefers a mate to any material.
pub const MATE: i32 = 100_000;

/// Material, in centipawns, indexed by [`Piece`]: the textbook values
/// (pawn 1, knight 3, bishop 3, rook 5, queen 9) that static exchange
/// evaluation and capture ordering count in. (The evaluation's own piece
/// values are weights of its piece-square term, by phase: see `eval` and
/// `weights`.)
pub const MATERIAL: [i32; 6] = [100, 300, 300, 500, 900, 0];

/// Chess. The evaluation's masks are built once, here.
#[derive(Clone, Debug)]
pub struct Chess {
    masks: Box<eval::Masks>,
}

/// A link in the chain of earlier positions' keys, most recent first, back
/// to the last capture or pawn move (before which no position can recur).
#[derive(Debug)]
struct Link {
    key: u64,
    prev: Option<Arc<Link>>,
}

/// A chess position with what the draw rules need of its history.
///
/// Two states are equal when the board (pieces, side to move, castling,
/// en passant, clocks) and the number of earlier occurrences are: the
/// position notation writes both, so a state prints and parses back equal.
#[derive(Clone)]
pub struct ChessState {
    board: Board,
    /// Earlier occurrences of this position (0, 1, or 2: a threefold repetition).
    repeats: u8,
    history: Option<Arc<Link>>,
}

impl ChessState {
    /// The cozy-chess board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A state with no history.
    pub fn from_board(board: Board) -> Self {
        ChessState {
            board,
            repeats: 0,
            history: None,
        }
    }

    /// How many times this position occurred before (2 is a threefold repetition).
    pub fn repeats(&self) -> u8 {
        self.repeats
    }
}

impl PartialEq for ChessState {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.repeats == other.repeats
    }
}

impl Eq for ChessState {}

impl Hash for ChessState {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.board.hash().hash(h);
        self.repeats.hash(h);
    }
}

impl std::fmt::Debug for ChessState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", format_fen(self))
    }
}

fn format_fen(s: &ChessState) -> String {
    if s.repeats > 0 {
        format!("{} rep={}", s.board, s.repeats)
    } else {
        s.board.to_string()
    }
}

impl Default for Chess {
    fn default() -> Self {
        Self::new()
    }
}

impl Chess {
    /// Standard chess.
    pub fn new() -> Self {
        Chess {
            masks: Box::new(eval::Masks::new()),
        }
    }

    /// The state for a cozy-chess board, without history.
    pub fn state(&self, board: Board) -> ChessState {
        ChessState::from_board(board)
    }

    /// Whether neither side can ever mate: kings alone, a single minor
    /// piece, or only bishops all on squares of one colour.
    pub fn insufficient_material(board: &Board) -> bool {
        let heavy =
            board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = board.pieces(Piece::Knight);
        let bishops = board.pieces(Piece::Bishop);
        if (knights | bishops).len() <= 1 {
            return true;
        }
        knights.is_empty()
            && (bishops.is_subset(BitBoard::DARK_SQUARES)
                || bishops.is_subset(BitBoard::LIGHT_SQUARES))
    }

    /// Whether a rule other than mate or stalemate ends the game here.
    fn drawn_by_rule(s: &ChessState) -> bool {
        s.repeats >= 2 || s.board.halfmove_clock() >= 100 || Self::insufficient_material(&s.board)
    }

    fn has_moves(board: &Board) -> bool {
        board.generate_moves(|_| true)
    }

    fn is_capture(board: &Board, mv: Move) -> bool {
        board.colors(!board.side_to_move()).has(mv.to)
            || (board.piece_on(mv.from) == Some(Piece::Pawn) && mv.from.file() != mv.to.file())
    }

    /// The static evaluation, centipawns from White's view, of a position
    /// that is not over: the weighted terms of [`eval`] (material and
    /// squares, mobility, pawn structure, the bishop pair, rooks on open
    /// files, the king's pawn shield, the move), blended from middlegame to
    /// endgame by the material left.
    pub fn static_eval(&self, board: &Board) -> i32 {
        eval::evaluate(&self.masks, board)
    }

    /// Writes `moves` from `start` as PGN, with a result tag.
    pub fn pgn(&self, start: &ChessState, moves: &[Move], white: &str, black: &str) -> String {
        let mut out = String::new();
        let mut s = start.clone();
        let mut body = String::new();
        for (i, &m) in moves.iter().enumerate() {
            let b = &s.board;
            if b.side_to_move() == Color::White {
                let _ = write!(body, "{}. ", b.fullmove_number());
            } else if i == 0 {
                let _ = write!(body, "{}... ", b.fullmove_number());
            }
            let _ = write!(body, "{} ", display_san_move(b, m));
            s = self.play(&s, m);
        }
        let result = if self.is_terminal(&s) {
            match self.utility(&s).0.signum() {
                1 => "1-0",
                -1 => "0-1",
                _ => "1/2-1/2",
            }
        } else {
            "*"
        };
        let _ = writeln!(out, "[Event \"ply game\"]");
        let _ = writeln!(out, "[White \"{white}\"]");
        let _ = writeln!(out, "[Black \"{black}\"]");
        let _ = writeln!(out, "[Result \"{result}\"]");
        if start.board != Board::default() {
            let _ = writeln!(out, "[SetUp \"1\"]");
            let _ = writeln!(out, "[FEN \"{}\"]", start.board);
        }
        out.push('\n');
        out.push_str(&body);
        out.push_str(result);
        out.push('\n');
        out
    }
}

/// Piece values for exchanges: material, and the king above everything
/// (it is never captured, so a king "recapture" only works undefended).
fn see_value(p: Piece) -> i32 {
    match p {
        Piece::King => 20_000,
        _ => MATERIAL[p as usize],
    }
}

/// Every piece of either colour attacking `sq` through `occupied`.
fn attackers_to(b: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    let rooks = b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
    let bishops = b.pieces(Piece::Bishop) | b.pieces(Piece::Queen);
    let pawns = b.pieces(Piece::Pawn);
    ((get_pawn_attacks(sq, Color::Black) & pawns & b.colors(Color::White))
        | (get_pawn_attacks(sq, Color::White) & pawns & b.colors(Color::Black))
        | (get_knight_moves(sq) & b.pieces(Piece::Knight))
        | (get_king_moves(sq) & b.pieces(Piece::King))
        | (get_bishop_moves(sq, occupied) & bishops)
        | (get_rook_moves(sq, occupied) & rooks))
        & occupied
}

/// Static exchange evaluation: the material the mover wins (negative:
/// loses) if both sides keep capturing on the target square with their
/// least valuable piece, each free to stop when going on would lose.
/// Sliders behind the capturers (x-rays) join in.
pub fn see(b: &Board, mv: Move) -> i32 {
    let Some(mut piece) = b.piece_on(mv.from) else {
        return 0;
    };
    let to = mv.to;
    let mut occupied = b.occupied() ^ mv.from.bitboard();
    let mut gain = [0i32; 34];
    gain[0] = match b.piece_on(to) {
        Some(victim) if b.color_on(to) != Some(b.side_to_move()) => see_value(victim),
        _ if piece == Piece::Pawn && mv.from.file() != to.file() => {
            // En passant: the captured pawn is beside the target square.
            occupied ^= Square::new(to.file(), mv.from.rank()).bitboard();
            see_value(Piece::Pawn)
        }
        _ => 0,
    };
    if let Some(p) = mv.promotion {
        gain[0] += see_value(p) - see_value(Piece::Pawn);
        piece = p;
    }
    let mut side = !b.side_to_move();
    let mut d = 0;
    loop {
        d += 1;
        // What the side to capture next would win, if it can capture.
        gain[d] = see_value(piece) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d + 1 >= gain.len() {
            break;
        }
        let ours = attackers_to(b, to, occupied) & b.colors(side);
        let Some((p, from)) = Piece::ALL
            .iter()
            .find_map(|&p| (ours & b.pieces(p)).next_square().map(|sq| (p, sq)))
        else {
            break;
        };
        occupied ^= from.bitboard();
        piece = p;
        side = !side;
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

fn piece_value(p: Piece) -> i32 {
    match p {
        Piece::King => 10,
        _ => MATERIAL[p as usize] / 100,
    }
}

impl Game for Chess {
    type State = ChessState;
    type Move = Move;

    fn initial_state(&self) -> ChessState {
        ChessState::from_board(Board::default())
    }

    fn to_move(&self, s: &ChessState) -> Player {
        match s.board.side_to_move() {
            Color::White => Player::Max,
            Color::Black => Player::Min,
        }
    }

    fn legal_moves(&self, s: &ChessState, moves: &mut Vec<Move>) {
        if !Self::drawn_by_rule(s) {
            s.board.generate_moves(|pm| {
                moves.extend(pm);
                false
            });
        }
    }

    fn play(&self, s: &ChessState, mv: Move) -> ChessState {
        let mut board = s.board.clone();
        board.play_unchecked(mv);
        if board.halfmove_clock() == 0 {
            // A capture or pawn move: no earlier position can recur.
            return ChessState::from_board(board);
        }
        let history = Some(Arc::new(Link {
            key: s.board.hash(),
            prev: s.history.clone(),
        }));
        let key = board.hash();
        let mut repeats = 0;
        let mut link = history.as_deref();
        let mut left = board.halfmove_clock();
        while let Some(l) = link {
            if left == 0 {
                break;
            }
            if l.key == key {
                repeats += 1;
                if repeats == 2 {
                    break;
                }
            }
            left -= 1;
            link = l.prev.as_deref();
        }
        ChessState {
            board,
            repeats,
            history,
        }
    }

    fn is_terminal(&self, s: &ChessState) -> bool {
        Self::drawn_by_rule(s) || !Self::has_moves(&s.board)
    }

    fn utility(&self, s: &ChessState) -> MaxScore {
        // Mate stands even on the fiftieth move or a repetition.
        if !Self::has_moves(&s.board) && !s.board.checkers().is_empty() {
            return MaxScore(match s.board.side_to_move() {
                Color::White => -MATE,
                Color::Black => MATE,
            });
        }
        MaxScore::ZERO
    }

    fn hash_key(&self, s: &ChessState) -> u64 {
        s.board.hash() ^ u64::from(s.repeats).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl Evaluation for Chess {
    fn evaluate(&self, s: &ChessState) -> MaxScore {
        if self.is_terminal(s) {
            self.utility(s)
        } else {
            MaxScore(self.static_eval(&s.board))
        }
    }

    fn heuristic(&self, s: &ChessState) -> MaxScore {
        MaxScore(self.static_eval(&s.board))
    }

    /// Captures first, by most valuable victim then least valuable
    /// attacker (losing ones after the quiet moves), queen promotions with
    /// them, underpromotions last. Quiet checks are not moved forward: tried
    /// before the other quiet moves they scored 10.5/27 in self-play.
    fn order_moves(&self, s: &ChessState, moves: &mut [Move]) {
        let b = &s.board;
        let theirs = b.colors(!b.side_to_move());
        sort_by_priority(moves, |m| {
            let promo = match m.promotion {
                Some(Piece::Queen) => 9_000,
                Some(_) => return -1,
                None => 0,
            };
            let attacker = b.piece_on(m.from).map_or(0, piece_value);
            let victim = if theirs.has(m.to) {
                b.piece_on(m.to).map_or(0, piece_value)
            } else if attacker == 1 && m.from.file() != m.to.file() {
                1 // en passant
            } else {
                return promo;
            };
            // Captures by most valuable victim, then least valuable
            // attacker; those that lose the exchange after the quiet moves.
            let mvv_lva = 100 * victim - attacker;
            if attacker <= victim || see(b, m) >= 0 {
                10_000 + promo + mvv_lva
            } else {
                -2_000 + mvv_lva
            }
        });
    }




}

impl EngineHooks for Chess {
    fn history_slots(&self) -> usize {
        64 * 64
    }
    fn history_slot(&self, _s: &ChessState, mv: Move) -> Option<usize> {
        Some(mv.from as usize * 64 + mv.to as usize)
    }
    /// The moving piece (with its colour) and the square it goes to.
    fn continuation_slots(&self) -> usize {
        2 * 6 * 64
    }
    fn continuation_slot(&self, s: &ChessState, mv: Move) -> Option<usize> {
        let b = &s.board;
        let piece = b.piece_on(mv.from)? as usize;
        let colour = b.side_to_move() as usize;
        Some((colour * 6 + piece) * 64 + mv.to as usize)
    }

    /// A quiet position rarely moves more than about a minor piece's worth
    /// (110 centipawns) in one ply; values move about 30 between iterations.
    /// History with gravity and a malus won in self-play (SPRT 0,10 at
    /// 40 ms: 247 games W111 D88 L48, +91 ± 35 Elo, LLR 2.95), and so did
    /// static-exchange pruning three plies from the horizon (SPRT 0,10 at
    /// 40 ms, one test over two sessions: 1,703 games W579 D667 L457,
    /// +25 Elo, LLR 4.65).
    /// The other numbers are the engine's defaults: each alternative tried
    /// so far (deeper reverse futility, Stockfish-style null-move
    /// reductions, quiet checks in quiescence, together) lost in self-play;
    /// `ply uci --tune` tries them one at a time. Continuation history
    /// (`continuation_history=true`, on top of the exchange pruning) stood
    /// at 807 games W233 D319 L255, -9 Elo, LLR -1.6 when stopped.
    const TUNING: Tuning = Tuning {
        futility_margin: Some(110),
        aspiration_width: Some(30),
        prefetch_children: false,
        history_gravity: true,
        see_pruning: 3,
        ..Tuning::NONE
    };

    fn noisy_moves(&self, s: &ChessState, moves: &mut Vec<Move>) -> bool {
        let b = &s.board;
        let theirs = b.colors(!b.side_to_move());
        let ep = b.en_passant().map_or(BitBoard::EMPTY, |f| {
            Square::new(f, Rank::Sixth.relative_to(b.side_to_move())).bitboard()
        });
        let promo = Rank::First.bitboard() | Rank::Eighth.bitboard();
        b.generate_moves(|mut pm| {
            pm.to &= if pm.piece == Piece::Pawn {
                theirs | ep | promo
            } else {
                theirs
            };
            for m in pm {
                // Captures that lose material in the exchange are left out:
                // they rarely help, and they make quiescence explode.
                if m.promotion.is_none_or(|p| p == Piece::Queen) && see(b, m) >= 0 {
                    moves.push(m);
                }
            }
            false
        });
        true
    }

    fn in_check(&self, s: &ChessState) -> bool {
        !s.board.checkers().is_empty()
    }

    /// Quiet moves that give check, directly (to a square from which the
    /// piece attacks the king) or by discovery (a piece stepping off the
    /// line between one of its own sliders and the king), each confirmed
    /// by playing it. Castling (the king onto its own rook's square, in
    /// cozy-chess) never reaches an empty square, so it is left out.
    /// Checks that lose the checking piece for nothing are left out too,
    /// as losing captures are from the noisy moves.
    fn quiet_checks(&self, s: &ChessState, moves: &mut Vec<Move>) {
        let b = &s.board;
        let us = b.side_to_move();
        let king = b.king(!us);
        let occupied = b.occupied();
        let ours = b.colors(us);
        let diagonal = get_bishop_moves(king, occupied);
        let straight = get_rook_moves(king, occupied);
        let checks_from = |piece: Piece| match piece {
            Piece::Pawn => get_pawn_attacks(king, !us),
            Piece::Knight => get_knight_moves(king),
            Piece::Bishop => diagonal,
            Piece::Rook => straight,
            Piece::Queen => diagonal | straight,
            Piece::King => BitBoard::EMPTY,
        };
        // Our pieces that are the one blocker between the king and a slider of ours.
        let sliders = (get_bishop_rays(king)
            & (b.pieces(Piece::Bishop) | b.pieces(Piece::Queen)))
            | (get_rook_rays(king) & (b.pieces(Piece::Rook) | b.pieces(Piece::Queen)));
        let mut discoverers = BitBoard::EMPTY;
        for sq in sliders & ours {
            let between = get_between_rays(king, sq) & occupied;
            if between.len() == 1 {
                discoverers |= between & ours;
            }
        }
        let empty = !occupied;
        b.generate_moves(|mut pm| {
            if pm.piece == Piece::King && !discoverers.has(pm.from) {
                return false;
            }
            let targets = if discoverers.has(pm.from) {
                empty
            } else {
                checks_from(pm.piece) & empty
            };
            pm.to &= targets;
            for m in pm {
                if m.promotion.is_some() || (pm.piece == Piece::Pawn && m.from.file() != m.to.file()) {
                    continue; // promotions and en passant are noisy
                }
                let mut after = b.clone();
                after.play_unchecked(m);
                if !after.checkers().is_empty() && see(b, m) >= 0 {
                    moves.push(m);
                }
            }
            false
        });
    }

    fn null_move(&self, s: &ChessState) -> Option<ChessState> {
        let b = &s.board;
        let own = b.colors(b.side_to_move());
        // Zugzwang is common with only pawns left: passing is not safe there.
        let pieces = own & !(b.pieces(Piece::Pawn) | b.pieces(Piece::King));
        if pieces.is_empty() {
            return None;
        }
        b.null_move().map(ChessState::from_board)
    }

    fn is_quiet(&self, s: &ChessState, mv: Move) -> bool {
        mv.promotion.is_none() && !Self::is_capture(&s.board, mv)
    }

    fn exchange(&self, s: &ChessState, mv: Move) -> Option<i32> {
        Some(see(&s.board, mv))
    }

    fn is_repetition(&self, s: &ChessState) -> bool {
        s.repeats > 0
    }
}

ply_core::no_hooks!(Chess: Shortcuts, Chance, Playouts, Impartial, Learn);

impl Registered for Chess {
    const SPEC: GameSpec = GameSpec {
        default_position: "startpos",
        ..GameSpec::new(
            "chess",
            "chess (cozy-chess move generation): checkmate wins; stalemate, the fifty-move rule, threefold repetition and insufficient material draw; values in centipawns, White's view",
            "FEN (or startpos), optionally followed by 'moves' and UCI or SAN moves, as in UCI's position command; rep=N after the FEN counts earlier occurrences",
            "UCI (e2e4, e7e8q, castling e1g1) or SAN (Nf3, O-O, exd8=Q+)",
        )
    };

    fn from_params(_: &ParamValues) -> Result<Self, SetupError> {
        Ok(Self::new())
    }
}

impl Notation for Chess {
    fn perft_moves(&self, s: &ChessState, moves: &mut Vec<Move>) {
        s.board.generate_moves(|pm| {
            moves.extend(pm);
            false
        });
    }

    /// FEN, or `startpos`, optionally followed by `moves m1 m2 ...` (UCI or
    /// SAN) as in the UCI `position` command; `rep=N` after a FEN gives the
    /// number of earlier occurrences (for the repetition rule).
    fn parse_position(&self, text: &str) -> Result<ChessState, ParseError> {
        let text = text.trim();
        let (head, moves) = match text.find(" moves") {
            Some(i) => (
                &text[..i],
                Some((i + " moves".len(), &text[i + " moves".len()..])),
            ),
            None => (text, None),
        };
        let head = head.trim();
        let (fen, repeats) = match head.rsplit_once(' ') {
            Some((fen, r)) if r.starts_with("rep=") => {
                let col = fen.len() + 2;
                let n: u8 = r[4..].parse().ok().filter(|&n| n <= 2).ok_or_else(|| {
                    ParseError::at(col, format!("'{r}': expected rep=0, rep=1 or rep=2"))
                })?;
                (fen, n)
            }
            _ => (head, 0),
        };
        let board = if fen.is_empty() || fen == "startpos" {
            Board::default()
        } else {
            parse_fen(fen)?
        };
        let mut state = ChessState {
            board,
            repeats,
            history: None,
        };
        if let Some((offset, list)) = moves {
            let mut start = offset;
            let mut number = 0;
            for word in list.split(' ') {
                let col = start + 1;
                start += word.len() + 1;
                if word.is_empty() {
                    continue;
                }
                number += 1;
                let mv = self.parse_move(&state, word).map_err(|e| {
                    ParseError::at(col, format!("move {number} ('{word}'): {}", e.message))
                })?;
                if self.is_terminal(&state) || !state.board.is_legal(mv) {
                    return Err(ParseError::at(
                        col,
                        format!("move {number} ('{word}') is illegal in {}", state.board),
                    ));
                }
                state = self.play(&state, mv);
            }
        }
        Ok(state)
    }

    fn format_position(&self, s: &ChessState) -> String {
        format_fen(s)
    }

    /// UCI (`e2e4`, `e7e8q`, castling `e1g1`) or SAN (`Nf3`, `O-O`, `exd8=Q+`).
    fn parse_move(&self, s: &ChessState, text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        if let Ok(m) = parse_uci_move(&s.board, text) {
            return Ok(m);
        }
        parse_san_move(&s.board, text).map_err(|_| {
            ParseError::at(
                1,
                format!("'{text}' is neither a UCI move (e2e4, e7e8q) nor a legal SAN move (Nf3, O-O) here"),
            )
        })
    }

    fn format_move(&self, s: &ChessState, mv: Move) -> String {
        display_uci_move(&s.board, mv).to_string()
    }

    fn display_move(&self, s: &ChessState, mv: Move) -> String {
        display_san_move(&s.board, mv).to_string()
    }

    fn draw(&self, s: &ChessState) -> String {
        let b = &s.board;
        let mut out = String::new();
        for r in Rank::ALL.into_iter().rev() {
            let _ = write!(out, "{} ", r as u8 + 1);
            for f in File::ALL {
                let sq = Square::new(f, r);
                let c = match (b.piece_on(sq), b.color_on(sq)) {
                    (Some(p), Some(color)) => {
                        let ch = char::from(p);
                        if color == Color::White {
                            ch.to_ascii_uppercase()
                        } else {
                            ch
                        }
                    }
                    _ => '.',
                };
                let _ = write!(out, " {c}");
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g h\n");
        let _ = write!(
            out,
            "{} to move   FEN {}",
            if b.side_to_move() == Color::White {
                "White"
            } else {
                "Black"
            },
            b
        );
        out
    }

    fn game_record(
        &self,
        start: &ChessState,
        moves: &[Move],
        white: &str,
        black: &str,
    ) -> Option<String> {
        Some(self.pgn(start, moves, white, black))
    }

    /// Mate in moves of the side that mates: a mate `d` plies away is mate
    /// in (d + 1) / 2.
    fn mate_moves(&self, value: MaxScore, distance: u32) -> Option<i32> {
        let moves = distance.div_ceil(2) as i32;
        Some(if value.0 > 0 { moves } else { -moves })
    }

    fn score_note(&self, _s: &ChessState, score: i32) -> Option<String> {
        Some(format!("{:+.2} pawns", f64::from(score) / 100.0))
    }
}

/// Reads a FEN, naming the field that is wrong and its column.
fn parse_fen(fen: &str) -> Result<Board, ParseError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let names = [
        "piece placement",
        "side to move",
        "castling rights",
        "en passant square",
        "halfmove clock",
        "fullmove number",
    ];
    if fields.len() != 6 && fields.len() != 4 {
        return Err(ParseError::new(format!(
            "a FEN has 6 fields (pieces, side, castling, en passant, halfmove clock, move number); '{fen}' has {}",
            fields.len()
        )));
    }
    check_placement(fen, fields[0])?;
    let full = if fields.len() == 4 {
        format!("{fen} 0 1")
    } else {
        fields.join(" ")
    };
    Board::from_fen(&full, false).map_err(|e| {
        use cozy_chess::FenParseError as E;
        let field = match e {
            E::InvalidBoard => 0,
            E::InvalidSideToMove => 1,
            E::InvalidCastlingRights => 2,
            E::InvalidEnPassant => 3,
            E::InvalidHalfMoveClock => 4,
            E::InvalidFullmoveNumber => 5,
            _ => 6,
        };
        if field < 6 {
            let col = fen
                .find(fields.get(field).copied().unwrap_or(""))
                .unwrap_or(0)
                + 1;
            ParseError::at(col, format!("bad {} in FEN '{fen}'", names[field]))
        } else {
            ParseError::new(format!("'{fen}' is not a legal chess position ({e:?})"))
        }
    })
    .and_then(|board| standard_castling(fen, &fields, board))
}

/// The piece placement's shape, checked before cozy-chess reads it (it
/// accepted a board of three ranks, then panicked looking for a king):
/// eight ranks of eight squares, one king of each colour.
fn check_placement(fen: &str, placement: &str) -> Result<(), ParseError> {
    let col = fen.find(placement).unwrap_or(0) + 1;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseError::at(
            col,
            format!("the piece placement of FEN '{fen}' has {} ranks; a board has 8", ranks.len()),
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let mut width = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => width += c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => width += 1,
                _ => {
                    return Err(ParseError::at(
                        col,
                        format!("'{c}' in the piece placement of FEN '{fen}' is no piece (pnbrqk, PNBRQK) or count (1-8)"),
                    ));
                }
            }
        }
        if width != 8 {
            return Err(ParseError::at(
                col,
                format!("rank {} of FEN '{fen}' covers {width} squares, not 8", 8 - i),
            ));
        }
    }
    for (king, colour) in [('K', "White"), ('k', "Black")] {
        let n = placement.chars().filter(|&c| c == king).count();
        if n != 1 {
            return Err(ParseError::at(
                col,
                format!("FEN '{fen}' has {n} {colour} kings; a position has one of each"),
            ));
        }
    }
    Ok(())
}

/// Castling rights as standard chess has them: the king on the e-file and
/// its rook on the a- or h-file of its first rank. cozy-chess also reads
/// rights for other squares (Chess960's), which ply neither plays nor
/// prints (castling is written e1g1), so such a FEN is refused here.
fn standard_castling(fen: &str, fields: &[&str], board: Board) -> Result<Board, ParseError> {
    for color in [Color::White, Color::Black] {
        let rights = board.castle_rights(color);
        let king = board.king(color);
        let rank = if color == Color::White { Rank::First } else { Rank::Eighth };
        let standard = (rights.short.is_none() || rights.short == Some(File::H))
            && (rights.long.is_none() || rights.long == Some(File::A))
            && ((rights.short.is_none() && rights.long.is_none()) || king == Square::new(File::E, rank));
        if !standard {
            let col = fen.find(fields[2]).unwrap_or(0) + 1;
            let side = if color == Color::White { "White" } else { "Black" };
            return Err(ParseError::at(
                col,
                format!(
                    "bad castling rights in FEN '{fen}': {side} may castle only with the king on e{} and the rooks on a{0} and h{0}",
                    if color == Color::White { 1 } else { 8 }
                ),
            ));
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::conformance;
    use ply_core::explore::perft;

    #[test]
    fn conformance_and_start_perft() {
        let g = Chess::new();
        let cfg = conformance::Config {
            playouts: 20,
            perft: vec![(1, 20), (2, 400), (3, 8_902), (4, 197_281)],
            ..Default::default()
        };
        let summary = conformance::check(&g, &cfg).unwrap();
        // Captures and promotions came up and were checked as legal moves.
        assert!(summary.noisy > 100, "{summary:?}");
    }

    /// Found by the notation fuzz target: cozy-chess read a board of three
    /// ranks and panicked in move generation; the shape is checked first.
    #[test]
    fn a_board_of_the_wrong_shape_is_refused() {
        let g = Chess::new();
        for (fen, words) in [
            ("8/pk6/K7 w - - 0   2", "has 3 ranks"),
            ("8/pk7/K7/8/8/8/8/8 w - - 0 1", "rank 7 of FEN"),
            ("8/p7/K7/8/8/8/8/8 w - - 0 1", "0 Black kings"),
            ("8/pk6/K7/8/8/8/8/8x w - - 0 1", "'x' in the piece placement"),
        ] {
            let e = g.parse_position(fen).unwrap_err();
            assert!(e.message.contains(words), "{fen}: {}", e.message);
            assert_eq!(e.column, Some(1));
        }
    }

    /// Found by the notation fuzz target: with castling rights and the king
    /// on g1, castling printed as g1c1 read back as a different move.
    #[test]
    fn castling_rights_away_from_e1_are_refused() {
        let g = Chess::new();
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R32KR w KQkq - 15 1";
        let e = g.parse_position(fen).unwrap_err();
        assert_eq!(e.column, Some(fen.find("KQkq").unwrap() + 1));
        assert!(e.message.contains("White may castle only with the king on e1"), "{}", e.message);
        // The same position without White's rights reads, and its moves round-trip.
        let s = g.parse_position(&fen.replace("KQkq", "kq")).unwrap();
        let mut moves = Vec::new();
        g.legal_moves(&s, &mut moves);
        for m in moves {
            assert_eq!(g.parse_move(&s, &g.format_move(&s, m)).unwrap(), m);
        }
    }

    #[test]
    fn castling_reads_and_prints_as_uci() {
        let g = Chess::new();
        let s = g
            .parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
            .unwrap();
        let m = g.parse_move(&s, "e1g1").unwrap();
        assert_eq!(m, "e1h1".parse::<Move>().unwrap());
        assert_eq!(g.format_move(&s, m), "e1g1");
        assert_eq!(
            g.parse_move(&s, "O-O-O").unwrap(),
            "e1a1".parse::<Move>().unwrap()
        );
    }

    #[test]
    fn draws_by_rule() {
        let g = Chess::new();
        // Knights out and back twice: the start position a third time.
        let s = g
            .parse_position("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8")
            .unwrap();
        assert_eq!(s.repeats(), 2);
        assert!(g.is_terminal(&s));
        assert_eq!(g.utility(&s), MaxScore::ZERO);
        let once = g
            .parse_position("startpos moves g1f3 g8f6 f3g1 f6g8")
            .unwrap();
        assert_eq!(once.repeats(), 1);
        assert!(!g.is_terminal(&once));
        // Fifty moves without a capture or pawn move.
        assert!(
            g.is_terminal(
                &g.parse_position("4k3/8/8/8/8/8/8/R3K3 w - - 100 80")
                    .unwrap()
            )
        );
        assert!(
            !g.is_terminal(
                &g.parse_position("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
                    .unwrap()
            )
        );
        // Insufficient material: K+B v K, K+N v K, bishops on one colour; not K+N+N v K+P.
        for fen in [
            "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
            "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
        ] {
            assert!(g.is_terminal(&g.parse_position(fen).unwrap()), "{fen}");
        }
        for fen in [
            "4k3/4p3/8/8/8/8/8/1NN1K3 w - - 0 1",
            "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1",
        ] {
            assert!(!g.is_terminal(&g.parse_position(fen).unwrap()), "{fen}");
        }
        // Mate and stalemate.
        let mate = g
            .parse_position("startpos moves f2f3 e7e5 g2g4 d8h4")
            .unwrap();
        assert!(g.is_terminal(&mate));
        assert_eq!(g.utility(&mate), MaxScore(-MATE));
        let stalemate = g.parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(g.is_terminal(&stalemate));
        assert_eq!(g.utility(&stalemate), MaxScore::ZERO);
    }

    #[test]
    fn bad_positions_and_moves_say_where() {
        let g = Chess::new();
        let e = g
            .parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
            .unwrap_err();
        assert!(e.message.contains("side to move"), "{e}");
        assert_eq!(e.column, Some(45));
        let e = g
            .parse_position("startpos moves e2e4 e7e5 e1e3")
            .unwrap_err();
        assert!(e.message.contains("move 3 ('e1e3') is illegal"), "{e}");
        assert_eq!(e.column, Some(26));
        assert!(g.parse_position("8/8/8/8 w - - 0 1").is_err());
        assert!(g.parse_move(&g.initial_state(), "Zz9").is_err());
    }

    #[test]
    fn perft_counts_through_dead_positions() {
        // Bishop and pawn against a pawn: captures reach king and bishop
        // against king, a dead position the rules end, which perft counts through.
        let g = Chess::new();
        let s = g
            .parse_position("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1")
            .unwrap();
        // Sedlak's published count, as in ../shared/data/chess/perft.epd.
        assert_eq!(perft(&g, &s, 6), 1_015_133);
    }

    #[test]
    fn static_exchange() {
        let cases = [
            // A pawn takes an undefended knight.
            ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300),
            // The queen takes a pawn defended by a pawn: loses the queen for it.
            ("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100 - 900),
            // A rook takes an undefended rook; then one the king defends.
            ("3r3k/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d8", 500),
            ("3rk3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d8", 0),
            // A rook the other rook defends: even with one attacker, a rook
            // ahead with a second (an x-ray behind the first) or a queen.
            ("3r3k/3r4/8/8/8/8/3R4/4K3 w - - 0 1", "d2d7", 0),
            ("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 500),
            ("3r3k/3r4/8/8/8/8/3R4/3QK3 w - - 0 1", "d2d7", 500),
            // A queen behind a rook against two rooks: the queen must not
            // go in last (R for R, then Q for R would lose): a rook up is
            // not possible, even is.
            ("3r3k/3r4/3r4/8/8/8/3R4/3QK3 w - - 0 1", "d2d6", 0),
            // A knight takes a pawn defended by a bishop: N for P.
            ("4k3/8/2b5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 100 - 300),
        ];
        for (fen, mv, expected) in cases {
            let b: Board = fen.parse().unwrap();
            let m = parse_uci_move(&b, mv).unwrap();
            assert_eq!(see(&b, m), expected, "{fen} {mv}");
        }
    }

    /// `quiet_checks` against brute force on positions from random games:
    /// every legal move that is no capture, promotion or castling, gives
    /// check once played, and does not lose material by exchange.
    #[test]
    fn quiet_checks_are_the_quiet_checking_moves() {
        let g = Chess::new();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (rng >> 33) as usize
        };
        let (mut positions, mut checks) = (0, 0);
        for game in 0..400 {
            let mut s = g.initial_state();
            for _ in 0..game % 90 {
                let mut moves = Vec::new();
                g.legal_moves(&s, &mut moves);
                if moves.is_empty() {
                    break;
                }
                s = g.play(&s, moves[next() % moves.len()]);
            }
            if g.is_terminal(&s) || g.in_check(&s) {
                continue;
            }
            let b = s.board();
            let mut got = Vec::new();
            g.quiet_checks(&s, &mut got);
            let mut all = Vec::new();
            g.legal_moves(&s, &mut all);
            let mut expected: Vec<Move> = all
                .into_iter()
                .filter(|&m| {
                    let castling = b.colors(b.side_to_move()).has(m.to);
                    let mut after = b.clone();
                    after.play_unchecked(m);
                    g.is_quiet(&s, m)
                        && !castling
                        && !after.checkers().is_empty()
                        && see(b, m) >= 0
                })
                .collect();
            let key = |m: &Move| (m.from as u8, m.to as u8);
            got.sort_by_key(key);
            expected.sort_by_key(key);
            assert_eq!(got, expected, "{}", b);
            positions += 1;
            checks += got.len();
        }
        assert!(positions > 300 && checks > 100, "{positions} positions, {checks} checks");
        // The back-rank mate is a quiet check.
        let s = g.parse_position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let mut got = Vec::new();
        g.quiet_checks(&s, &mut got);
        assert_eq!(got, vec![g.parse_move(&s, "Rd8").unwrap()]);
    }

    #[test]
    fn evaluation_is_symmetric() {
        let g = Chess::new();
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let b: Board = fen.parse().unwrap();
            let mirrored = mirror(&b);
            // The tempo term is the only asymmetry: it follows the mover.
            assert_eq!(g.static_eval(&b), -g.static_eval(&mirrored), "{fen}");
        }
    }

    fn mirror(b: &Board) -> Board {
        let fen = b.to_string();
        let f: Vec<&str> = fen.split(' ').collect();
        let placement: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|row| {
                row.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let castle: String = if f[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = f[2]
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect();
            c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
            c.into_iter().collect()
        };
        format!(
            "{} {side} {castle} - {} {}",
            placement.join("/"),
            f[4],
            f[5]
        )
        .parse()
        .unwrap()
    }
}
