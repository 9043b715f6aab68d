//! # ply-games
//!
//! The games that exercise ply, one module each, each with its own position
//! and move notation. No search code lives here: a game states its rules
//! through [`ply_core::Game`] and gets every search for free.
//!
//! [`GAMES`] describes them for listings; [`visit`] builds one by name from
//! `key=value` parameters and hands it, fully typed, to generic code.

pub mod chess;
pub mod coins;
pub mod connect4;
pub mod params;
pub mod pig;
pub mod tictactoe;
pub mod tree;

pub use chess::Chess;
pub use coins::Coins;
pub use connect4::Connect4;
pub use params::{Params, SetupError};
pub use pig::Pig;
pub use tictactoe::TicTacToe;
pub use tree::Tree;

use ply_core::{Notation, Searchable};

/// A parameter a game takes.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// Its name in `--param name=value`.
    pub name: &'static str,
    /// Its default, as text.
    pub default: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

/// What `ply list` says about a game.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// Its name on the command line.
    pub name: &'static str,
    /// One line on the rules.
    pub rules: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
    /// How positions are written.
    pub positions: &'static str,
    /// How moves are written.
    pub moves: &'static str,
    /// The start position, as written.
    pub default_position: &'static str,
    /// For games that cannot be searched to the end (chance, long games):
    /// the depth a search uses when none is given.
    pub default_depth: Option<u32>,
    /// Whether `solve` defaults to the exact score search (null-window
    /// probes) rather than iterative deepening under a clock.
    pub exact_solver: bool,
}

/// Every game, in the order `ply list` shows them.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "coins",
        rules: "N coins on the table; a move takes k coins for k in a set; whoever takes the last coin wins (a player who cannot move loses)",
        params: &[ParamInfo {
            name: "take",
            default: "1,2",
            meaning: "the numbers of coins a move may take, comma-separated, each at least 1",
        }],
        positions: "the number of coins left, optionally /max or /min for the player to move (4 = 4/max)",
        moves: "the number of coins taken",
        default_position: "4",
        default_depth: None,
        exact_solver: false,
    },
    GameInfo {
        name: "tictactoe",
        rules: "the m,n,k-game: m rows, n columns, the first to get k in a row (across, down, diagonally) wins; X moves first",
        params: &[
            ParamInfo {
                name: "m",
                default: "3",
                meaning: "rows",
            },
            ParamInfo {
                name: "n",
                default: "3",
                meaning: "columns",
            },
            ParamInfo {
                name: "k",
                default: "3",
                meaning: "stones in a row to win",
            },
        ],
        positions: "the squares row by row as X, O or '.', e.g. XO.X..O..; rows separated by '/' on boards other than 3x3; the player to move follows from the counts",
        moves: "a square number, 0 (top-left) to m*n-1, row by row",
        default_position: ".........",
        default_depth: None,
        exact_solver: false,
    },
    GameInfo {
        name: "tree",
        rules: "an explicit game tree with integer leaves; the root is MAX and levels alternate",
        params: &[],
        positions: "nested parentheses with integer leaves, e.g. ((3 5 7) (2 9 1)); [p1 child1 p2 child2 ...] is a chance node whose outcomes have probabilities p1, p2, ... (decimals summing to 1; not a level: decision levels alternate MAX, MIN from the first); append /min to give the root to MIN",
        moves: "a 1-based child (or outcome) index; a node is named by its path from the root, e.g. 2.3",
        default_position: tree::DEFAULT_TREE,
        default_depth: None,
        exact_solver: false,
    },
    GameInfo {
        name: "pig",
        rules: "the dice game: roll as often as you like adding the pips to a turn total; a 1 loses the turn total and ends the turn; hold banks it; the first to reach the target wins",
        params: &[ParamInfo {
            name: "target",
            default: "100",
            meaning: "the score that wins",
        }],
        positions: "MAX's score-MIN's score, then +turn total if not 0, /min when MIN is to move, ? while the die rolls (a chance node), e.g. 35-20+12/min",
        moves: "roll (r) or hold (h); the die's outcomes are 1 to 6",
        default_position: "0-0",
        default_depth: Some(6),
        exact_solver: false,
    },
    GameInfo {
        name: "connect4",
        rules: "Connect Four: drop stones into columns; four in a row (across, down, diagonally) wins; solved exactly by the score search",
        params: &[
            ParamInfo {
                name: "width",
                default: "7",
                meaning: "columns (1 to 9)",
            },
            ParamInfo {
                name: "height",
                default: "6",
                meaning: "rows; width*(height+1) at most 64",
            },
        ],
        positions: "the columns played so far, 1-based digits, e.g. 4453 (empty: the empty board); scores: positive = the side to move wins, |score| = (W*H+1-n)/2 with n the stones before the winning one",
        moves: "a column digit, 1 to W",
        default_position: "",
        default_depth: None,
        exact_solver: true,
    },
    GameInfo {
        name: "chess",
        rules: "chess (cozy-chess move generation): checkmate wins; stalemate, the fifty-move rule, threefold repetition and insufficient material draw; values in centipawns, White's view",
        params: &[],
        positions: "FEN (or startpos), optionally followed by 'moves' and UCI or SAN moves, as in UCI's position command; rep=N after the FEN counts earlier occurrences",
        moves: "UCI (e2e4, e7e8q, castling e1g1) or SAN (Nf3, O-O, exd8=Q+)",
        default_position: "startpos",
        default_depth: None,
        exact_solver: false,
    },
];

/// Generic code that wants a game by name: [`visit`] builds the game and
/// calls [`GameVisitor::visit`] with its concrete type, so the code runs
/// monomorphised for that game.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the game `name` names.
    fn visit<G: Notation + Searchable>(self, game: G, info: &'static GameInfo) -> Self::Output;
}

/// The game information for `name`, or an error listing the games there are.
pub fn info(name: &str) -> Result<&'static GameInfo, SetupError> {
    GAMES.iter().find(|g| g.name == name).ok_or_else(|| {
        let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        SetupError(format!(
            "unknown game '{name}'; the games are: {} (see `ply list`)",
            names.join(", ")
        ))
    })
}

/// Builds the game `name` with `params` and runs `visitor` on it.
pub fn visit<V: GameVisitor>(
    name: &str,
    params: &Params,
    visitor: V,
) -> Result<V::Output, SetupError> {
    let info = info(name)?;
    Ok(match name {
        "coins" => visitor.visit(Coins::from_params(params)?, info),
        "tictactoe" => visitor.visit(TicTacToe::from_params(params)?, info),
        "pig" => visitor.visit(Pig::from_params(params)?, info),
        "connect4" => visitor.visit(Connect4::from_params(params)?, info),
        "chess" => visitor.visit(Chess::from_params(params)?, info),
        "tree" => {
            params.check_known("tree", &[])?;
            visitor.visit(Tree, info)
        }
        _ => unreachable!("every game in GAMES is built here"),
    })
}
