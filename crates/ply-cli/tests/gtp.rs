//! `ply gtp` as a referee sees it: a child process spoken to in GTP,
//! playing GNU Go on 7×7. Every move ply answers must be accepted by GNU
//! Go, every move GNU Go answers by ply (two independent rule books), and
//! the game must end by two passes or a resignation.
//!
//! Needs Debian's `gnugo` (`scripts/test.sh` installs it as root);
//! `PLY_SKIP_GNUGO=1` skips the test where it cannot be had.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};

/// An engine in GTP mode: one command in, its answer out.
struct Engine {
    child: Child,
    out: BufReader<ChildStdout>,
}

impl Engine {
    fn start(program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{program} starts: {e}"));
        let out = BufReader::new(child.stdout.take().unwrap());
        Engine { child, out }
    }

    /// The answer's text, `Err` for a `?` answer.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "the engine quit on '{command}'"
            );
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let text = answer[1..].trim().to_string();
        if answer.starts_with('=') {
            Ok(text)
        } else {
            Err(text)
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.ask("quit");
        let _ = self.child.wait();
    }
}

fn gnugo() -> Option<&'static str> {
    ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
}

#[test]
fn plays_a_whole_game_against_gnu_go() {
    let Some(path) = gnugo() else {
        if std::env::var("PLY_SKIP_GNUGO").as_deref() == Ok("1") {
            eprintln!("skipped: no gnugo (PLY_SKIP_GNUGO=1)");
            return;
        }
        panic!("this test needs GNU Go: apt-get install gnugo (or PLY_SKIP_GNUGO=1 to skip it)");
    };
    let ply_bin = env!("CARGO_BIN_EXE_ply");
    for ply_black in [true, false] {
        let mut ply = Engine::start(ply_bin, &["gtp", "--simulations", "400", "--threads", "1"]);
        let mut gnu = Engine::start(path, &["--mode", "gtp", "--chinese-rules", "--level", "1"]);
        for e in [&mut ply, &mut gnu] {
            for c in ["boardsize 7", "clear_board", "komi 7"] {
                e.ask(c).unwrap();
            }
        }
        let (mut colour, mut passes, mut moves) = ("b", 0, 0);
        let ended = loop {
            let ply_moves = (colour == "b") == ply_black;
            let (mover, other) = if ply_moves {
                (&mut ply, &mut gnu)
            } else {
                (&mut gnu, &mut ply)
            };
            let mv = mover.ask(&format!("genmove {colour}")).unwrap();
            if mv.eq_ignore_ascii_case("resign") {
                break "resign";
            }
            other
                .ask(&format!("play {colour} {mv}"))
                .unwrap_or_else(|e| panic!("move {moves}: {colour} {mv} refused: {e}"));
            moves += 1;
            passes = if mv.eq_ignore_ascii_case("pass") {
                passes + 1
            } else {
                0
            };
            if passes == 2 {
                break "two passes";
            }
            assert!(moves < 150, "no end after 150 moves");
            colour = if colour == "b" { "w" } else { "b" };
        };
        assert!(moves > 5, "{ended} after {moves} moves");
        // Both boards are the same: each engine's score by area, every
        // stone counted alive, from its own board (GNU Go's
        // final_score would judge dead stones).
        let score = ply.ask("final_score").unwrap();
        assert!(score == "0" || score.starts_with("B+") || score.starts_with("W+"));
        let board = ply.ask("showboard").unwrap();
        for col in "ABCDEFG".chars() {
            for row in 1..=7 {
                let v = format!("{col}{row}");
                let gnu_colour = gnu.ask(&format!("color {v}")).unwrap();
                assert_eq!(gnu_colour, stone_at(&board, col, row), "{v}\n{board}");
            }
        }
    }
}

/// The stone at `col`, `row` in `ply gtp`'s showboard: "black", "white"
/// or "empty" as GNU Go's `color` answers.
fn stone_at(board: &str, col: char, row: usize) -> &'static str {
    let line = board
        .lines()
        .find(|l| l.split_whitespace().next() == Some(row.to_string().as_str()))
        .unwrap_or_else(|| panic!("row {row} in\n{board}"));
    // " 7  . . X . . . . 7": the row in three columns, then a separator
    // (a space, or the last move's parenthesis) and a point, per column.
    let i = "ABCDEFG".find(col).unwrap();
    match line.as_bytes()[4 + 2 * i] {
        b'X' => "black",
        b'O' => "white",
        _ => "empty",
    }
}
