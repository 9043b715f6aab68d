//! `ply solve` and `ply analyze`.

use std::time::{Duration, Instant};

use ply_core::Searchable;
use ply_core::observe::{NoObserver, Stats, value_text};
use ply_core::search::alphabeta::Budget;
use ply_core::search::{
    Algorithm, Engine, ExpectOutcome, Iteration, MctsReport, Outcome, SearchOptions, analyze,
    expectiminimax, iterative_deepening, mcts, solve_score,
};
use ply_core::{Game, MaxScore, Notation, Player};
use ply_games::{GameInfo, GameVisitor};
use serde_json::{Value, json};

use crate::args::SolveArgs;
use crate::commands::{Plan, configure, describe};
use crate::output::{
    line_text, num_json, params, print_json, score_json, score_text, setup, stats_json, stats_text,
    thousands,
};
use crate::progress::Progress;
use crate::{CliError, CliResult};

pub use ply_core::search::score_search::solve_exact;

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
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let mut engine = Engine::new(game, options);
    let (mut count, mut total_nodes, mut total_us, mut mismatches, mut bad) =
        (0u64, 0u64, 0f64, 0u64, 0u64);
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let moves = parts.next().unwrap_or("");
        let expected = match parts.next() {
            Some(e) => match e.parse::<i32>() {
                Ok(v) => Some(v),
                Err(_) => {
                    eprintln!(
                        "error: {}: line {line_no}: expected score '{e}' is not an integer",
                        path.display()
                    );
                    bad += 1;
                    continue;
                }
            },
            None => None,
        };
        if let Some(extra) = parts.next() {
            eprintln!(
                "error: {}: line {line_no}: unexpected '{extra}' after the score",
                path.display()
            );
            bad += 1;
            continue;
        }
        let state = match game.parse_position(moves) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}: line {line_no}: {e}", path.display());
                bad += 1;
                continue;
            }
        };
        if game.is_terminal(&state) {
            eprintln!(
                "error: {}: line {line_no}: the game is already over in '{moves}'",
                path.display()
            );
            bad += 1;
            continue;
        }
        engine.clear();
        // The engine counts the nodes (one per call of the search, as the
        // public solver does); no observer, so none slows the search.
        let nodes_before = engine.nodes;
        let start = Instant::now();
        let r = solve_score(&mut engine, game, &state, weak, &mut NoObserver)?;
        let us = start.elapsed().as_secs_f64() * 1e6;
        let nodes = engine.nodes - nodes_before;
        let score = r.value.for_player(game.to_move(&state)).0;
        println!("{moves} {score} {nodes} {us:.0}");
        count += 1;
        total_nodes += nodes;
        total_us += us;
        if let Some(e) = expected {
            let e = if weak { e.signum() } else { e };
            if e != score {
                mismatches += 1;
                eprintln!("mismatch: line {line_no}: {moves}: expected {e}, got {score}");
            }
        }
    }
    let n = count.max(1) as f64;
    println!(
        "positions {count}, mean time {:.1} us, mean nodes {:.1}, mismatches {mismatches}, bad lines {bad}",
        total_us / n,
        total_nodes as f64 / n
    );
    if mismatches > 0 || bad > 0 {
        return Err(CliError::failure(format!(
            "{mismatches} mismatch(es) and {bad} bad line(s) in {}",
            path.display()
        )));
    }
    Ok(())
}

/// The default time budget of `ply solve` without `--algo`.
pub const SOLVE_TIME_MS: u64 = 10_000;

/// A verdict in words: who wins, and how soon when known.
pub fn verdict(proven: bool, value: MaxScore, distance: Option<u32>) -> String {
    if !proven && distance.is_none() {
        return "estimate, evaluation units, MAX's view".to_string();
    }
    let when = match distance {
        Some(1) => " in 1 ply".to_string(),
        Some(d) => format!(" in {d} plies"),
        None => String::new(),
    };
    // A decided score from a depth-limited search: every reply within the
    // search leads to the end, but the rest of the tree was estimated.
    let found = if proven {
        ""
    } else {
        ", a forced line found by the search"
    };
    match value.0.signum() {
        1 => format!("MAX (the first player) wins{when}{found}"),
        -1 => format!("MIN (the second player) wins{when}{found}"),
        _ => "draw".to_string(),
    }
}

pub fn to_move_name<G: ply_core::Chance>(game: &G, state: &G::State) -> &'static str {
    if game.is_terminal(state) {
        "nobody (the game is over)"
    } else if game.is_chance(state) {
        "chance"
    } else {
        match game.to_move(state) {
            Player::Max => "MAX",
            Player::Min => "MIN",
        }
    }
}

/// One progress line for a finished iteration, on stderr.
pub fn report_iteration<G: Notation>(game: &G, state: &G::State, it: &Iteration<G::Move>) {
    let secs = it.elapsed.as_secs_f64().max(1e-9);
    let dist = it
        .outcome
        .distance
        .map_or(String::new(), |d| format!(" (end in {d})"));
    eprintln!(
        "depth {:>3}  value {:>6}{dist}  nodes {:>12}  {:>7.2} M nodes/s  {:>8.1} ms  pv {}",
        it.depth,
        score_text(it.outcome.value),
        thousands(it.nodes),
        it.nodes as f64 / secs / 1e6,
        secs * 1e3,
        line_text(game, state, &it.outcome.pv)
    );
}

/// Runs one configured minimax/alpha-beta/ID search with statistics and progress.
pub fn run_search<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    algo: Algorithm,
    opts: &SearchOptions,
    quiet: bool,
) -> Result<(Outcome<G::Move>, Stats, Duration), CliError> {
    let mut observer = (Stats::default(), Progress::new(!quiet));
    let start = Instant::now();
    let out = match algo {
        Algorithm::Id => iterative_deepening(game, state, opts, None, &mut observer, |it| {
            if !quiet {
                report_iteration(game, state, it);
            }
        }),
        _ => algo.run(game, state, opts, &mut observer),
    };
    let elapsed = start.elapsed();
    observer.1.finish();
    Ok((out?, observer.0, elapsed))
}

/// Runs expectiminimax with statistics and progress.
pub fn run_expecti<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    options: &SearchOptions,
    star1: bool,
    quiet: bool,
) -> (ExpectOutcome<G::Move>, Stats, Duration) {
    let mut observer = (Stats::default(), Progress::new(!quiet));
    let start = Instant::now();
    let out = expectiminimax(game, state, options, star1, &mut observer);
    let elapsed = start.elapsed();
    observer.1.finish();
    (out, observer.0, elapsed)
}

/// An expectiminimax value for people, with the win probability where the
/// game's evaluation is one: "+0.0612 (P(MAX wins) = 0.531)".
pub fn expect_text<G: Notation>(game: &G, v: f64) -> String {
    let sign = if v > 0.0 { "+" } else { "" };
    match game.win_probability(v) {
        Some(p) => format!("{sign}{} (P(MAX wins) = {p:.4})", value_text(v)),
        None => format!("{sign}{}", value_text(v)),
    }
}

/// MCTS statistics as JSON.
pub fn mcts_stats_json<M>(r: &MctsReport<M>) -> Value {
    json!({
        "iterations": r.iterations,
        "tree_nodes": r.tree_nodes,
        "simulations_per_second": r.simulations_per_second().round(),
        "time_ms": (r.elapsed.as_secs_f64() * 1e6).round() / 1e3,
    })
}

/// MCTS root moves as JSON: visits and mean (root mover's view, in [0, 1]).
pub fn mcts_moves_json<G: Notation>(game: &G, state: &G::State, r: &MctsReport<G::Move>) -> Value {
    r.moves
        .iter()
        .map(|m| {
            json!({
                "move": game.format_move(state, m.mv),
                "visits": m.visits,
                "mean": (m.mean * 1e6).round() / 1e6,
            })
        })
        .collect()
}

/// The best root move's mean as a value from MAX's view in [-1, 1].
fn mcts_value<G: Game>(game: &G, state: &G::State, r: &MctsReport<G::Move>) -> Option<f64> {
    let m = r.moves.first()?;
    let v = 2.0 * m.mean - 1.0;
    Some(if game.to_move(state) == Player::Max {
        v
    } else {
        -v
    })
}

struct Solve<'a>(&'a SolveArgs);

impl GameVisitor for Solve<'_> {
    type Output = CliResult;
    fn visit<G: Notation + Searchable>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let plan = configure(&a.search, &game, &state, info, SOLVE_TIME_MS)?;
        let quiet = a.search.quiet;
        if let Some(path) = &a.batch {
            let Plan::Score { options, weak } = plan else {
                return Err(CliError::input(
                    "--batch runs the score search (--algo score)",
                ));
            };
            return run_batch(&game, path, &options, weak);
        }
        let header = |json: &mut Value| {
            json["game"] = json!(info.name);
            json["position"] = json!(game.format_position(&state));
            json["algo"] = json!(plan.name());
        };
        match plan {
            Plan::Search(algo, opts) => {
                let (out, stats, elapsed) = run_search(&game, &state, algo, &opts, quiet)?;
                let best = out.best_move.map(|m| game.format_move(&state, m));
                let pv = crate::output::line(&game, &state, &out.pv);
                if a.game.json {
                    let mut v = json!({});
                    header(&mut v);
                    v["depth_limit"] = json!(opts.depth);
                    v["value"] = score_json(out.value);
                    v["proven"] = json!(out.proven);
                    v["distance"] = json!(out.distance);
                    if let Some(m) = out.distance.and_then(|d| game.mate_moves(out.value, d)) {
                        v["mate"] = json!(m);
                    }
                    v["best_move"] = json!(best);
                    v["pv"] = json!(pv);
                    v["stats"] = stats_json(&stats, elapsed);
                    print_json(&v);
                } else {
                    println!("{}", game.draw(&state).trim_end());
                    println!(
                        "{} to move; {}{}",
                        to_move_name(&game, &state),
                        describe(algo, &opts),
                        opts.depth
                            .map_or(String::new(), |d| format!(" to depth {d}"))
                    );
                    println!(
                        "value:     {} ({})",
                        score_text(out.value),
                        verdict(out.proven, out.value, out.distance)
                    );
                    if let Some(m) = out.distance.and_then(|d| game.mate_moves(out.value, d)) {
                        let side = if m > 0 { "MAX" } else { "MIN" };
                        println!("mate:      {side} mates in {}", m.abs());
                    }
                    println!(
                        "best move: {}",
                        best.unwrap_or_else(|| "none (the game is over)".into())
                    );
                    println!("pv:        {}", pv.join(" "));
                    println!("stats:     {}", stats_text(&stats, elapsed));
                }
            }
            Plan::Expecti { options, star1 } => {
                let (out, stats, elapsed) = run_expecti(&game, &state, &options, star1, quiet);
                let best = out.best_move.map(|m| game.format_move(&state, m));
                if a.game.json {
                    let mut v = json!({});
                    header(&mut v);
                    v["depth_limit"] = json!(options.depth);
                    v["value"] = num_json(out.value);
                    if let Some(p) = game.win_probability(out.value) {
                        v["win_probability"] = json!(p);
                    }
                    v["best_move"] = json!(best);
                    v["pv"] = json!(best.iter().collect::<Vec<_>>());
                    v["stats"] = stats_json(&stats, elapsed);
                    print_json(&v);
                } else {
                    println!("{}", game.draw(&state).trim_end());
                    println!("{} to move; {}", to_move_name(&game, &state), plan.name());
                    println!("value:     {} (MAX's view)", expect_text(&game, out.value));
                    println!("best move: {}", best.unwrap_or_else(|| "none".into()));
                    println!("stats:     {}", stats_text(&stats, elapsed));
                }
            }
            Plan::Score { options, weak } => {
                let mut engine = Engine::new(&game, &options);
                let mut observer = (Stats::default(), Progress::new(!quiet));
                let start = Instant::now();
                let solved = solve_exact(
                    &mut engine,
                    &game,
                    &state,
                    weak,
                    &Budget::default(),
                    &mut observer,
                    &mut |lo, hi| {
                        if !quiet {
                            eprintln!("score window [{lo}, {hi}]");
                        }
                    },
                )?;
                let (r, best, pv) = (solved.result, solved.best_move, solved.pv);
                let elapsed = start.elapsed();
                observer.1.finish();
                let stats = observer.0;
                let mover = game.to_move(&state);
                let score = r.value.for_player(mover).0;
                let best = best.map(|m| game.format_move(&state, m));
                let pv = crate::output::line(&game, &state, &pv);
                if a.game.json {
                    let mut v = json!({});
                    header(&mut v);
                    v["score"] = json!(score);
                    v["value"] = score_json(r.value);
                    v["weak"] = json!(weak);
                    v["best_move"] = json!(best);
                    v["pv"] = json!(pv);
                    v["stats"] = stats_json(&stats, elapsed);
                    v["stats"]["probes"] = json!(r.probes);
                    print_json(&v);
                } else {
                    println!("{}", game.draw(&state).trim_end());
                    println!("{} to move; {}", to_move_name(&game, &state), plan.name());
                    let meaning = match (game.score_note(&state, score), score.signum()) {
                        (Some(note), _) if !weak => format!("the side to move: {note}"),
                        (_, 1) => "the side to move wins".to_string(),
                        (_, -1) => "the side to move loses".to_string(),
                        _ => "a draw".to_string(),
                    };
                    println!(
                        "score:     {score} ({meaning}; value {} from MAX's view)",
                        score_text(r.value)
                    );
                    println!(
                        "best move: {}",
                        best.unwrap_or_else(|| "none (the game is over)".into())
                    );
                    println!("pv:        {}", pv.join(" "));
                    println!(
                        "stats:     {} ({} null-window probes)",
                        stats_text(&stats, elapsed),
                        r.probes
                    );
                }
            }
            Plan::Mcts(o) => {
                let r = mcts(&game, &state, &o);
                let best = r.best_move.map(|m| game.format_move(&state, m));
                if a.game.json {
                    let mut v = json!({});
                    header(&mut v);
                    v["value"] = json!(mcts_value(&game, &state, &r));
                    v["best_move"] = json!(best);
                    v["pv"] = json!(best.iter().collect::<Vec<_>>());
                    v["moves"] = mcts_moves_json(&game, &state, &r);
                    v["stats"] = mcts_stats_json(&r);
                    print_json(&v);
                } else {
                    println!("{}", game.draw(&state).trim_end());
                    println!("{} to move; {}", to_move_name(&game, &state), plan.name());
                    match r.moves.first() {
                        Some(m) => println!(
                            "best move: {} ({} visits, mean result {:.3} for the player to move)",
                            game.format_move(&state, m.mv),
                            m.visits,
                            m.mean
                        ),
                        None => println!("best move: none"),
                    }
                    print_mcts_stats(&r);
                }
            }
        }
        Ok(())
    }
}

fn print_mcts_stats<M>(r: &MctsReport<M>) {
    println!(
        "stats:     {} iterations, {} tree nodes, {:.0} simulations/s, {:.1} ms",
        thousands(r.iterations),
        thousands(r.tree_nodes),
        r.simulations_per_second(),
        r.elapsed.as_secs_f64() * 1e3
    );
}

pub fn run_solve(args: &SolveArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Solve(args))?
}

struct Analyze<'a>(&'a SolveArgs);

fn print_board<G: Notation>(game: &G, state: &G::State, notes: &[(G::Move, String)], what: &str) {
    match game.draw_annotated(state, notes) {
        Some(board) => {
            println!("{}", board.trim_end());
            println!("(each empty square shows {what})");
        }
        None => println!("{}", game.draw(state).trim_end()),
    }
}

impl GameVisitor for Analyze<'_> {
    type Output = CliResult;
    fn visit<G: Notation + Searchable>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let plan = configure(&a.search, &game, &state, info, SOLVE_TIME_MS)?;
        let mover = game.to_move(&state);
        match plan {
            Plan::Search(algo, opts) => {
                analyze_search(&game, &state, info, algo, &opts, a.game.json)
            }
            Plan::Expecti { options, star1 } => {
                // Each move searched as a root of its own, so every value is exact.
                let start = Instant::now();
                let mut stats = Stats::default();
                let child_options = SearchOptions {
                    depth: options.depth.map(|d| d.saturating_sub(1)),
                    ..options
                };
                let mut legal = Vec::new();
                if !game.is_terminal(&state) {
                    game.legal_moves(&state, &mut legal);
                }
                let mut moves: Vec<(G::Move, f64)> = Vec::new();
                for &m in &legal {
                    let child = game.play(&state, m);
                    let (out, s, _) = run_expecti(&game, &child, &child_options, star1, true);
                    stats.add(&s);
                    moves.push((m, out.value));
                }
                let elapsed = start.elapsed();
                let value = if game.is_chance(&state) {
                    let mut outcomes = Vec::new();
                    game.chance_outcomes(&state, &mut outcomes);
                    outcomes
                        .iter()
                        .zip(&moves)
                        .map(|((_, p), (_, v))| p * v)
                        .sum()
                } else {
                    let best = moves.iter().map(|&(_, v)| v * f64::from(mover.sign()));
                    best.fold(f64::NEG_INFINITY, f64::max) * f64::from(mover.sign())
                };
                if !game.is_chance(&state) {
                    moves.sort_by(|x, y| {
                        let (x, y) = (x.1 * f64::from(mover.sign()), y.1 * f64::from(mover.sign()));
                        y.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal)
                    });
                }
                let prob = |v: f64| {
                    game.win_probability(v)
                        .map(|p| if mover == Player::Max { p } else { 1.0 - p })
                };
                if a.game.json {
                    let list: Vec<Value> = moves
                        .iter()
                        .map(|&(m, v)| {
                            let mut j =
                                json!({"move": game.format_move(&state, m), "value": num_json(v)});
                            if let Some(p) = prob(v) {
                                j["win_probability"] = json!((p * 1e6).round() / 1e6);
                            }
                            j
                        })
                        .collect();
                    print_json(&json!({
                        "game": info.name,
                        "position": game.format_position(&state),
                        "algo": plan.name(),
                        "depth_limit": options.depth,
                        "value": num_json(value),
                        "moves": list,
                        "stats": stats_json(&stats, elapsed),
                    }));
                    return Ok(());
                }
                let notes: Vec<(G::Move, String)> =
                    moves.iter().map(|&(m, v)| (m, value_text(v))).collect();
                print_board(
                    &game,
                    &state,
                    &notes,
                    "the value of playing there, MAX's view",
                );
                println!(
                    "{} to move; {} values, best first:",
                    to_move_name(&game, &state),
                    plan.name()
                );
                for &(m, v) in &moves {
                    let p = prob(v).map_or(String::new(), |p| {
                        format!("  estimated win probability for {} {p:.4}", mover.name())
                    });
                    println!(
                        "  {:<8} {:>10}{p}",
                        game.format_move(&state, m),
                        value_text(v)
                    );
                }
                println!("stats: {}", stats_text(&stats, elapsed));
                Ok(())
            }
            Plan::Score { options, weak } => {
                let start = Instant::now();
                let mut stats = Stats::default();
                let mut engine = Engine::new(&game, &options);
                let mut legal = Vec::new();
                if !game.is_terminal(&state) {
                    game.legal_moves(&state, &mut legal);
                }
                let mut moves = Vec::new();
                for &m in &legal {
                    let child = game.play(&state, m);
                    let r = solve_score(&mut engine, &game, &child, weak, &mut stats)?;
                    moves.push((m, r.value, r.value.for_player(mover).0));
                }
                moves.sort_by_key(|&(_, _, s)| std::cmp::Reverse(s));
                let elapsed = start.elapsed();
                if a.game.json {
                    let list: Vec<Value> = moves
                        .iter()
                        .map(|&(m, v, s)| json!({"move": game.format_move(&state, m), "score": s, "value": v.0}))
                        .collect();
                    print_json(&json!({
                        "game": info.name,
                        "position": game.format_position(&state),
                        "algo": plan.name(),
                        "moves": list,
                        "stats": stats_json(&stats, elapsed),
                    }));
                    return Ok(());
                }
                let notes: Vec<(G::Move, String)> =
                    moves.iter().map(|&(m, _, s)| (m, s.to_string())).collect();
                print_board(
                    &game,
                    &state,
                    &notes,
                    "the score of playing there, for the side to move",
                );
                println!(
                    "{} to move; {}, best first:",
                    to_move_name(&game, &state),
                    plan.name()
                );
                for &(m, _, s) in &moves {
                    println!("  {:<8} {:>4}", game.format_move(&state, m), s);
                }
                println!("stats: {}", stats_text(&stats, elapsed));
                Ok(())
            }
            Plan::Mcts(o) => {
                let r = mcts(&game, &state, &o);
                if a.game.json {
                    print_json(&json!({
                        "game": info.name,
                        "position": game.format_position(&state),
                        "algo": plan.name(),
                        "moves": mcts_moves_json(&game, &state, &r),
                        "stats": mcts_stats_json(&r),
                    }));
                    return Ok(());
                }
                let notes: Vec<(G::Move, String)> = r
                    .moves
                    .iter()
                    .map(|m| (m.mv, m.visits.to_string()))
                    .collect();
                print_board(&game, &state, &notes, "how often MCTS visited that move");
                println!(
                    "{} to move; {}, most visited first:",
                    to_move_name(&game, &state),
                    plan.name()
                );
                println!("  {:<8} {:>10} {:>8}", "move", "visits", "mean");
                for m in &r.moves {
                    println!(
                        "  {:<8} {:>10} {:>8.3}",
                        game.format_move(&state, m.mv),
                        m.visits,
                        m.mean
                    );
                }
                print_mcts_stats(&r);
                Ok(())
            }
        }
    }
}

fn analyze_search<G: Notation + Searchable>(
    game: &G,
    state: &G::State,
    info: &GameInfo,
    algo: Algorithm,
    opts: &SearchOptions,
    as_json: bool,
) -> CliResult {
    let result = analyze(game, state, algo, opts)?;
    if as_json {
        let moves: Vec<_> = result
            .moves
            .iter()
            .map(|m| {
                let mut v = json!({
                    "move": game.format_move(state, m.mv),
                    "value": score_json(m.value),
                });
                if opts.fast_win || algo == Algorithm::Id {
                    v["proven"] = json!(m.proven);
                    v["distance"] = json!(m.distance);
                }
                v
            })
            .collect();
        print_json(&json!({
            "game": info.name,
            "position": game.format_position(state),
            "algo": describe(algo, opts),
            "depth_limit": opts.depth,
            "moves": moves,
            "stats": stats_json(&result.stats, result.elapsed),
        }));
        return Ok(());
    }
    let notes: Vec<(G::Move, String)> = result
        .moves
        .iter()
        .map(|m| (m.mv, score_text(m.value)))
        .collect();
    print_board(
        game,
        state,
        &notes,
        "the value of playing there, MAX's view",
    );
    if result.moves.is_empty() {
        println!("no legal moves: the game is over");
    } else {
        println!(
            "{} to move; {} values, best first:",
            to_move_name(game, state),
            describe(algo, opts)
        );
        println!("  {:<8} {:>7}  result", "move", "value");
        for m in &result.moves {
            println!(
                "  {:<8} {:>7}  {}",
                game.format_move(state, m.mv),
                score_text(m.value),
                verdict(m.proven, m.value, m.distance)
            );
        }
    }
    println!("stats: {}", stats_text(&result.stats, result.elapsed));
    Ok(())
}

pub fn run_analyze(args: &SolveArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Analyze(args))?
}
