//! `ply uci`: the Universal Chess Interface, so any chess GUI (or a match
//! script) can use ply's engine.
//!
//! The main thread reads commands; a `go` starts the search on its own
//! thread, so `isready` and `stop` are answered while it runs. The engine
//! (table, killers, history) passes to the search thread and back, and
//! survives from move to move until `ucinewgame`. Anything the protocol does
//! not know is answered with an `info string` and ignored: a GUI's typo
//! never ends the session.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use cozy_chess::Color;
use ply_core::observe::NoObserver;
use ply_core::search::id::iterate;
use ply_core::search::tt::{MAX_TT_MB, TransTable};
use ply_core::search::{DEFAULT_TT_MB, Engine, Iteration, SearchOptions};
use ply_core::{EngineHooks, Game, Notation, Tuning};
use ply_games::Chess;
use ply_games::chess::ChessState;

use crate::CliResult;
use crate::args::UciArgs;
use crate::output::line_text;

type Move = cozy_chess::Move;

/// The largest table the `Hash` option accepts, in MiB.
const MAX_HASH_MB: usize = MAX_TT_MB;

/// Time kept in hand on every move for the GUI and the operating system,
/// by default (the `Move Overhead` option): the search thread notices its
/// deadline within a few milliseconds, and the answer must reach the GUI
/// before the time is up.
const DEFAULT_OVERHEAD_MS: u64 = 10;

/// The largest `Move Overhead` accepted, in ms.
const MAX_OVERHEAD_MS: u64 = 5000;

/// The stack of the search thread: deep enough for any chess line.
const SEARCH_STACK: usize = 256 << 20;

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Engine<Move>>,
}

/// The limits of one `go`.
#[derive(Debug, Default, PartialEq)]
struct Go {
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: u64,
    binc: u64,
    movestogo: Option<u64>,
    movetime: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
}

impl Go {
    /// Reads the arguments of `go`; unknown words are reported, not fatal.
    fn parse(words: &[&str]) -> (Go, Vec<String>) {
        let mut go = Go::default();
        let mut problems = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let key = words[i];
            let value = words.get(i + 1).copied();
            let number = || value.and_then(|v| v.parse::<i64>().ok());
            let mut takes_value = true;
            match key {
                "infinite" => {
                    go.infinite = true;
                    takes_value = false;
                }
                "ponder" => takes_value = false,
                "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime" | "depth"
                | "nodes" | "mate" => match number() {
                    Some(n) => {
                        let n = n.max(0) as u64;
                        match key {
                            "wtime" => go.wtime = Some(n),
                            "btime" => go.btime = Some(n),
                            "winc" => go.winc = n,
                            "binc" => go.binc = n,
                            "movestogo" => go.movestogo = Some(n),
                            "movetime" => go.movetime = Some(n),
                            "depth" => go.depth = Some(n.clamp(1, 200) as u32),
                            "nodes" => go.nodes = Some(n.max(1)),
                            _ => {}
                        }
                    }
                    None => {
                        problems.push(format!("go {key}: expected a number"));
                        takes_value = value.is_some_and(|v| !is_go_key(v));
                    }
                },
                "searchmoves" => {
                    problems.push("go searchmoves is not supported; searching all moves".into());
                    takes_value = false;
                }
                other => {
                    problems.push(format!("go: unknown parameter '{other}' ignored"));
                    takes_value = false;
                }
            }
            i += if takes_value { 2 } else { 1 };
        }
        (go, problems)
    }

    /// The hard and soft time limits for the side to move, keeping
    /// `overhead` ms in hand: the hard one aborts the search, the soft one
    /// stops starting new iterations.
    fn time(&self, side: Color, overhead: u64) -> (Option<Duration>, Option<Duration>) {
        if self.infinite {
            return (None, None);
        }
        // `movetime` means "search this long": no soft limit to stop new
        // iterations early (that left half the time unused); the last one
        // is cut off and what it settled is used.
        if let Some(mt) = self.movetime {
            let hard = Duration::from_millis(mt.saturating_sub(overhead.min(mt / 5)).max(1));
            return (Some(hard), Some(hard));
        }
        let (clock, inc) = match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        let Some(clock) = clock else {
            return (None, None);
        };
        // A share of the clock for this move, plus most of the increment;
        // never more than a fraction of what is left, and a margin kept.
        let moves_left = self.movestogo.unwrap_or(30).clamp(1, 60);
        let usable = clock.saturating_sub(overhead);
        let share = usable / moves_left + inc * 3 / 4;
        let hard = (share * 3).min(usable / 3).max(1);
        let soft = (share * 6 / 10).min(hard).max(1);
        (
            Some(Duration::from_millis(hard)),
            Some(Duration::from_millis(soft)),
        )
    }
}

fn is_go_key(w: &str) -> bool {
    matches!(
        w,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "movetime"
            | "depth"
            | "nodes"
            | "mate"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

/// One line to the GUI, written at once.
fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The `score` part of an info line, from the side to move.
fn uci_score(game: &Chess, state: &ChessState, it: &Iteration<Move>) -> String {
    let sign = game.to_move(state).sign();
    let v = it.outcome.value.0 * sign;
    match it.outcome.distance {
        Some(d) if v > 0 => format!("mate {}", d.div_ceil(2)),
        Some(d) if v < 0 => format!("mate -{}", d / 2),
        _ => format!("cp {v}"),
    }
}

fn engine_options(hash_mb: usize, threads: usize, tuning: Option<Tuning>) -> SearchOptions {
    SearchOptions {
        tt_mb: hash_mb,
        threads,
        tuning,
        ..SearchOptions::engine()
    }
}

/// The most threads the `Threads` option accepts.
const MAX_THREADS: usize = 64;

/// The protocol's state between commands: the engine (handed to the
/// search thread while a search runs), its settings, the position.
/// One UCI conversation: the position, the engine and a running search.
/// `ply uci` feeds it stdin line by line; the fuzz target feeds it the same way.
pub struct Session {
    game: Arc<Chess>,
    hash_mb: usize,
    threads: usize,
    engine: Option<Engine<Move>>,
    state: ChessState,
    running: Option<Running>,
    /// The engine's tuning numbers, when `--tune` changed them.
    tuning: Option<Tuning>,
    /// Milliseconds kept in hand on every move (`Move Overhead`).
    overhead_ms: u64,
}

impl Session {
    /// A session with a table of `hash_mb` MiB, made when first needed.
    pub fn new(hash_mb: usize) -> Self {
        let game = Arc::new(Chess::new());
        Session {
            engine: None,
            state: game.initial_state(),
            game,
            hash_mb: hash_mb.clamp(1, MAX_HASH_MB),
            threads: 1,
            running: None,
            tuning: None,
            overhead_ms: DEFAULT_OVERHEAD_MS,
        }
    }

    /// The engine, made now if there is none. The table is allocated at
    /// the first `isready` or `go`, not at start: a GUI sets `Hash` first,
    /// and a table made before that would be thrown away, after raising
    /// the process's peak memory by the default size.
    fn engine(&mut self) -> Engine<Move> {
        self.engine.take().unwrap_or_else(|| {
            Engine::new(
                &*self.game,
                &engine_options(self.hash_mb, self.threads, self.tuning),
            )
        })
    }

    /// The size of the table the next search uses, in bytes, if it is made
    /// (for tests of the memory budget).
    pub fn table_bytes(&self) -> Option<usize> {
        let table = self.engine.as_ref()?.table()?;
        Some(table.bytes())
    }

    /// Waits for a running search to end (after `stop`, or by itself) and
    /// takes its engine back.
    /// Ends a running search (stopping it first if `stop`), printing its move.
    pub fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
            match r.handle.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => send("info string the search thread failed; starting a fresh engine"),
            }
        }
    }

    /// Carries out one line from the GUI; `false` after `quit`.
    /// Answers one line of the protocol; false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            return true;
        };
        // A finished search hands its engine back before the next command.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.finish(false);
        }
        match command {
            "uci" => {
                send("id name ply 0.1");
                send("id author the ply developers");
                send(&format!(
                    "option name Hash type spin default {DEFAULT_TT_MB} min 1 max {MAX_HASH_MB}"
                ));
                send(&format!(
                    "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
                ));
                send(&format!(
                    "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
                ));
                send("uciok");
            }
            "isready" => {
                // The GUI waits here for slow setup: make the table now (but
                // not while a search holds the engine).
                if self.running.is_none() {
                    let e = self.engine();
                    self.engine = Some(e);
                }
                send("readyok");
            }
            "debug" | "ponderhit" | "register" => {}
            "ucinewgame" => {
                self.finish(true);
                if let Some(e) = &mut self.engine {
                    e.clear();
                }
                self.state = self.game.initial_state();
            }
            "setoption" => {
                self.finish(true);
                self.setoption(&words[1..]);
            }
            "position" => {
                self.finish(true);
                self.position(line);
            }
            "go" => {
                self.finish(true);
                self.go(&words[1..]);
            }
            "stop" => self.finish(true),
            "quit" => return false,
            "d" => {
                for row in self.game.draw(&self.state).lines() {
                    send(&format!("info string {row}"));
                }
            }
            other => send(&format!("info string unknown command '{other}'")),
        }
        true
    }

    /// `setoption name Hash|Threads value N`: a new engine with the
    /// setting; `Move Overhead` only changes the time limits.
    fn setoption(&mut self, words: &[&str]) {
        let Some((name, value)) = parse_setoption(words) else {
            send("info string usage: setoption name <id> [value <x>]");
            return;
        };
        if name.eq_ignore_ascii_case("move overhead") {
            match value.parse::<u64>() {
                Ok(n) if n <= MAX_OVERHEAD_MS => self.overhead_ms = n,
                _ => send(&format!(
                    "info string Move Overhead must be a number of ms from 0 to {MAX_OVERHEAD_MS}, not '{value}'"
                )),
            }
            return;
        }
        let (setting, max, what) = if name.eq_ignore_ascii_case("hash") {
            (
                &mut self.hash_mb,
                MAX_HASH_MB,
                "Hash must be a number of MiB",
            )
        } else if name.eq_ignore_ascii_case("threads") {
            (&mut self.threads, MAX_THREADS, "Threads must be a number")
        } else {
            send(&format!("info string unknown option '{name}'"));
            return;
        };
        let is_hash = name.eq_ignore_ascii_case("hash");
        match value.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => {
                // A size the machine cannot reserve keeps the table it has.
                if is_hash && let Err(e) = TransTable::check_size(n) {
                    send(&format!("info string Hash {n}: {e}"));
                    return;
                }
                *setting = n;
                // The old table goes before the new one is made, so the two
                // are never held at once.
                self.engine = None;
            }
            _ => send(&format!(
                "info string {what} from 1 to {max}, not '{value}'"
            )),
        }
    }

    /// `position startpos|fen <fen> [moves ...]`; a bad one keeps the last.
    fn position(&mut self, line: &str) {
        let rest = line.trim_start()["position".len()..].trim();
        let text = if let Some(r) = rest.strip_prefix("startpos") {
            format!("startpos{r}")
        } else if let Some(r) = rest.strip_prefix("fen") {
            r.trim().to_string()
        } else {
            send("info string usage: position startpos|fen <fen> [moves ...]");
            return;
        };
        match self.game.parse_position(&text) {
            Ok(s) => self.state = s,
            Err(e) => send(&format!(
                "info string bad position ({e}); keeping the last one"
            )),
        }
    }

    /// `go ...`: starts the search thread with the engine.
    fn go(&mut self, words: &[&str]) {
        let (go, problems) = Go::parse(words);
        for p in problems {
            send(&format!("info string {p}"));
        }
        let mut e = self.engine();
        let side = self.state.board().side_to_move();
        let (hard, soft) = go.time(side, self.overhead_ms);
        e.set_limits(go.depth, hard, soft, go.nodes);
        let stop = Arc::new(AtomicBool::new(false));
        let handle = {
            let (game, state, stop) = (
                Arc::clone(&self.game),
                self.state.clone(),
                Arc::clone(&stop),
            );
            let wait_for_stop = go.infinite;
            std::thread::Builder::new()
                .name("ply-search".into())
                .stack_size(SEARCH_STACK)
                .spawn(move || search(&game, &state, e, &stop, wait_for_stop))
        };
        match handle {
            Ok(handle) => self.running = Some(Running { stop, handle }),
            Err(err) => {
                // The engine went with the closure; the next search makes one.
                send(&format!("info string cannot start the search: {err}"));
            }
        }
    }
}

/// Runs the protocol on stdin and stdout until `quit` or the end of input.
pub fn run(args: &UciArgs) -> CliResult {
    TransTable::check_size(args.hash)
        .map_err(|e| crate::CliError::input(format!("--hash {}: {e}", args.hash)))?;
    let mut session = Session::new(args.hash);
    if let Some(pairs) = &args.tune {
        let tuning = <Chess as EngineHooks>::TUNING
            .with_overrides(pairs)
            .map_err(|e| crate::CliError::input(format!("--tune: {e}")))?;
        session.tuning = Some(tuning);
    }
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !session.handle(&line) {
            break;
        }
    }
    session.finish(true);
    Ok(())
}

/// `name <id words> [value <x>]` of a setoption command.
fn parse_setoption(words: &[&str]) -> Option<(String, String)> {
    if words.first() != Some(&"name") {
        return None;
    }
    let v = words.iter().position(|&w| w == "value");
    let name_end = v.unwrap_or(words.len());
    if name_end <= 1 {
        return None;
    }
    let name = words[1..name_end].join(" ");
    let value = v.map_or(String::new(), |i| words[i + 1..].join(" "));
    Some((name, value))
}

/// The search thread: iterative deepening with an info line per depth,
/// then `bestmove` (after `stop` only, for `go infinite`).
fn search(
    game: &Chess,
    state: &ChessState,
    mut engine: Engine<Move>,
    stop: &AtomicBool,
    wait_for_stop: bool,
) -> Engine<Move> {
    let outcome = iterate(
        &mut engine,
        game,
        state,
        Some(stop),
        &mut NoObserver,
        &mut |it: &Iteration<Move>| {
            let ms = it.elapsed.as_millis().max(1);
            let nps = u128::from(it.nodes) * 1000 / ms;
            send(&format!(
                "info depth {} seldepth {} score {} nodes {} nps {nps} time {} pv {}",
                it.depth,
                it.seldepth.max(it.depth),
                uci_score(game, state, it),
                it.nodes,
                it.elapsed.as_millis(),
                line_text(game, state, &it.outcome.pv)
            ));
        },
    );
    if wait_for_stop {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let best = outcome
        .ok()
        .and_then(|o| o.best_move)
        .map_or_else(|| "0000".to_string(), |m| game.format_move(state, m));
    send(&format!("bestmove {best}"));
    engine
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parameters() {
        let (go, problems) = Go::parse(&["wtime", "1000", "btime", "x", "winc", "10", "bogus"]);
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, None);
        assert_eq!(go.winc, 10);
        assert_eq!(problems.len(), 2, "{problems:?}");
        let (hard, soft) = go.time(Color::White, DEFAULT_OVERHEAD_MS);
        assert!(hard.unwrap() <= Duration::from_millis(1000 / 3));
        assert!(soft.unwrap() <= hard.unwrap());
        let (go, _) = Go::parse(&["movetime", "100"]);
        let ninety = Some(Duration::from_millis(90));
        assert_eq!(go.time(Color::Black, 10), (ninety, ninety));
        // Never more than a fifth of a short movetime is kept in hand.
        let sixteen = Some(Duration::from_millis(16));
        let (go, _) = Go::parse(&["movetime", "20"]);
        assert_eq!(go.time(Color::Black, 10), (sixteen, sixteen));
        let (go, _) = Go::parse(&["infinite"]);
        assert_eq!(go.time(Color::White, 10), (None, None));
    }

    #[test]
    fn the_table_is_made_when_needed_at_the_size_asked() {
        let mut s = Session::new(64);
        assert_eq!(s.table_bytes(), None, "no table before it is needed");
        s.handle("setoption name Hash value 2");
        assert_eq!(s.table_bytes(), None);
        s.handle("isready");
        let bytes = s.table_bytes().expect("isready makes the table");
        assert!(bytes > 1 << 20 && bytes <= 2 << 20, "{bytes}");
        s.handle("setoption name Hash value 1");
        assert_eq!(s.table_bytes(), None, "a new size drops the old table");
        s.handle("go depth 1");
        s.finish(false);
        let bytes = s.table_bytes().expect("the search hands its engine back");
        assert!(bytes > 1 << 19 && bytes <= 1 << 20, "{bytes}");
    }

    #[test]
    fn move_overhead_changes_the_time_kept_and_nothing_else() {
        let mut s = Session::new(1);
        s.handle("isready");
        s.handle("setoption name Move Overhead value 250");
        assert_eq!(s.overhead_ms, 250);
        assert!(s.table_bytes().is_some(), "the table is kept");
        for bad in ["-1", "5001", "soon", ""] {
            s.handle(&format!("setoption name move overhead value {bad}"));
            assert_eq!(s.overhead_ms, 250, "'{bad}' is refused");
        }
        let (go, _) = Go::parse(&["movetime", "2000"]);
        let hard = Some(Duration::from_millis(1750));
        assert_eq!(go.time(Color::White, s.overhead_ms), (hard, hard));
    }

    #[test]
    fn setoption_names() {
        assert_eq!(
            parse_setoption(&["name", "Hash", "value", "32"]),
            Some(("Hash".into(), "32".into()))
        );
        assert_eq!(
            parse_setoption(&["name", "Clear", "Hash"]),
            Some(("Clear Hash".into(), String::new()))
        );
        assert_eq!(parse_setoption(&["value", "3"]), None);
    }
}
