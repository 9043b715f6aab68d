//! `ply trace`: a search step by step, on any game's position or on a tree
//! written out.

use ply_core::explore::{leaf_paths, reaches_chance, tree_size};
use ply_core::observe::{DotStyle, NoObserver, Observer, Trace, tree_dot};
use ply_core::registry::{GameSpec, GameVisitor, Params, Registered};
use ply_service::report::{Number, Score, TraceReport, TraceValue};
use ply_core::search::alphabeta::Budget;
use ply_core::search::{Engine, SearchError, SearchOptions, expectiminimax, minimax};

use crate::args::{AlgoArg, TraceArgs};
use crate::output::emit;
use crate::{CliError, CliResult};

/// A trace stops at this many nodes: about 100,000 steps (each node makes
/// at most four: enter, return, its parent's update, a cutoff).
pub const NODE_CAP: u64 = 25_000;

/// A trace follows lines at most this many plies deep. Every row names its
/// node by its whole path, so a trace costs its rows times their depth: a
/// pile of 20,000 coins taken one at a time made 2.8 GB of trace within
/// the node cap.
pub const MAX_PLY: usize = 100;

/// The pruned leaves are listed when the whole tree has at most this many.
const LEAF_CAP: usize = 200_000;

struct TraceGame<'a> {
    args: &'a TraceArgs,
    /// The position as written, and whether it is a tree written alone.
    position: Option<String>,
    tree_alone: bool,
}

impl GameVisitor for TraceGame<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> CliResult {
        let state = trace_state(&game, spec, self.position.as_deref(), self.tree_alone)?;
        trace_game(&game, spec, &state, self.args)
    }
}

/// The position a trace starts from: `text` in the game's notation (a tree
/// written alone is named a tree in the message), or the game's start.
pub fn trace_state<G: Registered>(
    game: &G,
    spec: &GameSpec,
    text: Option<&str>,
    tree_alone: bool,
) -> Result<G::State, CliError> {
    let Some(text) = text else {
        return Ok(game.initial_state());
    };
    game.parse_position(text).map_err(|e| {
        let what = if tree_alone {
            "tree".to_string()
        } else {
            format!("{} position", spec.name)
        };
        CliError::input(format!("invalid {what} '{text}': {e}"))
    })
}

/// The error for a trace past the cap.
fn too_big() -> CliError {
    CliError::input(format!(
        "this trace would pass {NODE_CAP} nodes (about 100,000 steps): give a --depth, or a smaller position"
    ))
}

/// The error for a trace deeper than [`MAX_PLY`].
fn too_deep() -> CliError {
    CliError::input(format!(
        "this trace goes deeper than {MAX_PLY} plies (each row names its node by its whole path): give a --depth of at most {MAX_PLY}, or a smaller position"
    ))
}

/// Runs the traced search into `trace`; its name and the root's value.
/// `stop` may stop the search too (a server's clock).
fn run_traced<G: Registered, O: Observer>(
    game: &G,
    state: &G::State,
    algo: AlgoArg,
    args: &TraceArgs,
    trace: &mut Trace,
    stop: &mut O,
) -> Result<(String, TraceValue), CliError> {
    let out = search_traced(game, state, algo, args, &mut (&mut *trace, stop));
    if trace.too_deep() {
        return Err(too_deep());
    }
    out
}

/// [`run_traced`]'s search, told every step by `trace`.
fn search_traced<G: Registered, O: Observer>(
    game: &G,
    state: &G::State,
    algo: AlgoArg,
    args: &TraceArgs,
    trace: &mut O,
) -> Result<(String, TraceValue), CliError> {
    let options = SearchOptions {
        depth: args.depth,
        ..SearchOptions::exact()
    };
    let chance = reaches_chance(game, state, 100_000);
    if chance && matches!(algo, AlgoArg::Minimax | AlgoArg::Alphabeta) {
        return Err(CliError::input(
            "this tree has chance nodes: trace it with --algo expectiminimax",
        ));
    }
    if args.star1 && algo != AlgoArg::Expectiminimax {
        return Err(CliError::input("--star1 applies to expectiminimax"));
    }
    match algo {
        AlgoArg::Minimax => {
            tree_size(game, state, args.depth, NODE_CAP).ok_or_else(too_big)?;
            let out = minimax(game, state, &options, trace)?;
            Ok(("minimax".into(), TraceValue::Score(Score(out.value))))
        }
        AlgoArg::Alphabeta => {
            // The textbook alpha-beta, stopped at the cap.
            let budget = Budget {
                nodes: Some(NODE_CAP),
                ..Budget::default()
            };
            let mut engine = Engine::new(game, &options);
            let out = engine.search(game, state, args.depth, false, &budget, trace);
            let out = out.map_err(|e| match e {
                SearchError::Stopped => too_big(),
                e => e.into(),
            })?;
            Ok(("alphabeta".into(), TraceValue::Score(Score(out.value))))
        }
        AlgoArg::Expectiminimax => {
            tree_size(game, state, args.depth, NODE_CAP).ok_or_else(too_big)?;
            let out = expectiminimax(game, state, &options, args.star1, trace)?;
            let name = if args.star1 {
                "expectiminimax+star1"
            } else {
                "expectiminimax"
            };
            Ok((name.into(), TraceValue::Mean(Number(out.value))))
        }
        _ => Err(CliError::input(
            "trace shows minimax, alphabeta or expectiminimax",
        )),
    }
}

/// The search to trace when none is named: expectiminimax where chance
/// is reachable, else alpha-beta.
fn default_algo<G: Registered>(game: &G, state: &G::State, algo: Option<AlgoArg>) -> AlgoArg {
    algo.unwrap_or(if reaches_chance(game, state, 100_000) {
        AlgoArg::Expectiminimax
    } else {
        AlgoArg::Alphabeta
    })
}

/// The trace of `args.algo` on `state`, as a report. Bounded by nodes
/// ([`NODE_CAP`]) and by `stop`, which a server's clock answers: a trace
/// near the cap takes seconds in a slow build.
pub fn trace_report<G: Registered, O: Observer>(
    game: &G,
    spec: &GameSpec,
    state: &G::State,
    args: &TraceArgs,
    stop: &mut O,
) -> Result<TraceReport, CliError> {
    let algo = default_algo(game, state, args.algo);
    let mut trace = Trace::with_max_ply(MAX_PLY);
    let (name, value) = run_traced(game, state, algo, args, &mut trace, stop)?;
    let leaves = leaf_paths(game, state, args.depth, LEAF_CAP);
    Ok(TraceReport::new(
        spec.name,
        game,
        state,
        &name,
        args.depth,
        value,
        &trace,
        leaves.as_deref(),
    ))
}

fn trace_game<G: Registered>(
    game: &G,
    spec: &GameSpec,
    state: &G::State,
    args: &TraceArgs,
) -> CliResult {
    if !args.dot {
        emit(
            &trace_report(game, spec, state, args, &mut NoObserver)?,
            args.json,
        );
        return Ok(());
    }
    let algo = default_algo(game, state, args.algo);
    let mut trace = Trace::with_max_ply(MAX_PLY);
    run_traced(game, state, algo, args, &mut trace, &mut NoObserver)?;
    // Explicit trees are drawn whole, with values; a game's nodes show
    // their boards, and pruned subtrees are not expanded.
    let is_tree = spec.name == "tree";
    let draw = |s: &G::State| game.draw(s);
    let style = DotStyle {
        board: (!is_tree).then_some(&draw as &dyn Fn(&G::State) -> String),
        expand_pruned: is_tree,
    };
    print!("{}", tree_dot(game, state, &trace, &style));
    Ok(())
}

pub fn run(args: &TraceArgs) -> CliResult {
    let params = Params::parse(&args.params)?;
    if ply_games::spec(&args.target).is_ok() {
        let visitor = TraceGame {
            args,
            position: args.position.clone(),
            tree_alone: false,
        };
        return ply_games::visit(&args.target, &params, visitor)?;
    }
    if args.position.is_some() {
        return Err(CliError::input(format!(
            "'{}' is not a game (see `ply list`): trace GAME --position P, or a tree alone",
            args.target
        )));
    }
    // A tree written out: `ply trace "((3 5 7) (2 9 1))"`.
    let visitor = TraceGame {
        args,
        position: Some(args.target.clone()),
        tree_alone: true,
    };
    ply_games::visit("tree", &params, visitor)?
}
