//! Go playouts per second from the empty board, on 9×9 and 19×19: a
//! playout as MCTS plays one (the legal moves, the game's playout choice,
//! which does not fill its own eyes, and `play`), to the two passes that
//! end it; and MCTS simulations on 9×9 with one thread.
//!
//! `cargo bench -p ply-core --bench go`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ply_core::prelude::*;
use ply_core::search::{MctsOptions, mcts};
use ply_games::go::Go;
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

/// Plays one game to its end from `s`; returns its length in plies.
fn playout(g: &Go, s: &<Go as Game>::State, rng: &mut Xoshiro256PlusPlus) -> usize {
    let mut s = s.clone();
    let mut moves = Vec::new();
    let mut plies = 0;
    while !g.is_terminal(&s) {
        moves.clear();
        g.legal_moves(&s, &mut moves);
        let i = g.playout_choice(&s, &moves, rng.next_u64());
        s = g.play(&s, moves[i]);
        plies += 1;
    }
    plies
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("go-playouts");
    group.throughput(Throughput::Elements(1));
    for size in [9, 19] {
        let g = Go::new(size, 7).unwrap();
        let s = g.initial_state();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| playout(&g, black_box(&s), &mut rng))
        });
    }
    group.finish();
}

fn simulations(c: &mut Criterion) {
    let g = Go::new(9, 7).unwrap();
    let s = g.initial_state();
    let iterations = 1_000;
    let mut group = c.benchmark_group("go-mcts");
    group.throughput(Throughput::Elements(iterations));
    group.sample_size(10);
    let opts = MctsOptions {
        iterations: Some(iterations),
        ..MctsOptions::default()
    };
    group.bench_function("9x9-1-thread", |b| {
        b.iter(|| mcts(&g, black_box(&s), &opts).best_move)
    });
    group.finish();
}

criterion_group!(benches, playouts, simulations);
criterion_main!(benches);
