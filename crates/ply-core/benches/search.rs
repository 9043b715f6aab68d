//! The full tic-tac-toe solve, in nodes per second, for minimax, alpha-beta
//! and iterative deepening (textbook options), with the no-op observer and
//! with the statistics observer: the two side by side show what observation
//! costs. Then the engine features on a 4x4 board.
//!
//! `cargo bench -p ply-core --bench search`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ply_core::prelude::*;
use ply_games::TicTacToe;
use std::hint::black_box;

fn full_solve(c: &mut Criterion) {
    let g = TicTacToe::classic();
    let s = g.initial_state();
    let opts = SearchOptions::exact();
    let mut group = c.benchmark_group("tictactoe-full-solve");
    for algo in Algorithm::ALL {
        // Node counts are fixed (549,946 and 18,297): throughput is nodes/s.
        let mut stats = Stats::default();
        algo.run(&g, &s, &opts, &mut stats).unwrap();
        group.throughput(Throughput::Elements(stats.nodes));
        group.bench_function(format!("{}/no-observer", algo.name()), |b| {
            b.iter(|| {
                algo.run(&g, black_box(&s), &opts, &mut NoObserver)
                    .unwrap()
                    .value
            })
        });
        group.bench_function(format!("{}/stats", algo.name()), |b| {
            b.iter(|| {
                let mut st = Stats::default();
                let v = algo.run(&g, black_box(&s), &opts, &mut st).unwrap().value;
                (v, st.nodes)
            })
        });
    }
    group.finish();
}

/// The engine features one by one on the 4x4 board with 3 in a row (a
/// first-player win): nodes per solve are fixed, so throughput compares the
/// cost per node, and the node counts (printed once) the pruning.
fn engine_features(c: &mut Criterion) {
    let g = TicTacToe::new(4, 4, 3).expect("a valid board");
    let s = g.initial_state();
    let mut group = c.benchmark_group("mnk-4-4-3-solve");
    for (algo, opts) in ply_core::search::comparison_set(None, 16)
        .into_iter()
        .skip(1)
    {
        let name = ply_core::search::describe(algo, &opts);
        let mut stats = Stats::default();
        algo.run(&g, &s, &opts, &mut stats).unwrap();
        eprintln!("{name}: {} nodes", stats.nodes);
        group.throughput(Throughput::Elements(stats.nodes));
        group.bench_function(name, |b| {
            b.iter(|| {
                algo.run(&g, black_box(&s), &opts, &mut NoObserver)
                    .unwrap()
                    .value
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_solve, engine_features);
criterion_main!(benches);
