//! UCI conformance: `ply uci` as a child process, driven the way a GUI
//! drives it, every reply checked. Timeouts here only detect a hang (the
//! engine never answering); they are generous and measure nothing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use cozy_chess::Board;
use cozy_chess::util::parse_uci_move;

const HANG: Duration = Duration::from_secs(20);

struct Uci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["uci", "--hash", "16"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ply starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line; panics if the engine hangs or dies.
    fn next(&self) -> String {
        match self.lines.recv_timeout(HANG) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("the engine did not answer"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine exited"),
        }
    }

    /// Reads lines up to the first that starts with `prefix`, returning all of them.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = self.next();
            let done = l.starts_with(prefix);
            seen.push(l);
            if done {
                return seen;
            }
        }
    }

    /// Runs a search to its `bestmove`, checking every info line against
    /// `board`; returns the best move and the info lines.
    fn search(&mut self, board: &Board, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let lines = self.until("bestmove");
        let (last, infos) = lines.split_last().unwrap();
        for info in infos {
            check_info(board, info);
        }
        let best = last
            .split_whitespace()
            .nth(1)
            .expect("bestmove has a move")
            .to_string();
        (best, infos.to_vec())
    }
}

/// An info line: `info depth D seldepth S score cp|mate N nodes N nps N time T pv ...`
/// with a legal principal variation.
fn check_info(board: &Board, line: &str) {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w[0], "info", "{line}");
    if w[1] == "string" {
        return;
    }
    let keys = ["depth", "seldepth", "score", "nodes", "nps", "time", "pv"];
    let mut pos = 1;
    for k in keys {
        assert_eq!(w.get(pos), Some(&k), "'{k}' expected at word {pos}: {line}");
        pos += 1;
        match k {
            "score" => {
                assert!(matches!(w[pos], "cp" | "mate"), "{line}");
                w[pos + 1].parse::<i64>().unwrap();
                pos += 2;
            }
            "pv" => {}
            _ => {
                w[pos].parse::<u64>().unwrap();
                pos += 1;
            }
        }
    }
    let mut b = board.clone();
    assert!(pos < w.len(), "an empty pv: {line}");
    for m in &w[pos..] {
        let mv = parse_uci_move(&b, m).unwrap_or_else(|_| panic!("pv move {m} unreadable: {line}"));
        assert!(b.try_play(mv).is_ok(), "pv move {m} illegal: {line}");
    }
}

fn play(board: &mut Board, mv: &str) {
    let m = parse_uci_move(board, mv).unwrap();
    board
        .try_play(m)
        .unwrap_or_else(|_| panic!("illegal bestmove {mv} in {board}"));
}

#[test]
fn handshake_game_stop_and_garbage() {
    let mut e = Uci::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name ")), "{hello:?}");
    assert!(hello.iter().any(|l| l.starts_with("id author ")));
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Threads type spin"))
    );
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Move Overhead type spin default 10"))
    );
    e.send("isready");
    assert_eq!(e.next(), "readyok");

    // A short game: eight plies, the engine answering each position.
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    let mut board = Board::default();
    for _ in 0..8 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let (best, infos) = e.search(&board, "go movetime 50");
        assert!(!infos.is_empty(), "no info line before bestmove");
        play(&mut board, &best);
        moves.push(best);
    }

    // A clock instead of a move time, castling rights in a FEN.
    let fen = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8";
    e.send(&format!("position fen {fen}"));
    let b: Board = fen.parse().unwrap();
    let (best, _) = e.search(&b, "go wtime 2000 btime 2000 winc 20 binc 20");
    play(&mut b.clone(), &best);
    let (best, infos) = e.search(&b, "go depth 3");
    play(&mut b.clone(), &best);
    assert!(
        infos.last().unwrap().starts_with("info depth 3 "),
        "{infos:?}"
    );
    let (best, _) = e.search(&b, "go nodes 5000");
    play(&mut b.clone(), &best);

    // Two threads: the same protocol, a legal move.
    e.send("setoption name Threads value 2");
    e.send(&format!("position fen {fen}"));
    let (best, _) = e.search(&b, "go movetime 200");
    play(&mut b.clone(), &best);
    e.send("setoption name Threads value 1");

    // An infinite search runs until stop, answering isready meanwhile.
    e.send("position startpos");
    e.send("go infinite");
    let first = e.next();
    check_info(&Board::default(), &first);
    e.send("isready");
    let mut lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    lines = e.until("bestmove");
    play(
        &mut Board::default(),
        lines.last().unwrap().split_whitespace().nth(1).unwrap(),
    );

    // Garbage: answered (or ignored), never fatal.
    for junk in [
        "hello there",
        "position fen not/a/fen w - - 0 1",
        "position startpos moves e2e5",
        "position sideways",
        "setoption name Hash value -3",
        "setoption name Bogus value 1",
        "setoption name Threads value 0",
        "setoption name Move Overhead value later",
        "setoption",
        "go wtime soon",
        "\u{1b}[A",
        "",
    ] {
        e.send(junk);
    }
    // "go wtime soon" still started a search (with no usable limit):
    // stop answers it with a move for the start position.
    e.send("stop");
    let mut replies = e.until("bestmove");
    play(
        &mut Board::default(),
        replies.last().unwrap().split_whitespace().nth(1).unwrap(),
    );
    e.send("isready");
    replies.extend(e.until("readyok"));
    assert!(
        replies
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count()
            >= 8,
        "{replies:?}"
    );
    // `d` draws the board, every line an info string.
    e.send("d");
    e.send("isready");
    let board_lines = e.until("readyok");
    assert!(board_lines.len() > 8, "{board_lines:?}");
    assert!(
        board_lines[..board_lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info string ")),
        "{board_lines:?}"
    );
    // The bad positions left the last good one (the start) in place.
    let (best, _) = e.search(&Board::default(), "go depth 2");
    play(&mut Board::default(), &best);

    // A mate in one is found and reported as one.
    let mate = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    e.send(&format!("position fen {mate}"));
    let (best, infos) = e.search(&mate.parse().unwrap(), "go depth 4");
    assert_eq!(best, "d1d8");
    assert!(infos.last().unwrap().contains("score mate 1 "), "{infos:?}");
    // A position with no legal move: the null move.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove 0000");

    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn stop_during_a_long_search_returns_a_legal_move() {
    let mut e = Uci::start();
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
    e.send(&format!("position fen {fen}"));
    e.send("go movetime 600000");
    let first = e.next();
    check_info(&fen.parse().unwrap(), &first);
    e.send("stop");
    let lines = e.until("bestmove");
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    play(&mut fen.parse().unwrap(), &best);
    // End of input ends the session cleanly.
    drop(e.stdin);
    assert!(e.child.wait().unwrap().success());
}
