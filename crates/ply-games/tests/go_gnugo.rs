//! Go's scoring against GNU Go's: games played to the end by ply's
//! playout policy (random moves that do not fill their own eyes, until
//! both sides pass), each replayed into GNU Go 3.8 over GTP with Chinese
//! (area) rules and the same komi, whose `final_score` must equal ply's
//! Tromp–Taylor result. At such an end no dead stone is left on the board
//! for the two counts to judge differently, so they must agree exactly.
//!
//! Needs Debian's `gnugo` (`apt-get install gnugo`, which `scripts/test.sh`
//! installs as root); `PLY_SKIP_GNUGO=1` skips it where it cannot be had.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use ply_core::{Game, Notation, Playouts};
use ply_games::go::Go;

fn gnugo() -> Option<String> {
    ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .map(String::from)
}

/// GNU Go in GTP mode: one command in, its answer out.
struct Gtp {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Gtp {
    fn new(path: &str) -> Self {
        let mut child = Command::new(path)
            .args(["--mode", "gtp", "--chinese-rules"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("gnugo starts");
        let out = BufReader::new(child.stdout.take().unwrap());
        Gtp { child, out }
    }

    fn ask(&mut self, command: &str) -> String {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(self.out.read_line(&mut line).unwrap() > 0, "gnugo quit");
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(line.trim());
        }
        assert!(
            answer.starts_with('='),
            "gnugo refused '{command}': {answer}"
        );
        answer[1..].trim().to_string()
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.ask("quit");
        let _ = self.child.wait();
    }
}

/// GNU Go's `final_score` ("B+12.0", "W+3.0", "0") as Black's margin.
fn margin(score: &str) -> i32 {
    let points = |s: &str| s.parse::<f64>().unwrap() as i32;
    match score.split_once('+') {
        Some(("B", n)) => points(n),
        Some(("W", n)) => -points(n),
        _ if score == "0" => 0,
        _ => panic!("unexpected final_score '{score}'"),
    }
}

#[test]
fn area_scores_equal_gnu_gos_on_finished_games() {
    let Some(path) = gnugo() else {
        if std::env::var("PLY_SKIP_GNUGO").as_deref() == Ok("1") {
            eprintln!("skipped: no gnugo (PLY_SKIP_GNUGO=1)");
            return;
        }
        panic!("this test needs GNU Go: apt-get install gnugo (or PLY_SKIP_GNUGO=1 to skip it)");
    };
    let mut gtp = Gtp::new(&path);
    let mut seed = 0x5eed_u64;
    let mut results = Vec::new();
    for (size, komi, games) in [(9, 7, 16), (5, 0, 8), (13, 7, 4)] {
        let g = Go::new(size, komi).unwrap();
        for _ in 0..games {
            gtp.ask(&format!("boardsize {size}"));
            gtp.ask("clear_board");
            gtp.ask(&format!("komi {komi}"));
            let mut s = g.initial_state();
            let mut moves = Vec::new();
            while !g.is_terminal(&s) {
                moves.clear();
                g.legal_moves(&s, &mut moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[g.playout_choice(&s, &moves, seed)];
                let colour = if g.to_move(&s) == ply_core::Player::Max {
                    "B"
                } else {
                    "W"
                };
                gtp.ask(&format!("play {colour} {}", g.format_move(&s, mv)));
                s = g.play(&s, mv);
            }
            let ours = g.utility(&s).0;
            let theirs = margin(&gtp.ask("final_score"));
            assert_eq!(
                ours,
                theirs,
                "{size}x{size} komi {komi}: ply {ours}, GNU Go {theirs} after {}\n{}",
                g.format_position(&s),
                g.draw(&s)
            );
            results.push(ours);
        }
    }
    // Both sides won some: the comparison covered each sign.
    assert!(
        results.iter().any(|&r| r > 0) && results.iter().any(|&r| r < 0),
        "{results:?}"
    );
}
