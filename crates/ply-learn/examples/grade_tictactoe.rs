//! Grades a tic-tac-toe network by the exact solver over all 4,520
//! positions that are not over (issue 40's two goals): the share where the
//! raw network's favourite is optimal, and the games where PUCT at 100
//! simulations, playing either side against perfect play from each of
//! them, ends worse than the position's value.
//!
//! ```sh
//! cargo run --release -p ply-learn --example grade_tictactoe -- nets/tictactoe.safetensors
//! ```

use ply_games::tictactoe::TicTacToe;
use ply_learn::grade;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: grade_tictactoe NETWORK.safetensors");
        std::process::exit(2);
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let game = TicTacToe::classic();
    let net = ply_learn::load(&game, &path).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let states = grade::reachable(&game, 10_000).expect("tic-tac-toe is small");
    let graded = grade::grade(&game, &states);
    let raw = grade::accuracy(&game, &net, &graded);
    println!(
        "raw network: optimal moves in {:.2}% of {} positions, value sign {:.2}%",
        100.0 * raw.moves,
        graded.len(),
        100.0 * raw.values
    );
    let (games, worse) = grade::puct_against_perfect(&game, &net, &graded, 100, threads);
    println!(
        "PUCT 100 against perfect play: {} of {games} games keep the value; worse from {worse:?}",
        games - worse.len()
    );
}
