//! Connect Four against the public test sets (Pascal Pons' "Solving
//! Connect 4"), through `ply solve connect4 --batch`: every score exact, and
//! the mean node count (one per call of the search, as the public solver
//! counts) within 1.1x of the public solver's published means.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/connect4")
        .join(name);
    assert!(
        p.exists(),
        "test set {} not found (testdata/ of the repository)",
        p.display()
    );
    p
}

/// Runs a batch; returns the summary's mean nodes, failing on any mismatch.
fn batch(file: &std::path::Path, weak: bool) -> f64 {
    let mut args = vec![
        "solve".to_string(),
        "connect4".into(),
        "--batch".into(),
        file.display().to_string(),
    ];
    if weak {
        args.push("--weak".into());
    }
    let out = Command::cargo_bin("ply")
        .unwrap()
        .args(&args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = stdout.lines().last().unwrap();
    assert!(summary.contains("mismatches 0"), "{summary}");
    // Every result line: moves score nodes microseconds.
    for line in stdout.lines().filter(|l| !l.starts_with("positions")) {
        assert_eq!(line.split_whitespace().count(), 4, "{line}");
    }
    let nodes = summary.split("mean nodes ").nth(1).unwrap();
    nodes.split(',').next().unwrap().parse().unwrap()
}

#[test]
fn end_and_middle_easy_sets_exact_and_as_lean_as_the_public_solver() {
    for (set, public_mean) in [
        ("Test_L3_R1", 51.3),
        ("Test_L2_R1", 449.0),
        ("Test_L1_R1", 3_296.0),
    ] {
        let mean = batch(&data(set), false);
        println!("{set}: mean nodes {mean:.1} (public solver {public_mean})");
        assert!(
            mean <= public_mean * 1.1,
            "{set}: {mean} nodes > 1.1 x {public_mean}"
        );
    }
}

#[test]
fn middle_medium_first_100() {
    let text = std::fs::read_to_string(data("Test_L2_R2")).unwrap();
    let dir = std::env::temp_dir().join(format!("ply-c4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("l2r2_100");
    std::fs::write(&file, text.lines().take(100).collect::<Vec<_>>().join("\n")).unwrap();
    let mean = batch(&file, false);
    println!("Test_L2_R2, first 100: mean nodes {mean:.1}");
}

#[test]
fn weak_mode_gets_every_sign() {
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let mean = batch(&data(set), true);
        println!("{set} weak: mean nodes {mean:.1}");
    }
}

fn json(args: &[&str]) -> Value {
    let out = Command::cargo_bin("ply")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn single_positions_in_the_public_convention() {
    let s = json(&["solve", "connect4", "--position", "4455", "--json", "-q"]);
    assert_eq!(
        (s["score"].as_i64(), s["value"].as_i64()),
        (Some(18), Some(18))
    );
    assert!(["3", "6"].contains(&s["best_move"].as_str().unwrap()));
    assert_eq!(
        s["pv"].as_array().unwrap().len(),
        3,
        "X, O blocks one end, X completes"
    );
    let s = json(&[
        "solve",
        "connect4",
        "--position",
        "44455554221",
        "--json",
        "-q",
    ]);
    // MIN is to move and loses: the first player's view is +15.
    assert_eq!(
        (s["score"].as_i64(), s["value"].as_i64()),
        (Some(-15), Some(15))
    );
    let s = json(&[
        "solve",
        "connect4",
        "--position",
        "4455",
        "--weak",
        "--json",
        "-q",
    ]);
    assert_eq!(s["score"], 1);
    // Other sizes: 4x4 is a draw.
    let s = json(&[
        "solve", "connect4", "--param", "width=4", "--param", "height=4", "--json", "-q",
    ]);
    assert_eq!(s["score"], 0);
}

#[test]
fn bad_input_names_line_and_column() {
    let out = Command::cargo_bin("ply")
        .unwrap()
        .args(["solve", "connect4", "--position", "4480"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("column 3") && err.contains("columns are 1 to 7"),
        "{err}"
    );
    let out = Command::cargo_bin("ply")
        .unwrap()
        .args(["solve", "connect4", "--position", "1111111"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("column 1 is full"));
    let out = Command::cargo_bin("ply")
        .unwrap()
        .args(["solve", "connect4", "--position", "11223344"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("already over"));
    // A batch with bad lines: each reported with its line, the rest solved.
    let dir = std::env::temp_dir().join(format!("ply-c4-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad");
    std::fs::write(
        &file,
        "4455 18\n4490 3\n1111111 0\n4455 x\n1122334 0\n44455554221 -15\n",
    )
    .unwrap();
    let out = Command::cargo_bin("ply")
        .unwrap()
        .args(["solve", "connect4", "--batch", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    for (line, what) in [
        (2, "column 3"),
        (3, "full"),
        (4, "not an integer"),
        (5, "already over"),
    ] {
        assert!(
            err.contains(&format!("line {line}:")) && err.contains(what),
            "line {line}: {err}"
        );
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("4455 18 ") && stdout.contains("44455554221 -15 "),
        "{stdout}"
    );
    assert!(
        stdout.contains("positions 2,") && stdout.contains("bad lines 4"),
        "{stdout}"
    );
}
