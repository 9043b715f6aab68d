//! The `ply` binary, driven as a user would, checked against the published numbers.

mod common;

use common::{fails, json, ply};
use serde_json::Value;

#[test]
fn empty_tictactoe_published_counts() {
    let m = json(&["solve", "tictactoe", "--algo", "minimax", "--json"]);
    assert_eq!(m["value"], 0);
    assert_eq!(m["stats"]["nodes"], 549_946);
    assert_eq!(m["stats"]["leaves"], 255_168);
    let a = json(&["solve", "tictactoe", "--algo", "alphabeta", "--json"]);
    assert_eq!(a["value"], 0);
    assert_eq!(a["stats"]["nodes"], 18_297);
    assert_eq!(a["game"], "tictactoe");
    assert_eq!(a["position"], ".........");
    assert_eq!(a["pv"].as_array().unwrap().len(), 9);
    assert_eq!(a["best_move"], a["pv"][0]);
    for key in ["leaves", "cutoffs", "depth", "time_ms"] {
        assert!(a["stats"].get(key).is_some(), "stats.{key}");
    }
    let c = json(&["count", "tictactoe", "--json"]);
    assert_eq!(
        (c["positions"].as_u64(), c["terminal"].as_u64()),
        (Some(5_478), Some(958))
    );
}

#[test]
fn fork_position_analysis() {
    let a = json(&["analyze", "tictactoe", "--position", "XO.X..O..", "--json"]);
    let moves: Vec<(String, i64)> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["value"].as_i64().unwrap(),
            )
        })
        .collect();
    let expect = [("4", 1), ("7", 0), ("2", -1), ("5", -1), ("8", -1)];
    assert_eq!(moves, expect.map(|(m, v)| (m.to_string(), v)));
    // The text form draws the board with the values in the empty squares.
    let out = ply()
        .args(["analyze", "tictactoe", "--position", "XO.X..O.."])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(" +1 "), "{text}");
    assert!(text.lines().next().unwrap().contains('X'));
}

#[test]
fn coins() {
    let s = json(&["solve", "coins", "--position", "4", "--json"]);
    assert_eq!(
        (s["value"].as_i64(), s["best_move"].as_str()),
        (Some(1), Some("1"))
    );
    for n in ["3", "6", "9", "12"] {
        for algo in ["minimax", "alphabeta"] {
            let s = json(&["solve", "coins", "--position", n, "--algo", algo, "--json"]);
            assert_eq!(s["value"], -1, "{n} coins, {algo}");
        }
    }
    let s = json(&[
        "solve",
        "coins",
        "--position",
        "10",
        "--param",
        "take=1,3,4",
        "--json",
    ]);
    // With takes {1,3,4} the losing counts are 0, 2, 7, 9, 14, ... (mod 7 in {0, 2}).
    assert_eq!(s["value"], 1);
    let s = json(&[
        "solve",
        "coins",
        "--position",
        "9",
        "--param",
        "take=1,3,4",
        "--json",
    ]);
    assert_eq!(s["value"], -1);
}

fn trace(tree: &str) -> (i64, usize, Vec<String>) {
    let t = json(&["trace", tree, "--json"]);
    let pruned = t["pruned"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    (
        t["value"].as_i64().unwrap(),
        t["evaluated"].as_array().unwrap().len(),
        pruned,
    )
}

#[test]
fn traces_of_textbook_trees() {
    assert_eq!(trace("((4 6) (3 9) (5 1))"), (4, 5, vec!["2.2".into()]));
    assert_eq!(
        trace("((3 5 7) (2 9 1))"),
        (3, 4, vec!["2.2".into(), "2.3".into()])
    );
    assert_eq!(
        trace("((4 6 9) (2 7 8) (5 3 9))"),
        (4, 6, vec!["2.2".into(), "2.3".into(), "3.3".into()])
    );
    assert_eq!(
        trace("((3 12 8) (2 4 6) (14 5 2))"),
        (3, 7, vec!["2.2".into(), "2.3".into()])
    );
    // Inside a pruned subtree every leaf is listed.
    let (_, _, pruned) = trace("((5 6) ((1 2) (9 9)))");
    assert_eq!(pruned, ["2.2.1", "2.2.2"]);
    // Minimax prunes nothing.
    let t = json(&["trace", "((3 5 7) (2 9 1))", "--algo", "minimax", "--json"]);
    assert_eq!(t["pruned"].as_array().unwrap().len(), 0);
    assert_eq!(t["value"], 3);
}

#[test]
fn trace_steps_and_dot() {
    let t = json(&["trace", "((3 5 7) (2 9 1))", "--json"]);
    let steps = t["steps"].as_array().unwrap();
    let cut = steps.iter().find(|s| s["event"] == "cutoff").unwrap();
    assert_eq!(cut["node"], "2");
    assert_eq!(cut["alpha"], 3);
    assert_eq!(cut["beta"], 2);
    assert_eq!(cut["pruned_children"], 2);
    assert_eq!(steps[0]["alpha"], "-inf");
    let out = ply()
        .args(["trace", "((3 5 7) (2 9 1))", "--dot"])
        .output()
        .unwrap();
    let dot = String::from_utf8(out.stdout).unwrap();
    assert!(dot.starts_with("digraph"));
    assert_eq!(
        dot.matches("style=dashed").count(),
        4,
        "two pruned leaves and their edges"
    );
}

#[test]
fn perft_and_list() {
    let p = json(&["perft", "tictactoe", "--depth", "4", "--json"]);
    assert_eq!(p["nodes"], 3_024);
    let p = json(&["perft", "tictactoe", "--depth", "2", "--divide", "--json"]);
    assert_eq!(p["nodes"], 72);
    assert_eq!(p["divide"].as_array().unwrap().len(), 9);
    let l = json(&["list", "--json"]);
    let names: Vec<&str> = l["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    // The list is the registry's, in its order: none left out.
    let registered: Vec<&str> = ply_games::GAMES.iter().map(|g| g.name).collect();
    assert_eq!(names, registered);
    let algos: Vec<&str> = l["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    let searches: Vec<&str> = ply_service::Algo::ALL.iter().map(|a| a.name()).collect();
    assert_eq!(algos, searches);
    // `ply list` once left the nimber search out.
    assert!(algos.contains(&"nimber"), "{algos:?}");
    // Every search listed is one `--algo` takes: each finds the winning
    // move of coins 4 (an impartial game without chance, which every
    // search of whole positions can play): take 1, leaving the mover a
    // multiple of 3. The CFR searches, for hidden cards, find Kuhn's
    // (holding the king after a pass, bet: at every equilibrium). PUCT,
    // for games a network sees, wins tic-tac-toe's win in one.
    let hidden = ["cfr", "cfr+", "lcfr", "dcfr", "mccfr"];
    for algo in algos {
        if algo == "puct" {
            let v = json(&[
                "solve",
                "tictactoe",
                "-p",
                "XX.OO....",
                "--algo",
                algo,
                "--json",
            ]);
            assert_eq!(v["best_move"], "2", "{algo}: {v}");
            continue;
        }
        if hidden.contains(&algo) {
            let v = json(&["solve", "kuhn", "-p", "KQ:p", "--algo", algo, "--json"]);
            assert_eq!(
                (&v["here"], &v["best_move"]),
                (&"Q:p".into(), &"p".into()),
                "{algo}: {v}"
            );
            let v = json(&["solve", "kuhn", "-p", "QK:p", "--algo", algo, "--json"]);
            assert_eq!(v["best_move"], "b", "{algo}: {v}");
            continue;
        }
        let v = json(&["solve", "coins", "-p", "4", "--algo", algo, "--json"]);
        assert_eq!(v["best_move"], "1", "{algo}: {v}");
    }
    assert_eq!(hidden.len(), l["algorithms"].as_array().unwrap().len() - 8);
}

#[test]
fn mnk_boards_and_depth_limits() {
    let s = json(&[
        "solve",
        "tictactoe",
        "--param",
        "m=4",
        "--param",
        "n=4",
        "--param",
        "k=3",
        "--json",
    ]);
    // 4x4 with 3 in a row is a first-player win.
    assert_eq!(s["value"], 1);
    let d = json(&["solve", "tictactoe", "--depth", "2", "--json"]);
    assert_eq!(d["stats"]["depth"], 2);
    assert_eq!(d["depth_limit"], 2);
}

#[test]
fn bad_input_is_a_clear_error() {
    let e = fails(&["trace", "((1 2) (3"]);
    assert!(e.contains("column") && e.contains("never closed"), "{e}");
    let e = fails(&["trace", "((1 x) (3 4))"]);
    assert!(e.contains("column 5"), "{e}");
    let e = fails(&["trace", ""]);
    assert!(e.contains("empty"), "{e}");
    let e = fails(&["solve", "tictactoe", "--position", "XXXXXXXXX"]);
    assert!(e.contains("impossible position"), "{e}");
    let e = fails(&["solve", "tictactoe", "--position", "XO.X..O."]);
    assert!(e.contains("expected 9 squares, found 8"), "{e}");
    let e = fails(&["solve", "tictactoe", "--moves", "4,4"]);
    assert!(e.contains("move 2") && e.contains("taken"), "{e}");
    let e = fails(&["solve", "tictactoe", "--moves", "9"]);
    assert!(e.contains("move 1") && e.contains("off the board"), "{e}");
    let e = fails(&["solve", "nosuchgame"]);
    assert!(
        e.contains("unknown game 'nosuchgame'") && e.contains("tictactoe"),
        "{e}"
    );
    let e = fails(&["solve", "coins", "--position", "-3"]);
    assert!(e.contains("negative"), "{e}");
    let e = fails(&["solve", "coins", "--param", "take=0"]);
    assert!(e.contains("take=0"), "{e}");
    let e = fails(&["solve", "coins", "--param", "color=red"]);
    assert!(e.contains("unknown parameter"), "{e}");
    let e = fails(&["solve", "tictactoe", "--param", "k=5"]);
    assert!(e.contains("k=5"), "{e}");
    let e = fails(&["perft", "tictactoe", "--depth", "2", "--param", "m"]);
    assert!(e.contains("key=value"), "{e}");
}

#[test]
fn engine_solve_reports_distance() {
    let s = json(&[
        "solve",
        "tictactoe",
        "--position",
        "XO.X..O..",
        "--json",
        "-q",
    ]);
    assert_eq!(s["best_move"], "4");
    assert_eq!(s["value"], 1);
    assert_eq!(s["distance"], 3);
    assert_eq!(s["proven"], true);
    assert!(s["stats"]["tt_hits"].is_u64());
    let s = json(&[
        "solve",
        "tictactoe",
        "--position",
        "XO.X..O..",
        "--algo",
        "alphabeta",
        "--fast-win",
        "--json",
    ]);
    assert_eq!(
        (s["best_move"].as_str(), s["distance"].as_u64()),
        (Some("4"), Some(3))
    );
    // Iterative deepening prints a line per depth on stderr, JSON stays clean.
    let out = ply()
        .args(["solve", "tictactoe", "--algo", "id", "--json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines().filter(|l| l.starts_with("depth")).count() >= 2,
        "{err}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["value"], 0);
}

#[test]
fn compare_agrees_and_ordering_prunes() {
    let c = json(&["compare", "tictactoe", "--json"]);
    assert_eq!(c["agree"], true);
    let s = c["searches"].as_array().unwrap();
    assert_eq!(s.len(), 6);
    assert_eq!(s[0]["nodes"], 549_946);
    assert_eq!(s[1]["nodes"], 18_297);
    for row in &s[2..5] {
        assert!(row["nodes"].as_u64() <= s[1]["nodes"].as_u64(), "{row}");
        assert_eq!(row["value"], 0);
    }
    let c = json(&["compare", "tictactoe", "--depth", "3", "--json"]);
    assert_eq!(c["agree"], true);
}

#[test]
fn play_through_standard_input() {
    // An illegal move, a hint, an undo, then a full game against the engine.
    let script = "4\n4\n9\nhint\nundo\nfoo\n0\n8\n2\n6\n1\n3\n5\n7\n";
    let out = ply()
        .args(["play", "tictactoe", "-q"])
        .write_stdin(script)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("square 4 is taken by X; try again"), "{text}");
    assert!(text.contains("off the board"), "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains("taken back"), "{text}");
    assert!(text.contains("'foo' is not a square"), "{text}");
    assert!(text.contains("engine (MIN) plays"), "{text}");
    // The engine never loses: the game ends in its win or a draw.
    assert!(
        text.contains("game over: a draw") || text.contains("game over: MIN"),
        "{text}"
    );
    // Engine against engine is a draw; JSON records the game.
    let g = json(&["play", "tictactoe", "--human", "none", "--json"]);
    assert_eq!(
        (g["over"].as_bool(), g["value"].as_i64()),
        (Some(true), Some(0))
    );
    assert_eq!(g["moves"].as_array().unwrap().len(), 9);
    // Any game works, in its own notation.
    let g = json(&[
        "play",
        "coins",
        "--position",
        "7",
        "--human",
        "none",
        "--json",
    ]);
    assert_eq!(
        g["value"], 1,
        "7 coins with takes 1,2: the first player wins"
    );
    let out = ply()
        .args(["play", "tree", "-q"])
        .write_stdin("3\n")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("game over"));
}

/// A hand of Kuhn poker in the terminal: the engine's card is face down
/// and its deal unnamed until the hand is over; a hint gives the
/// equilibrium at what the human sees.
#[test]
fn play_poker_with_the_engines_card_hidden() {
    for seed in 1..=6 {
        let out = ply()
            .args(["play", "kuhn", "-q", "--seed", &seed.to_string()])
            .write_stdin("hint\nb\np\n")
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let (before, _) = text.split_once("game over").expect("the hand ends");
        // The last picture is the end of the hand; those before, the play.
        let (play, end) = before.rsplit_once("MAX holds").unwrap();
        assert!(play.contains("MIN holds face down"), "{text}");
        assert!(!play.contains("MIN is dealt"), "{text}");
        for card in ["J ", "Q ", "K "] {
            assert!(!play.contains(&format!("MIN holds {card}")), "{text}");
        }
        assert!(
            play.contains("hint: at what you see (") && play.contains("the equilibrium plays p "),
            "{text}"
        );
        // Once it is over, both cards are shown.
        assert!(
            !end.contains("face down") && end.contains("over: "),
            "{text}"
        );
    }
}

#[test]
fn bad_engine_flags() {
    let e = fails(&["solve", "tictactoe", "--algo", "minimax", "--order"]);
    assert!(e.contains("minimax"), "{e}");
    let e = fails(&[
        "solve",
        "tictactoe",
        "--algo",
        "alphabeta",
        "--time-ms",
        "5",
    ]);
    assert!(e.contains("--time-ms"), "{e}");
    let e = fails(&["trace", "(1 2)", "--algo", "id"]);
    assert!(
        e.contains("minimax, alphabeta, expectiminimax or mcts"),
        "{e}"
    );
}

#[test]
fn expectiminimax_on_chance_trees() {
    let t = json(&[
        "trace",
        "[0.5 (3 12) 0.5 (2 4)]",
        "--algo",
        "expectiminimax",
        "--json",
    ]);
    assert_eq!(t["value"], 8);
    // Chance trees default to expectiminimax; values can be fractional.
    let t = json(&["trace", "([0.25 4 0.75 (8 0)] 1)", "--json"]);
    assert_eq!(t["value"], 1.0);
    let t = json(&["trace", "([0.25 4 0.75 (8 2)] 1)", "--json"]);
    assert_eq!(t["value"], 2.5);
    let steps = t["steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .any(|s| s["player"] == "CHANCE" && s["probability"] == 0.75)
    );
    // Star1 prunes: leaves in [0, 10], after 1 at p=0.5 the node cannot beat 6.
    let t = json(&["trace", "((6 7) [0.5 1 0.5 (10 0)])", "--star1", "--json"]);
    assert_eq!(t["value"], 6);
    assert_eq!(t["pruned"], serde_json::json!(["2.2.1", "2.2.2"]));
    let s = json(&[
        "solve",
        "tree",
        "--position",
        "[0.5 (3 12) 0.5 (2 4)]",
        "--json",
    ]);
    assert_eq!(s["value"], 8);
}

#[test]
fn bad_chance_trees() {
    let e = fails(&["trace", "[0.5 1 0.4 2]"]);
    assert!(e.contains("column 1") && e.contains("sum to 0.9"), "{e}");
    let e = fails(&["trace", "(1 [-0.5 1 1.5 2])"]);
    assert!(e.contains("column 5") && e.contains("negative"), "{e}");
    let e = fails(&["trace", "(1 [])"]);
    assert!(
        e.contains("column 4") && e.contains("empty chance node"),
        "{e}"
    );
    let e = fails(&["trace", "[0.5 (1 2) 0.5]"]);
    assert!(e.contains("column 15") && e.contains("no child"), "{e}");
    let e = fails(&["trace", "[0.5 (1 2) 0.5 (3 4)]", "--algo", "alphabeta"]);
    assert!(e.contains("chance"), "{e}");
    let e = fails(&["solve", "pig", "--algo", "alphabeta"]);
    assert!(e.contains("expectiminimax"), "{e}");
}

#[test]
fn mcts_from_the_command_line() {
    let a = json(&[
        "analyze",
        "tictactoe",
        "--position",
        "XO.X..O..",
        "--algo",
        "mcts",
        "--iterations",
        "3000",
        "--seed",
        "5",
        "--json",
    ]);
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves[0]["move"], "4");
    let total: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert_eq!(total, 3000);
    assert!(
        moves
            .iter()
            .all(|m| (0.0..=1.0).contains(&m["mean"].as_f64().unwrap()))
    );
    let again = json(&[
        "analyze",
        "tictactoe",
        "--position",
        "XO.X..O..",
        "--algo",
        "mcts",
        "--iterations",
        "3000",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(a["moves"], again["moves"], "a seed reproduces a run");
    let s = json(&[
        "solve",
        "tictactoe",
        "--algo",
        "mcts",
        "--iterations",
        "4000",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(s["stats"]["iterations"], 4000);
    // The board shows visit counts in the squares.
    let out = ply()
        .args([
            "analyze",
            "tictactoe",
            "--position",
            "XO.X..O..",
            "--algo",
            "mcts",
            "--iterations",
            "500",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("how often MCTS visited"));
    let g = json(&[
        "play",
        "tictactoe",
        "--human",
        "none",
        "--algo",
        "mcts",
        "--iterations",
        "20000",
        "--json",
    ]);
    assert_eq!(g["value"], 0, "MCTS against itself draws");
}

#[test]
fn pig_from_the_command_line() {
    let a = json(&["analyze", "pig", "--position", "35-20+12", "--json"]);
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    for m in moves {
        let p = m["win_probability"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p));
    }
    // Reaching 100 needs only 8 more: holding is certain to come later,
    // rolling risks little; both are estimated above one half.
    let s = json(&["solve", "pig", "--position", "92-50", "--json"]);
    assert_eq!(s["best_move"], "roll");
    assert!(s["win_probability"].as_f64().unwrap() > 0.5);
    let g = json(&[
        "play",
        "pig",
        "--param",
        "target=20",
        "--human",
        "none",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(g["over"], true);
    let out = ply()
        .args(["play", "pig", "--seed", "1", "-q"])
        .write_stdin("roll\nhold\nbogus\nquit\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("MAX rolls a "), "{text}");
    let e = fails(&["solve", "pig", "--position", "35-20+x"]);
    assert!(e.contains("column 7"), "{e}");
    let e = fails(&["solve", "pig", "--param", "target=1"]);
    assert!(e.contains("target"), "{e}");
}

#[test]
fn deep_games_do_not_overflow_the_stack() {
    // 100,000 plies of recursion (the most any search follows); the table
    // keeps it linear.
    let s = json(&[
        "solve",
        "coins",
        "--position",
        "100000",
        "--algo",
        "alphabeta",
        "--tt-mb",
        "64",
        "--json",
    ]);
    assert_eq!(
        s["value"], 1,
        "100,000 is not a multiple of 3: the first player wins"
    );
    assert_eq!(s["stats"]["depth"], 100_000);
}

#[test]
fn a_line_that_never_ends_is_an_error_not_a_crash() {
    // Pig can roll for ever. The api fuzz target found depth 8,663,332
    // overflowing the search thread's stack (the process aborted); the
    // searches now stop at MAX_PLY plies and say why, and a depth past it
    // is refused before any search.
    let e = fails(&[
        "solve",
        "pig",
        "--position",
        "58-20+11",
        "--depth",
        "100000",
    ]);
    assert!(e.contains("reached 100000 plies"), "{e}");
    let e = fails(&[
        "solve",
        "pig",
        "--position",
        "58-20+11",
        "--depth",
        "8663332",
    ]);
    assert!(e.contains("at most 100000"), "{e}");
    let e = fails(&["perft", "pig", "--depth", "8663332"]);
    assert!(e.contains("at most 100000"), "{e}");
}

/// A table bigger than the cap, or than the machine can reserve, is a
/// clear error naming the flag (found by the api fuzz target: 444,444,444,444,444
/// MiB overflowed the allocator's size and panicked).
#[test]
fn a_table_too_big_is_refused() {
    let e = fails(&[
        "solve",
        "connect4",
        "--moves",
        "4,3",
        "--algo",
        "id",
        "--tt-mb",
        "444444444444444",
    ]);
    assert!(e.contains("--tt-mb 444444444444444: a table of"), "{e}");
    let e = fails(&["solve", "tictactoe", "--tt-mb", "65537"]);
    assert!(e.contains("more than the 65536 MiB allowed"), "{e}");
    let e = fails(&["compare", "coins", "--position", "5", "--tt-mb", "65537"]);
    assert!(e.contains("--tt-mb 65537"), "{e}");
    let out = ply().args(["uci", "--hash", "65537"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--hash 65537"), "{err}");
}

/// `ply count` keeps every position it finds: its cap (`--max-positions`)
/// stops it with a clear error one position past the published 5,478,
/// never an out-of-memory kill.
#[test]
fn count_stops_at_its_cap() {
    let out = ply()
        .args(["count", "tictactoe", "--max-positions", "5477"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: more than 5,477 distinct positions"),
        "{err}"
    );
    let at_cap = json(&["count", "tictactoe", "--max-positions", "5478", "--json"]);
    assert_eq!(at_cap["positions"], 5478);
}
