//! Pig against its exact solution. The test solves pig to 100 by value
//! iteration itself (Neller and Presser's formulation), then checks the
//! engine's roll-or-hold choices (expectiminimax over the game's race-model
//! evaluation, which knows nothing of the solution) against the optimal ones,
//! and against the classic rule "hold at a turn total of 20".

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::prelude::*;
use ply_core::search::expectiminimax;
use ply_games::Pig;
use ply_games::pig::{PigMove, PigState};

const GOAL: usize = 100;

/// P[i][j][k]: the optimal win probability of the player to move with score
/// i, the opponent's score j and turn total k, at a decision.
struct Solution {
    p: Vec<f64>,
}

impl Solution {
    fn at(&self, i: usize, j: usize, k: usize) -> f64 {
        if i + k >= GOAL {
            1.0
        } else {
            self.p[(i * GOAL + j) * GOAL + k]
        }
    }

    fn roll(&self, i: usize, j: usize, k: usize) -> f64 {
        let mut v = 1.0 - self.at(j, i, 0);
        for r in 2..=6 {
            v += self.at(i, j, k + r);
        }
        v / 6.0
    }

    fn hold(&self, i: usize, j: usize, k: usize) -> f64 {
        1.0 - self.at(j, i + k, 0)
    }

    fn solve() -> Solution {
        let mut s = Solution {
            p: vec![0.5; GOAL * GOAL * GOAL],
        };
        loop {
            let mut delta = 0.0f64;
            for i in 0..GOAL {
                for j in 0..GOAL {
                    for k in 0..GOAL - i {
                        let roll = s.roll(i, j, k);
                        let v = if k == 0 {
                            roll
                        } else {
                            roll.max(s.hold(i, j, k))
                        };
                        let slot = &mut s.p[(i * GOAL + j) * GOAL + k];
                        delta = delta.max((v - *slot).abs());
                        *slot = v;
                    }
                }
            }
            if delta < 1e-10 {
                return s;
            }
        }
    }
}

#[test]
fn engine_decides_pig_at_least_as_well_as_hold_at_20() {
    let sol = Solution::solve();
    let first = sol.at(0, 0, 0);
    println!("optimal first-player win probability at 100: {first:.4}");
    assert!((first - 0.5306).abs() < 0.0005, "{first}");

    let game = Pig::new(GOAL as u32).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let mut states = Vec::new();
    while states.len() < 1_000 {
        let i = rng.random_range(0..GOAL - 1);
        let j = rng.random_range(0..GOAL);
        let k = rng.random_range(1..GOAL - i);
        if (sol.roll(i, j, k) - sol.hold(i, j, k)).abs() > 0.001 {
            states.push((i, j, k));
        }
    }
    let optimal_rolls = |&(i, j, k): &(usize, usize, usize)| sol.roll(i, j, k) > sol.hold(i, j, k);
    let rule = states
        .iter()
        .filter(|s| (s.2 < 20) == optimal_rolls(s))
        .count();
    let depth = 6;
    let engine = states
        .iter()
        .filter(|s| {
            let st = PigState {
                scores: [s.0 as u16, s.1 as u16],
                turn: s.2 as u16,
                to_move: Player::Max,
                rolling: false,
            };
            let out = expectiminimax(
                &game,
                &st,
                &SearchOptions::depth(depth),
                true,
                &mut NoObserver,
            )
            .unwrap();
            (out.best_move == Some(PigMove::Roll)) == optimal_rolls(s)
        })
        .count();
    println!(
        "agreement with the optimal policy on 1,000 states: expectiminimax depth {depth}: {engine}, hold at 20: {rule}"
    );
    assert!(engine >= rule, "engine {engine} < hold-at-20 {rule}");
}

#[test]
fn star1_returns_the_same_values_with_fewer_nodes() {
    let game = Pig::new(GOAL as u32).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut plain_nodes, mut star_nodes) = (0, 0);
    for _ in 0..50 {
        let i = rng.random_range(0..GOAL as u16);
        let j = rng.random_range(0..GOAL as u16);
        let k = rng.random_range(0..GOAL as u16 - i);
        let st = PigState {
            scores: [i, j],
            turn: k,
            to_move: Player::Max,
            rolling: false,
        };
        let (mut a, mut b) = (Stats::default(), Stats::default());
        let plain = expectiminimax(&game, &st, &SearchOptions::depth(5), false, &mut a).unwrap();
        let star = expectiminimax(&game, &st, &SearchOptions::depth(5), true, &mut b).unwrap();
        assert!(
            (plain.value - star.value).abs() < 1e-6,
            "{} vs {}",
            plain.value,
            star.value
        );
        assert_eq!(plain.best_move, star.best_move);
        assert!(b.nodes <= a.nodes);
        plain_nodes += a.nodes;
        star_nodes += b.nodes;
    }
    println!("Star1 on pig, depth 5: {star_nodes} nodes vs {plain_nodes} without");
    assert!(star_nodes < plain_nodes);
}
