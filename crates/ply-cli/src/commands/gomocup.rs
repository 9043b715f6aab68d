//! `ply gomocup`: the Gomocup (Piskvork) brain protocol on stdin/stdout, so
//! gomoku match managers and GUIs can use ply's engine.
//!
//! The manager sends one command a line; the brain answers `OK`, a move
//! `x,y` (0-based, `x` the column, `y` the row from the top), `ERROR ...`
//! for a command it understood but cannot carry out, or `UNKNOWN ...`.
//! A bad line never ends the session; `END` does, at once, even during a
//! search (stdin is read on its own thread for that).
//!
//! Managers start brains whose file name begins with `pbrain-`: a copy or
//! link of `ply` named `pbrain-ply` starts in this mode (see `main.rs`).

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ply_core::Game;
use ply_core::observe::NoObserver;
use ply_core::search::id::iterate;
use ply_core::search::{DEFAULT_TT_MB, Engine, Iteration, SearchOptions};
use ply_games::Gomoku;
use ply_games::gomoku::Point;

use crate::CliResult;
use crate::output::line_text;

/// Time kept back on every move for the manager and the operating system
/// (less on turns under half a second).
const OVERHEAD_MS: u64 = 100;
/// The least a search is given, however short the clock.
const MIN_MOVE_MS: u64 = 5;
/// The share of the match clock one move may use.
const MATCH_SHARE: u64 = 12;
/// Piskvork's defaults until `INFO` says otherwise.
const DEFAULT_TURN_MS: u64 = 30_000;

/// One conversation with a manager. `ply gomocup` feeds it stdin line by
/// line and prints what it answers; the fuzz target and tests do the same.
pub struct Session {
    game: Option<Gomoku>,
    exact: bool,
    /// The moves so far, black's first.
    moves: Vec<Point>,
    engine: Option<Engine<Point>>,
    tt_mb: usize,
    /// The largest table `INFO max_memory` may ask for, in MiB.
    table_cap: usize,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    /// Stones of a `BOARD` being read: (x, y, own).
    board: Option<Vec<(usize, usize, bool)>>,
    /// The most a move may take, whatever the clock says (for tests and fuzzing).
    cap: Option<Duration>,
    /// Set by the input thread when `END` arrives: a search running stops.
    stop: Arc<AtomicBool>,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

/// What one line of input produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Lines to print, in order.
    pub lines: Vec<String>,
    /// `END` was read: exit now.
    pub end: bool,
}

impl Session {
    /// A session before `START`.
    pub fn new() -> Self {
        Session {
            game: None,
            exact: false,
            moves: Vec::new(),
            engine: None,
            tt_mb: DEFAULT_TT_MB,
            table_cap: DEFAULT_TT_MB,
            timeout_turn: DEFAULT_TURN_MS,
            timeout_match: 0,
            time_left: None,
            board: None,
            cap: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A session whose moves never take longer than `cap` and whose table
    /// never takes more than `table_mb` MiB, whatever `INFO max_memory`
    /// allows: the fuzz target's, where a START that allocated the default
    /// 64 MiB table cost more than everything else in an input.
    pub fn with_cap(cap: Duration, table_mb: usize) -> Self {
        let table_mb = table_mb.clamp(1, DEFAULT_TT_MB);
        Session {
            cap: Some(cap),
            tt_mb: table_mb,
            table_cap: table_mb,
            ..Self::new()
        }
    }

    /// Answers one line of the protocol.
    pub fn handle(&mut self, line: &str) -> Reply {
        let mut reply = Reply::default();
        let line = line.trim();
        if line.is_empty() {
            return reply;
        }
        if self.board.is_some() {
            self.board_line(line, &mut reply.lines);
            return reply;
        }
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let out = &mut reply.lines;
        match command.to_ascii_uppercase().as_str() {
            "START" => self.start(rest, rest, out),
            "RECTSTART" => match rest.split_once(',') {
                Some((w, h)) if w.trim() == h.trim() => self.start(w.trim(), rest, out),
                Some(_) => out.push("ERROR rectangular boards are not supported".into()),
                None => out.push(format!("ERROR RECTSTART needs width,height, not '{rest}'")),
            },
            "RESTART" => match &self.game {
                Some(_) => {
                    self.new_game();
                    out.push("OK".into());
                }
                None => out.push("ERROR no board yet: send START first".into()),
            },
            "BEGIN" => {
                if self.ready(out) {
                    if self.moves.is_empty() {
                        self.think(out);
                    } else {
                        out.push("ERROR BEGIN is for the empty board".into());
                    }
                }
            }
            "TURN" => self.turn(rest, out),
            "BOARD" => {
                if self.ready(out) {
                    self.board = Some(Vec::new());
                }
            }
            "INFO" => self.info(rest, out),
            "TAKEBACK" => self.takeback(rest, out),
            "END" => reply.end = true,
            "ABOUT" => out.push(format!(
                "name=\"ply\", version=\"{}\", author=\"the ply developers\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            )),
            _ => out.push(format!("UNKNOWN command '{command}'")),
        }
        reply
    }

    /// Panics unless the moves so far make a legal game: what the fuzz
    /// target checks after every line.
    pub fn check_moves(&self) {
        if let Some(g) = &self.game {
            assert!(
                g.from_moves(&self.moves).is_ok(),
                "an illegal move sequence: {:?}",
                self.moves
            );
        }
    }

    /// `START n`: a new game on an n×n board.
    fn start(&mut self, size: &str, what: &str, out: &mut Vec<String>) {
        let Ok(n) = size.parse::<usize>() else {
            out.push(format!("ERROR START needs a board size, not '{what}'"));
            return;
        };
        match Gomoku::new(n, self.exact) {
            Ok(g) => {
                self.game = Some(g);
                self.new_game();
                out.push("OK".into());
            }
            Err(e) => out.push(format!("ERROR {e}")),
        }
    }

    /// An empty board and a fresh table, made now: allocating a table of
    /// tens of MiB takes milliseconds the first move should not pay.
    fn new_game(&mut self) {
        self.moves.clear();
        self.board = None;
        self.engine = None;
        self.engine = self.fresh_engine();
    }

    /// An engine for the current board and memory allowance.
    fn fresh_engine(&self) -> Option<Engine<Point>> {
        let options = SearchOptions {
            tt_mb: self.tt_mb,
            ..SearchOptions::engine()
        };
        self.game.as_ref().map(|g| Engine::new(g, &options))
    }

    /// Whether a board exists; says so if not.
    fn ready(&self, out: &mut Vec<String>) -> bool {
        if self.game.is_none() {
            out.push("ERROR no board yet: send START first".into());
        }
        self.game.is_some()
    }

    /// `x,y` on the board.
    fn point(&self, text: &str) -> Result<Point, String> {
        let game = self.game.as_ref().ok_or("no board yet: send START first")?;
        let (x, y) = text
            .split_once(',')
            .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
            .ok_or_else(|| format!("expected x,y, not '{text}'"))?;
        game.point_at(x, y)
            .ok_or_else(|| format!("{x},{y} is off the {0}x{0} board", game.size()))
    }

    /// The position after the moves so far.
    fn position(&self) -> Option<ply_games::gomoku::Position> {
        self.game.as_ref()?.from_moves(&self.moves).ok()
    }

    /// `TURN x,y`: the opponent's move, then ours.
    fn turn(&mut self, rest: &str, out: &mut Vec<String>) {
        if !self.ready(out) {
            return;
        }
        let p = match self.point(rest) {
            Ok(p) => p,
            Err(e) => return out.push(format!("ERROR {e}")),
        };
        let (Some(game), Some(s)) = (self.game.as_ref(), self.position()) else {
            return out.push("ERROR no position".into());
        };
        if game.is_terminal(&s) {
            return out.push("ERROR the game is already over".into());
        }
        if !game.is_empty(&s, p) {
            return out.push(format!("ERROR {rest} is taken"));
        }
        self.moves.push(p);
        self.think(out);
    }

    /// A line between `BOARD` and `DONE`.
    fn board_line(&mut self, line: &str, out: &mut Vec<String>) {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.board.take().unwrap_or_default();
            match self.set_board(&stones) {
                Ok(()) => self.think(out),
                Err(e) => out.push(format!("ERROR {e}")),
            }
            return;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match fields[..] {
            [x, y, f] => match (x.parse(), y.parse(), f) {
                (Ok(x), Ok(y), "1") => Some((x, y, true)),
                (Ok(x), Ok(y), "2") => Some((x, y, false)),
                // A stone of a continuous game's finished line: ignored.
                (Ok(_), Ok(_), "3") => None,
                _ => return out.push(format!("ERROR expected x,y,1|2|3 or DONE, not '{line}'")),
            },
            _ => return out.push(format!("ERROR expected x,y,1|2|3 or DONE, not '{line}'")),
        };
        if let (Some(stone), Some(board)) = (parsed, self.board.as_mut()) {
            board.push(stone);
        }
    }

    /// The position of a `BOARD`: the stones in the order given, the two
    /// colours alternating; the side with fewer stones (black when equal)
    /// is us, to move.
    fn set_board(&mut self, stones: &[(usize, usize, bool)]) -> Result<(), String> {
        let game = self.game.as_ref().ok_or("no board yet: send START first")?;
        let mut own = Vec::new();
        let mut theirs = Vec::new();
        for &(x, y, mine) in stones {
            let p = game
                .point_at(x, y)
                .ok_or_else(|| format!("{x},{y} is off the {0}x{0} board", game.size()))?;
            if mine { own.push(p) } else { theirs.push(p) }
        }
        let (first, second) = if own.len() == theirs.len() {
            (&own, &theirs)
        } else if theirs.len() == own.len() + 1 {
            (&theirs, &own)
        } else {
            return Err(format!(
                "{} stones of mine and {} of the opponent's: with me to move, I have as many or one fewer",
                own.len(),
                theirs.len()
            ));
        };
        let mut moves = Vec::with_capacity(stones.len());
        for (i, &p) in first.iter().enumerate() {
            moves.push(p);
            moves.extend(second.get(i));
        }
        let s = game.from_moves(&moves).map_err(|i| {
            format!(
                "stone {} ({}) is on a taken point or after five",
                i + 1,
                game.point_name(moves[i])
            )
        })?;
        if game.is_terminal(&s) {
            return Err("the game on that board is already over".into());
        }
        self.moves = moves;
        Ok(())
    }

    /// `INFO key value`: the clock, memory and rule; unknown keys ignored.
    fn info(&mut self, rest: &str, out: &mut Vec<String>) {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        let number = value.parse::<u64>();
        match (key.to_ascii_lowercase().as_str(), number) {
            ("timeout_turn", Ok(ms)) => self.timeout_turn = ms,
            ("timeout_match", Ok(ms)) => self.timeout_match = ms,
            ("time_left", Ok(ms)) => self.time_left = Some(ms),
            ("max_memory", Ok(bytes)) => {
                // Half the allowance for the table; 0 means no limit.
                let mb = if bytes == 0 {
                    self.table_cap
                } else {
                    ((bytes / 2) >> 20).clamp(1, self.table_cap as u64) as usize
                };
                if mb != self.tt_mb {
                    self.tt_mb = mb;
                    self.engine = None;
                    self.engine = self.fresh_engine();
                }
            }
            ("rule", Ok(bits)) => {
                // Bit 1: exactly five; bit 2: a continuous game (the
                // manager's business); renju (4) and caro (8) are not played.
                if bits & !3 != 0 {
                    out.push(format!("ERROR rule {bits} is not supported: only freestyle (0) and exactly five (1)"));
                    return;
                }
                let exact = bits & 1 == 1;
                if exact != self.exact {
                    self.exact = exact;
                    if let Some(g) = &self.game {
                        // The same board under the new rule.
                        self.game = Gomoku::new(g.size(), exact).ok();
                        self.engine = None;
                        self.engine = self.fresh_engine();
                    }
                }
            }
            ("timeout_turn" | "timeout_match" | "time_left" | "max_memory" | "rule", Err(_)) => {
                out.push(format!(
                    "ERROR INFO {key} needs a whole number, not '{value}'"
                ));
            }
            _ => {}
        }
    }

    /// `TAKEBACK x,y`: the stone on x,y (the last one played) is removed.
    fn takeback(&mut self, rest: &str, out: &mut Vec<String>) {
        match self.point(rest) {
            Ok(p) if self.moves.last() == Some(&p) => {
                self.moves.pop();
                out.push("OK".into());
            }
            Ok(_) => out.push(format!("ERROR {rest} is not the last stone played")),
            Err(e) => out.push(format!("ERROR {e}")),
        }
    }

    /// The time this move may take: the turn's limit, a share of what is
    /// left of the match, less the overhead; `(hard, soft)`.
    fn budget(&self) -> (Duration, Duration) {
        // A fifth of a short turn at most: a 50 ms turn keeps 10 ms back.
        let overhead = OVERHEAD_MS.min(self.timeout_turn / 5);
        let mut ms = self.timeout_turn.saturating_sub(overhead);
        if let Some(left) = self.time_left.filter(|_| self.timeout_match > 0) {
            ms = ms.min(left.saturating_sub(OVERHEAD_MS) / MATCH_SHARE);
        }
        let mut hard = Duration::from_millis(ms.max(MIN_MOVE_MS));
        if let Some(cap) = self.cap {
            hard = hard.min(cap);
        }
        // No new iteration past 60% of it: one that starts later would
        // most likely be cut off and thrown away.
        (hard, hard.mul_f64(0.6))
    }

    /// Searches the position and answers our move (and plays it).
    fn think(&mut self, out: &mut Vec<String>) {
        let (Some(game), Some(s)) = (self.game.as_ref(), self.position()) else {
            return out.push("ERROR no position".into());
        };
        if game.is_terminal(&s) {
            return out.push("ERROR the game is over".into());
        }
        let Some(mut engine) = self.engine.take().or_else(|| self.fresh_engine()) else {
            return out.push("ERROR no board yet: send START first".into());
        };
        let (hard, soft) = self.budget();
        engine.set_limits(None, Some(hard), Some(soft), None);
        let mut last = None;
        let found = iterate(
            &mut engine,
            game,
            &s,
            None,
            &mut NoObserver,
            &mut |it: &Iteration<Point>| {
                last = Some(message(game, &s, it));
            },
        );
        self.engine = Some(engine);
        out.extend(last);
        let mv = match found.ok().and_then(|o| o.best_move) {
            Some(mv) => mv,
            None => {
                // Never without a move: the first legal one.
                let mut moves = Vec::new();
                game.legal_moves(&s, &mut moves);
                moves[0]
            }
        };
        self.moves.push(mv);
        let (x, y) = game.xy(mv);
        out.push(format!("{x},{y}"));
    }
}

/// A `MESSAGE` line on the last completed iteration, for the manager's log.
fn message(game: &Gomoku, s: &ply_games::gomoku::Position, it: &Iteration<Point>) -> String {
    let v = it.outcome.value.0 * game.to_move(s).sign();
    let score = match it.outcome.distance {
        Some(d) if v > 0 => format!("win in {}", d.div_ceil(2)),
        Some(d) if v < 0 => format!("loss in {}", d / 2),
        _ => format!("eval {v}"),
    };
    format!(
        "MESSAGE depth {} {score} nodes {} time {} ms pv {}",
        it.depth,
        it.nodes,
        it.elapsed.as_millis(),
        line_text(game, s, &it.outcome.pv)
    )
}

/// Runs the protocol on stdin and stdout until `END` or the end of input.
/// Lines are read on their own thread, so that `END` stops a search at
/// once: the search answers with what it has, and the session ends when
/// it reaches the `END`.
pub fn run() -> CliResult {
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let mut session = Session::new();
    let stop = Arc::clone(&session.stop);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim().eq_ignore_ascii_case("END") {
                stop.store(true, Ordering::Relaxed);
            }
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    for line in rx {
        let reply = session.handle(&line);
        let mut out = std::io::stdout().lock();
        for l in &reply.lines {
            let _ = writeln!(out, "{l}");
        }
        let _ = out.flush();
        if reply.end {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hard_ms(lines: &[&str]) -> u128 {
        let mut s = Session::new();
        for l in lines {
            s.handle(l);
        }
        s.budget().0.as_millis()
    }

    #[test]
    fn the_budget_keeps_to_the_turn_and_the_match_clock() {
        // 100 ms kept back on a 1 s turn, a fifth of a short one.
        assert_eq!(hard_ms(&["INFO timeout_turn 1000"]), 900);
        assert_eq!(hard_ms(&["INFO timeout_turn 50"]), 40);
        // The match clock, when it binds: a twelfth of what is left.
        let clock = [
            "INFO timeout_turn 1000",
            "INFO timeout_match 60000",
            "INFO time_left 2500",
        ];
        assert_eq!(hard_ms(&clock), 200);
        // Never nothing at all.
        assert_eq!(hard_ms(&["INFO timeout_turn 0"]), u128::from(MIN_MOVE_MS));
    }
}
