//! The committed Connect Four network (`ply learn connect4 --supervised`),
//! graded by the exact solver on every tenth position of the public
//! middle-game test set (Pascal Pons' `Test_L2_R1`).

use ply_core::Notation;
use ply_games::connect4::Connect4;
use ply_learn::grade::{self, accuracy};
use ply_learn::{Network, builtin, check_fits};

/// Issue 40 asks the raw network for at least 85% optimal moves in the
/// middle game; the committed one measured 94% on this sample when it was
/// saved (its metadata), and the test holds it above 90%.
#[test]
fn the_committed_network_plays_optimal_middle_game_moves() {
    let game = Connect4::standard();
    let net = Network::from_bytes(builtin("connect4").unwrap()).unwrap();
    check_fits(&game, &net).unwrap();
    let set = include_str!("../../../testdata/connect4/Test_L2_R1");
    let states: Vec<_> = set
        .lines()
        .step_by(10)
        .map(|l| {
            game.parse_position(l.split_whitespace().next().unwrap())
                .unwrap()
        })
        .collect();
    assert_eq!(states.len(), 100);
    let graded = grade::grade_parallel(&game, &states, None, 2, 64, &mut |_| {});
    // The solver's outcomes agree with the set's published scores.
    for (g, line) in graded.iter().zip(set.lines().step_by(10)) {
        let score: i32 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(g.outcome, score.signum(), "{line}");
    }
    let acc = accuracy(&game, &net, &graded);
    assert!(acc.moves >= 0.90, "{acc:?}");
}
