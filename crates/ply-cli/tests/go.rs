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

/// `analyze go` maps who owns each point at the end of the playouts:
/// two living groups, each with three eyes that the other side cannot
/// fill (suicide), own their halves in every playout.
#[test]
fn analyze_maps_who_owns_each_point() {
    let settled = ".X.X./XXXXX/XXXXX/OOOOO/.O.O. b";
    let v = json(&[
        "analyze",
        "go",
        "--param",
        "size=5",
        "--param",
        "komi=0",
        "--position",
        settled,
        "--iterations",
        "2000",
        "--json",
        "-q",
    ]);
    assert!(v["algo"].as_str().unwrap().contains("RAVE"), "{v}");
    let map = v["ownership"].as_object().unwrap();
    assert_eq!(map.len(), 25);
    for (point, owner) in map {
        let owner = owner.as_f64().unwrap();
        let row: u32 = point[1..].parse().unwrap();
        if row >= 3 {
            assert!(owner >= 0.95, "{point}: {owner}, black's");
        } else {
            assert!(owner <= -0.95, "{point}: {owner}, white's");
        }
    }
    // The text report draws it.
    let out = common::ply()
        .args([
            "analyze",
            "go",
            "--param",
            "size=5",
            "--position",
            settled,
            "--iterations",
            "500",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.contains("who owns each point"), "{out}");
    assert!(out.contains(" 5  X X X X X 5"), "{out}");
    assert!(out.contains(" 1  O O O O O 1"), "{out}");
}
