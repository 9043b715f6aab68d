//! `ply solve` and `ply analyze`: a plan run, its report printed.

use std::time::{Duration, Instant};

use ply_core::observe::{NoObserver, Observer, Stats};
use ply_core::registry::{GameSpec, GameVisitor, Registered};
use ply_service::report::{
    AnalyzeReport, BatchLine, BatchSummary, Header, SolveReport, StatsReport, ThreatReport,
    mcts_moves,
};
use ply_core::search::alphabeta::Budget;
use ply_core::search::{
    Algorithm, Engine, ExpectOutcome, Outcome, SearchOptions, analyze_expecti, analyze_nimbers,
    analyze_observed, analyze_score, expectiminimax, iterative_deepening, mcts, mcts_watched,
    nimber, solve_score,
};
use ply_core::{Notation, Searchable};

use crate::args::SolveArgs;
use crate::commands::{Plan, configure};
use crate::output::{emit, params, setup};
use crate::progress::{Listen, Progress, Thinking};
use crate::{CliError, CliResult};

pub use ply_core::search::score_search::solve_exact;

/// Reads one line of a batch file: `moves [expected]`. `Ok(None)` for a
/// blank line or a comment; `Err` says what is wrong with it.
pub fn batch_line(line: &str) -> Result<Option<(&str, Option<i32>)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let moves = parts.next().unwrap_or("");
    let expected = match parts.next() {
        Some(e) => Some(
            e.parse::<i32>()
                .map_err(|_| format!("expected score '{e}' is not an integer"))?,
        ),
        None => None,
    };
    if let Some(extra) = parts.next() {
        return Err(format!("unexpected '{extra}' after the score"));
    }
    Ok(Some((moves, expected)))
}

/// `--batch FILE`: one `moves [expected]` a line; prints `moves score nodes
/// microseconds` a line (score from the side to move), then a summary. Bad
/// lines are reported on stderr and the rest still runs; mismatches or bad
/// lines make the exit status non-zero.
fn run_batch<G: Notation + Searchable>(
    game: &G,
    path: &std::path::Path,
    options: &SearchOptions,
    weak: bool,
) -> CliResult {
    let text = super::read_input(path)?;
    let mut engine = Engine::new(game, options);
    let mut sum = BatchSummary::default();
    let (mut total_nodes, mut total_us) = (0u64, 0f64);
    for (i, text) in text.lines().enumerate() {
        let line_no = i + 1;
        let bad = |what: &str| eprintln!("error: {}: line {line_no}: {what}", path.display());
        let (moves, expected) = match batch_line(text) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => continue,
            Err(e) => {
                bad(&e);
                sum.bad_lines += 1;
                continue;
            }
        };
        let state = match game.parse_position(moves) {
            Ok(s) if game.is_terminal(&s) => {
                bad(&format!("the game is already over in '{moves}'"));
                sum.bad_lines += 1;
                continue;
            }
            Ok(s) => s,
            Err(e) => {
                bad(&e.to_string());
                sum.bad_lines += 1;
                continue;
            }
        };
        engine.clear();
        // The engine counts the nodes (one per call of the search, as the
        // public solver does); no observer, so none slows the search.
        let nodes_before = engine.nodes;
        let start = Instant::now();
        let r = solve_score(&mut engine, game, &state, weak, &mut NoObserver)?;
        let solved = BatchLine {
            moves: moves.to_string(),
            score: r.value.for_player(game.to_move(&state)).0,
            nodes: engine.nodes - nodes_before,
            micros: start.elapsed().as_secs_f64() * 1e6,
        };
        println!("{solved}");
        sum.positions += 1;
        total_nodes += solved.nodes;
        total_us += solved.micros;
        if let Some(e) = expected {
            let e = if weak { e.signum() } else { e };
            if e != solved.score {
                sum.mismatches += 1;
                let got = solved.score;
                eprintln!("mismatch: line {line_no}: {moves}: expected {e}, got {got}");
            }
        }
    }
    let n = sum.positions.max(1) as f64;
    sum.mean_micros = total_us / n;
    sum.mean_nodes = total_nodes as f64 / n;
    println!("{sum}");
    if sum.mismatches > 0 || sum.bad_lines > 0 {
        return Err(CliError::failure(format!(
            "{} mismatch(es) and {} bad line(s) in {}",
            sum.mismatches,
            sum.bad_lines,
            path.display()
        )));
    }
    Ok(())
}

/// The default time budget of `ply solve` without `--algo`.
pub const SOLVE_TIME_MS: u64 = 10_000;

/// Runs one configured minimax/alpha-beta/ID search with statistics and progress.
pub fn run_search<G: Notation + Searchable, X: Listen>(
    game: &G,
    state: &G::State,
    algo: Algorithm,
    opts: &SearchOptions,
    quiet: bool,
    stop: &mut X,
) -> Result<(Outcome<G::Move>, Stats, Duration), CliError> {
    let tell = stop.tell();
    let mut observer = (Stats::default(), (Progress::new(!quiet), stop));
    let start = Instant::now();
    let out = match algo {
        Algorithm::Id => iterative_deepening(game, state, opts, None, &mut observer, |it| {
            if quiet && tell.is_none() {
                return;
            }
            let thinking = Thinking::iteration(game, state, it);
            if !quiet {
                eprintln!("{thinking}");
            }
            if let Some(tell) = &tell {
                tell(thinking);
            }
        }),
        _ => algo.run(game, state, opts, &mut observer),
    };
    let elapsed = start.elapsed();
    observer.1.0.finish();
    Ok((out?, observer.0, elapsed))
}

/// Runs expectiminimax with statistics and progress.
fn run_expecti<G: Notation + Searchable, X: Observer>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    star1: bool,
    quiet: bool,
    stop: &mut X,
) -> Result<(ExpectOutcome<G::Move>, Stats, Duration), CliError> {
    let mut observer = (Stats::default(), (Progress::new(!quiet), stop));
    let start = Instant::now();
    let out = expectiminimax(game, state, options, star1, &mut observer);
    let elapsed = start.elapsed();
    observer.1.0.finish();
    Ok((out?, observer.0, elapsed))
}

/// Runs `plan` on `state` and reports the value, best move and line;
/// `stop` hears the search and may stop it.
pub fn solve_report<G: Notation + Searchable, X: Listen>(
    name: &str,
    game: &G,
    state: &G::State,
    plan: &Plan,
    quiet: bool,
    stop: &mut X,
) -> Result<SolveReport, CliError> {
    let header = Header::new(name, game, state, plan.name());
    Ok(match *plan {
        Plan::Search(algo, opts) => {
            let (out, stats, elapsed) = run_search(game, state, algo, &opts, quiet, stop)?;
            let stats = StatsReport::new(&stats, elapsed);
            SolveReport::search(header, game, state, &opts, &out, stats)
        }
        Plan::Expecti { options, star1 } => {
            let (out, stats, elapsed) = run_expecti(game, state, &options, star1, quiet, stop)?;
            let stats = StatsReport::new(&stats, elapsed);
            SolveReport::expecti(header, game, state, options.depth, &out, stats)
        }
        Plan::Score { options, weak } => {
            let mut engine = Engine::new(game, &options);
            let mut observer = (Stats::default(), (Progress::new(!quiet), stop));
            let start = Instant::now();
            let solved = solve_exact(
                &mut engine,
                game,
                state,
                weak,
                &Budget::default(),
                &mut observer,
                &mut |lo, hi| {
                    if !quiet {
                        eprintln!("score window [{lo}, {hi}]");
                    }
                },
            )?;
            let elapsed = start.elapsed();
            observer.1.0.finish();
            let stats = StatsReport::new(&observer.0, elapsed);
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
            warn_if_full(&o, r.tree_nodes);
            SolveReport::mcts(header, game, state, &r)
        }
        Plan::Nimber => SolveReport::nimber(header, game, state, &nimber(game, state)?),
    })
}

/// Says on stderr when an MCTS tree reached its cap: the search stopped
/// there and answered from that tree, fewer iterations than asked.
fn warn_if_full(o: &ply_core::search::MctsOptions, tree_nodes: u64) {
    if tree_nodes >= o.max_nodes as u64 {
        eprintln!(
            "warning: the MCTS tree reached its cap of {} nodes and stopped growing; the answer comes from that tree",
            ply_service::report::thousands(o.max_nodes as u64)
        );
    }
}

/// Runs `plan` on every move of `state` and reports each move's value;
/// `stop` hears the searches and may stop them.
pub fn analyze_report<G: Notation + Searchable, X: Observer>(
    name: &str,
    game: &G,
    state: &G::State,
    plan: &Plan,
    stop: &mut X,
) -> Result<AnalyzeReport, CliError> {
    let header = Header::new(name, game, state, plan.name());
    Ok(match *plan {
        Plan::Search(algo, opts) => {
            let a = analyze_observed(game, state, algo, &opts, stop)?;
            AnalyzeReport::search(header, game, state, algo, &opts, &a)
        }
        Plan::Expecti { options, star1 } => {
            let a = analyze_expecti(game, state, &options, star1, stop)?;
            AnalyzeReport::expecti(header, game, state, options.depth, &a)
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
            let r = mcts(game, state, &o);
            warn_if_full(&o, r.tree_nodes);
            AnalyzeReport::mcts(header, game, state, &r)
        }
        Plan::Nimber => AnalyzeReport::nimber(header, game, state, &analyze_nimbers(game, state)?),
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
) -> Result<ThreatReport, CliError> {
    if !G::THREAT_SEARCH {
        return Err(CliError::input(format!(
            "{name} has no threat search: --vcf is for gomoku"
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

struct Solve<'a>(&'a SolveArgs);

impl GameVisitor for Solve<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, info: &'static GameSpec) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        if a.vcf {
            emit(&threat_report(info.name, &game, &state)?, a.game.json);
            return Ok(());
        }
        let plan = configure(&a.search, &game, &state, info, SOLVE_TIME_MS)?;
        if let Some(path) = &a.batch {
            let Plan::Score { options, weak } = plan else {
                return Err(CliError::input(
                    "--batch runs the score search (--algo score)",
                ));
            };
            return run_batch(&game, path, &options, weak);
        }
        let report = solve_report(
            info.name,
            &game,
            &state,
            &plan,
            a.search.quiet,
            &mut NoObserver,
        )?;
        emit(&report, a.game.json);
        Ok(())
    }
}

pub fn run_solve(args: &SolveArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Solve(args))?
}

struct Analyze<'a>(&'a SolveArgs);

impl GameVisitor for Analyze<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, info: &'static GameSpec) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let plan = configure(&a.search, &game, &state, info, SOLVE_TIME_MS)?;
        let report = analyze_report(info.name, &game, &state, &plan, &mut NoObserver)?;
        emit(&report, a.game.json);
        Ok(())
    }
}

pub fn run_analyze(args: &SolveArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Analyze(args))?
}
