#![cfg(feature = "learn")]
//! `ply learn`: a short run's JSON lines and saved network, `--resume`
//! going on from it, and the errors on bad flags and files.

mod common;

use common::{fails, ply};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-learn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const SHORT: [&str; 12] = [
    "--games",
    "6",
    "--simulations",
    "8",
    "--steps",
    "3",
    "--minibatch",
    "16",
    "--match-games",
    "2",
    "--channels",
    "4",
];

fn learn(extra: &[&str], out: &std::path::Path) -> Vec<serde_json::Value> {
    let o = ply()
        .args(["learn", "tictactoe", "--json", "--out"])
        .arg(out)
        .args(SHORT)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line of --json is JSON"))
        .collect()
}

/// Two generations print two JSON lines (nothing else on stdout), with
/// the figures of each; the file is a network whose metadata names the
/// game and the generation; --resume goes on at generation 3, and the
/// same seed gives the same first generation again.
#[test]
fn a_short_run_saves_and_resumes() {
    let out = temp("ttt.safetensors");
    let lines = learn(&["--generations", "2"], &out);
    assert_eq!(lines.len(), 2);
    for (i, g) in lines.iter().enumerate() {
        assert_eq!(g["generation"], i + 1);
        assert_eq!(g["games"], 6);
        assert!(g["positions"].as_u64().unwrap() >= 6 * 5, "{g}");
        let score = g["vs_mcts"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score), "{g}");
        // Tic-tac-toe is small enough to grade by the exact solver.
        let acc = g["accuracy"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&acc), "{g}");
    }
    let bytes = std::fs::read(&out).unwrap();
    let net = ply_learn::Network::from_bytes(&bytes).unwrap();
    assert_eq!(net.about["ply.game"], "tictactoe");
    assert_eq!(net.about["ply.generation"], "2");
    assert!(net.about["ply.command"].starts_with("ply learn tictactoe"));
    let more = learn(&["--generations", "1", "--resume"], &out);
    assert_eq!(more[0]["generation"], 3);
    let again = learn(&["--generations", "1"], &temp("again.safetensors"));
    let played = |g: &serde_json::Value| {
        let mut g = g.clone();
        for timing in ["positions_per_second", "samples_per_second", "seconds"] {
            g.as_object_mut().unwrap().remove(timing);
        }
        g
    };
    assert_eq!(
        played(&again[0]),
        played(&lines[0]),
        "same seed, same generation"
    );
}

/// Bad flags and files are named in the command line's terms.
#[test]
fn bad_input_is_named() {
    let err = fails(&["learn", "chess"]);
    assert!(err.contains("chess cannot be learned"), "{err}");
    let err = fails(&["learn", "tictactoe", "--games", "0"]);
    assert!(err.contains("--games must be at least 1"), "{err}");
    let err = fails(&["learn", "tictactoe", "--learning-rate", "2"]);
    assert!(err.contains("--learning-rate"), "{err}");
    let err = fails(&["learn", "tictactoe", "--simulations", "0"]);
    assert!(err.contains("--simulations"), "{err}");
    let missing = temp("missing.safetensors");
    let err = fails(&[
        "learn",
        "tictactoe",
        "--resume",
        "--out",
        missing.to_str().unwrap(),
    ]);
    assert!(err.contains("--resume: cannot read"), "{err}");
    let junk = temp("junk.safetensors");
    std::fs::write(&junk, "not a network").unwrap();
    let err = fails(&[
        "learn",
        "tictactoe",
        "--resume",
        "--out",
        junk.to_str().unwrap(),
    ]);
    assert!(err.contains("not a safetensors file"), "{err}");
    // A tic-tac-toe network is not a 4x4 board's.
    let ttt = temp("for-3x3.safetensors");
    learn(&["--generations", "1"], &ttt);
    let err = fails(&[
        "learn",
        "tictactoe",
        "--param",
        "m=4",
        "--param",
        "n=4",
        "--resume",
        "--out",
        ttt.to_str().unwrap(),
    ]);
    assert!(err.contains("2x3x3 planes"), "{err}");
}
