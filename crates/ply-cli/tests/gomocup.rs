//! `ply gomocup` as a match manager sees it: a child process spoken to
//! line by line. Every move it answers is checked against a board kept
//! here, with its own five test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A brain process and the lines it printed, read on their own thread so
/// a silent brain fails the test instead of hanging it.
struct Brain {
    child: Child,
    input: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Brain {
    fn start(program: &std::path::Path, args: &[&str]) -> Brain {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ply starts");
        let input = child.stdin.take().unwrap();
        let out: ChildStdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            input,
            lines,
        }
    }

    fn new() -> Brain {
        Brain::start(env!("CARGO_BIN_EXE_ply").as_ref(), &["gomocup"])
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The next line that is not a MESSAGE.
    fn answer(&mut self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("the brain answers");
            if !line.starts_with("MESSAGE") {
                return line;
            }
        }
    }

    /// The next answer, read as a move.
    fn point(&mut self) -> (usize, usize) {
        let line = self.answer();
        let (x, y) = line
            .split_once(',')
            .unwrap_or_else(|| panic!("not a move: {line}"));
        (x.parse().unwrap(), y.parse().unwrap())
    }
}

/// The test's own board: 0 empty, 1 and 2 the players.
struct Board {
    size: usize,
    cells: Vec<u8>,
}

impl Board {
    fn new(size: usize) -> Board {
        Board {
            size,
            cells: vec![0; size * size],
        }
    }

    /// Puts `who`'s stone on (x, y), which must be empty; whether it makes five.
    fn play(&mut self, (x, y): (usize, usize), who: u8) -> bool {
        assert!(x < self.size && y < self.size, "{x},{y} is off the board");
        let i = y * self.size + x;
        assert_eq!(self.cells[i], 0, "{x},{y} is taken");
        self.cells[i] = who;
        let n = self.size as i32;
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut i, mut j) = (x as i32 + sign * dx, y as i32 + sign * dy);
                while (0..n).contains(&i)
                    && (0..n).contains(&j)
                    && self.cells[(j * n + i) as usize] == who
                {
                    run += 1;
                    i += sign * dx;
                    j += sign * dy;
                }
            }
            run >= 5
        })
    }

    /// A fixed, simple opponent: the empty point nearest the centre,
    /// scanning rows with a stride that spreads the stones.
    fn opponent_move(&self, seed: usize) -> (usize, usize) {
        let n = self.size;
        (0..n * n)
            .map(|k| (k * 7 + seed) % (n * n))
            .find(|&i| self.cells[i] == 0)
            .map(|i| (i % n, i / n))
            .unwrap()
    }
}

#[test]
fn a_whole_game_through_begin_and_turn() {
    let mut brain = Brain::new();
    brain.send("INFO timeout_turn 100");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    brain.send("INFO timeout_match 100000");
    brain.send("INFO time_left 100000");
    brain.send("BEGIN");
    let mut board = Board::new(15);
    let mut turn = 0;
    let winner = loop {
        let mv = brain.point();
        if board.play(mv, 1) {
            break 1;
        }
        let reply = board.opponent_move(turn);
        turn += 1;
        if board.play(reply, 2) {
            break 2;
        }
        brain.send(&format!("TURN {},{}", reply.0, reply.1));
    };
    assert_eq!(winner, 1, "ply loses to a player that does not look");
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

#[test]
fn board_mid_game_restart_and_takeback() {
    let mut brain = Brain::new();
    // INFO before START is kept.
    brain.send("INFO timeout_turn 100");
    brain.send("INFO rule 1");
    brain.send("START 20");
    assert_eq!(brain.answer(), "OK");
    brain.send("BEGIN");
    let mut board = Board::new(20);
    let first = brain.point();
    board.play(first, 1);
    board.play((0, 0), 2);
    brain.send("TURN 0,0");
    let second = brain.point();
    board.play(second, 1);
    // A manager restarts the brain mid-game with BOARD: 1 its own, 2 the
    // opponent's; then the brain moves.
    brain.send("RESTART");
    assert_eq!(brain.answer(), "OK");
    brain.send("BOARD");
    brain.send(&format!("{},{},1", first.0, first.1));
    brain.send("0,0,2");
    brain.send(&format!("{},{},1", second.0, second.1));
    brain.send("19,19,2");
    brain.send("5,5,3");
    brain.send("DONE");
    board.play((19, 19), 2);
    let third = brain.point();
    board.play(third, 1);
    // TAKEBACK of the last stone, then the same turn again.
    brain.send(&format!("TAKEBACK {},{}", third.0, third.1));
    assert_eq!(brain.answer(), "OK");
    brain.send(&format!("TAKEBACK {},{}", first.0, first.1));
    assert!(
        brain.answer().starts_with("ERROR"),
        "only the last stone comes back"
    );
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

#[test]
fn garbage_gets_error_or_unknown_and_the_brain_goes_on() {
    let mut brain = Brain::new();
    brain.send("TURN 7,7");
    assert!(brain.answer().starts_with("ERROR no board"));
    brain.send("START 99");
    assert!(
        brain
            .answer()
            .starts_with("ERROR a gomoku board is 5 to 26")
    );
    brain.send("START x");
    assert!(brain.answer().starts_with("ERROR"));
    brain.send("RECTSTART 15,20");
    assert_eq!(brain.answer(), "ERROR rectangular boards are not supported");
    brain.send("INFO rule 4");
    assert!(brain.answer().starts_with("ERROR rule 4 is not supported"));
    brain.send("INFO timeout_turn soon");
    assert!(
        brain
            .answer()
            .starts_with("ERROR INFO timeout_turn needs a whole number")
    );
    brain.send("INFO some_new_key 5");
    brain.send("HELLO there");
    assert_eq!(brain.answer(), "UNKNOWN command 'HELLO'");
    brain.send("\u{1b}[A\t,,,");
    assert!(brain.answer().starts_with("UNKNOWN"));
    brain.send("RECTSTART 15,15");
    assert_eq!(brain.answer(), "OK");
    brain.send("INFO timeout_turn 50");
    brain.send("TURN 7");
    assert!(brain.answer().starts_with("ERROR expected x,y"));
    brain.send("TURN 15,3");
    assert!(
        brain
            .answer()
            .starts_with("ERROR 15,3 is off the 15x15 board")
    );
    brain.send("BOARD");
    brain.send("1,2");
    assert!(
        brain
            .answer()
            .starts_with("ERROR expected x,y,1|2|3 or DONE")
    );
    brain.send("3,3,1");
    brain.send("3,3,2");
    brain.send("DONE");
    assert!(
        brain
            .answer()
            .starts_with("ERROR stone 2 (d12) is on a taken point")
    );
    brain.send("BOARD");
    brain.send("3,3,1");
    brain.send("4,4,1");
    brain.send("DONE");
    assert!(brain.answer().starts_with("ERROR 2 stones of mine and 0"));
    // After all that, a normal turn.
    brain.send("TURN 7,7");
    let (x, y) = brain.point();
    assert!((x, y) != (7, 7) && x < 15 && y < 15);
    brain.send("TURN 7,7");
    assert!(brain.answer().starts_with("ERROR 7,7 is taken"));
    brain.send("ABOUT");
    assert!(brain.answer().starts_with("name=\"ply\", version="));
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}

#[test]
fn end_stops_a_long_search_at_once() {
    let mut brain = Brain::new();
    brain.send("INFO timeout_turn 1000000");
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    brain.send("BOARD");
    for (i, p) in ["7,7", "8,8", "6,8", "8,6", "9,9"].iter().enumerate() {
        brain.send(&format!("{p},{}", 1 + i % 2));
    }
    brain.send("DONE");
    brain.send("END");
    // Without END the search would take 1,000 s; the reader thread's 60 s
    // guard in `answer` is not involved: the process must simply exit.
    assert!(brain.child.wait().unwrap().success());
}

#[test]
fn a_copy_named_pbrain_starts_in_gomocup_mode() {
    let dir = std::env::temp_dir().join(format!("ply-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pbrain-ply");
    std::fs::copy(env!("CARGO_BIN_EXE_ply"), &path).unwrap();
    let mut brain = Brain::start(&path, &[]);
    brain.send("START 15");
    assert_eq!(brain.answer(), "OK");
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
    std::fs::remove_dir_all(&dir).ok();
}
