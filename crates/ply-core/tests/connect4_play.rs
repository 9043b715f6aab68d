//! Perfect play at Connect Four: from won positions of the public test sets
//! the solver, playing the side to move, wins every game against a random
//! and a greedy opponent; from drawn positions (of all the quick sets: the
//! two hold only 12) it never loses.

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::play::{Agent, RandomAgent, play_game};
use ply_core::prelude::*;
use ply_core::search::alphabeta::Budget;
use ply_core::search::solve_exact;
use ply_games::Connect4;
use ply_games::connect4::C4State;

/// The exact solver as a player; its table lives across the game.
struct Solver(Engine<u8>);

impl Agent<Connect4> for Solver {
    fn choose(&mut self, game: &Connect4, state: &C4State) -> Option<u8> {
        solve_exact(
            &mut self.0,
            game,
            state,
            false,
            &Budget::default(),
            &mut NoObserver,
            &mut |_, _| {},
        )
        .expect("Connect Four has no chance nodes and no budget here")
        .best_move
    }
}

/// Wins at once when it can, never allows an immediate win when it can
/// avoid it, otherwise random (seeded).
struct Greedy(Xoshiro256PlusPlus);

impl Agent<Connect4> for Greedy {
    fn choose(&mut self, game: &Connect4, state: &C4State) -> Option<u8> {
        if let Some((m, _)) = game.immediate_win(state) {
            return Some(m);
        }
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let safe: Vec<u8> = moves
            .iter()
            .copied()
            .filter(|&m| game.immediate_win(&game.play(state, m)).is_none())
            .collect();
        let pool = if safe.is_empty() { &moves } else { &safe };
        Some(pool[self.0.random_range(0..pool.len())])
    }
}

fn positions(set: &str) -> Vec<(String, i32)> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/connect4")
        .join(set);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_string(), it.next()?.parse().ok()?))
        })
        .collect()
}

/// Plays `pos` with the solver on the side to move; the result for that side.
fn play_out(game: &Connect4, moves: &str, opponent: &mut dyn Agent<Connect4>) -> i32 {
    let start = game.parse_position(moves).unwrap();
    let me = game.to_move(&start);
    let opts = SearchOptions {
        tt_mb: 16,
        ordering: true,
        killers: false,
        shortcuts: true,
        ..SearchOptions::default()
    };
    let mut solver = Solver(Engine::new(game, &opts));
    let r = match me {
        Player::Max => play_game(game, &start, &mut solver, opponent, 100),
        Player::Min => play_game(game, &start, opponent, &mut solver, 100),
    };
    assert!(r.finished);
    game.utility(&r.final_state).for_player(me).0.signum()
}

#[test]
fn wins_every_won_position_and_never_loses_a_drawn_one() {
    let game = Connect4::standard();
    let (l2, l1) = (positions("Test_L2_R1"), positions("Test_L1_R1"));
    // 25 won positions from each set.
    let won: Vec<_> = l2
        .iter()
        .filter(|p| p.1 > 0)
        .take(25)
        .chain(l1.iter().filter(|p| p.1 > 0).take(25))
        .cloned()
        .collect();
    let mut all = l2.clone();
    all.extend(l1.iter().cloned());
    // Those two sets hold few draws: the other quick sets add theirs.
    all.extend(positions("Test_L3_R1"));
    all.extend(positions("Test_L2_R2"));
    let drawn: Vec<_> = all.iter().filter(|p| p.1 == 0).take(50).collect();
    assert_eq!((won.len(), drawn.len()), (50, 50));
    for (i, (moves, _)) in won.iter().enumerate() {
        let seed = i as u64;
        assert_eq!(
            play_out(&game, moves, &mut RandomAgent::new(seed)),
            1,
            "{moves} vs random"
        );
        let mut greedy = Greedy(Xoshiro256PlusPlus::seed_from_u64(seed));
        assert_eq!(play_out(&game, moves, &mut greedy), 1, "{moves} vs greedy");
    }
    let mut drawn_wins = 0;
    for (i, (moves, _)) in drawn.iter().enumerate() {
        let seed = 1000 + i as u64;
        let r = play_out(&game, moves, &mut RandomAgent::new(seed));
        assert!(r >= 0, "{moves} vs random");
        let mut greedy = Greedy(Xoshiro256PlusPlus::seed_from_u64(seed));
        let g = play_out(&game, moves, &mut greedy);
        assert!(g >= 0, "{moves} vs greedy");
        drawn_wins += r + g;
    }
    println!("100 won games won; 100 drawn positions: {drawn_wins} won from a mistake, none lost");
}
