//! Go playouts per second from the empty board, on 9×9 and 19×19, to
//! the two passes that end them: `moves`, a playout through the `Game`
//! interface (the legal moves, the game's playout choice, which does not
//! fill its own eyes, and `play`, a new state each ply), as MCTS plays
//! every other game; `light`, the same policy on one board in place
//! (`Playouts::playout`); `full`, in place with the answers to ataris and
//! no self-ataris. And MCTS simulations on 9×9 with one thread, with
//! each.
//!
//! `cargo bench -p ply-core --bench go`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ply_core::prelude::*;
use ply_core::search::{MctsOptions, mcts};
use ply_games::go::{Go, Policy};
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

/// The three ways of playing out, by name.
const WAYS: [(&str, Option<Policy>); 3] = [
    ("moves", None),
    ("light", Some(Policy::LIGHT)),
    ("full", Some(Policy::FULL)),
];

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("go-playouts");
    group.throughput(Throughput::Elements(1));
    for size in [9, 19] {
        for (name, policy) in WAYS {
            let g = Go::new(size, 7).unwrap().with_playouts(policy);
            let s = g.initial_state();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            let mut played = Vec::new();
            group.bench_function(format!("{size}x{size}-{name}"), |b| match policy {
                None => b.iter(|| playout(&g, black_box(&s), &mut rng)),
                Some(_) => b.iter(|| {
                    played.clear();
                    g.playout(black_box(&s), &mut rng, &mut played)
                }),
            });
        }
    }
    group.finish();
}

fn simulations(c: &mut Criterion) {
    let iterations = 1_000;
    let mut group = c.benchmark_group("go-mcts");
    group.throughput(Throughput::Elements(iterations));
    group.sample_size(10);
    let opts = MctsOptions {
        iterations: Some(iterations),
        ..MctsOptions::default()
    };
    for (name, policy) in WAYS {
        let g = Go::new(9, 7).unwrap().with_playouts(policy);
        let s = g.initial_state();
        group.bench_function(format!("9x9-1-thread-{name}"), |b| {
            b.iter(|| mcts(&g, black_box(&s), &opts).best_move)
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, simulations);
criterion_main!(benches);
