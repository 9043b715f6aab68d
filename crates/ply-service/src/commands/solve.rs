//! `solve` and `analyze`: a plan run, its report built.

use std::time::{Duration, Instant};

use ply_core::observe::{Observer, Stats};
use ply_core::search::alphabeta::Budget;
use ply_core::search::score_search::solve_exact;
use ply_core::search::{
    Algorithm, Engine, ExpectiminimaxOutcome, Outcome, SearchError, SearchOptions,
    analyze_expectiminimax, analyze_nimbers, analyze_observed, analyze_score, expectiminimax,
    iterative_deepening, mcts_watched, nimber,
};
use ply_core::{Notation, Searchable};

use crate::control::{Control, Thinking};
use crate::error::{Error, field};
use crate::plan::Plan;
use crate::report::{
    AnalyzeReport, Header, SolveReport, StatsReport, ThreatReport, mcts_moves, thousands,
};

/// The default time budget of `ply solve` without `--algo`.
pub const SOLVE_TIME_MS: u64 = 10_000;

/// Runs one configured minimax/alpha-beta/ID search with statistics;
/// `control` hears it (and each finished iteration) and may stop it.
pub fn run_search<G: Notation + Searchable, X: Control>(
    game: &G,
    state: &G::State,
    algo: Algorithm,
    opts: &SearchOptions,
    control: &mut X,
) -> Result<(Outcome<G::Move>, Stats, Duration), Error> {
    let tell = control.tell();
    let mut observer = (Stats::default(), control);
    let start = Instant::now();
    let out = match algo {
        Algorithm::Id => iterative_deepening(game, state, opts, None, &mut observer, |it| {
            if let Some(tell) = &tell {
                tell(Thinking::iteration(game, state, it));
            }
        }),
        _ => algo.run(game, state, opts, &mut observer),
    };
    Ok((out?, observer.0, start.elapsed()))
}

/// Runs expectiminimax with statistics.
fn run_expectiminimax<G: Notation + Searchable, X: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    star1: bool,
    control: &mut X,
) -> Result<(ExpectiminimaxOutcome<G::Move>, Stats, Duration), Error> {
    let mut observer = (Stats::default(), control);
    let start = Instant::now();
    let out = expectiminimax(game, state, options, star1, &mut observer);
    Ok((out?, observer.0, start.elapsed()))
}

/// Runs `plan` on `state` and reports the value, best move and line;
/// `stop` hears the search and may stop it.
pub fn solve_report<G: Notation + Searchable, X: Control>(
    name: &str,
    game: &G,
    state: &G::State,
    plan: &Plan,
    stop: &mut X,
) -> Result<SolveReport, Error> {
    let header = Header::new(name, game, state, plan.name());
    Ok(match *plan {
        Plan::Search(algo, opts) => {
            let (out, stats, elapsed) = run_search(game, state, algo, &opts, stop)?;
            let stats = StatsReport::new(&stats, elapsed);
            SolveReport::search(header, game, state, &opts, &out, stats)
        }
        Plan::Expectiminimax { options, star1 } => {
            let (out, stats, elapsed) = run_expectiminimax(game, state, &options, star1, stop)?;
            let stats = StatsReport::new(&stats, elapsed);
            SolveReport::expectiminimax(header, game, state, options.depth, &out, stats)
        }
        Plan::Score { options, weak } => {
            let mut engine = Engine::new(game, &options);
            let tell = stop.tell();
            let mut observer = (Stats::default(), stop);
            let start = Instant::now();
            let solved = solve_exact(
                &mut engine,
                game,
                state,
                weak,
                &Budget::default(),
                &mut observer,
                &mut |lo, hi| {
                    if let Some(tell) = &tell {
                        tell(Thinking::Window { lo, hi });
                    }
                },
            )?;
            let stats = StatsReport::new(&observer.0, start.elapsed());
            SolveReport::score(header, game, state, &solved, weak, stats)
        }
        Plan::Mcts(o) => {
            let tell = stop.tell();
            let start = Instant::now();
            let r = mcts_watched(game, state, &o, &mut |moves, iterations| {
                if let Some(tell) = &tell {
                    tell(Thinking::Mcts {
                        iterations,
                        time_ms: start.elapsed().as_secs_f64() * 1e3,
                        moves: mcts_moves(game, state, moves),
                    });
                }
                !stop.should_stop()
            });
            refuse_endless(&r)?;
            warn_if_full(&o, r.tree_nodes, &tell);
            SolveReport::mcts(header, game, state, &r)
        }
        Plan::Puct { options, net } => {
            let searched = crate::learned::search(game, state, &options, &net, stop);
            SolveReport::puct(header, game, state, &searched)
        }
        Plan::Nimber => SolveReport::nimber(header, game, state, &nimber(game, state)?),
        Plan::Cfr(o) => crate::commands::cfr::cfr_solve(name, game, state, &o, None, stop)?,
    })
}

/// An MCTS search one of whose playouts never ended is an error, as a
/// line past `MAX_PLY` is for the other searches: its statistics say
/// nothing about a game that may not end.
fn refuse_endless<M>(r: &ply_core::search::MctsResult<M>) -> Result<(), Error> {
    if r.endless {
        return Err(SearchError::TooDeep.into());
    }
    Ok(())
}

/// Tells the listener when an MCTS tree reached its cap: the search
/// stopped there and answered from that tree, fewer iterations than asked.
fn warn_if_full(
    o: &ply_core::search::MctsOptions,
    tree_nodes: u64,
    tell: &Option<crate::control::Tell>,
) {
    if let Some(tell) = tell
        && tree_nodes >= o.max_nodes as u64
    {
        tell(Thinking::Warning {
            message: format!(
                "the MCTS tree reached its cap of {} nodes and stopped growing; the answer comes from that tree",
                thousands(o.max_nodes as u64)
            ),
        });
    }
}

/// Runs `plan` on every move of `state` and reports each move's value;
/// `stop` hears the searches and may stop them.
pub fn analyze_report<G: Notation + Searchable, X: Control>(
    name: &str,
    game: &G,
    state: &G::State,
    plan: &Plan,
    stop: &mut X,
) -> Result<AnalyzeReport, Error> {
    let header = Header::new(name, game, state, plan.name());
    Ok(match *plan {
        Plan::Search(algo, opts) => {
            let a = analyze_observed(game, state, algo, &opts, stop)?;
            AnalyzeReport::search(header, game, state, &opts, &a)
        }
        Plan::Expectiminimax { options, star1 } => {
            let a = analyze_expectiminimax(game, state, &options, star1, stop)?;
            AnalyzeReport::expectiminimax(header, game, state, options.depth, &a)
        }
        Plan::Score { options, weak } => {
            let start = Instant::now();
            let mut stats = Stats::default();
            let mut engine = Engine::new(game, &options);
            let moves = analyze_score(&mut engine, game, state, weak, &mut (&mut stats, stop))?;
            let stats = StatsReport::new(&stats, start.elapsed());
            AnalyzeReport::score(header, game, state, &moves, stats)
        }
        Plan::Mcts(o) => {
            // The ownership map too, for games whose playouts count owners.
            let o = ply_core::search::MctsOptions {
                ownership: true,
                ..o
            };
            // Watched only to be stoppable (Ctrl-C, a client gone).
            let r = mcts_watched(game, state, &o, &mut |_, _| !stop.should_stop());
            refuse_endless(&r)?;
            warn_if_full(&o, r.tree_nodes, &stop.tell());
            AnalyzeReport::mcts(header, game, state, &r)
        }
        Plan::Puct { options, net } => {
            let searched = crate::learned::search(game, state, &options, &net, stop);
            AnalyzeReport::puct(header, game, state, &searched)
        }
        Plan::Nimber => AnalyzeReport::nimber(header, game, state, &analyze_nimbers(game, state)?),
        Plan::Cfr(o) => crate::commands::cfr::cfr_analyze(name, game, state, &o, None, stop)?,
    })
}

/// The threat search's budget for `solve --vcf`.
pub const VCF_NODES: u64 = 20_000_000;

/// `solve --vcf`: the game's threat search alone, or an error naming the
/// games that have one.
pub fn threat_report<G: Notation + Searchable>(
    name: &str,
    game: &G,
    state: &G::State,
) -> Result<ThreatReport, Error> {
    if !G::THREAT_SEARCH {
        return Err(Error::input(format!(
            "{name} has no threat search: {} is for gomoku",
            field("vcf")
        )));
    }
    let start = Instant::now();
    let found = game.threat_win(state, VCF_NODES);
    Ok(ThreatReport::new(
        name,
        game,
        state,
        &found,
        start.elapsed(),
    ))
}
