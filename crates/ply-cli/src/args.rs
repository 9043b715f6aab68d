//! The command-line grammar (clap derive).

use clap::{Args, Parser, Subcommand, ValueEnum};

/// ply: adversarial search, from minimax to a perfect solver.
///
/// Games: coins, tictactoe, tree (see `ply list`). Values are from MAX's
/// (the first player's) view.
#[derive(Parser, Debug)]
#[command(name = "ply", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The games, their parameters and notations; the algorithms.
    List(ListArgs),
    /// The value of a position, the best move and the principal variation.
    Solve(SolveArgs),
    /// The value of every legal move, best first.
    Analyze(SolveArgs),
    /// A step-by-step table of a search on an explicit tree.
    Trace(TraceArgs),
    /// The number of distinct positions reachable, and how many are terminal.
    Count(CountArgs),
    /// The number of move sequences of a given length (a move-generator test).
    Perft(PerftArgs),
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Which game, from where.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// The game: coins, tictactoe or tree.
    pub game: String,
    /// The start position in the game's notation (default: the game's start).
    #[arg(long, short = 'p', allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Moves to play from the position first, comma-separated, in the game's notation.
    #[arg(long, short = 'm', value_delimiter = ',')]
    pub moves: Vec<String>,
    /// A game parameter, key=value; repeatable (e.g. --param m=4 --param k=3).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgoArg {
    /// Plain minimax, no pruning: the reference.
    Minimax,
    /// Textbook alpha-beta: full window, the game's move order.
    Alphabeta,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The search algorithm.
    #[arg(long, value_enum, default_value = "alphabeta")]
    pub algo: AlgoArg,
    /// Search this many plies, then score with the game's evaluation
    /// (values are then in evaluation units); default: to the end of the game.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Break ties between equally good moves at random with this seed
    /// (default: the first in move order).
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// The tree, e.g. "((3 5 7) (2 9 1))": nested parentheses, integer leaves.
    pub tree: String,
    /// The search to trace.
    #[arg(long, value_enum, default_value = "alphabeta")]
    pub algo: AlgoArg,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "dot")]
    pub json: bool,
    /// Print the tree as Graphviz DOT, pruned branches dashed and grey.
    #[arg(long)]
    pub dot: bool,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub game: GameArgs,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The length of the move sequences to count.
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Also count per first move.
    #[arg(long)]
    pub divide: bool,
}
