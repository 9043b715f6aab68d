//! `trace`: a search step by step, on any game's position or on a tree
//! written out, as a table of steps or a Graphviz drawing.

use ply_core::explore::{leaf_paths, reaches_chance, tree_size};
use ply_core::observe::{DotStyle, Observer, Trace, tree_dot};
use ply_core::search::alphabeta::Budget;
use ply_core::search::mcts::Mcts;
use ply_core::search::puct::PuctOptions;
use ply_core::search::{Engine, SearchError, SearchOptions, expectiminimax, minimax};
use ply_core::{Notation, Searchable};

use crate::algo::Algo;
use crate::error::{Error, field, field_is};
use crate::learned::PUCT_C;
use crate::plan::{exploration, learnable, mcts_c};
use crate::report::{
    DotReport, Header, MctsTraceReport, Number, PuctTraceReport, Score, TRACE_TREE_DEPTH,
    TraceReport, TraceValue,
};
use crate::request::Request;

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

/// The error for a trace past the cap.
fn too_big() -> Error {
    Error::input(format!(
        "this trace would pass {NODE_CAP} nodes (about 100,000 steps): give a {}, or a smaller position",
        field("depth")
    ))
}

/// The error for a trace deeper than [`MAX_PLY`].
fn too_deep() -> Error {
    Error::input(format!(
        "this trace goes deeper than {MAX_PLY} plies (each row names its node by its whole path): give a {} of at most {MAX_PLY}, or a smaller position",
        field("depth")
    ))
}

/// The search a trace shows: the one asked for, else expectiminimax where
/// chance is reachable and alpha-beta elsewhere.
fn traced_algo<G: Searchable>(
    game: &G,
    state: &G::State,
    request: &Request,
) -> Result<Algo, Error> {
    let chance = reaches_chance(game, state, 100_000);
    let algo = request.algo.unwrap_or(if chance {
        Algo::Expectiminimax
    } else {
        Algo::Alphabeta
    });
    if !algo.needs().traceable {
        return Err(Error::input(
            "trace shows minimax, alphabeta, expectiminimax or mcts",
        ));
    }
    let mcts_field = [
        ("iterations", request.iterations.is_some()),
        ("seed", request.seed.is_some()),
        ("c", request.c.is_some()),
    ]
    .into_iter()
    .find(|f| f.1);
    if let Some((which, _)) = mcts_field {
        return Err(Error::input(format!(
            "{} applies to an MCTS trace ({})",
            field(which),
            field_is("algo", "mcts")
        )));
    }
    puct_only(request)?;
    if chance && !algo.needs().chance {
        return Err(Error::input(format!(
            "this tree has chance nodes: trace it with {}",
            field_is("algo", "expectiminimax")
        )));
    }
    if request.star1 && algo != Algo::Expectiminimax {
        return Err(Error::input(format!(
            "{} applies to expectiminimax",
            field("star1")
        )));
    }
    Ok(algo)
}

/// Refuses PUCT's fields (`simulations`, `net`) in another trace.
fn puct_only(request: &Request) -> Result<(), Error> {
    let which = if request.simulations.is_some() {
        "simulations"
    } else if request.net.is_some() {
        "net"
    } else {
        return Ok(());
    };
    Err(Error::input(format!(
        "{} applies to a PUCT trace ({})",
        field(which),
        field_is("algo", "puct")
    )))
}

/// Runs the traced search into `trace`; its name and the root's value.
/// `stop` may stop the search too (a server's clock).
fn run_traced<G: Searchable, O: Observer>(
    game: &G,
    state: &G::State,
    request: &Request,
    trace: &mut Trace,
    stop: &mut O,
) -> Result<(String, TraceValue), Error> {
    let algo = traced_algo(game, state, request)?;
    let out = search_traced(game, state, algo, request, &mut (&mut *trace, stop));
    if trace.too_deep() {
        return Err(too_deep());
    }
    out
}

/// [`run_traced`]'s search, told every step by `trace`.
fn search_traced<G: Searchable, O: Observer>(
    game: &G,
    state: &G::State,
    algo: Algo,
    request: &Request,
    trace: &mut O,
) -> Result<(String, TraceValue), Error> {
    let depth = request.depth;
    let options = SearchOptions {
        depth,
        ..SearchOptions::exact()
    };
    match algo {
        Algo::Minimax => {
            tree_size(game, state, depth, NODE_CAP).ok_or_else(too_big)?;
            let out = minimax(game, state, &options, trace)?;
            Ok(("minimax".into(), TraceValue::Score(Score(out.value))))
        }
        Algo::Expectiminimax => {
            tree_size(game, state, depth, NODE_CAP).ok_or_else(too_big)?;
            let out = expectiminimax(game, state, &options, request.star1, trace)?;
            let name = if request.star1 {
                "expectiminimax+star1"
            } else {
                "expectiminimax"
            };
            Ok((name.into(), TraceValue::Mean(Number(out.value))))
        }
        _ => {
            // The textbook alpha-beta, stopped at the cap.
            let budget = Budget {
                nodes: Some(NODE_CAP),
                ..Budget::default()
            };
            let mut engine = Engine::new(game, &options);
            let out = engine.search(game, state, depth, false, &budget, trace);
            let out = out.map_err(|e| match e {
                SearchError::Stopped => too_big(),
                e => e.into(),
            })?;
            Ok(("alphabeta".into(), TraceValue::Score(Score(out.value))))
        }
    }
}

/// The trace of the request's search on `state`, as a report. Bounded by
/// nodes ([`NODE_CAP`]) and by `stop`, which a server's clock answers: a
/// trace near the cap takes seconds in a slow build.
pub fn trace_report<G: Notation + Searchable, O: Observer>(
    name: &str,
    game: &G,
    state: &G::State,
    request: &Request,
    stop: &mut O,
) -> Result<TraceReport, Error> {
    let mut trace = Trace::with_max_ply(MAX_PLY);
    let (algo, value) = run_traced(game, state, request, &mut trace, stop)?;
    let leaves = leaf_paths(game, state, request.depth, LEAF_CAP);
    Ok(TraceReport::new(
        name,
        game,
        state,
        &algo,
        request.depth,
        value,
        &trace,
        leaves.as_deref(),
    ))
}

/// The traced tree as Graphviz DOT, pruned branches dashed and grey.
/// Explicit trees (`explicit`) are drawn whole, with values; a game's
/// nodes show their boards, and pruned subtrees are not expanded.
pub fn trace_dot<G: Notation + Searchable, O: Observer>(
    game: &G,
    state: &G::State,
    request: &Request,
    explicit: bool,
    stop: &mut O,
) -> Result<DotReport, Error> {
    let mut trace = Trace::with_max_ply(MAX_PLY);
    run_traced(game, state, request, &mut trace, stop)?;
    let draw = |s: &G::State| game.draw(s);
    let style = DotStyle {
        board: (!explicit).then_some(&draw as &dyn Fn(&G::State) -> String),
        expand_pruned: explicit,
    };
    Ok(DotReport {
        dot: tree_dot(game, state, &trace, &style),
    })
}

/// An MCTS trace runs at most this many iterations: each adds a node, and
/// the lab's largest run is 10,000.
pub const MCTS_TRACE_ITERATIONS: u64 = 100_000;

/// How many iterations run between two looks at `stop`.
const STOP_EVERY: u64 = 256;

/// `trace --algo mcts --iterations N`: runs N - 1 iterations untraced and
/// the Nth traced, on one tree seeded as `analyze --algo mcts` seeds its
/// first (so the root moves match `analyze`'s with one thread exactly),
/// and reports the Nth iteration's phases and the tree.
pub fn mcts_trace_report<G: Notation + Searchable, O: Observer>(
    name: &str,
    game: &G,
    state: &G::State,
    request: &Request,
    stop: &mut O,
) -> Result<MctsTraceReport, Error> {
    puct_only(request)?;
    if request.depth.is_some() || request.star1 || request.dot {
        let which = if request.depth.is_some() {
            "depth"
        } else if request.star1 {
            "star1"
        } else {
            "dot"
        };
        return Err(Error::input(format!(
            "{} does not apply to an MCTS trace (it takes {}, {} and {})",
            field(which),
            field("iterations"),
            field("seed"),
            field("c")
        )));
    }
    let n = request.iterations.unwrap_or(1);
    if !(1..=MCTS_TRACE_ITERATIONS).contains(&n) {
        return Err(Error::input(format!(
            "{} must be from 1 to {MCTS_TRACE_ITERATIONS} in an MCTS trace (the iteration shown is the last)",
            field_is("iterations", n)
        )));
    }
    let c = mcts_c(request)?;
    if game.is_terminal(state) {
        return Err(Error::input(
            "the game is over at this position: there is nothing to search",
        ));
    }
    let seed = request.seed.unwrap_or(1);
    let start = std::time::Instant::now();
    let mut tree = Mcts::new(game, state, c, seed);
    let mut done = 0;
    while done < n - 1 {
        if stop.should_stop() {
            return Err(SearchError::Stopped.into());
        }
        done += tree.run(game, STOP_EVERY.min(n - 1 - done), None);
        if tree.is_endless() {
            return Err(SearchError::TooDeep.into());
        }
    }
    let last = tree.iterate_traced(game);
    if tree.is_endless() {
        return Err(SearchError::TooDeep.into());
    }
    let result = tree.result(game, n, start.elapsed());
    let algo = format!("mcts ({n} iterations, c={c:.3}, seed {seed})");
    Ok(MctsTraceReport::new(
        Header::new(name, game, state, algo),
        game,
        state,
        (c, seed),
        &last,
        &result,
        &tree.tree_view(TRACE_TREE_DEPTH),
    ))
}

/// A PUCT trace runs at most this many simulations: each asks the
/// network once, and the lab's largest run is 1,000.
pub const PUCT_TRACE_SIMULATIONS: u64 = 20_000;

/// `trace --algo puct --simulations N`: runs N - 1 simulations untraced
/// and the Nth traced, one at a time (a batch of 1, as the papers describe
/// the search; `analyze` evaluates 8 at once, so its visits can differ),
/// and reports the Nth's steps and the tree. N = 0 shows the network's
/// answer at the root alone.
pub fn puct_trace_report<G: Notation + Searchable, O: Observer>(
    name: &str,
    game: &G,
    state: &G::State,
    spec: &ply_core::registry::GameSpec,
    request: &Request,
    stop: &mut O,
) -> Result<PuctTraceReport, Error> {
    let wrong = [
        ("depth", request.depth.is_some()),
        ("iterations", request.iterations.is_some()),
        ("star1", request.star1),
        ("dot", request.dot),
    ]
    .into_iter()
    .find(|f| f.1);
    if let Some((which, _)) = wrong {
        return Err(Error::input(format!(
            "{} does not apply to a PUCT trace (it takes {}, {}, {} and {})",
            field(which),
            field("simulations"),
            field("net"),
            field("c"),
            field("seed")
        )));
    }
    learnable(game, spec)?;
    let n = request.simulations.unwrap_or(1);
    if n > PUCT_TRACE_SIMULATIONS {
        return Err(Error::input(format!(
            "{} must be from 0 to {PUCT_TRACE_SIMULATIONS} in a PUCT trace (the simulation shown is the last)",
            field_is("simulations", n)
        )));
    }
    let c = exploration(request, PUCT_C)?;
    if game.is_terminal(state) {
        return Err(Error::input(
            "the game is over at this position: there is nothing to search",
        ));
    }
    let net = crate::learned::network(game, spec, request.net.as_deref())?;
    let options = PuctOptions {
        simulations: n,
        c,
        batch: 1,
        noise: None,
        seed: request.seed.unwrap_or(1),
    };
    crate::learned::trace(name, game, state, &options, &net, stop)
}
