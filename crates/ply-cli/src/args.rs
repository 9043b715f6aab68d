//! The command-line grammar (clap derive).

use std::collections::BTreeMap;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ply_service::{Algo, Request};
use serde_json::Value;

use crate::CliError;

/// ply: adversarial search, from minimax to a perfect solver.
///
/// `ply list` names the games and the searches. Values are from MAX's
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
    /// Every exact search on one position, side by side; they must agree.
    Compare(CompareArgs),
    /// Play a game in the terminal: a human against the engine, or engine against engine.
    Play(PlayArgs),
    /// A step-by-step table of a search: on a game's position, or on a tree written out.
    Trace(TraceArgs),
    /// A position as a player meets it: the board, whose turn, every legal move, the result once over.
    Show(ShowArgs),
    /// The number of distinct positions reachable, and how many are terminal.
    Count(CountArgs),
    /// The number of move sequences of a given length (a move-generator test).
    Perft(PerftArgs),
    /// Speak the Universal Chess Interface on stdin/stdout (for chess GUIs).
    Uci(UciArgs),
    /// Speak the Go Text Protocol on stdin/stdout (for Go GUIs and referees).
    Gtp(GtpArgs),
    /// Speak the Gomocup (Piskvork) brain protocol on stdin/stdout, for
    /// gomoku managers; a copy or link of ply named pbrain-ply starts so.
    Gomocup,
    /// Serve the searches over HTTP: the CLI's JSON at /api/... (see the README).
    Serve(ServeArgs),
    /// Texel-tune chess's evaluation: self-play data, then a fit of the weights.
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Learn a game by self-play (AlphaZero): a policy/value network trained
    /// on the games PUCT plays with it, saved as safetensors.
    #[cfg(feature = "learn")]
    Learn(LearnArgs),
}

/// `ply learn`: every number has a default for the game (`--generations`
/// and the rest override it); the network is saved after each generation.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// The game (`ply list` names those that can be learned).
    pub game: String,
    /// A game parameter, key=value; repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Where the network is saved after each generation (default:
    /// ply-GAME.safetensors).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Go on from the network saved at --out, from the generation (or
    /// epoch) after its own to --generations (--epochs); self-play's
    /// replay window is read from beside it (the name with .window for
    /// .safetensors). Adam's moments start afresh.
    #[arg(long)]
    pub resume: bool,
    /// Generations in the whole run (a resumed run goes on to this one).
    #[arg(long)]
    pub generations: Option<usize>,
    /// Self-play games per generation.
    #[arg(long)]
    pub games: Option<usize>,
    /// PUCT simulations per self-play move.
    #[arg(long)]
    pub simulations: Option<u64>,
    /// Self-play moves drawn in proportion to visits before the most
    /// visited is played (exploration; AlphaZero: 30 in chess).
    #[arg(long)]
    pub exploring_moves: Option<usize>,
    /// Training steps per generation.
    #[arg(long)]
    pub steps: Option<usize>,
    /// Samples per training step.
    #[arg(long)]
    pub minibatch: Option<usize>,
    /// Generations of games trained on (the replay window).
    #[arg(long)]
    pub window: Option<usize>,
    /// Adam's step size.
    #[arg(long)]
    pub learning_rate: Option<f64>,
    /// Channels of the residual tower (a new network only).
    #[arg(long)]
    pub channels: Option<usize>,
    /// Residual blocks (a new network only).
    #[arg(long)]
    pub blocks: Option<usize>,
    /// Games against the previous generation and against plain MCTS after
    /// each generation (0: none).
    #[arg(long)]
    pub match_games: Option<usize>,
    /// Threads playing games (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The seed of the weights, the games and the training.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learn from the exact solver instead of self-play: positions from
    /// random games, each move graded, then epochs of training (the upper
    /// bound a self-play network is compared with).
    #[arg(long)]
    pub supervised: bool,
    /// With --supervised: positions to label (a small game's are all of
    /// its reachable ones).
    #[arg(long, requires = "supervised")]
    pub positions: Option<usize>,
    /// With --supervised: passes over the labelled positions in all.
    #[arg(long, requires = "supervised")]
    pub epochs: Option<usize>,
    /// With --supervised: a position whose labelling takes more solver
    /// nodes than this is left out.
    #[arg(long, requires = "supervised")]
    pub node_limit: Option<u64>,
    /// With --supervised: the labelled positions are read from this file
    /// when it exists, else labelled and written there (text: position,
    /// outcome, optimal moves), so another run need not label again.
    #[arg(long, requires = "supervised")]
    pub labels: Option<std::path::PathBuf>,
    /// No progress bar on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Print each generation as a JSON line instead of text.
    #[arg(long)]
    pub json: bool,
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
    /// The game (`ply list` names them).
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

/// `--algo`: a name from ply-service's one list of searches, the
/// names shown in `--help` and in the error for an unknown one.
fn algo_parser() -> impl clap::builder::TypedValueParser<Value = Algo> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Algo::ALL.map(Algo::name))
        .map(|name| name.parse::<Algo>().expect("a listed name"))
}

/// How to search.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// The search algorithm (`ply list` says what each does). Without it:
    /// the engine (iterative deepening, table, move ordering,
    /// principal-variation search, fast wins).
    #[arg(long, value_parser = algo_parser())]
    pub algo: Option<Algo>,
    /// Search this many plies, then score with the game's evaluation
    /// (values are then in evaluation units); default: to the end of the game.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time budget in milliseconds for iterative deepening (the engine
    /// default: 10000 for solve, 1000 a move for play).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Transposition-table size in MiB (0: none). Default 0 for minimax and
    /// alphabeta, 64 for id and the engine.
    #[arg(long)]
    pub tt_mb: Option<usize>,
    /// Move ordering: the game's hints, killer moves, the history heuristic.
    #[arg(long)]
    pub order: bool,
    /// Principal-variation search: null windows after the first move.
    #[arg(long)]
    pub pvs: bool,
    /// Distance-to-end scores: the quickest win, the slowest loss.
    #[arg(long)]
    pub fast_win: bool,
    /// Break ties between equally good moves at random with this seed
    /// (default: the first in move order); the seed of MCTS (default 1) and
    /// of the dice in play.
    #[arg(long)]
    pub seed: Option<u64>,
    /// MCTS iterations (a move, in play) [default: 10000]; CFR's
    /// [default: 1000; mccfr 100000].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// The MCTS exploration constant c in w/n + c*sqrt(ln N / n)
    /// [default: 1.414 (the square root of 2); PUCT's 1.5].
    #[arg(long)]
    pub c: Option<f64>,
    /// PUCT's simulations, each a position the network evaluates
    /// [default: 800; 0: the network alone, its favourite move and value].
    #[arg(long)]
    pub simulations: Option<u64>,
    /// PUCT's network: a file `ply learn GAME` saved [default: the game's
    /// built-in network].
    #[arg(long, value_name = "FILE")]
    pub net: Option<String>,
    /// Threads: for MCTS root parallelism (one tree each, visits summed);
    /// for the engine and the score search lazy SMP (one shared table)
    /// [default: 1].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Expectiminimax: prune chance nodes with Star1 (needs value bounds).
    #[arg(long)]
    pub star1: bool,
    /// The score search: only win, draw or loss (+1/0/-1), faster.
    #[arg(long)]
    pub weak: bool,
    /// CFR: report this information set alone (what the mover sees, as
    /// the game writes it: `K:pb` in kuhn).
    #[arg(long, value_name = "SET")]
    pub infoset: Option<String>,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Solve every position in FILE, one `moves [expected]` a line; print
    /// `moves score nodes microseconds` a line, then a summary.
    #[arg(long, value_name = "FILE")]
    pub batch: Option<std::path::PathBuf>,
    /// Run only the game's threat search (gomoku: victory by continuous
    /// fours, VCF) and print the winning line, or that there is none.
    #[arg(long, conflicts_with = "batch")]
    pub vcf: bool,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Compare depth-limited searches to this depth instead of exact ones.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Table size in MiB for the searches that use one.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HumanArg {
    /// The human moves first.
    First,
    /// The engine moves first.
    Second,
    /// Engine against engine.
    None,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Which side the human plays.
    #[arg(long, value_enum, default_value = "first")]
    pub human: HumanArg,
    /// Where to save the game record at the end, for games that have a
    /// record format (chess: PGN, saved to ply-game.pgn unless given).
    #[arg(long, value_name = "FILE")]
    pub save: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Args, Debug)]
pub struct TraceArgs {
    /// A game (then --position), or a tree written out, e.g.
    /// "((3 5 7) (2 9 1))": nested parentheses, integer leaves.
    pub target: String,
    /// The position of the game to trace from (default: its start).
    #[arg(long, short = 'p', allow_hyphen_values = true)]
    pub position: Option<String>,
    /// A game parameter, key=value; repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// The search to trace: minimax, alphabeta, expectiminimax (for
    /// chance nodes, e.g. trees with `[p1 child1 p2 child2 ...]`; the
    /// default for them), mcts (one iteration's four phases) or puct (one
    /// simulation guided by the network: priors, Q + U, its value).
    #[arg(long, value_parser = algo_parser())]
    pub algo: Option<Algo>,
    /// MCTS: the iteration to show, after the ones before it run
    /// untraced [default: 1]; the tree is the same as `analyze --algo
    /// mcts --iterations N` grows.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// PUCT: the simulation to show, after the ones before it run one at
    /// a time [default: 1; 0: the network's answer at the root alone].
    #[arg(long)]
    pub simulations: Option<u64>,
    /// PUCT: the network, a file `ply learn GAME` saved [default: the
    /// game's built-in network].
    #[arg(long, value_name = "FILE")]
    pub net: Option<String>,
    /// MCTS and PUCT: the seed [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// MCTS and PUCT: the exploration constant c [default: 1.414; PUCT's
    /// 1.5].
    #[arg(long)]
    pub c: Option<f64>,
    /// Search this many plies, then score with the game's evaluation.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Expectiminimax: prune chance nodes with Star1.
    #[arg(long)]
    pub star1: bool,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "dot")]
    pub json: bool,
    /// Print the tree as Graphviz DOT, pruned branches dashed and grey
    /// (for games other than trees, each node shows its board).
    #[arg(long)]
    pub dot: bool,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Give up past this many distinct positions: each is kept in memory
    /// (a chess position takes about 200 bytes with the set's overhead).
    #[arg(long, default_value_t = ply_service::commands::explore::MAX_POSITIONS)]
    pub max_positions: u64,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
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

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on: loopback unless you say otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Searches running at once; further requests wait a second, then get 503.
    #[arg(long, default_value_t = 4)]
    pub max_searches: usize,
    /// The longest a search may run, in milliseconds (at most 10000).
    #[arg(long, default_value_t = 10_000)]
    pub max_time_ms: u64,
}

/// The two steps of tuning chess's evaluation.
#[derive(Subcommand, Debug)]
pub enum TuneCommand {
    /// Play engine-against-itself games at a fixed node count and write
    /// their quiet positions, each with its game's result (FEN;RESULT, the
    /// result from White's side: 1, 0.5 or 0).
    Data(TuneDataArgs),
    /// Fit the evaluation's weights to a data file (Texel's method) and
    /// write them as the source of `ply-games/src/chess/weights.rs`.
    Fit(TuneFitArgs),
}

#[derive(Args, Debug)]
pub struct TuneDataArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes searched for each move (fixed, so a run is repeatable).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random moves played after the opening, so that no two games repeat.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Openings, one FEN (or EPD) a line, used in turn; default: the start position.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// The seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where the positions go.
    #[arg(long, short)]
    pub out: std::path::PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct TuneFitArgs {
    /// A data file from `ply tune data`.
    pub data: std::path::PathBuf,
    /// Adam steps over the whole data set.
    #[arg(long, default_value_t = 500)]
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Fit only these terms (comma-separated: psqt, mobility_knight, passed,
    /// ...; see ply-games/src/chess/eval.rs); the others keep their weights.
    #[arg(long)]
    pub terms: Option<String>,
    /// Where the weights' source goes (default: standard output).
    #[arg(long, short)]
    pub out: Option<std::path::PathBuf>,
    /// No progress lines.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `ply gtp`: the engine's settings; the board, komi and clock come from
/// the controller.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// Simulations a move instead of the clock (reproducible games).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub simulations: Option<u64>,
    /// A move's time in ms when the controller sends no time_settings (default 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub move_ms: Option<u64>,
    /// Search threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// The seed of the searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Resign when the best move wins less often than this in the search (0: never).
    #[arg(long, default_value_t = 0.05, value_parser = parse_share)]
    pub resign: f64,
    /// RAVE's equivalence parameter k (0: plain UCT): the visits after
    /// which a move's own mean outweighs its all-moves-as-first mean.
    #[arg(long, default_value_t = crate::commands::gtp::DEFAULT_RAVE, value_parser = parse_rave)]
    pub rave: f64,
    /// The exploration constant c of the selection (default √2; with RAVE, 0: the AMAF values explore).
    #[arg(long, value_parser = parse_c)]
    pub c: Option<f64>,
    /// How playouts are played: full (answers to ataris, no self-ataris),
    /// shapes (full, and hanes and cuts), light, or moves.
    #[arg(long, default_value = "full", value_parser = ["full", "shapes", "light", "moves"])]
    pub playouts: String,
    /// What new moves start with under RAVE: knowledge (captures,
    /// escapes, the last move's neighbours high; self-ataris and empty
    /// edges low) or plain.
    #[arg(long, default_value = "knowledge", value_parser = ["knowledge", "plain"])]
    pub priors: String,
    /// Start every move's search afresh instead of keeping the subtree
    /// of the position reached (for measuring what reuse is worth).
    #[arg(long)]
    pub no_tree_reuse: bool,
}

/// RAVE's `k`: a number from 0 (`--rave`).
fn parse_rave(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..1e12).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0")),
    }
}

/// An exploration constant from 0 to 100 (`--c`).
fn parse_c(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=100.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to 100")),
    }
}

/// A share from 0 to 1 (`--resign`).
fn parse_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to 1")),
    }
}

#[derive(Args, Debug)]
pub struct UciArgs {
    /// Transposition-table size in MiB (the GUI can change it with the Hash option).
    #[arg(long, default_value_t = ply_core::search::DEFAULT_TT_MB)]
    pub hash: usize,
    /// The engine's tuning numbers changed, as key=value pairs separated by
    /// commas (reverse_futility_depth=5,null_base=2): for testing a variant
    /// in self-play without rebuilding.
    #[arg(long, value_name = "PAIRS")]
    pub tune: Option<String>,
}

impl GameArgs {
    /// The request for this game, position, moves and parameters.
    pub fn request(&self) -> Result<Request, CliError> {
        Ok(Request {
            game: Some(self.game.clone()),
            position: self.position.clone(),
            moves: (!self.moves.is_empty()).then(|| self.moves.clone()),
            params: param_map(&self.params)?,
            ..Request::default()
        })
    }
}

/// `--param key=value` items as a request's parameters, a later setting of
/// a key overriding an earlier one; an item without `=` is an error.
pub fn param_map(items: &[String]) -> Result<Option<BTreeMap<String, Value>>, CliError> {
    let params: BTreeMap<String, Value> = ply_core::registry::Params::parse(items)?
        .iter()
        .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
        .collect();
    Ok((!params.is_empty()).then_some(params))
}

impl SearchArgs {
    /// `base` with these search flags set.
    pub fn request(&self, base: Request) -> Request {
        Request {
            algo: self.algo,
            depth: self.depth,
            time_ms: self.time_ms,
            tt_mb: self.tt_mb,
            order: self.order,
            pvs: self.pvs,
            fast_win: self.fast_win,
            seed: self.seed,
            iterations: self.iterations,
            c: self.c,
            simulations: self.simulations,
            net: self.net.clone(),
            threads: self.threads,
            star1: self.star1,
            weak: self.weak,
            infoset: self.infoset.clone(),
            ..base
        }
    }
}
