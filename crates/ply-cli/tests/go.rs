//! Go through the command line: MCTS by default, the exact searches on a
//! tiny board, positions and parameters refused in a player's words.

mod common;

use common::{fails, json};

#[test]
fn go_is_searched_by_mcts_unless_told_otherwise() {
    let v = json(&["solve", "go", "--iterations", "300", "--json", "-q"]);
    assert_eq!(v["method"], "mcts", "{v}");
    assert_eq!(v["stats"]["iterations"], 300);
    let list = json(&["list", "--json"]);
    let go = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "go")
        .unwrap();
    assert_eq!(go["mcts_default"], true);
}

#[test]
fn two_by_two_is_solved_exactly() {
    // Black wins by 1 point (Bill Taylor's proof): the same value from
    // alpha-beta with the pass first and from the score search.
    for algo in ["alphabeta", "score"] {
        let v = json(&[
            "solve", "go", "--param", "size=2", "--param", "komi=0", "--algo", algo, "--order",
            "--json", "-q",
        ]);
        assert_eq!(v["value"], 1, "{algo}: {v}");
    }
}

#[test]
fn bad_positions_and_sizes_are_refused_in_go_terms() {
    let e = fails(&["show", "go", "--position", "E5 I3"]);
    assert!(e.contains("Go's columns skip the letter I"), "{e}");
    let e = fails(&["show", "go", "--position", "E5 E5"]);
    assert!(e.contains("move 2: E5 is not empty"), "{e}");
    let e = fails(&["show", "go", "--param", "size=20"]);
    assert!(e.contains("size") && e.contains("2 to 19"), "{e}");
    let e = fails(&["solve", "go", "--depth", "3"]);
    assert!(e.contains("--depth does not apply"), "{e}");
}
