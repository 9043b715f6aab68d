//! `ply gtp`: the Go Text Protocol (version 2) on stdin/stdout, so Go
//! GUIs (GoGui, Sabaki), referees (twogtp, `gtp_match.py`) and servers can
//! play ply's Go engine.
//!
//! A command is a line: an optional numeric id, the command's name, its
//! arguments. The answer is `=` (or `?` for an error), the id if one was
//! given, a space and the text, then an empty line. A line the protocol
//! does not know is answered `? unknown command` and the session goes on;
//! only `quit` or the end of the input ends it.
//!
//! Rules: ply's Go (area scoring, positional superko, suicide illegal). A
//! komi with a half point (7.5) is played as its whole part (7) by the
//! searches, which then count a margin of exactly 7 as a draw where it is
//! White's win by half a point; `final_score` reports the true komi.
//! A colour played out of turn (handicap stones, a GUI's edit) is played
//! after a pass of the other side, as the protocol allows.

use std::io::{BufRead, Write};
use std::time::Duration;

use ply_core::search::{MctsAgent, MctsOptions, MctsResult};
use ply_core::{Game, Notation, Player};
use ply_games::go::{Go, GoMove, GoState, MAX_SIZE, Policy, Priors};

use crate::CliResult;
use crate::args::GtpArgs;

/// Every command `list_commands` names, in its order.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "final_score",
    "showboard",
    "time_settings",
    "time_left",
];

/// RAVE's equivalence parameter by default. With it and no exploration
/// term (c = 0), RAVE won 9 of 10 games against plain UCT (c = √2) at
/// 5,000 simulations a move on 9×9; with c = 0.2 (k = 1,000) 4 of 10,
/// with c = 1.4 3 of 10: an exploration bonus for the visited moves only
/// keeps the untried ones, which compete by their AMAF values alone,
/// from ever being expanded.
pub const DEFAULT_RAVE: f64 = 300.0;

/// Time kept back on every move for the referee and the pipe.
const OVERHEAD_MS: u64 = 50;
/// The least a move's search is given.
const MIN_MOVE_MS: u64 = 10;

/// How the engine searches: from the command line.
#[derive(Clone, Debug)]
pub struct EngineSettings {
    /// A fixed number of simulations a move (no clock), for reproducible
    /// games; `None` to think by the clock.
    pub simulations: Option<u64>,
    /// A move's time when the controller sent no `time_settings`.
    pub move_ms: u64,
    /// Search threads.
    pub threads: usize,
    /// The seed of the searches.
    pub seed: u64,
    /// Resign when the best move's winning chance is below this (0: never).
    pub resign: f64,
    /// The playout policy (`None`: move by move through the rules).
    pub playouts: Option<Policy>,
    /// What a new node's moves start with.
    pub priors: Priors,
    /// RAVE's equivalence parameter (`None`: plain UCT).
    pub rave: Option<f64>,
    /// The exploration constant.
    pub c: f64,
    /// Whether each move's search keeps the subtree of the last one.
    pub reuse: bool,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            simulations: None,
            move_ms: 1000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            resign: 0.05,
            playouts: Some(Policy::FULL),
            priors: Priors::Knowledge,
            rave: Some(DEFAULT_RAVE),
            c: 0.0,
            reuse: true,
        }
    }
}

/// The clock the controller set: `time_settings` and `time_left`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Clock {
    main_ms: u64,
    byo_ms: u64,
    byo_stones: u64,
    /// The last `time_left` for each colour (black's, white's): time and
    /// stones left in the period (0 stones: main time).
    left: [Option<(u64, u64)>; 2],
}

/// One conversation with a controller: `ply gtp` feeds it stdin line by
/// line; tests and the fuzz target do the same.
pub struct Session {
    settings: EngineSettings,
    size: usize,
    /// The komi as the controller gave it.
    komi: f64,
    game: Go,
    /// Every position of the game, the current last (for `undo`).
    history: Vec<GoState>,
    /// `None` until `time_settings` (or after `time_settings 0 0 0`).
    clock: Option<Clock>,
    /// `genmove`s answered, for the seed of each new tree.
    searches: u64,
    /// The search, keeping its trees from one move to the next.
    agent: MctsAgent<Go>,
    /// `quit` was read.
    pub quit: bool,
}

impl Session {
    /// A 9×9 game, komi 7, searching by `settings`.
    pub fn new(settings: EngineSettings) -> Self {
        let game = Self::make_game(9, 7.0, &settings);
        Session {
            history: vec![game.initial_state()],
            settings,
            size: 9,
            komi: 7.0,
            game,
            clock: None,
            searches: 0,
            agent: MctsAgent::new(MctsOptions::default()),
            quit: false,
        }
    }

    /// A session whose moves search 30 simulations on one thread: the
    /// fuzz target's, where a second a move would hold it to one input.
    pub fn for_fuzzing() -> Self {
        Self::new(EngineSettings {
            simulations: Some(30),
            threads: 1,
            ..EngineSettings::default()
        })
    }

    /// Panics unless the positions kept are a game by the rules: each
    /// follows from the one before by one of its legal moves.
    pub fn check_game(&self) {
        assert_eq!(self.history[0], self.game.initial_state());
        for pair in self.history.windows(2) {
            let mv = pair[1].last_move().expect("a move was played");
            let mut legal = Vec::new();
            self.game.legal_moves(&pair[0], &mut legal);
            assert!(legal.contains(&mv), "{mv:?} is not legal");
            assert_eq!(self.game.play(&pair[0], mv), pair[1]);
        }
    }

    fn make_game(size: usize, komi: f64, settings: &EngineSettings) -> Go {
        Go::new(size, komi.floor() as i32)
            .expect("sizes and komi are checked before")
            .with_playouts(settings.playouts)
            .with_priors(settings.priors)
    }

    fn state(&self) -> &GoState {
        self.history.last().expect("the history holds the start")
    }

    /// Answers one line: the whole response with its closing empty line,
    /// or nothing for an empty line or a comment.
    pub fn handle(&mut self, line: &str) -> Option<String> {
        // The protocol: control characters other than tab and newline are
        // dropped, tabs are spaces, `#` starts a comment.
        let line: String = line
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return None;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        let (id, command) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (first, words.next().unwrap_or(""))
        } else {
            ("", first)
        };
        let args: Vec<&str> = words.collect();
        let (mark, text) = match self.command(command, &args) {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        let space = if text.is_empty() { "" } else { " " };
        Some(format!("{mark}{id}{space}{text}\n\n"))
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        let arg = |i: usize, what: &str| {
            args.get(i)
                .copied()
                .ok_or_else(|| format!("{command} needs {what}"))
        };
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("ply".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&arg(0, "a command's name")?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => {
                let text = arg(0, "a size")?;
                match text.parse::<usize>() {
                    Ok(n) if (2..=MAX_SIZE).contains(&n) => {
                        self.size = n;
                        self.new_game();
                        Ok(String::new())
                    }
                    _ => Err(format!(
                        "unacceptable size: '{text}' (2 to {MAX_SIZE} are played)"
                    )),
                }
            }
            "clear_board" => {
                self.new_game();
                Ok(String::new())
            }
            "komi" => {
                let text = arg(0, "a number")?;
                match text.parse::<f64>() {
                    Ok(k) if k.is_finite() && k.abs() <= 400.0 => {
                        self.komi = k;
                        self.game = Self::make_game(self.size, k, &self.settings);
                        self.agent.forget();
                        self.replay();
                        Ok(String::new())
                    }
                    _ => Err(format!(
                        "syntax error: komi '{text}' is not a number from -400 to 400"
                    )),
                }
            }
            "play" => {
                let colour = colour(arg(0, "a colour and a vertex")?)?;
                let vertex = arg(1, "a vertex (D4 or pass)")?;
                self.play(colour, vertex).map(|()| String::new())
            }
            "genmove" => {
                let colour = colour(arg(0, "a colour")?)?;
                Ok(self.genmove(colour))
            }
            "undo" => {
                if self.history.len() < 2 {
                    return Err("cannot undo".into());
                }
                self.history.pop();
                Ok(String::new())
            }
            "final_score" => Ok(self.final_score()),
            "showboard" => {
                let drawing = self.game.draw(self.state());
                let lines: Vec<&str> = drawing.lines().filter(|l| !l.trim().is_empty()).collect();
                Ok(format!("\n{}", lines.join("\n")))
            }
            "time_settings" => {
                let n = |i: usize| -> Result<u64, String> {
                    let text = arg(i, "main time, byo-yomi time and stones")?;
                    seconds_ms(text).ok_or_else(|| format!("syntax error: '{text}' is not a time"))
                };
                let (main_ms, byo_ms) = (n(0)?, n(1)?);
                let stones = arg(2, "main time, byo-yomi time and stones")?;
                let byo_stones = stones
                    .parse::<u64>()
                    .map_err(|_| format!("syntax error: '{stones}' is not a number of stones"))?;
                // The protocol: byo-yomi time with no stones means no
                // limit; all three 0 is taken the same way.
                let unlimited = byo_stones == 0 && (byo_ms > 0 || main_ms == 0);
                self.clock = (!unlimited).then_some(Clock {
                    main_ms,
                    byo_ms,
                    byo_stones,
                    left: [None, None],
                });
                Ok(String::new())
            }
            "time_left" => {
                let colour = colour(arg(0, "a colour, a time and stones")?)?;
                let time = arg(1, "a time and stones")?;
                let time = seconds_ms(time)
                    .ok_or_else(|| format!("syntax error: '{time}' is not a time"))?;
                let stones = arg(2, "stones")?;
                let stones = stones
                    .parse::<u64>()
                    .map_err(|_| format!("syntax error: '{stones}' is not a number of stones"))?;
                if let Some(clock) = &mut self.clock {
                    clock.left[side(colour)] = Some((time, stones));
                }
                Ok(String::new())
            }
            "" => Err("syntax error: no command".into()),
            _ => Err("unknown command".into()),
        }
    }

    fn new_game(&mut self) {
        self.game = Self::make_game(self.size, self.komi, &self.settings);
        self.history = vec![self.game.initial_state()];
        self.agent.forget();
    }

    /// The same moves on the game as it now is (after `komi`).
    fn replay(&mut self) {
        let moves = self.state().moves();
        let mut s = self.game.initial_state();
        self.history = vec![s.clone()];
        for mv in moves {
            s = self.game.play(&s, mv);
            self.history.push(s.clone());
        }
    }

    /// Makes it `colour`'s turn: a pass of the other side if it is not.
    fn turn(&mut self, colour: Player) -> Result<(), String> {
        if self.game.is_terminal(self.state()) {
            return Err("the game is over (two passes): clear_board starts a new one".into());
        }
        if self.game.to_move(self.state()) != colour {
            let s = self.game.play(self.state(), GoMove::PASS);
            self.history.push(s);
            if self.game.is_terminal(self.state()) {
                self.history.pop();
                return Err(
                    "the other side's pass would end the game: a colour plays out of turn only \
                     while the game goes on"
                        .into(),
                );
            }
        }
        Ok(())
    }

    fn play(&mut self, colour: Player, vertex: &str) -> Result<(), String> {
        let mv = self
            .game
            .parse_move(self.state(), vertex)
            .map_err(|e| format!("syntax error: {e}"))?;
        let depth = self.history.len();
        self.turn(colour)?;
        let mut legal = Vec::new();
        self.game.legal_moves(self.state(), &mut legal);
        if !legal.contains(&mv) {
            let why = self.game.why_illegal(self.state(), mv);
            self.history.truncate(depth);
            return Err(format!("illegal move: {why}"));
        }
        let s = self.game.play(self.state(), mv);
        self.history.push(s);
        Ok(())
    }

    fn genmove(&mut self, colour: Player) -> String {
        if self.turn(colour).is_err() {
            return "pass".into();
        }
        let s = self.state().clone();
        let mv = if self.pass_wins(&s) {
            GoMove::PASS
        } else {
            let result = self.search(colour, &s);
            let best = result.moves.first();
            // What the search thought, for the controller's log (GoGui
            // shows an engine's stderr; referees discard it).
            if let Some(m) = best {
                eprintln!(
                    "ply: {} visits {} winning {:.1}%, {} simulations in {:.2} s",
                    self.game.format_move(&s, m.mv),
                    m.visits,
                    100.0 * m.mean,
                    result.iterations,
                    result.elapsed.as_secs_f64()
                );
            }
            if self.settings.resign > 0.0
                && result.iterations >= 1000
                && best.is_some_and(|m| m.mean < self.settings.resign)
            {
                return "resign".into();
            }
            result.best_move.unwrap_or(GoMove::PASS)
        };
        let next = self.game.play(&s, mv);
        self.history.push(next);
        self.game.format_move(&s, mv)
    }

    /// The search of one move: the move's time (or simulations), and
    /// half as much again when the time is the main time's, there is
    /// plenty of it, and the two most visited moves are close (the choice
    /// is unstable: at most 1.5 times the visits of the second). The
    /// second search goes on growing the same trees.
    fn search(&mut self, colour: Player, s: &GoState) -> MctsResult<GoMove> {
        self.searches += 1;
        let budget = self.budget(colour, s);
        self.agent.options = MctsOptions {
            iterations: self.settings.simulations,
            time_limit: match self.settings.simulations {
                Some(_) => None,
                None => Some(budget),
            },
            threads: self.settings.threads.max(1),
            seed: self.settings.seed.wrapping_add(self.searches * 7919),
            rave: self.settings.rave,
            c: self.settings.c,
            ..MctsOptions::default()
        };
        if !self.settings.reuse {
            self.agent.forget();
        }
        let mut result = self.agent.think(&self.game, s);
        let unstable = match result.moves.as_slice() {
            [first, second, ..] => first.visits * 2 <= second.visits * 3,
            _ => false,
        };
        if unstable
            && self.settings.simulations.is_none()
            && self.main_time_left(colour) > 8 * budget.as_millis() as u64
        {
            let (done, elapsed) = (result.iterations, result.elapsed);
            self.agent.options.time_limit = Some(budget / 2);
            result = self.agent.think(&self.game, s);
            result.iterations += done;
            result.elapsed += elapsed;
        }
        result
    }

    /// The main time `colour` has left (0 in byo-yomi or without a clock).
    fn main_time_left(&self, colour: Player) -> u64 {
        match self.clock {
            Some(clock) => match clock.left[side(colour)] {
                Some((ms, 0)) => ms,
                Some(_) => 0,
                None => clock.main_ms,
            },
            None => 0,
        }
    }

    /// Whether the opponent just passed and a pass now ends the game in
    /// the mover's favour by the rules' count: then there is nothing to
    /// play for.
    fn pass_wins(&self, s: &GoState) -> bool {
        if s.passes() != 1 {
            return false;
        }
        let margin = self.margin(s);
        match self.game.to_move(s) {
            Player::Max => margin > 0.0,
            Player::Min => margin < 0.0,
        }
    }

    /// This move's time: the byo-yomi period's time over its stones when
    /// in it, else an even share of the main time over the moves likely
    /// left (a third of the empty points, at least 15), plus the period's
    /// share, less the overhead.
    fn budget(&self, colour: Player, s: &GoState) -> Duration {
        let Some(clock) = self.clock else {
            return Duration::from_millis(self.settings.move_ms.max(MIN_MOVE_MS));
        };
        let per_stone = |ms: u64, stones: u64| ms / stones.max(1);
        let (left, stones) = clock.left[side(colour)].unwrap_or(if clock.main_ms > 0 {
            (clock.main_ms, 0)
        } else {
            (clock.byo_ms, clock.byo_stones)
        });
        let ms = if stones > 0 {
            per_stone(left, stones)
        } else {
            let empty = self.size * self.size - usize::from(s.board().stone_count());
            let moves_left = (empty as u64 / 3).max(15);
            let period = if clock.byo_stones > 0 {
                per_stone(clock.byo_ms, clock.byo_stones)
            } else {
                0
            };
            left / moves_left + period
        };
        Duration::from_millis(ms.saturating_sub(OVERHEAD_MS).max(MIN_MOVE_MS))
    }

    /// Black's area less White's less the true komi (a half point kept).
    fn margin(&self, s: &GoState) -> f64 {
        let (black, white) = self.game.area(s);
        f64::from(black - white) - self.komi
    }

    /// The score by the rules' count of the board as it stands (every
    /// stone alive): `B+8.5`, `W+0.5`, or `0`.
    fn final_score(&self) -> String {
        let margin = self.margin(self.state());
        if margin > 0.0 {
            format!("B+{margin}")
        } else if margin < 0.0 {
            format!("W+{}", -margin)
        } else {
            "0".into()
        }
    }
}

fn colour(text: &str) -> Result<Player, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Player::Max),
        "w" | "white" => Ok(Player::Min),
        _ => Err(format!(
            "syntax error: '{text}' is not a colour (b, w, black or white)"
        )),
    }
}

fn side(colour: Player) -> usize {
    match colour {
        Player::Max => 0,
        Player::Min => 1,
    }
}

/// A time in seconds (GTP sends whole seconds; a fraction is taken too)
/// as milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    let s = text.parse::<f64>().ok()?;
    (0.0..1e9).contains(&s).then(|| (s * 1000.0).round() as u64)
}

/// `ply gtp`: answers stdin's commands on stdout until `quit` or the end
/// of the input.
pub fn run(args: &GtpArgs) -> CliResult {
    let mut settings = EngineSettings {
        simulations: args.simulations,
        seed: args.seed,
        resign: args.resign,
        ..EngineSettings::default()
    };
    if let Some(ms) = args.move_ms {
        settings.move_ms = ms;
    }
    settings.rave = (args.rave > 0.0).then_some(args.rave);
    settings.c = args.c.unwrap_or(match settings.rave {
        Some(_) => 0.0,
        None => std::f64::consts::SQRT_2,
    });
    if let Some(t) = args.threads {
        settings.threads = usize::from(t);
    }
    settings.playouts = match args.playouts.as_str() {
        "shapes" => Some(Policy::SHAPES),
        "light" => Some(Policy::LIGHT),
        "moves" => None,
        _ => Some(Policy::FULL),
    };
    settings.reuse = !args.no_tree_reuse;
    if args.priors == "plain" {
        settings.priors = Priors::Plain;
    }
    let mut session = Session::new(settings);
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if let Some(reply) = session.handle(&line) {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(reply.as_bytes());
            let _ = out.flush();
        }
        if session.quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(simulations: u64) -> Session {
        Session::new(EngineSettings {
            simulations: Some(simulations),
            threads: 1,
            ..EngineSettings::default()
        })
    }

    /// The answer's text without the mark, id and closing empty line;
    /// `Err` for a `?` answer.
    fn ask(s: &mut Session, line: &str) -> Result<String, String> {
        let reply = s.handle(line).expect("a command is answered");
        assert!(reply.ends_with("\n\n") && !reply[..reply.len() - 2].contains("\n\n"));
        let body = reply[1..reply.len() - 2].trim_start().to_string();
        match reply.as_bytes()[0] {
            b'=' => Ok(body),
            b'?' => Err(body),
            _ => panic!("{reply:?}"),
        }
    }

    #[test]
    fn answers_carry_the_id_and_end_with_an_empty_line() {
        let mut s = session(10);
        assert_eq!(s.handle("7 protocol_version").unwrap(), "=7 2\n\n");
        assert_eq!(s.handle("name # a comment").unwrap(), "= ply\n\n");
        assert_eq!(s.handle("12 clear_board").unwrap(), "=12\n\n");
        assert_eq!(s.handle("3 frobnicate").unwrap(), "?3 unknown command\n\n");
        assert_eq!(s.handle("   "), None);
        assert_eq!(s.handle("# only a comment"), None);
        // Control characters are dropped, tabs are spaces.
        assert_eq!(s.handle("\u{1}known_command\tplay").unwrap(), "= true\n\n");
        for c in COMMANDS {
            assert_eq!(
                ask(&mut s, &format!("known_command {c}")),
                Ok("true".into())
            );
        }
        assert_eq!(
            ask(&mut s, "known_command genmove_black"),
            Ok("false".into())
        );
        assert_eq!(
            ask(&mut s, "list_commands").unwrap().lines().count(),
            COMMANDS.len()
        );
        assert!(!s.quit);
        assert_eq!(ask(&mut s, "quit"), Ok(String::new()));
        assert!(s.quit);
    }

    #[test]
    fn plays_are_checked_by_the_rules_and_undone() {
        let mut s = session(10);
        ask(&mut s, "boardsize 5").unwrap();
        // A ko in the corner: black A2 B1, white B2 C1.
        for (c, v) in [("b", "A2"), ("w", "B2"), ("b", "B1"), ("w", "C1")] {
            ask(&mut s, &format!("play {c} {v}")).unwrap();
        }
        let e = ask(&mut s, "play b C1").unwrap_err();
        assert!(
            e.starts_with("illegal move") && e.contains("not empty"),
            "{e}"
        );
        // White's A1 takes B1; black may not take back at once.
        ask(&mut s, "play b E5").unwrap();
        ask(&mut s, "play w A1").unwrap();
        let board = ask(&mut s, "showboard").unwrap();
        assert!(board.contains(" 1 (O). O"), "{board}");
        let e = ask(&mut s, "play b B1").unwrap_err();
        assert!(e.starts_with("illegal move") && e.contains("repeat"), "{e}");
        ask(&mut s, "undo").unwrap();
        let board = ask(&mut s, "showboard").unwrap();
        assert!(board.contains(" 1  . X O"), "{board}");
        assert_eq!(s.state().moves().len(), 5);
        // Out of turn: white plays twice, a black pass between.
        ask(&mut s, "play w E4").unwrap();
        ask(&mut s, "play w D4").unwrap();
        assert_eq!(s.state().moves().len(), 8);
        assert!(s.state().moves()[6].is_pass());
        // Errors in the controller's words.
        assert!(
            ask(&mut s, "play b Z3")
                .unwrap_err()
                .contains("off the 5x5 board")
        );
        assert!(
            ask(&mut s, "play red C3")
                .unwrap_err()
                .contains("not a colour")
        );
        assert!(
            ask(&mut s, "play b")
                .unwrap_err()
                .contains("needs a vertex")
        );
        assert!(
            ask(&mut s, "boardsize 20")
                .unwrap_err()
                .contains("unacceptable size")
        );
        assert!(
            ask(&mut s, "komi lots")
                .unwrap_err()
                .contains("not a number")
        );
        // A bad command changes nothing.
        assert_eq!(s.state().moves().len(), 8);
        assert_eq!(ask(&mut s, "clear_board"), Ok(String::new()));
        assert_eq!(ask(&mut s, "undo"), Err("cannot undo".into()));
    }

    #[test]
    fn the_score_counts_stones_and_territory_with_the_komi() {
        let mut s = session(10);
        ask(&mut s, "boardsize 3").unwrap();
        ask(&mut s, "komi 0.5").unwrap();
        // One black stone owns the whole empty 3x3 board: 9 - 0.5.
        ask(&mut s, "play b B2").unwrap();
        assert_eq!(ask(&mut s, "final_score"), Ok("B+8.5".into()));
        // A white stone too: every empty point reaches both colours.
        ask(&mut s, "play w A1").unwrap();
        assert_eq!(ask(&mut s, "final_score"), Ok("W+0.5".into()));
        ask(&mut s, "komi 0").unwrap();
        assert_eq!(ask(&mut s, "final_score"), Ok("0".into()));
        // komi keeps the moves.
        assert_eq!(s.state().moves().len(), 2);
    }

    #[test]
    fn the_clock_sets_each_moves_time() {
        let mut s = session(10);
        let st = s.state().clone();
        let ms = |s: &Session| s.budget(Player::Max, &st).as_millis();
        assert_eq!(ms(&s), 1000);
        assert_eq!(s.main_time_left(Player::Max), 0, "no clock: no time to add");
        // One move a period of 1 s: the period less the overhead.
        ask(&mut s, "time_settings 0 1 1").unwrap();
        assert_eq!(ms(&s), 950);
        assert_eq!(s.main_time_left(Player::Max), 0);
        // 10 minutes main time on an empty 9x9: 81 / 3 = 27 moves to go.
        ask(&mut s, "time_settings 600 0 0").unwrap();
        assert_eq!(ms(&s), 600_000 / 27 - 50);
        assert_eq!(s.main_time_left(Player::Max), 600_000);
        ask(&mut s, "time_left b 30 0").unwrap();
        assert_eq!(ms(&s), 30_000 / 27 - 50);
        assert_eq!(s.main_time_left(Player::Max), 30_000);
        assert_eq!(s.main_time_left(Player::Min), 600_000);
        // In byo-yomi: 20 s for 5 stones.
        ask(&mut s, "time_settings 60 20 5").unwrap();
        ask(&mut s, "time_left black 20 5").unwrap();
        assert_eq!(ms(&s), 4000 - 50);
        assert_eq!(
            s.main_time_left(Player::Max),
            0,
            "no time to add in byo-yomi"
        );
        // No limit: back to the default.
        ask(&mut s, "time_settings 0 1 0").unwrap();
        assert_eq!(ms(&s), 1000);
        assert!(
            ask(&mut s, "time_settings 1 x 0")
                .unwrap_err()
                .contains("not a time")
        );
        assert!(ask(&mut s, "time_left b 10").unwrap_err().contains("needs"));
    }

    #[test]
    fn genmove_plays_and_resigns_a_lost_game() {
        let mut s = session(300);
        ask(&mut s, "boardsize 5").unwrap();
        let mv = ask(&mut s, "genmove b").unwrap();
        assert_eq!(s.state().moves().len(), 1);
        assert!(
            ask(&mut s, &format!("play w {mv}"))
                .unwrap_err()
                .contains("not empty")
        );
        // Black cannot reach 30 points on 25: every playout is lost.
        let mut s = session(1000);
        ask(&mut s, "boardsize 5").unwrap();
        ask(&mut s, "komi 30").unwrap();
        assert_eq!(ask(&mut s, "genmove b"), Ok("resign".into()));
        assert_eq!(s.state().moves().len(), 0);
        // White passes after black's pass when passing wins by the count.
        let mut s = session(300);
        ask(&mut s, "boardsize 5").unwrap();
        ask(&mut s, "play b pass").unwrap();
        assert_eq!(ask(&mut s, "genmove w"), Ok("pass".into()));
        assert_eq!(ask(&mut s, "genmove b"), Ok("pass".into()), "after the end");
    }

    #[test]
    fn garbage_is_answered_without_dying() {
        let mut s = session(20);
        let junk = [
            "boardsize",
            "boardsize -1",
            "boardsize 99999999999999999999",
            "komi nan",
            "komi 1e308",
            "play",
            "play b",
            "play b pass extra",
            "genmove",
            "genmove q",
            "time_left",
            "time_settings -1 -1 -1",
            "99999999999999999999999 name",
            "\u{0}\u{7f}",
            "known_command",
            "undo",
            "é 2",
            "play w ÅÄ",
            "play b A0",
            "play b A99999",
            "play b pass",
            "play w pass",
            "play b A1",
            "genmove w",
        ];
        for line in junk {
            s.handle(line);
            s.check_game();
        }
        assert_eq!(ask(&mut s, "name"), Ok("ply".into()));
    }
}
