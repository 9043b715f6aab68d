//! Chess benchmarks, in release mode (`cargo bench -p ply-core --bench chess`):
//!
//! 1. the perft counts of `testdata/chess/perft.epd` too large for CI
//!    (10 million to 200 million leaves), each checked and timed once;
//! 2. the engine's speed: nodes per second of a fixed-depth search from a
//!    few positions, against plain alpha-beta's in the same run (the ratio
//!    is what to compare across machines).
//!
//! `-- --quick` runs only the second part.

use std::path::PathBuf;
use std::time::Instant;

use ply_core::explore::perft;
use ply_core::prelude::*;
use ply_core::search::iterative_deepening;
use ply_games::Chess;

const LARGEST: u64 = 200_000_000;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let g = Chess::new();
    if !quick {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/chess/perft.epd");
        let text = std::fs::read_to_string(path).expect("testdata/chess/perft.epd");
        let mut total = 0u64;
        let start = Instant::now();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim();
            let id = line.rsplit("id ").next().unwrap_or("").trim();
            let s = g.parse_position(fen).unwrap();
            for p in parts {
                let Some(rest) = p.trim().strip_prefix('D') else {
                    continue;
                };
                let (d, n) = rest.split_once(' ').unwrap();
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
                if n <= 10_000_000 || n > LARGEST {
                    continue;
                }
                let t = Instant::now();
                let got = perft(&g, &s, d);
                let secs = t.elapsed().as_secs_f64();
                assert_eq!(got, n, "perft({d}) of {id}");
                total += n;
                println!(
                    "perft {id:<28} depth {d}: {n:>12} ok  {:>7.2} s  {:>6.1} M leaves/s",
                    secs,
                    n as f64 / secs / 1e6
                );
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "perft total: {total} leaves in {secs:.1} s, {:.1} M leaves/s",
            total as f64 / secs / 1e6
        );
    }

    let positions = [
        "startpos",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let engine = SearchOptions {
        depth: Some(9),
        tt_mb: 16,
        ..SearchOptions::engine()
    };
    let plain = SearchOptions {
        depth: Some(4),
        ..SearchOptions::default()
    };
    for (name, opts) in [("engine, depth 9", engine), ("alpha-beta, depth 4", plain)] {
        let (mut nodes, mut secs) = (0u64, 0.0);
        for fen in positions {
            let s = g.parse_position(fen).unwrap();
            let mut stats = Stats::default();
            let t = Instant::now();
            if opts.tt_mb > 0 {
                iterative_deepening(&g, &s, &opts, None, &mut stats, |_| {}).unwrap();
            } else {
                alphabeta(&g, &s, &opts, &mut stats).unwrap();
            }
            secs += t.elapsed().as_secs_f64();
            nodes += stats.nodes;
        }
        println!(
            "search {name:<22} {nodes:>11} nodes  {secs:>6.2} s  {:>5.2} M nodes/s",
            nodes as f64 / secs / 1e6
        );
    }
}
