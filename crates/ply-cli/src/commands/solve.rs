//! `ply solve` and `ply analyze`.

use std::time::Instant;

use ply_core::observe::Stats;
use ply_core::search::{
    Algorithm, Iteration, Outcome, SearchOptions, analyze, iterative_deepening,
};
use ply_core::{Game, MaxScore, Notation, Player};
use ply_games::{GameInfo, GameVisitor};
use serde_json::json;

use crate::CliResult;
use crate::args::SolveArgs;
use crate::commands::{configure, describe};
use crate::output::{
    line_text, params, print_json, score_json, score_text, setup, stats_json, stats_text, thousands,
};
use crate::progress::Progress;

/// The default time budget of `ply solve` without `--algo`.
pub const SOLVE_TIME_MS: u64 = 10_000;

/// A verdict in words: who wins, and how soon when known.
pub fn verdict(proven: bool, value: MaxScore, distance: Option<u32>) -> String {
    if !proven {
        return "estimate, evaluation units, MAX's view".to_string();
    }
    let when = match distance {
        Some(1) => " in 1 ply".to_string(),
        Some(d) => format!(" in {d} plies"),
        None => String::new(),
    };
    match value.0.signum() {
        1 => format!("MAX (the first player) wins{when}"),
        -1 => format!("MIN (the second player) wins{when}"),
        _ => "draw".to_string(),
    }
}

pub fn to_move_name<G: Game>(game: &G, state: &G::State) -> &'static str {
    if game.is_terminal(state) {
        "nobody (the game is over)"
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

/// Runs one configured search with statistics and progress.
pub fn run_search<G: Notation>(
    game: &G,
    state: &G::State,
    algo: Algorithm,
    opts: &SearchOptions,
    quiet: bool,
) -> (Outcome<G::Move>, Stats, std::time::Duration) {
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
    (out, observer.0, elapsed)
}

struct Solve<'a>(&'a SolveArgs);

impl GameVisitor for Solve<'_> {
    type Output = CliResult;
    fn visit<G: Notation>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let (algo, opts) = configure(&a.search, SOLVE_TIME_MS)?;
        let (out, stats, elapsed) = run_search(&game, &state, algo, &opts, a.search.quiet);
        let best = out.best_move.map(|m| game.format_move(&state, m));
        let pv = crate::output::line(&game, &state, &out.pv);
        if a.game.json {
            print_json(&json!({
                "game": info.name,
                "position": game.format_position(&state),
                "algo": describe(algo, &opts),
                "depth_limit": opts.depth,
                "value": score_json(out.value),
                "proven": out.proven,
                "distance": out.distance,
                "best_move": best,
                "pv": pv,
                "stats": stats_json(&stats, elapsed),
            }));
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
            println!(
                "best move: {}",
                best.unwrap_or_else(|| "none (the game is over)".into())
            );
            println!("pv:        {}", pv.join(" "));
            println!("stats:     {}", stats_text(&stats, elapsed));
        }
        Ok(())
    }
}

pub fn run_solve(args: &SolveArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Solve(args))?
}

struct Analyze<'a>(&'a SolveArgs);

impl GameVisitor for Analyze<'_> {
    type Output = CliResult;
    fn visit<G: Notation>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let (algo, opts) = configure(&a.search, SOLVE_TIME_MS)?;
        let result = analyze(&game, &state, algo, &opts);
        if a.game.json {
            let moves: Vec<_> = result
                .moves
                .iter()
                .map(|m| {
                    let mut v = json!({
                        "move": game.format_move(&state, m.mv),
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
                "position": game.format_position(&state),
                "algo": describe(algo, &opts),
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
        match game.draw_annotated(&state, &notes) {
            Some(board) => {
                println!("{}", board.trim_end());
                println!("(each empty square shows the value of playing there, MAX's view)");
            }
            None => println!("{}", game.draw(&state).trim_end()),
        }
        if result.moves.is_empty() {
            println!("no legal moves: the game is over");
        } else {
            println!(
                "{} to move; {} values, best first:",
                to_move_name(&game, &state),
                describe(algo, &opts)
            );
            println!("  {:<8} {:>7}  result", "move", "value");
            for m in &result.moves {
                println!(
                    "  {:<8} {:>7}  {}",
                    game.format_move(&state, m.mv),
                    score_text(m.value),
                    verdict(m.proven, m.value, m.distance)
                );
            }
        }
        println!("stats: {}", stats_text(&result.stats, result.elapsed));
        Ok(())
    }
}

pub fn run_analyze(args: &SolveArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Analyze(args))?
}
