//! `ply tune`: data from self-play, a fit, and the errors on bad files.

mod common;

use common::{fails, ply};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Two games' positions: each line a legal FEN with its game's result, the
/// same file from the same seed (fixed nodes: the run is repeatable); the
/// fit reads it and writes a weights table with every weight.
#[test]
fn data_then_fit() {
    let data = temp("data.txt");
    let run = |out: &std::path::Path| {
        let o = ply()
            .args(["tune", "data", "--games", "2", "--nodes", "300", "-q", "-o"])
            .arg(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(out).unwrap()
    };
    let text = run(&data);
    assert_eq!(text, run(&temp("again.txt")), "same seed, same data");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 10, "{} positions", lines.len());
    for line in &lines {
        let (fen, result) = line.rsplit_once(';').unwrap();
        let board: cozy_chess::Board = fen.parse().unwrap();
        assert!(board.checkers().is_empty(), "{fen}: kept in check");
        assert!(["1", "0.5", "0"].contains(&result), "{line}");
    }
    let weights = temp("weights.rs");
    let o = ply()
        .args(["tune", "fit", "--epochs", "3", "-q", "-o"])
        .arg(&weights)
        .arg(&data)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let source = std::fs::read_to_string(&weights).unwrap();
    assert!(source.contains("pub static WEIGHTS: [S; N] = ["));
    assert!(source.contains(&format!("{} positions of", lines.len())));
    // As many weight pairs as the evaluation's own table.
    let own = include_str!("../../ply-games/src/chess/weights.rs");
    assert_eq!(source.matches("S(").count(), own.matches("S(").count());
}

#[test]
fn bad_data_names_the_line() {
    let data = temp("bad.txt");
    std::fs::write(
        &data,
        "# header\n8/5k2/8/3K4/8/8/4P3/8 w - - 0 1;1\n8/5k2/8/3K4/8/8/4P3/8 w - - 0 1;draw\n",
    )
    .unwrap();
    let err = fails(&["tune", "fit", data.to_str().unwrap()]);
    assert!(err.contains("line 3") && err.contains("'draw'"), "{err}");
    let err = fails(&["tune", "fit", "/nonexistent/data.txt"]);
    assert!(err.contains("/nonexistent/data.txt"), "{err}");
    let openings = temp("openings.epd");
    std::fs::write(
        &openings,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnonsense\n",
    )
    .unwrap();
    let out = temp("never.txt");
    let err = fails(&[
        "tune",
        "data",
        "--openings",
        openings.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("line 2"), "{err}");
}
