//! The Connect Four solver core in nodes per second: the score search on
//! the first 100 positions of the public "middle easy" set (Test_L2_R1),
//! the table (2 MiB: ample for these) cleared before each and the clearing
//! left out of the time, as the public solver's figures are taken.
//! Node counts are fixed, so criterion's throughput is nodes per second.
//!
//! `cargo bench -p ply-core --bench connect4`

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ply_core::prelude::*;
use ply_core::search::solve_score;
use ply_games::Connect4;

fn solver(c: &mut Criterion) {
    let game = Connect4::standard();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/connect4/Test_L2_R1"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("{path} not found: the Connect Four bench reads testdata/ of the repository");
        return;
    };
    let states: Vec<_> = text
        .lines()
        .take(100)
        .filter_map(|l| game.parse_position(l.split_whitespace().next()?).ok())
        .collect();
    let opts = SearchOptions {
        tt_mb: 2,
        ordering: true,
        killers: false,
        shortcuts: true,
        ..SearchOptions::default()
    };
    let mut engine = Engine::new(&game, &opts);
    // Solves every position once; returns the nodes (the engine's count:
    // no observer, as in `ply solve --batch`) and the time spent solving
    // (not clearing).
    let run = |engine: &mut Engine<u8>| {
        let nodes_before = engine.nodes;
        let mut time = Duration::ZERO;
        for s in &states {
            engine.clear();
            let start = Instant::now();
            solve_score(engine, &game, s, false, &mut NoObserver).unwrap();
            time += start.elapsed();
        }
        (engine.nodes - nodes_before, time)
    };
    let (nodes, _) = run(&mut engine);
    eprintln!("{} positions, {nodes} nodes per run", states.len());
    let mut group = c.benchmark_group("connect4-solver");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("Test_L2_R1-first-100", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run(&mut engine).1).sum())
    });
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
