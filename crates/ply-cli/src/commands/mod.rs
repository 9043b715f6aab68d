//! One module per command, and the search configuration they share.

pub mod compare;
pub mod explore;
pub mod gomocup;
pub mod list;
pub mod play;
pub mod serve;
pub mod solve;
pub mod trace;
pub mod tune;
pub mod uci;

use std::time::Duration;

use ply_core::explore::reaches_chance;
use ply_core::registry::GameSpec;
use ply_core::search::{Algorithm, DEFAULT_TT_MB, MctsOptions, SearchOptions, TieBreak};

use crate::CliError;
use crate::args::{AlgoArg, SearchArgs};

pub use ply_core::search::describe;

/// The text of a file the user named, or an input error that names it.
pub fn read_input(path: &std::path::Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))
}

/// What the search flags ask for.
#[derive(Clone, Copy, Debug)]
pub enum Plan {
    /// Minimax, alpha-beta or iterative deepening (deterministic games).
    Search(Algorithm, SearchOptions),
    /// Expectiminimax (games with chance).
    Expecti {
        /// The depth limit (and nothing else) is used.
        options: SearchOptions,
        /// Star1 pruning at chance nodes.
        star1: bool,
    },
    /// Monte Carlo tree search.
    Mcts(MctsOptions),
    /// The nimber search (impartial games).
    Nimber,
    /// The exact score search by null windows.
    Score {
        /// Table, ordering and shortcuts (no depth limit).
        options: SearchOptions,
        /// Only the sign of the value.
        weak: bool,
    },
}

impl Plan {
    /// A short name for tables and JSON.
    pub fn name(&self) -> String {
        match self {
            Plan::Search(a, o) => describe(*a, o),
            Plan::Nimber => "nimber search".to_string(),
            Plan::Expecti { options, star1 } => format!(
                "expectiminimax{}{}",
                if *star1 { "+star1" } else { "" },
                options
                    .depth
                    .map_or(String::new(), |d| format!(" to depth {d}"))
            ),
            Plan::Score { options, weak } => format!(
                "score search{} ({})",
                if *weak { ", weak" } else { "" },
                describe(Algorithm::AlphaBeta, options)
            ),
            Plan::Mcts(o) => format!(
                "mcts ({} iterations, c={:.3}, seed {}, {} thread{})",
                o.iterations.unwrap_or(0),
                o.c,
                o.seed,
                o.threads,
                if o.threads == 1 { "" } else { "s" }
            ),
        }
    }
}

/// `--tt-mb`: a table the machine can give (see
/// [`ply_core::search::tt::TransTable::check_size`]).
pub fn check_table(mib: usize) -> Result<(), CliError> {
    ply_core::search::tt::TransTable::check_size(mib)
        .map_err(|e| CliError::input(format!("--tt-mb {mib}: {e}")))
}

/// The plan the search flags ask for on `state`. Without `--algo`: the
/// engine (iterative deepening with every feature) for deterministic games,
/// expectiminimax for games with chance, for `default_time_ms` unless
/// `--time-ms` or `--depth` says otherwise.
pub fn configure<G: ply_core::Chance + ply_core::Impartial>(
    args: &SearchArgs,
    game: &G,
    state: &G::State,
    info: &GameSpec,
    default_time_ms: u64,
) -> Result<Plan, CliError> {
    if args.threads == 0 {
        return Err(CliError::input("--threads must be at least 1"));
    }
    if let Some(mib) = args.tt_mb {
        check_table(mib)?;
    }
    let chance = reaches_chance(game, state, 100_000);
    let algo = match args.algo {
        Some(a) => a,
        None if chance => AlgoArg::Expectiminimax,
        None if info.exact_solver || args.weak => AlgoArg::Score,
        None => {
            return engine_plan(args, None, default_time_ms);
        }
    };
    if chance
        && matches!(
            algo,
            AlgoArg::Minimax | AlgoArg::Alphabeta | AlgoArg::Id | AlgoArg::Score
        )
    {
        return Err(CliError::input(format!(
            "{} has chance nodes here: use --algo expectiminimax (or mcts)",
            info.name
        )));
    }
    if args.weak && algo != AlgoArg::Score {
        return Err(CliError::input(
            "--weak applies to the score search (--algo score)",
        ));
    }
    match algo {
        AlgoArg::Nimber => {
            if !G::IMPARTIAL {
                return Err(CliError::input(format!(
                    "{} is not impartial: the nimber search is for games where both players have the same moves and the player who cannot move loses (coins, grundy, primes, hackenbush, divisor)",
                    info.name
                )));
            }
            if args.depth.is_some() || args.time_ms.is_some() {
                return Err(CliError::input(
                    "the nimber search solves exactly: --depth and --time-ms do not apply",
                ));
            }
            Ok(Plan::Nimber)
        }
        AlgoArg::Score => {
            if args.depth.is_some() {
                return Err(CliError::input(
                    "the score search solves exactly: --depth does not apply",
                ));
            }
            Ok(Plan::Score {
                options: SearchOptions {
                    tt_mb: args.tt_mb.unwrap_or(DEFAULT_TT_MB),
                    ordering: true,
                    no_killers: true,
                    shortcuts: true,
                    threads: args.threads,
                    ..SearchOptions::default()
                },
                weak: args.weak,
            })
        }
        AlgoArg::Expectiminimax => {
            if args.tt_mb.is_some_and(|m| m > 0) || args.order || args.pvs || args.time_ms.is_some()
            {
                return Err(CliError::input(
                    "expectiminimax takes --depth and --star1; --tt-mb, --order, --pvs and --time-ms apply to alphabeta and id",
                ));
            }
            Ok(Plan::Expecti {
                options: SearchOptions {
                    depth: args.depth.or(info.default_depth),
                    ..SearchOptions::default()
                },
                star1: args.star1,
            })
        }
        AlgoArg::Mcts => {
            if !(args.c.is_finite() && args.c >= 0.0) {
                return Err(CliError::input("--c must be a number of at least 0"));
            }
            if args.iterations == 0 && args.time_ms.is_none() {
                return Err(CliError::input("--iterations must be at least 1"));
            }
            Ok(Plan::Mcts(MctsOptions {
                iterations: Some(args.iterations),
                time_limit: args.time_ms.map(Duration::from_millis),
                c: args.c,
                seed: args.seed.unwrap_or(1),
                threads: args.threads,
                ..MctsOptions::default()
            }))
        }
        a => engine_plan(args, Some(a), default_time_ms),
    }
}

fn engine_plan(
    args: &SearchArgs,
    algo: Option<AlgoArg>,
    default_time_ms: u64,
) -> Result<Plan, CliError> {
    let tie_break = args.seed.map_or(TieBreak::First, TieBreak::Random);
    let time = |default: Option<u64>| args.time_ms.or(default).map(Duration::from_millis);
    let features = |o: SearchOptions| SearchOptions {
        ordering: o.ordering || args.order,
        pvs: o.pvs || args.pvs,
        fast_win: o.fast_win || args.fast_win,
        depth: args.depth,
        tie_break,
        threads: args.threads,
        ..o
    };
    if args.star1 {
        return Err(CliError::input("--star1 applies to expectiminimax"));
    }
    if matches!(algo, Some(AlgoArg::Minimax | AlgoArg::Alphabeta)) && args.threads > 1 {
        return Err(CliError::input(
            "--threads applies to id, mcts, the score search and the engine (no --algo)",
        ));
    }
    let (algorithm, options) = match algo {
        None => {
            let default_time = args.depth.is_none().then_some(default_time_ms);
            let o = features(SearchOptions::engine());
            (
                Algorithm::Id,
                SearchOptions {
                    tt_mb: args.tt_mb.unwrap_or(DEFAULT_TT_MB),
                    time_limit: time(default_time),
                    ..o
                },
            )
        }
        Some(AlgoArg::Minimax) => {
            if args.tt_mb.is_some_and(|m| m > 0) || args.order || args.pvs {
                return Err(CliError::input(
                    "minimax is the unpruned reference: --tt-mb, --order and --pvs apply to alphabeta and id",
                ));
            }
            if args.time_ms.is_some() {
                return Err(CliError::input(
                    "--time-ms applies to id, mcts and the engine (no --algo)",
                ));
            }
            (Algorithm::Minimax, features(SearchOptions::default()))
        }
        Some(AlgoArg::Alphabeta) => {
            if args.time_ms.is_some() {
                return Err(CliError::input(
                    "--time-ms applies to id, mcts and the engine (no --algo)",
                ));
            }
            let o = features(SearchOptions::default());
            (
                Algorithm::AlphaBeta,
                SearchOptions {
                    tt_mb: args.tt_mb.unwrap_or(0),
                    ..o
                },
            )
        }
        Some(_) => {
            let default_time = args.depth.is_none().then_some(default_time_ms);
            let o = features(SearchOptions::default());
            (
                Algorithm::Id,
                SearchOptions {
                    tt_mb: args.tt_mb.unwrap_or(DEFAULT_TT_MB),
                    time_limit: time(default_time),
                    ..o
                },
            )
        }
    };
    Ok(Plan::Search(algorithm, options))
}
