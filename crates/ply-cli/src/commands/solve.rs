//! `ply solve` and `ply analyze`.

use ply_core::observe::Stats;
use ply_core::search::{Algorithm, SearchOptions, TieBreak, analyze};
use ply_core::{Game, Notation, Player};
use ply_games::{GameInfo, GameVisitor};
use serde_json::json;

use crate::CliResult;
use crate::args::SolveArgs;
use crate::commands::algorithm;
use crate::output::{params, print_json, score_json, score_text, setup, stats_json, stats_text};
use crate::progress::Progress;

fn options(args: &SolveArgs) -> SearchOptions {
    SearchOptions {
        depth: args.depth,
        tie_break: args.seed.map_or(TieBreak::First, TieBreak::Random),
    }
}

fn verdict(exact: bool, value: ply_core::MaxScore) -> String {
    if !exact {
        return "evaluation units, MAX's view".to_string();
    }
    match value.0.signum() {
        1 => "MAX (the first player) wins".to_string(),
        -1 => "MIN (the second player) wins".to_string(),
        _ => "draw".to_string(),
    }
}

fn to_move_name<G: Game>(game: &G, state: &G::State) -> &'static str {
    if game.is_terminal(state) {
        "nobody (the game is over)"
    } else {
        match game.to_move(state) {
            Player::Max => "MAX",
            Player::Min => "MIN",
        }
    }
}

struct Solve<'a>(&'a SolveArgs);

impl GameVisitor for Solve<'_> {
    type Output = CliResult;
    fn visit<G: Notation>(self, game: G, info: &'static GameInfo) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let algo = algorithm(a.algo);
        let opts = options(a);
        let mut observer = (Stats::default(), Progress::new(true));
        let start = std::time::Instant::now();
        let out = algo.run(&game, &state, &opts, &mut observer);
        let elapsed = start.elapsed();
        observer.1.finish();
        let stats = observer.0;
        let best = out.best_move.map(|m| game.format_move(&state, m));
        let mut pv = Vec::new();
        let mut s = state.clone();
        for &m in &out.pv {
            pv.push(game.format_move(&s, m));
            s = game.play(&s, m);
        }
        if a.game.json {
            print_json(&json!({
                "game": info.name,
                "position": game.format_position(&state),
                "algo": algo.name(),
                "depth_limit": a.depth,
                "value": score_json(out.value),
                "best_move": best,
                "pv": pv,
                "stats": stats_json(&stats, elapsed),
            }));
        } else {
            println!("{}", game.draw(&state).trim_end());
            println!(
                "{} to move; {} search{}",
                to_move_name(&game, &state),
                algo.name(),
                a.depth
                    .map_or(" to the end".to_string(), |d| format!(" to depth {d}"))
            );
            println!(
                "value:     {} ({})",
                score_text(out.value),
                verdict(a.depth.is_none(), out.value)
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
        let algo: Algorithm = algorithm(a.algo);
        let result = analyze(&game, &state, algo, &options(a));
        let moves: Vec<(String, ply_core::MaxScore)> = result
            .moves
            .iter()
            .map(|&(m, v)| (game.format_move(&state, m), v))
            .collect();
        if a.game.json {
            print_json(&json!({
                "game": info.name,
                "position": game.format_position(&state),
                "algo": algo.name(),
                "depth_limit": a.depth,
                "moves": moves.iter().map(|(m, v)| json!({"move": m, "value": score_json(*v)})).collect::<Vec<_>>(),
                "stats": stats_json(&result.stats, result.elapsed),
            }));
            return Ok(());
        }
        let notes: Vec<(G::Move, String)> = result
            .moves
            .iter()
            .map(|&(m, v)| (m, score_text(v)))
            .collect();
        match game.draw_annotated(&state, &notes) {
            Some(board) => {
                println!("{}", board.trim_end());
                println!("(each empty square shows the value of playing there, MAX's view)");
            }
            None => println!("{}", game.draw(&state).trim_end()),
        }
        if moves.is_empty() {
            println!("no legal moves: the game is over");
        } else {
            println!(
                "{} to move; {} values, best first:",
                to_move_name(&game, &state),
                algo.name()
            );
            println!("  {:<8} value", "move");
            for (m, v) in &moves {
                println!("  {m:<8} {}", score_text(*v));
            }
        }
        println!("stats: {}", stats_text(&result.stats, result.elapsed));
        Ok(())
    }
}

pub fn run_analyze(args: &SolveArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Analyze(args))?
}
