//! How people, files and tools talk about a game's positions and moves.

use std::fmt;

use crate::game::Game;
use crate::score::MaxScore;

/// A mistake in a position or move string, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, in words a user can act on.
    pub message: String,
    /// The 1-based character column of the problem in the text, when there is one.
    pub column: Option<usize>,
}

impl ParseError {
    /// An error about the text as a whole.
    pub fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
            column: None,
        }
    }

    /// An error at a 1-based character column.
    pub fn at(column: usize, message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
            column: Some(column),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "column {c}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// How a game's positions and moves are written. The CLI, tests and files all
/// speak these notations, so printing then parsing must give back the same
/// position (the conformance kit checks it).
pub trait Notation: Game {
    /// Reads a position. Rejects impossible positions, not only malformed text.
    fn parse_position(&self, text: &str) -> Result<Self::State, ParseError>;

    /// Writes a position so that [`Notation::parse_position`] reads it back.
    fn format_position(&self, state: &Self::State) -> String;

    /// Reads a move as written in `state`. Only the syntax is checked here;
    /// [`play_moves`] checks legality.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, ParseError>;

    /// Writes a move so that [`Notation::parse_move`] reads it back.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;

    /// Writes a move as players write it, for a person to read (chess:
    /// SAN, `Nf3`, where [`Notation::format_move`] writes the UCI `g1f3`
    /// that engines exchange). The default is [`Notation::format_move`].
    fn display_move(&self, state: &Self::State, mv: Self::Move) -> String {
        self.format_move(state, mv)
    }

    /// The moves perft (the move-generator test) counts from `state`. The
    /// default is the legal moves, none in a terminal state. Chess overrides
    /// it: by convention its perft counts continue through the draws the
    /// rules declare (insufficient material, fifty moves, repetition) and
    /// stop only where no move is legal.
    fn perft_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>) {
        if !self.is_terminal(state) {
            self.legal_moves(state, moves);
        }
    }

    /// A picture of the position for a terminal: a board, or the notation.
    fn draw(&self, state: &Self::State) -> String {
        self.format_position(state)
    }

    /// The picture `viewer` may see: in a game with hidden information
    /// ([`crate::Chance::HIDDEN`]) the other player's cards face down
    /// until the end. The default, for games that hide nothing, is
    /// [`Notation::draw`].
    fn draw_for(&self, state: &Self::State, _viewer: crate::score::Player) -> String {
        self.draw(state)
    }

    /// A sentence for a chance outcome as it happens ("the die shows 4"),
    /// for play loops. The default is the move's notation.
    fn describe_outcome(&self, state: &Self::State, outcome: Self::Move) -> String {
        format!("chance: {}", self.format_move(state, outcome))
    }

    /// Words for an exact score from the side to move's view, for games
    /// whose scores encode more than win/draw/loss ("win in 13 plies").
    fn score_note(&self, _state: &Self::State, _score: i32) -> Option<String> {
        None
    }

    /// A record of a game played from `start`, in the game's standard
    /// format for saving (PGN for chess), with the players' names. `None`
    /// (the default) where the game has no such format.
    fn game_record(
        &self,
        _start: &Self::State,
        _moves: &[Self::Move],
        _first: &str,
        _second: &str,
    ) -> Option<String> {
        None
    }

    /// For games that count wins in moves rather than plies (chess's "mate
    /// in 3"): a decided value (MAX's view) `distance` plies from the root
    /// in moves, positive when MAX wins. `None` (the default) for the others.
    fn mate_moves(&self, _value: MaxScore, _distance: u32) -> Option<i32> {
        None
    }

    /// The probability that MAX (the first player) wins, read from a value
    /// of this game's evaluation (MAX's view), for games whose evaluation is
    /// a win-probability estimate. `None` (the default) for the others.
    fn win_probability(&self, _value: f64) -> Option<f64> {
        None
    }

    /// A picture of the position with a short note on each of some moves
    /// (a value, a visit count), where the game can place notes on its board:
    /// tic-tac-toe writes them in the empty squares. `None` if it cannot.
    fn draw_annotated(
        &self,
        _state: &Self::State,
        _notes: &[(Self::Move, String)],
    ) -> Option<String> {
        None
    }
}

/// A move that could not be played from a list, with its 1-based number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// 1-based position of the move in the list.
    pub number: usize,
    /// The move as written.
    pub text: String,
    /// Why it was rejected.
    pub reason: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ('{}'): {}", self.number, self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

/// Plays `moves` (written in the game's notation) from `state`, checking each
/// for syntax and legality, and returns the final state.
pub fn play_moves<G: Notation, S: AsRef<str>>(
    game: &G,
    state: &G::State,
    moves: &[S],
) -> Result<G::State, MoveError> {
    let mut s = state.clone();
    let mut legal = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref().trim();
        let err = |reason: String| MoveError {
            number: i + 1,
            text: text.to_string(),
            reason,
        };
        if game.is_terminal(&s) {
            return Err(err(format!(
                "the game is already over in {}",
                game.format_position(&s)
            )));
        }
        let mv = game.parse_move(&s, text).map_err(|e| err(e.to_string()))?;
        legal.clear();
        game.legal_moves(&s, &mut legal);
        if !legal.contains(&mv) {
            let names: Vec<String> = legal.iter().map(|&m| game.format_move(&s, m)).collect();
            return Err(err(format!(
                "illegal in {}; legal moves: {}",
                game.format_position(&s),
                names.join(", ")
            )));
        }
        s = game.play(&s, mv);
    }
    Ok(s)
}
