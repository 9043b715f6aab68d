//! MCTS simulations per second on tic-tac-toe from the empty board, with one
//! thread and with two (root parallelism). Iterations per run are fixed, so
//! criterion's throughput is simulations per second.
//!
//! `cargo bench -p ply-core --bench mcts`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ply_core::prelude::*;
use ply_core::search::{MctsOptions, mcts};
use ply_games::TicTacToe;
use std::hint::black_box;

fn simulations(c: &mut Criterion) {
    let g = TicTacToe::classic();
    let s = g.initial_state();
    let iterations = 20_000;
    let mut group = c.benchmark_group("mcts-tictactoe");
    group.throughput(Throughput::Elements(iterations));
    for threads in [1, 2] {
        let opts = MctsOptions {
            iterations: Some(iterations),
            threads,
            ..MctsOptions::default()
        };
        group.bench_function(format!("{threads}-thread"), |b| {
            b.iter(|| mcts(&g, black_box(&s), &opts).best_move)
        });
    }
    group.finish();
}

criterion_group!(benches, simulations);
criterion_main!(benches);
