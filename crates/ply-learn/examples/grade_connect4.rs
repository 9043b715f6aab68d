//! Grades a Connect Four network by the exact solver on samples of the
//! public test sets (every tenth position of each): the share of
//! positions where the raw network's favourite is optimal, where PUCT's
//! most visited move is at 100 and at 800 simulations, and where the
//! value head names the outcome.
//!
//! ```sh
//! cargo run --release -p ply-learn --example grade_connect4 -- nets/connect4-supervised.safetensors
//! ```

use std::time::Instant;

use ply_games::connect4::Connect4;
use ply_learn::grade::{self, accuracy, puct_accuracy};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: grade_connect4 NETWORK.safetensors [THREADS]");
        std::process::exit(2);
    };
    let threads: usize = std::env::args()
        .nth(2)
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let game = Connect4::standard();
    let net = ply_learn::load(&game, &path).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    println!("| set | positions | raw network | PUCT 100 | PUCT 800 | value sign |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, text) in grade::CONNECT4_SETS {
        let states: Vec<_> = grade::test_positions(&game, text, 10)
            .expect("the test sets parse")
            .into_iter()
            .map(|(state, _)| state)
            .collect();
        let graded = grade::grade_parallel(&game, &states, None, threads, 64, &mut |_| {});
        let raw = accuracy(&game, &net, &graded);
        let start = Instant::now();
        let p100 = puct_accuracy(&game, &net, &graded, 100, threads);
        let p800 = puct_accuracy(&game, &net, &graded, 800, threads);
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        println!(
            "| {name} | {} | {} | {} | {} | {} |",
            graded.len(),
            pct(raw.moves),
            pct(p100),
            pct(p800),
            pct(raw.values)
        );
        eprintln!("{name}: PUCT took {:.1} s", start.elapsed().as_secs_f64());
    }
}
