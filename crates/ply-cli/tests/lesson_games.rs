//! The lesson's exercise games through the command line: solve with every
//! search (alpha-beta's value is minimax's, the nimber search agrees on
//! impartial games), traces of any game, and bad input refused.

mod common;

use common::{fails, json};

/// (game, position, value from MAX's view, impartial), each small enough
/// for minimax.
const CASES: [(&str, &str, i64, bool); 8] = [
    ("coinrow", "10 30 5 8", 23, false),
    ("coinrow", "4 4 9 4 +3/min", -2, false),
    ("grundy", "7", -1, true),
    ("grundy", "3 5 6", 1, true),
    ("primes", "12 18", -1, true),
    ("hackenbush", "(()(())) (())", 1, true),
    ("coloring", "4:1-2,2-3,3-4", 1, false),
    ("divisor", "12", 1, true),
];

#[test]
fn every_search_agrees_on_the_lesson_games() {
    for (game, position, value, impartial) in CASES {
        for algo in ["minimax", "alphabeta", "id", "score"] {
            let v = json(&[
                "solve",
                game,
                "--position",
                position,
                "--algo",
                algo,
                "--json",
                "-q",
            ]);
            assert_eq!(v["value"], value, "{game} {position} by {algo}");
        }
        let c = json(&["compare", game, "--position", position, "--json"]);
        assert_eq!(c["agree"], true, "{game} {position}");
        let names: Vec<&str> = c["searches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["search"].as_str().unwrap())
            .collect();
        assert_eq!(names.contains(&"nimber"), impartial, "{game}: {names:?}");
        if impartial {
            let n = json(&[
                "solve",
                game,
                "--position",
                position,
                "--algo",
                "nimber",
                "--json",
            ]);
            assert_eq!(n["value"], value, "{game} {position} by nimbers");
            assert_eq!(n["nimber"] != 0, value == 1, "{game} {position}");
        }
    }
}

/// Grundy's game on heaps alpha-beta could not finish: the nimber is the
/// XOR of the single heaps' (each found by its own search), and the best
/// move leads to nimber 0.
#[test]
fn nimbers_of_big_sums() {
    let single = |h: u32| {
        json(&[
            "solve",
            "grundy",
            "--position",
            &h.to_string(),
            "--algo",
            "nimber",
            "--json",
        ])["nimber"]
            .as_u64()
            .unwrap()
    };
    let v = json(&[
        "solve",
        "grundy",
        "--position",
        "40 50 60",
        "--algo",
        "nimber",
        "--json",
    ]);
    let g = single(40) ^ single(50) ^ single(60);
    assert_eq!(v["nimber"], g);
    assert_eq!(v["value"], if g != 0 { 1 } else { -1 });
    let a = json(&[
        "analyze",
        "grundy",
        "--position",
        "40 50 60",
        "--algo",
        "nimber",
        "--json",
    ]);
    let best = v["best_move"].as_str().unwrap();
    let after = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == best)
        .unwrap();
    assert_eq!(after["nimber"], 0, "{after}");
    let e = fails(&["solve", "tictactoe", "--algo", "nimber"]);
    assert!(e.contains("not impartial"), "{e}");
}

/// The API fuzzer's slow input (a trace with its pruned leaves listed: it
/// took over a minute under the fuzzer when each leaf was looked up in the
/// list of evaluated ones): every leaf of the tree is evaluated or pruned,
/// as many as a brute-force count of the game's leaves.
#[test]
fn a_trace_of_a_big_tree_lists_every_leaf() {
    let t = json(&[
        "trace",
        "coins",
        "--position",
        "33",
        "--param",
        "take=2,3,4",
        "--json",
    ]);
    fn leaves(n: u32) -> u64 {
        let moves: Vec<u32> = [2, 3, 4].into_iter().filter(|&k| k <= n).collect();
        if moves.is_empty() {
            1
        } else {
            moves.iter().map(|k| leaves(n - k)).sum()
        }
    }
    let evaluated = t["evaluated"].as_array().unwrap().len() as u64;
    let pruned = t["pruned"].as_array().unwrap().len() as u64;
    assert_eq!(evaluated + pruned, leaves(33));
}

/// The API fuzzer's next slow input: a trace whose line is thousands of
/// plies long (its rows name nodes by their whole path: 20,000 coins taken
/// one at a time made 2.8 GB of trace in 95 s). Past 100 plies a trace is
/// refused, whichever search; a line of exactly 100 plies is traced whole,
/// one leaf at ply 100.
#[test]
fn a_trace_deeper_than_its_limit_is_refused() {
    /// `ply trace coins` of `coins` taking `take`, with `extra` flags.
    fn coins<'a>(coins: &'a str, take: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["trace", "coins", "--position", coins, "--param", take];
        args.extend_from_slice(extra);
        args
    }
    for algo in ["minimax", "alphabeta", "expectiminimax"] {
        let e = fails(&coins("20000", "take=1", &["--algo", algo]));
        assert!(e.contains("deeper than 100 plies"), "{algo}: {e}");
        assert!(e.contains("--depth of at most 100"), "{algo}: {e}");
    }
    let e = fails(&coins("7670", "take=1,7,4", &[]));
    assert!(e.contains("deeper than 100 plies"), "{e}");
    let t = json(&coins("100", "take=1", &["--json"]));
    let evaluated = t["evaluated"].as_array().unwrap();
    assert_eq!(evaluated.len(), 1);
    assert_eq!(evaluated[0].as_str().unwrap().split('.').count(), 100);
    // A depth within the limit traces the deep line's first plies.
    let t = json(&coins("20000", "take=1", &["--depth", "100", "--json"]));
    assert_eq!(t["evaluated"].as_array().unwrap().len(), 1);
}

/// A trace of any game: the value is the search's, the nodes are named by
/// moves, and every leaf is either evaluated or pruned.
#[test]
fn traces_of_games() {
    let t = json(&["trace", "coinrow", "--position", "1 5 2", "--json"]);
    let s = json(&[
        "solve",
        "coinrow",
        "--position",
        "1 5 2",
        "--algo",
        "alphabeta",
        "--json",
    ]);
    assert_eq!(t["value"], s["value"]);
    assert_eq!(t["game"], "coinrow");
    let evaluated = t["evaluated"].as_array().unwrap().len();
    let pruned = t["pruned"].as_array().unwrap().len();
    // Three coins, L or R each time: 2^3 leaves.
    assert_eq!(evaluated + pruned, 8);
    assert!(
        t["evaluated"][0].as_str().unwrap().starts_with("L.L"),
        "{}",
        t["evaluated"]
    );
    let root = &t["steps"][0];
    assert_eq!(
        (root["node"].as_str(), root["position"].as_str()),
        (Some(""), Some("1 5 2"))
    );
    // Minimax evaluates every leaf.
    let m = json(&[
        "trace",
        "coinrow",
        "--position",
        "1 5 2",
        "--algo",
        "minimax",
        "--json",
    ]);
    assert_eq!(m["evaluated"].as_array().unwrap().len(), 8);
    assert_eq!(m["value"], t["value"]);
    // A depth limit scores the horizon with the evaluation.
    let d = json(&["trace", "tictactoe", "--depth", "2", "--json"]);
    assert_eq!(d["depth_limit"], 2);
    // Too big to trace: a clear message, not a flood.
    let e = fails(&["trace", "tictactoe", "--algo", "minimax"]);
    assert!(e.contains("--depth"), "{e}");
    // The tree syntax still works alone.
    let tree = json(&["trace", "((3 5 7) (2 9 1))", "--json"]);
    assert_eq!(tree["pruned"], serde_json::json!(["2.2", "2.3"]));
}

#[test]
fn bad_input_names_what_and_where() {
    for (args, what) in [
        (vec!["solve", "coinrow", "--position", ""], "empty row"),
        (vec!["solve", "coinrow", "--position", "5 x 3"], "column 3"),
        (vec!["solve", "grundy", "--position", "3 0"], "column 3"),
        (vec!["solve", "primes", "--position", "12 0"], "column 4"),
        (
            vec!["solve", "hackenbush", "--position", "(()"],
            "never closed",
        ),
        (vec!["solve", "hackenbush", "--position", "())"], "column 3"),
        (
            vec!["solve", "coloring", "--position", "4:1-5"],
            "not a vertex from 1 to 4",
        ),
        (vec!["solve", "coloring", "--position", "4:2-2"], "loop"),
        (vec!["solve", "coloring", "--param", "k=0"], "k=0"),
        (vec!["solve", "divisor", "--position", "0"], "out of range"),
        (
            vec!["solve", "divisor", "--position", "12", "--moves", "5"],
            "illegal",
        ),
        (vec!["solve", "coinrow", "--moves", "X"], "not a move"),
        (vec!["trace", "grundy", "--position", "3 x"], "column 3"),
        (vec!["trace", "nosuchgame", "--position", "1"], "not a game"),
    ] {
        let e = fails(&args);
        assert!(e.contains(what), "{args:?}: {e}");
    }
}
