//! A match at Connect Four: PUCT over a network against plain UCT (ply's
//! MCTS with random playouts, `ply solve --algo mcts`), from each of the
//! 49 two-move openings with each side moving first: 98 games, every move
//! after the opening each side's most visited. PUCT is deterministic; UCT
//! is seeded per game.
//!
//! ```sh
//! cargo run --release -p ply-learn --example match_connect4 -- nets/connect4-supervised.safetensors 800 80000
//! ```
//! (the network, PUCT's simulations, UCT's iterations per move). Games
//! are played one per core at a time (a fourth argument sets the
//! threads); a fifth sets PUCT's batch (8, as `--algo puct` searches:
//! leaves gathered by virtual loss and evaluated together).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::search::mcts::{MctsOptions, mcts};
use ply_core::search::puct::{Puct, PuctOptions, choose, result};
use ply_core::{Game, Player};
use ply_games::connect4::Connect4;
use ply_learn::learn::parallel;
use ply_learn::{NetEvaluator, Network};

fn arg<T: std::str::FromStr>(k: usize, default: T) -> T {
    std::env::args()
        .nth(k)
        .map(|a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("argument {k} ('{a}') is not a number");
                std::process::exit(2);
            })
        })
        .unwrap_or(default)
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!(
            "usage: match_connect4 NETWORK.safetensors [SIMULATIONS] [UCT_ITERATIONS] [THREADS]"
        );
        std::process::exit(2);
    };
    let simulations: u64 = arg(2, 800);
    let iterations: u64 = arg(3, 800);
    let threads: usize = arg(
        4,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    let batch: usize = arg(5, 8);
    let game = Connect4::standard();
    let net = ply_learn::load(&game, &path).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let openings: Vec<(u8, u8)> = (0..7).flat_map(|a| (0..7).map(move |b| (a, b))).collect();
    let games = openings.len() * 2;
    let mut tally = [0usize; 3]; // PUCT's wins, draws, losses
    let results = parallel(
        games,
        threads,
        |i| {
            let (a, b) = openings[i / 2];
            let puct_first = i % 2 == 0;
            let search = (simulations, batch, iterations);
            play(&game, &net, (a, b), puct_first, search, i as u64)
        },
        &mut |done, &r: &f32| {
            tally[(1.0 - r) as usize] += 1;
            eprint!(
                "\r{done}/{games} games: PUCT {} wins, {} draws, {} losses",
                tally[0], tally[1], tally[2]
            );
        },
    );
    eprintln!();
    let score: f64 = results
        .iter()
        .map(|&r| f64::from(r + 1.0) / 2.0)
        .sum::<f64>()
        / games as f64;
    let won = |first: bool, r: f32| {
        results
            .iter()
            .enumerate()
            .filter(|&(i, &x)| (i % 2 == 0) == first && x == r)
            .count()
    };
    println!(
        "PUCT {simulations}, batch {batch} ({path}) against UCT {iterations}: {games} games, {} wins, {} draws, {} losses: score {:.1}%",
        tally[0],
        tally[1],
        tally[2],
        100.0 * score
    );
    println!(
        "  moving first: {} wins, {} draws, {} losses; second: {} wins, {} draws, {} losses",
        won(true, 1.0),
        won(true, 0.0),
        won(true, -1.0),
        won(false, 1.0),
        won(false, 0.0),
        won(false, -1.0)
    );
}

/// One game from the opening `a b` (columns from 0); the result for PUCT:
/// 1, 0 or -1.
fn play(
    game: &Connect4,
    net: &Network,
    (a, b): (u8, u8),
    puct_first: bool,
    (simulations, batch, iterations): (u64, usize, u64),
    seed: u64,
) -> f32 {
    let mut state = game.play(&game.play(&game.initial_state(), a), b);
    let puct_side = if puct_first { Player::Max } else { Player::Min };
    let mut ply = 0u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    while !game.is_terminal(&state) {
        let mv = if game.to_move(&state) == puct_side {
            let options = PuctOptions {
                simulations,
                batch,
                ..PuctOptions::default()
            };
            let searched = Puct::new(game, &state, options).run(game, &mut NetEvaluator::new(net));
            choose(&searched.moves, 0.0, &mut rng).expect("a move")
        } else {
            let options = MctsOptions {
                iterations: Some(iterations),
                seed: seed * 1_000 + ply,
                ..MctsOptions::default()
            };
            mcts(game, &state, &options).best_move.expect("a move")
        };
        state = game.play(&state, mv);
        ply += 1;
    }
    let r = result(game, &state);
    if puct_first { r } else { -r }
}
