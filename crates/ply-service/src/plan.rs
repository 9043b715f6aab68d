//! What a request's search fields ask for: a [`Plan`] (which search, with
//! which options), checked against the game and the position.

use std::time::Duration;

use ply_core::explore::reaches_chance;
use ply_core::registry::GameSpec;
use ply_core::search::cfr::{CfrOptions, MAX_CFR_NODES, Variant};
use ply_core::search::puct::PuctOptions;
use ply_core::search::{Algorithm, DEFAULT_TT_MB, MctsOptions, SearchOptions, TieBreak, describe};

use crate::algo::Algo;
use crate::error::{Error, field, field_is};
use crate::learned::{Net, PUCT_C, PUCT_SIMULATIONS};
use crate::request::Request;

/// MCTS's iterations when a request names none.
pub const MCTS_ITERATIONS: u64 = 10_000;

/// CFR's iterations when a request names none (each walks the whole
/// tree: Leduc's 9,457 nodes twice), enough for CFR+ to bring Leduc's
/// exploitability under 0.001.
pub const CFR_ITERATIONS: u64 = 1_000;

/// External sampling's iterations when a request names none (each one
/// path's worth of nodes per player).
pub const MCCFR_ITERATIONS: u64 = 100_000;

/// What the search flags ask for.
#[derive(Clone, Copy, Debug)]
pub enum Plan {
    /// Minimax, alpha-beta or iterative deepening (deterministic games).
    Search(Algorithm, SearchOptions),
    /// Expectiminimax (games with chance).
    Expectiminimax {
        /// The depth limit (and nothing else) is used.
        options: SearchOptions,
        /// Star1 pruning at chance nodes.
        star1: bool,
    },
    /// Monte Carlo tree search.
    Mcts(MctsOptions),
    /// MCTS guided by a learned network (PUCT).
    Puct {
        /// Simulations, c, the batch; no noise.
        options: PuctOptions,
        /// The network.
        net: Net,
    },
    /// The nimber search (impartial games).
    Nimber,
    /// The exact score search by null windows.
    Score {
        /// Table, ordering and shortcuts (no depth limit).
        options: SearchOptions,
        /// Only the sign of the value.
        weak: bool,
    },
    /// Counterfactual regret minimisation over the whole game (hidden
    /// information).
    Cfr(CfrOptions),
}

impl Plan {
    /// A short name for tables and JSON.
    pub fn name(&self) -> String {
        match self {
            Plan::Search(a, o) => describe(*a, o),
            Plan::Nimber => "nimber search".to_string(),
            Plan::Expectiminimax { options, star1 } => format!(
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
            Plan::Cfr(o) => format!(
                "{} ({} iterations{})",
                o.variant.name(),
                crate::report::thousands(o.iterations),
                if o.variant == Variant::ExternalSampling {
                    format!(", seed {}", o.seed)
                } else {
                    String::new()
                }
            ),
            Plan::Puct { options, net } => format!(
                "puct ({} simulations, c={:.3}; network: {})",
                crate::report::thousands(options.simulations),
                options.c,
                crate::learned::describe(net)
            ),
            Plan::Mcts(o) => format!(
                "mcts ({}, c={:.3}{}, seed {}, {} thread{})",
                match (o.iterations, o.time_limit) {
                    (Some(n), None) => format!("{n} iterations"),
                    (Some(n), Some(t)) => format!("{n} iterations within {} ms", t.as_millis()),
                    (None, Some(t)) => format!("{} ms", t.as_millis()),
                    (None, None) => "until stopped".to_string(),
                },
                o.c,
                o.rave.map_or(String::new(), |k| format!(", RAVE k={k}")),
                o.seed,
                o.threads,
                if o.threads == 1 { "" } else { "s" }
            ),
        }
    }
}

/// `--tt-mb`: a table the machine can give (see
/// [`ply_core::search::tt::TransTable::check_size`]).
pub fn check_table(mib: usize) -> Result<(), Error> {
    ply_core::search::tt::TransTable::check_size(mib)
        .map_err(|e| Error::input(format!("{}: {e}", field_is("tt_mb", mib))))
}

/// The plan the search flags ask for on `state`. Without `--algo`: the
/// engine (iterative deepening with every feature) for deterministic games,
/// expectiminimax for games with chance, for `default_time_ms` unless
/// `--time-ms` or `--depth` says otherwise; CFR+ for hidden cards, the
/// score search for an exact solver's game, MCTS for a game that asks
/// for it (`mcts_default`: Go).
pub fn configure<G: ply_core::Chance + ply_core::Impartial + ply_core::Learn>(
    request: &Request,
    game: &G,
    state: &G::State,
    info: &GameSpec,
    default_time_ms: u64,
) -> Result<Plan, Error> {
    let threads = request.threads.unwrap_or(1);
    if threads == 0 {
        return Err(Error::input(format!(
            "{} must be at least 1",
            field("threads")
        )));
    }
    if let Some(mib) = request.tt_mb {
        check_table(mib)?;
    }
    let chance = reaches_chance(game, state, 100_000);
    let algo = match request.algo {
        Some(a) => a,
        None if G::HIDDEN => Algo::Cfr(Variant::Plus),
        None if chance => Algo::Expectiminimax,
        None if info.exact_solver || request.weak => Algo::Score,
        None if info.mcts_default => Algo::Mcts,
        None => {
            refuse_mcts_fields(request, Algo::Id)?;
            return engine_plan(request, None, default_time_ms);
        }
    };
    if request.infoset.is_some() && !matches!(algo, Algo::Cfr(_)) {
        return Err(Error::input(format!(
            "{} applies to the CFR searches (cfr, cfr+, lcfr, dcfr, mccfr)",
            field("infoset")
        )));
    }
    match (G::HIDDEN, algo) {
        (true, Algo::Cfr(v)) => return cfr_plan(request, v),
        (true, a) => {
            return Err(Error::input(format!(
                "{} hides information (cards dealt face down): {a} would read the hidden cards; use {} (or cfr, lcfr, dcfr, mccfr), which plays by what each player sees",
                info.name,
                field_is("algo", "cfr+")
            )));
        }
        (false, Algo::Cfr(v)) => {
            return Err(Error::input(format!(
                "{} is for games with hidden information (kuhn, leduc); in {} both players see everything, and minimax or alpha-beta solve it exactly",
                v.name(),
                info.name
            )));
        }
        (false, _) => {}
    }
    if chance
        && matches!(
            algo,
            Algo::Minimax | Algo::Alphabeta | Algo::Id | Algo::Score
        )
    {
        return Err(Error::input(format!(
            "{} has chance nodes here: use {} (or mcts)",
            info.name,
            field_is("algo", "expectiminimax")
        )));
    }
    if request.weak && algo != Algo::Score {
        return Err(Error::input(format!(
            "{} applies to the score search ({})",
            field("weak"),
            field_is("algo", "score")
        )));
    }
    if algo == Algo::Puct {
        return puct_plan(request, game, info);
    }
    refuse_mcts_fields(request, algo)?;
    match algo {
        Algo::Nimber => nimber_plan::<G>(request, info),
        Algo::Score => score_plan(request, threads),
        Algo::Expectiminimax => expectiminimax_plan(request, info),
        Algo::Mcts => mcts_plan(request, threads, info),
        Algo::Cfr(v) => cfr_plan(request, v),
        a => engine_plan(request, Some(a), default_time_ms),
    }
}

/// The nimber search: exact, for impartial games only.
fn nimber_plan<G: ply_core::Impartial>(request: &Request, info: &GameSpec) -> Result<Plan, Error> {
    if !G::IMPARTIAL {
        return Err(Error::input(format!(
            "{} is not impartial: the nimber search is for games where both players have the same moves and the player who cannot move loses (coins, grundy, primes, hackenbush, divisor)",
            info.name
        )));
    }
    if request.depth.is_some() || request.time_ms.is_some() {
        return Err(Error::input(format!(
            "the nimber search solves exactly: {} and {} do not apply",
            field("depth"),
            field("time_ms")
        )));
    }
    Ok(Plan::Nimber)
}

/// The score search: exact, so a depth does not apply.
fn score_plan(request: &Request, threads: usize) -> Result<Plan, Error> {
    if request.depth.is_some() {
        return Err(Error::input(format!(
            "the score search solves exactly: {} does not apply",
            field("depth")
        )));
    }
    Ok(Plan::Score {
        options: SearchOptions {
            tt_mb: request.tt_mb.unwrap_or(DEFAULT_TT_MB),
            ordering: true,
            killers: false,
            shortcuts: true,
            threads,
            ..SearchOptions::default()
        },
        weak: request.weak,
    })
}

/// Expectiminimax: a depth and Star1 only; the table, ordering, PVS and a
/// clock belong to the deterministic searches.
fn expectiminimax_plan(request: &Request, info: &GameSpec) -> Result<Plan, Error> {
    if request.tt_mb.is_some_and(|m| m > 0)
        || request.order
        || request.pvs
        || request.time_ms.is_some()
    {
        return Err(Error::input(format!(
            "expectiminimax takes {} and {}; {}, {}, {} and {} apply to alphabeta and id",
            field("depth"),
            field("star1"),
            field("tt_mb"),
            field("order"),
            field("pvs"),
            field("time_ms")
        )));
    }
    Ok(Plan::Expectiminimax {
        options: SearchOptions {
            depth: request.depth.or(info.default_depth),
            ..SearchOptions::default()
        },
        star1: request.star1,
    })
}

/// CFR: iterations, and a seed for external sampling; nothing that
/// belongs to the searches of whole positions.
fn cfr_plan(request: &Request, variant: Variant) -> Result<Plan, Error> {
    let sampled = variant == Variant::ExternalSampling;
    let given = first_given(&[
        ("depth", request.depth.is_some()),
        ("time_ms", request.time_ms.is_some()),
        ("tt_mb", request.tt_mb.is_some()),
        ("order", request.order),
        ("pvs", request.pvs),
        ("fast_win", request.fast_win),
        ("star1", request.star1),
        ("c", request.c.is_some()),
        ("threads", request.threads.is_some()),
        ("weak", request.weak),
        ("seed", request.seed.is_some() && !sampled),
    ]);
    if let Some(first) = given {
        return Err(Error::input(format!(
            "{first} does not apply to {} (it takes {}{})",
            variant.name(),
            field("iterations"),
            if sampled {
                format!(" and {}", field("seed"))
            } else {
                format!(
                    "; only the sampled variant, {}, takes a {}",
                    field_is("algo", "mccfr"),
                    field("seed")
                )
            }
        )));
    }
    let default = if sampled {
        MCCFR_ITERATIONS
    } else {
        CFR_ITERATIONS
    };
    let iterations = request.iterations.unwrap_or(default);
    if iterations == 0 {
        return Err(Error::input(format!(
            "{} must be at least 1",
            field("iterations")
        )));
    }
    Ok(Plan::Cfr(CfrOptions {
        variant,
        iterations,
        seed: request.seed.unwrap_or(1),
        max_nodes: MAX_CFR_NODES,
    }))
}

/// MCTS's exploration constant: the request's `c`, or sqrt 2; checked.
pub(crate) fn mcts_c(request: &Request) -> Result<f64, Error> {
    exploration(request, std::f64::consts::SQRT_2)
}

/// The request's exploration constant `c`, `default` when it names none.
pub(crate) fn exploration(request: &Request, default: f64) -> Result<f64, Error> {
    let c = request.c.unwrap_or(default);
    if !(c.is_finite() && c >= 0.0) {
        return Err(Error::input(format!(
            "{} must be a number of at least 0",
            field("c")
        )));
    }
    Ok(c)
}

/// MCTS: iterations, a time limit or both; `c` at least 0 (by default
/// √2, or 0 with the game's RAVE, whose AMAF values explore).
fn mcts_plan(request: &Request, threads: usize, info: &GameSpec) -> Result<Plan, Error> {
    let rave = info.mcts_rave.map(f64::from);
    let c = exploration(
        request,
        if rave.is_some() {
            0.0
        } else {
            std::f64::consts::SQRT_2
        },
    )?;
    let iterations = request.iterations.unwrap_or(MCTS_ITERATIONS);
    if iterations == 0 && request.time_ms.is_none() {
        return Err(Error::input(format!(
            "{} must be at least 1",
            field("iterations")
        )));
    }
    Ok(Plan::Mcts(MctsOptions {
        // A time limit alone runs until the time is up.
        iterations: match (request.iterations, request.time_ms) {
            (None, Some(_)) => None,
            _ => Some(iterations),
        },
        time_limit: request.time_ms.map(Duration::from_millis),
        c,
        seed: request.seed.unwrap_or(1),
        threads,
        rave,
        ..MctsOptions::default()
    }))
}

/// The name a game written in Python is registered under (its spec's).
pub(crate) const PYTHON: &str = "python";

/// Refuses PUCT on a game no network can see.
pub(crate) fn learnable<G: ply_core::Learn>(game: &G, info: &GameSpec) -> Result<(), Error> {
    if !game.learnable() && info.name == PYTHON {
        return Err(Error::input(
            "puct needs a network, which sees a game written in Python through its encode(state), action_index(state, action) and policy_size: give the game those (see ply.learn)",
        ));
    }
    if !game.learnable() {
        return Err(Error::input(format!(
            "{} has no network: puct searches games a network can see (tictactoe, connect4); use {} for the others",
            info.name,
            field_is("algo", "mcts")
        )));
    }
    Ok(())
}

/// PUCT: simulations, c, a seed and the network; nothing of the
/// depth-first searches, nor MCTS's iterations and clock.
fn puct_plan<G: ply_core::Learn>(
    request: &Request,
    game: &G,
    info: &GameSpec,
) -> Result<Plan, Error> {
    learnable(game, info)?;
    let given = first_given(&[
        ("depth", request.depth.is_some()),
        ("time_ms", request.time_ms.is_some()),
        ("iterations", request.iterations.is_some()),
        ("tt_mb", request.tt_mb.is_some()),
        ("order", request.order),
        ("pvs", request.pvs),
        ("fast_win", request.fast_win),
        ("star1", request.star1),
        ("threads", request.threads.is_some_and(|t| t > 1)),
    ]);
    if let Some(first) = given {
        return Err(Error::input(format!(
            "{first} does not apply to PUCT (it takes {}, {}, {} and {})",
            field("simulations"),
            field("net"),
            field("c"),
            field("seed")
        )));
    }
    let c = exploration(request, PUCT_C)?;
    let net = crate::learned::network(game, info, request.net.as_deref())?;
    Ok(Plan::Puct {
        options: PuctOptions {
            simulations: request.simulations.unwrap_or(PUCT_SIMULATIONS),
            c,
            batch: 8,
            noise: None,
            seed: request.seed.unwrap_or(1),
        },
        net,
    })
}

/// A time limit given to a search that has no clock.
fn time_applies() -> Error {
    Error::input(format!(
        "{} applies to id, mcts and the engine (the default search); minimax and alphabeta search to the end, or to {}",
        field("time_ms"),
        field("depth")
    ))
}

/// The first of `fields` (a request field and whether it is set) that is
/// set, named in the front end's words: the field a search refuses.
fn first_given(fields: &[(&str, bool)]) -> Option<String> {
    fields
        .iter()
        .find(|(_, set)| *set)
        .map(|(name, _)| field(name))
}

/// MCTS's own fields given to another search, and the fields of the
/// depth-first searches given to MCTS: refused rather than ignored.
fn refuse_mcts_fields(request: &Request, algo: Algo) -> Result<(), Error> {
    if algo == Algo::Mcts {
        if request.depth.is_some() {
            return Err(Error::input(format!(
                "MCTS plays every line to the end: {} does not apply (give {} or {})",
                field("depth"),
                field("iterations"),
                field("time_ms")
            )));
        }
        let given = first_given(&[
            ("tt_mb", request.tt_mb.is_some()),
            ("order", request.order),
            ("pvs", request.pvs),
            ("fast_win", request.fast_win),
            ("star1", request.star1),
            ("simulations", request.simulations.is_some()),
            ("net", request.net.is_some()),
        ]);
        if let Some(first) = given {
            return Err(Error::input(format!(
                "{first} does not apply to MCTS (it takes {}, {}, {}, {} and {})",
                field("iterations"),
                field("time_ms"),
                field("seed"),
                field("c"),
                field("threads")
            )));
        }
    } else if let Some(which) = [
        ("simulations", request.simulations.is_some()),
        ("net", request.net.is_some()),
    ]
    .iter()
    .find(|(_, set)| *set)
    .map(|(name, _)| *name)
    {
        return Err(Error::input(format!(
            "{} belongs to PUCT ({}): {} does not read it",
            field(which),
            field_is("algo", "puct"),
            algo.name()
        )));
    } else if request.iterations.is_some() || request.c.is_some() {
        let which = if request.iterations.is_some() {
            "iterations"
        } else {
            "c"
        };
        return Err(Error::input(format!(
            "{} belongs to MCTS ({}): {} does not read it",
            field(which),
            field_is("algo", "mcts"),
            algo.name()
        )));
    }
    Ok(())
}

fn engine_plan(request: &Request, algo: Option<Algo>, default_time_ms: u64) -> Result<Plan, Error> {
    let threads = request.threads.unwrap_or(1);
    let tie_break = request.seed.map_or(TieBreak::First, TieBreak::Random);
    let time = |default: Option<u64>| request.time_ms.or(default).map(Duration::from_millis);
    let features = |o: SearchOptions| SearchOptions {
        ordering: o.ordering || request.order,
        pvs: o.pvs || request.pvs,
        fast_win: o.fast_win || request.fast_win,
        depth: request.depth,
        tie_break,
        threads,
        ..o
    };
    if request.star1 {
        return Err(Error::input(format!(
            "{} applies to expectiminimax",
            field("star1")
        )));
    }
    if matches!(algo, Some(Algo::Minimax | Algo::Alphabeta)) && threads > 1 {
        return Err(Error::input(format!(
            "{} applies to id, mcts, the score search and the engine (the default search)",
            field("threads")
        )));
    }
    let (algorithm, options) = match algo {
        None => {
            let default_time = request.depth.is_none().then_some(default_time_ms);
            let o = features(SearchOptions::engine());
            (
                Algorithm::Id,
                SearchOptions {
                    tt_mb: request.tt_mb.unwrap_or(DEFAULT_TT_MB),
                    time_limit: time(default_time),
                    ..o
                },
            )
        }
        Some(Algo::Minimax) => {
            if request.tt_mb.is_some_and(|m| m > 0) || request.order || request.pvs {
                return Err(Error::input(format!(
                    "minimax is the unpruned reference: {}, {} and {} apply to alphabeta and id",
                    field("tt_mb"),
                    field("order"),
                    field("pvs")
                )));
            }
            if request.time_ms.is_some() {
                return Err(time_applies());
            }
            (Algorithm::Minimax, features(SearchOptions::default()))
        }
        Some(Algo::Alphabeta) => {
            if request.time_ms.is_some() {
                return Err(time_applies());
            }
            let o = features(SearchOptions::default());
            (
                Algorithm::AlphaBeta,
                SearchOptions {
                    tt_mb: request.tt_mb.unwrap_or(0),
                    ..o
                },
            )
        }
        Some(_) => {
            let default_time = request.depth.is_none().then_some(default_time_ms);
            let o = features(SearchOptions::default());
            (
                Algorithm::Id,
                SearchOptions {
                    tt_mb: request.tt_mb.unwrap_or(DEFAULT_TT_MB),
                    time_limit: time(default_time),
                    ..o
                },
            )
        }
    };
    Ok(Plan::Search(algorithm, options))
}

impl Plan {
    /// This plan with its clock (the engine's, iterative deepening's,
    /// MCTS's) within `max`: it then finishes with its best so far, not
    /// an error. Searches without a clock are stopped at `max` instead.
    pub fn within(self, max: Duration) -> Plan {
        match self {
            Plan::Search(a, mut o) => {
                o.time_limit = o.time_limit.map(|t| t.min(max));
                Plan::Search(a, o)
            }
            Plan::Mcts(mut o) => {
                o.time_limit = o.time_limit.map(|t| t.min(max));
                Plan::Mcts(o)
            }
            plan => plan,
        }
    }
}
