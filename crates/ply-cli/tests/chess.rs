//! `ply` on chess, driven as a user would: perft, solve with a mate, a game
//! played in SAN and saved as PGN, and clear errors for bad input.

mod common;

use common::{fails, json, ply};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perft_with_divide() {
    // Published: kiwipete perft(3) = 97,862; 48 moves at depth 1.
    let p = json(&[
        "perft", "chess", "-p", KIWIPETE, "--depth", "3", "--divide", "--json",
    ]);
    assert_eq!(p["nodes"], 97_862);
    let divide = p["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 48);
    // Castling is written in UCI, king two squares.
    assert!(divide.iter().any(|d| d["move"] == "e1g1"));
    assert!(divide.iter().any(|d| d["move"] == "e1c1"));
    let sum: u64 = divide.iter().map(|d| d["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 97_862);
}

#[test]
fn solve_reports_mate_and_centipawns() {
    let s = json(&[
        "solve",
        "chess",
        "-p",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "--depth",
        "8",
        "--json",
    ]);
    assert_eq!(s["best_move"], "g3g6");
    assert_eq!(s["mate"], 2);
    assert_eq!(s["distance"], 3);
    // Black mates in one (Rd1#): negative, White's view.
    let s = json(&[
        "solve",
        "chess",
        "-p",
        "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
        "--depth",
        "4",
        "--json",
    ]);
    assert!(s["value"].as_i64().unwrap() < 0);
    assert_eq!(s["mate"], -1);
    // A quiet position: centipawns from White's view, no mate.
    let s = json(&[
        "solve",
        "chess",
        "-p",
        "startpos moves e2e4 d7d5 e4d5 d8d5",
        "--depth",
        "4",
        "--json",
    ]);
    assert!(s.get("mate").is_none());
    assert!(s["value"].as_i64().unwrap().abs() < 300, "{s}");
    let a = json(&["analyze", "chess", "--depth", "3", "--json"]);
    assert_eq!(a["moves"].as_array().unwrap().len(), 20);
}

#[test]
fn a_game_in_san_saved_as_pgn() {
    let dir = std::env::temp_dir().join(format!("ply-chess-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("game.pgn");
    let out = ply()
        .args(["play", "chess", "--depth", "2", "--save"])
        .arg(&pgn)
        .write_stdin("e4\nNf9\nundo\nd4\nquit\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("'Nf9' is neither a UCI move"), "{text}");
    assert!(text.contains("taken back"), "{text}");
    let record = std::fs::read_to_string(&pgn).unwrap();
    assert!(record.contains("[White \"human\"]"), "{record}");
    assert!(record.contains("[Result \"*\"]"), "{record}");
    // After the take-back: 1. d4 and the engine's reply, then White to move.
    assert!(record.contains("\n1. d4 "), "{record}");
    assert!(!record.contains("e4"), "{record}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_chess_input_is_a_clear_error() {
    let e = fails(&[
        "solve",
        "chess",
        "-p",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "--depth",
        "1",
    ]);
    assert!(e.contains("FEN has 6 fields"), "{e}");
    let e = fails(&[
        "solve",
        "chess",
        "-p",
        "startpos moves e2e4 e7e5 g1g3",
        "--depth",
        "1",
    ]);
    assert!(e.contains("move 3 ('g1g3') is illegal"), "{e}");
    let e = fails(&["solve", "chess", "-m", "e4,e5,Ke3", "--depth", "1"]);
    assert!(e.contains("move 3"), "{e}");
    let e = fails(&[
        "perft",
        "chess",
        "-p",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "--depth",
        "1",
    ]);
    assert!(e.contains("has 0 White kings"), "{e}");
}
