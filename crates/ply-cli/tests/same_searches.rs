//! Regression pins: every deterministic search returns the value, best move
//! and node count it returned before the redesign of the game traits, the
//! search's named steps and the report types (measured on the build before
//! it, commit 5f1954a). A change that alters what a search computes, or how
//! many nodes it visits, shows here first; a deliberate one updates these
//! numbers in its own commit, saying why.
//!
//! The values themselves are checked against independent sources elsewhere
//! (published counts, brute force, plain minimax); these pin the node counts.

mod common;

use std::io::Write;

use common::{json, ply};

/// `ply compare`: (search, value, best move, nodes) for each row.
fn compare_rows(args: &[&str]) -> Vec<(String, i64, String, u64)> {
    let v = json(args);
    assert_eq!(v["agree"], true);
    v["searches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["search"].as_str().unwrap().to_string(),
                s["value"].as_i64().unwrap(),
                s["best_move"].as_str().unwrap().to_string(),
                s["nodes"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn rows(expected: &[(&str, i64, &str, u64)]) -> Vec<(String, i64, String, u64)> {
    expected
        .iter()
        .map(|&(s, v, m, n)| (s.to_string(), v, m.to_string(), n))
        .collect()
}

#[test]
fn compare_tictactoe() {
    assert_eq!(
        compare_rows(&["compare", "tictactoe", "--json"]),
        rows(&[
            ("minimax", 0, "0", 549_946),
            ("alphabeta", 0, "0", 18_297),
            ("alphabeta+order", 0, "4", 1_857),
            ("alphabeta+order+tt64", 0, "4", 1_070),
            ("alphabeta+order+tt64+pvs", 0, "4", 986),
            ("id+order+tt64+pvs+fast-win", 0, "4", 4_842),
        ])
    );
}

#[test]
fn compare_coins_40_taking_1_3_or_4() {
    let args = [
        "compare",
        "coins",
        "--position",
        "40",
        "--param",
        "take=1,3,4",
        "--json",
    ];
    // Coins is impartial: the nimber search comes last, and agrees.
    let mut got = compare_rows(&args);
    let nimber = got.pop().unwrap();
    assert_eq!(
        (nimber.0.as_str(), nimber.1, nimber.2.as_str()),
        ("nimber", 1, "3")
    );
    assert_eq!(
        got,
        rows(&[
            ("minimax", 1, "3", 313_679_521),
            ("alphabeta", 1, "3", 15_118_889),
            ("alphabeta+order", 1, "3", 2_650_095),
            ("alphabeta+order+tt64", 1, "3", 257),
            ("alphabeta+order+tt64+pvs", 1, "3", 317),
            ("id+order+tt64+pvs+fast-win", 1, "3", 158_954),
        ])
    );
}

/// The engine to depth 9 on four positions: value, best move, nodes.
#[test]
fn chess_depth_9() {
    let cases = [
        ("startpos", 32, "b1c3", 90_136),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            -43,
            "e2a6",
            115_680,
        ),
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            100_000,
            "g3g6",
            1_102_445,
        ),
        (
            "r1bqkb1r/pp1npppp/2p2n2/3p4/3P4/5NP1/PPP1PPBP/RNBQK2R w KQkq - 2 5",
            69,
            "e1g1",
            86_542,
        ),
    ];
    for (fen, value, best, nodes) in cases {
        let v = json(&[
            "solve",
            "chess",
            "--position",
            fen,
            "--depth",
            "9",
            "--json",
            "-q",
        ]);
        assert_eq!(v["value"], value, "{fen}");
        assert_eq!(v["best_move"], best, "{fen}");
        assert_eq!(v["stats"]["nodes"], nodes, "{fen}");
    }
}

/// A batch of Connect Four positions: every score matches the set's, and
/// the nodes add up to what they did.
fn batch_nodes(set: &str, lines: usize, weak: bool) -> u64 {
    let text = std::fs::read_to_string(format!(
        "{}/../../testdata/connect4/{set}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let dir = std::env::temp_dir().join(format!("ply-pin-{}-{set}-{weak}", std::process::id()));
    let mut f = std::fs::File::create(&dir).unwrap();
    for line in text.lines().take(lines) {
        writeln!(f, "{line}").unwrap();
    }
    drop(f);
    let path = dir.to_str().unwrap();
    let mut args = vec!["solve", "connect4", "--batch", path, "-q"];
    if weak {
        args.push("--weak");
    }
    let out = ply().args(&args).output().unwrap();
    let _ = std::fs::remove_file(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let solved: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("positions"))
        .collect();
    assert_eq!(solved.len(), lines);
    solved
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap().parse::<u64>().unwrap())
        .sum()
}

#[test]
fn connect4_batches_strong_and_weak() {
    assert_eq!(batch_nodes("Test_L2_R1", 1000, false), 421_986);
    assert_eq!(batch_nodes("Test_L2_R1", 1000, true), 472_259);
    assert_eq!(batch_nodes("Test_L1_R1", 1000, false), 3_276_938);
    // Weak solves of Test_L1_R1 take 2 ms each: the first 200 lines.
    assert_eq!(batch_nodes("Test_L1_R1", 200, true), 4_044_872);
}

#[test]
fn pig_by_expectiminimax_with_and_without_star1() {
    for (star1, nodes) in [(false, 613), (true, 587)] {
        let mut args = vec!["solve", "pig", "--position", "35-20+12", "--json", "-q"];
        if star1 {
            args.push("--star1");
        }
        let v = json(&args);
        assert_eq!(v["value"], 50_365.643_518_519);
        assert_eq!(v["best_move"], "roll");
        assert_eq!(v["stats"]["nodes"], nodes, "star1 {star1}");
    }
}

#[test]
fn seeded_mcts_analysis() {
    let v = json(&[
        "analyze",
        "tictactoe",
        "--position",
        "XO.X..O..",
        "--algo",
        "mcts",
        "--seed",
        "7",
        "--json",
    ]);
    let visits: Vec<(&str, u64)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap(), m["visits"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        visits,
        [("4", 9799), ("7", 66), ("8", 48), ("2", 45), ("5", 42)]
    );
}
