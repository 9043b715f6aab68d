//! How long PUCT over a network plays Connect Four perfectly: a game from
//! the empty board against ply's exact solver (which plays the best move
//! by exact score, the quickest win or the slowest loss), once with each
//! side moving first. Every position is solved exactly, so each of the
//! network's moves is judged twice: did it keep the outcome (a win stays
//! a win, a draw a draw), and did it keep the exact score (no slower win,
//! no quicker loss)? Prints each game's moves with the verdicts and the
//! network's first move that loses the outcome, and the first that loses
//! score.
//!
//! ```sh
//! cargo run --release -p ply-learn --example perfect_connect4 -- nets/connect4-supervised.safetensors 800
//! ```
//! The first positions cost the solver up to two minutes each.

use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::observe::NoObserver;
use ply_core::search::puct::{Puct, PuctOptions, choose};
use ply_core::search::score_search::solve_exact;
use ply_core::search::{Budget, Engine, SearchOptions};
use ply_core::{Game, Notation, Player};
use ply_games::connect4::Connect4;
use ply_learn::{NetEvaluator, Network};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: perfect_connect4 NETWORK.safetensors [SIMULATIONS]");
        std::process::exit(2);
    };
    let simulations: u64 = std::env::args()
        .nth(2)
        .map_or(Ok(800), |s| s.parse())
        .unwrap_or_else(|_| {
            eprintln!("SIMULATIONS must be a number");
            std::process::exit(2);
        });
    let game = Connect4::standard();
    let net = ply_learn::load(&game, &path).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let options = SearchOptions {
        tt_mb: 256,
        ordering: true,
        shortcuts: true,
        ..SearchOptions::default()
    };
    let mut engine = Engine::new(&game, &options);
    println!("PUCT {simulations} over {path} against the exact solver");
    for side in [Player::Max, Player::Min] {
        play(&game, &net, &mut engine, side, simulations);
    }
}

/// The score of `state` for the player to move (a win's score is higher
/// the sooner it comes, as the public solver's), and the best move.
fn solve(
    engine: &mut Engine<u8>,
    game: &Connect4,
    state: &<Connect4 as Game>::State,
) -> (i32, Option<u8>) {
    let solved = solve_exact(
        engine,
        game,
        state,
        false,
        &Budget::default(),
        &mut NoObserver,
        &mut |_, _| {},
    )
    .expect("Connect Four solves without a budget");
    let mover = game.to_move(state);
    (solved.result.value.for_player(mover).0, solved.best_move)
}

fn play(game: &Connect4, net: &Network, engine: &mut Engine<u8>, side: Player, simulations: u64) {
    let started = Instant::now();
    let mut state = game.initial_state();
    let mut line = Vec::new();
    let (mut first_outcome, mut first_score) = (None, None);
    let mut network_moves = 0;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    while !game.is_terminal(&state) {
        let (score, best) = solve(engine, game, &state);
        let text;
        if game.to_move(&state) == side {
            let options = PuctOptions {
                simulations,
                batch: 8,
                ..PuctOptions::default()
            };
            let searched = Puct::new(game, &state, options).run(game, &mut NetEvaluator::new(net));
            let mv = choose(&searched.moves, 0.0, &mut rng).expect("a move");
            network_moves += 1;
            let child = game.play(&state, mv);
            // A move that ends the game wins at once or fills the board:
            // nothing does better.
            let kept = if game.is_terminal(&child) {
                score
            } else {
                -solve(engine, game, &child).0
            };
            let verdict = if kept == score {
                ""
            } else if kept.signum() == score.signum() {
                first_score.get_or_insert(network_moves);
                "?"
            } else {
                first_score.get_or_insert(network_moves);
                first_outcome.get_or_insert(network_moves);
                "??"
            };
            text = format!("{}{verdict}", game.format_move(&state, mv));
            state = child;
        } else {
            let mv = best.expect("a move");
            text = game.format_move(&state, mv);
            state = game.play(&state, mv);
        }
        line.push(text);
        eprint!(
            "\r{} plies, {:.0} s",
            line.len(),
            started.elapsed().as_secs_f64()
        );
    }
    eprintln!();
    let who = if side == Player::Max {
        "first"
    } else {
        "second"
    };
    let result = game.utility(&state).0.signum() * side.sign();
    let said = |m: Option<usize>| m.map_or("none".to_string(), |k| format!("its move {k}"));
    println!(
        "network moving {who}: {} ({}); {network_moves} network moves, first to lose the outcome: {}; first to lose score: {}",
        line.join(" "),
        ["lost", "drawn", "won"][(result + 1) as usize],
        said(first_outcome),
        said(first_score)
    );
}
