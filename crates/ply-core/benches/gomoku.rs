//! Gomoku benchmarks, in release mode (`cargo bench -p ply-core --bench gomoku`):
//!
//! 1. the incremental update against a full recount: the same moves played
//!    with [`Game::play`] (which rewrites only the points within five of
//!    the stone along its four lines) and with a recount of every point's
//!    patterns after each, and the ratio of the two;
//! 2. the engine's nodes per second at a fixed depth from a few positions;
//! 3. the VCF search's positions per second, proving wins and their absence
//!    on random middle-game positions.
//!
//! Times on a shared machine are noisy: compare the ratios and node counts.

use std::time::Instant;

use ply_core::prelude::*;
use ply_core::search::iterative_deepening;
use ply_games::Gomoku;

/// Random positions: `count` games of `min` to `min + span - 1` stones near the centre.
fn positions(
    g: &Gomoku,
    count: usize,
    seed: u64,
    min: u64,
    span: u64,
) -> Vec<<Gomoku as Game>::State> {
    let mut x = seed;
    let mut next = move |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut s = g.initial_state();
        let stones = min + next(span);
        while (s.stones() as u64) < stones && !g.is_terminal(&s) {
            moves.clear();
            g.legal_moves(&s, &mut moves);
            moves.retain(|&p| {
                let (x, y) = g.xy(p);
                (3..12).contains(&x) && (3..12).contains(&y)
            });
            let p = moves[next(moves.len() as u64) as usize];
            s = g.play(&s, p);
        }
        if !g.is_terminal(&s) {
            out.push(s);
        }
    }
    out
}

fn main() {
    let g = Gomoku::new(15, false).unwrap();
    let games = positions(&g, 200, 7, 10, 31);

    // 1. Incremental update against a full recount, on the same moves.
    let lines: Vec<Vec<u16>> = games.iter().map(|s| g.moves_of(s)).collect();
    let played: usize = lines.iter().map(Vec::len).sum();
    let start = Instant::now();
    let mut check = 0u64;
    for line in &lines {
        let mut s = g.initial_state();
        for &p in line {
            s = g.play(&s, p);
        }
        check = check.wrapping_add(g.hash_key(&s));
    }
    let incremental = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for line in &lines {
        let mut s = g.initial_state();
        for &p in line {
            s = g.play(&s, p);
            g.recount(&mut s);
        }
        check = check.wrapping_add(g.hash_key(&s));
    }
    let recount = start.elapsed().as_secs_f64();
    println!(
        "update: {played} moves; incremental {:.0} ns a move, with a full recount {:.0} ns: the recount costs {:.1}x (check {check:x})",
        incremental / played as f64 * 1e9,
        recount / played as f64 * 1e9,
        recount / incremental
    );

    // 2. The engine at a fixed depth.
    let opts = SearchOptions {
        depth: Some(8),
        tt_mb: 16,
        ..SearchOptions::engine()
    };
    let (mut nodes, mut secs) = (0u64, 0.0);
    for s in games.iter().take(12) {
        let t = Instant::now();
        let mut stats = ply_core::observe::Stats::default();
        iterative_deepening(&g, s, &opts, None, &mut stats, |_| {}).unwrap();
        secs += t.elapsed().as_secs_f64();
        nodes += stats.nodes;
    }
    println!(
        "engine, depth 8, 12 positions: {nodes} nodes in {secs:.2} s, {:.2} M nodes/s",
        nodes as f64 / secs / 1e6
    );

    // 3. The VCF search, on fuller boards, where both sides have fours.
    let full = positions(&g, 2_000, 11, 30, 40);
    let (mut nodes, mut wins, mut secs) = (0u64, 0, 0.0);
    for s in &full {
        let t = Instant::now();
        let found = g.threat_win(s, 10_000_000);
        secs += t.elapsed().as_secs_f64();
        nodes += found.nodes;
        wins += usize::from(found.win.is_some());
    }
    println!(
        "vcf, {} positions ({wins} won): {nodes} positions searched in {secs:.2} s, {:.2} M positions/s",
        full.len(),
        nodes as f64 / secs / 1e6
    );
}
