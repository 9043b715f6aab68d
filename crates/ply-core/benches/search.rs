//! The full tic-tac-toe solve, in nodes per second, for minimax and
//! alpha-beta, with the no-op observer and with the statistics observer.
//! The two observers' figures side by side show what observation costs.
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
        algo.run(&g, &s, &opts, &mut stats);
        group.throughput(Throughput::Elements(stats.nodes));
        group.bench_function(format!("{}/no-observer", algo.name()), |b| {
            b.iter(|| algo.run(&g, black_box(&s), &opts, &mut NoObserver).value)
        });
        group.bench_function(format!("{}/stats", algo.name()), |b| {
            b.iter(|| {
                let mut st = Stats::default();
                let v = algo.run(&g, black_box(&s), &opts, &mut st).value;
                (v, st.nodes)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_solve);
criterion_main!(benches);
