//! One entry point for the command line's JSON answers: a request (the
//! fields of the command line's flags) is turned into the command line it
//! stands for, read by the same parser and checks, and run through the same
//! report functions, so `ply serve`'s API and the Python bindings answer
//! exactly what `ply ... --json` prints, with the CLI's messages.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use ply_core::Window;
use ply_core::explore::tree_size;
use ply_core::observe::{NodeKind, Observer};
use ply_core::registry::{GameSpec, GameVisitor, Registered};
use ply_service::report::ShowReport;
use serde::Deserialize;
use serde_json::Value;

use crate::CliError;
use crate::args::{Cli, Command};
use crate::commands::compare::{compare_report, disagreement};
use crate::commands::explore::{count_report, perft_report};
use crate::commands::solve::{SOLVE_TIME_MS, analyze_report, solve_report, threat_report};
use crate::commands::trace::{trace_report, trace_state};
use crate::commands::{Plan, configure};
use crate::output::{params, setup};
use crate::progress::{Listen, Tell, Thinking};

/// The largest table a request to the server gets, in MiB (a bigger
/// `tt_mb` is cut to it, as `time_ms` is cut to the server's time limit).
pub const SERVER_MAX_TT_MB: usize = 256;

/// The largest tree a trace request may send.
pub const MAX_TREE_NODES: u64 = 10_000;

/// A search or trace request; fields as the command line's flags.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub game: Option<String>,
    pub position: Option<String>,
    pub moves: Option<Vec<String>>,
    pub params: Option<BTreeMap<String, Value>>,
    pub algo: Option<String>,
    pub depth: Option<u32>,
    pub time_ms: Option<u64>,
    pub tt_mb: Option<usize>,
    pub order: Option<bool>,
    pub pvs: Option<bool>,
    pub fast_win: Option<bool>,
    pub seed: Option<u64>,
    pub iterations: Option<u64>,
    pub star1: Option<bool>,
    pub weak: Option<bool>,
    /// For a perft: also count per first move.
    pub divide: Option<bool>,
    /// For a count: the most distinct positions kept.
    pub max_positions: Option<u64>,
    /// For a trace: a tree written out (instead of a game and position).
    pub tree: Option<String>,
    /// For a solve: the game's threat search alone (gomoku's VCF).
    pub vcf: Option<bool>,
}

impl Request {
    /// The command line this request stands for.
    fn argv(&self, command: &str, max_time_ms: Option<u64>) -> Result<Vec<String>, CliError> {
        let mut v = vec!["ply".to_string(), command.to_string()];
        match (&self.tree, &self.game) {
            (Some(tree), None) if command == "trace" => v.push(tree.clone()),
            (Some(_), _) => {
                return Err(CliError::input(
                    "give a tree (for a trace) or a game, not both",
                ));
            }
            (None, Some(game)) => v.push(game.clone()),
            (None, None) => return Err(CliError::input("missing field 'game'")),
        }
        let mut flag = |name: &str, value: Option<String>| {
            if let Some(value) = value {
                v.push(format!("--{name}={value}"));
            }
        };
        flag("position", self.position.clone());
        flag("moves", self.moves.as_ref().map(|m| m.join(",")));
        flag("algo", self.algo.clone());
        flag("depth", self.depth.map(|d| d.to_string()));
        // The server's cap on the table likewise: one request may not
        // take the machine's memory.
        flag(
            "tt-mb",
            self.tt_mb.map(|t| {
                max_time_ms
                    .map_or(t, |_| t.min(SERVER_MAX_TT_MB))
                    .to_string()
            }),
        );
        flag("seed", self.seed.map(|s| s.to_string()));
        flag("iterations", self.iterations.map(|i| i.to_string()));
        flag("max-positions", self.max_positions.map(|m| m.to_string()));
        // The server's cap on time, whatever is asked (searches under a
        // clock are clamped to it again once planned; the others stop at it).
        flag(
            "time-ms",
            self.time_ms
                .map(|t| max_time_ms.map_or(t, |max| t.min(max)).to_string()),
        );
        for (k, value) in self.params.iter().flatten() {
            let text = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            v.push(format!("--param={k}={text}"));
        }
        for (name, on) in [
            ("order", self.order),
            ("pvs", self.pvs),
            ("fast-win", self.fast_win),
            ("star1", self.star1),
            ("weak", self.weak),
            ("divide", self.divide),
            ("vcf", self.vcf),
        ] {
            if on == Some(true) {
                v.push(format!("--{name}"));
            }
        }
        if command != "trace" {
            v.push("--json".into());
        }
        if command == "solve" || command == "analyze" {
            v.push("--quiet".into());
        }
        Ok(v)
    }
}

/// Stops a search at its deadline or when its request is dropped (the
/// client went away): the search thread and the handler share the flag.
/// For a streamed search it also tells the node count now and then.
pub struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
    tell: Option<Tell>,
    start: Instant,
    last: Instant,
    nodes: u64,
}

/// How often a streamed search tells its node count.
const NODES_EVERY: Duration = Duration::from_millis(200);

impl Cancel {
    pub fn new(flag: Arc<AtomicBool>, max_time: Option<Duration>, tell: Option<Tell>) -> Self {
        let now = Instant::now();
        Cancel {
            flag,
            deadline: max_time.map(|t| now + t),
            tell,
            start: now,
            last: now,
            nodes: 0,
        }
    }
}

impl Listen for Cancel {
    fn tell(&self) -> Option<Tell> {
        self.tell.clone()
    }
}

impl Observer for Cancel {
    fn enter(&mut self, _: u32, _: Option<usize>, _: NodeKind, _: Option<Window>) {
        let Some(tell) = &self.tell else { return };
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            let now = Instant::now();
            if now - self.last >= NODES_EVERY {
                self.last = now;
                tell(Thinking::Nodes {
                    nodes: self.nodes,
                    time_ms: (now - self.start).as_secs_f64() * 1e3,
                });
            }
        }
    }

    fn should_stop(&mut self) -> bool {
        // Searches ask every `CHECK_INTERVAL` nodes (MCTS ten times a
        // second), so the clock is read each time: throttling here as well
        // left an alpha-beta trace unstopped for 262,144 nodes.
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.flag.store(true, Ordering::Relaxed);
        }
        self.flag.load(Ordering::Relaxed)
    }
}

/// Runs one API command on a game found by name, returning its JSON.
pub struct Run {
    pub command: Command,
    pub cancel: Cancel,
    /// The longest a search may run (the server's cap), if any.
    pub max_time: Option<Duration>,
}

/// A plan whose clock (the engine's, iterative deepening's, MCTS's) is
/// within `max`: it then finishes with its best so far, not an error.
fn within(plan: Plan, max: Duration) -> Plan {
    match plan {
        Plan::Search(a, mut o) => {
            o.time_limit = o.time_limit.map(|t| t.min(max));
            Plan::Search(a, o)
        }
        Plan::Mcts(mut o) => {
            o.time_limit = o.time_limit.map(|t| t.min(max));
            Plan::Mcts(o)
        }
        plan => plan,
    }
}

impl GameVisitor for Run {
    type Output = Result<Value, CliError>;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> Result<Value, CliError> {
        let Run {
            command,
            mut cancel,
            max_time,
        } = self;
        let json = |r: &dyn erased::Json| r.value();
        match &command {
            Command::Solve(a) | Command::Analyze(a) => {
                let state = setup(&game, &a.game)?;
                let plan = configure(&a.search, &game, &state, spec, SOLVE_TIME_MS)?;
                let plan = match max_time {
                    Some(max) => within(plan, max),
                    None => plan,
                };
                if let Command::Solve(a) = &command
                    && a.vcf
                {
                    return Ok(json(&threat_report(spec.name, &game, &state)?));
                }
                if matches!(command, Command::Solve(_)) {
                    let r = solve_report(spec.name, &game, &state, &plan, true, &mut cancel);
                    Ok(json(&stopped(r, &cancel)?))
                } else {
                    let r = analyze_report(spec.name, &game, &state, &plan, &mut cancel);
                    Ok(json(&stopped(r, &cancel)?))
                }
            }
            Command::Compare(a) => {
                let state = setup(&game, &a.game)?;
                let r = compare_report(spec.name, &game, &state, a.depth, a.tt_mb, &mut cancel);
                let r = stopped(r, &cancel)?;
                if !r.agree {
                    return Err(disagreement(&r));
                }
                Ok(json(&r))
            }
            Command::Trace(a) => {
                let state = trace_state(&game, spec, a.position.as_deref(), false)?;
                if spec.name == "tree" && tree_size(&game, &state, None, MAX_TREE_NODES).is_none() {
                    return Err(CliError::input(format!(
                        "the tree has more than {MAX_TREE_NODES} nodes"
                    )));
                }
                let r = trace_report(&game, spec, &state, a, &mut cancel);
                Ok(json(&stopped(r, &cancel)?))
            }
            Command::Show(a) => {
                let state = setup(&game, &a.game)?;
                Ok(json(&ShowReport::new(spec.name, &game, &state)))
            }
            Command::Count(a) => {
                let state = setup(&game, &a.game)?;
                Ok(json(&count_report(&game, &state, a.max_positions)?))
            }
            Command::Perft(a) => {
                let state = setup(&game, &a.game)?;
                Ok(json(&perft_report(&game, &state, a.depth, a.divide)))
            }
            _ => Err(CliError::input("not an API command")),
        }
    }
}

/// Checks a game's position and moves (a bad one is a 400 before a stream starts).
pub struct Valid<'a>(pub &'a crate::args::GameArgs);

impl GameVisitor for Valid<'_> {
    type Output = Result<(), CliError>;
    fn visit<G: Registered>(self, game: G, _: &'static GameSpec) -> Result<(), CliError> {
        setup(&game, self.0).map(drop)
    }
}

/// A search result, or the server's limit named when the search stopped.
pub fn stopped<T>(r: Result<T, CliError>, cancel: &Cancel) -> Result<T, CliError> {
    r.map_err(|e| {
        if cancel.flag.load(Ordering::Relaxed) {
            CliError {
                message: "the search was stopped at the server's time limit: give a --depth, or a smaller position".into(),
                code: 3,
            }
        } else {
            e
        }
    })
}

/// Serialising any report to a JSON value, without naming its type.
pub mod erased {
    /// Any report as a JSON value (for code that handles several report types alike).
    pub trait Json {
        fn value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Json for T {
        fn value(&self) -> serde_json::Value {
            serde_json::to_value(self).expect("reports always serialise")
        }
    }
}

/// A request read and checked: the game (by name), its parameters and
/// the command it stands for.
pub struct Prepared {
    pub name: String,
    pub params: ply_games::Params,
    pub command: Command,
}

/// Reads a request into the command line it stands for, with the CLI's
/// checks. `max_time`: the server's limits apply (the time cut to it, the
/// table to [`SERVER_MAX_TT_MB`]); `None` for a local caller.
pub fn prepare(
    command: &str,
    body: &[u8],
    max_time: Option<Duration>,
) -> Result<Prepared, CliError> {
    let cli = parse(command, body, max_time)?;
    resolve(cli)
}

/// The command line a JSON request stands for, read by the CLI's parser
/// (the game not yet looked up: the Python bindings search games of their own).
pub fn parse(command: &str, body: &[u8], max_time: Option<Duration>) -> Result<Cli, CliError> {
    let request: Request = serde_json::from_slice(body)
        .map_err(|e| CliError::input(format!("the request body is not the JSON expected: {e}")))?;
    let argv = request.argv(command, max_time.map(|t| t.as_millis() as u64))?;
    Cli::try_parse_from(&argv).map_err(|e| {
        let text = e.to_string();
        CliError::input(
            text.lines()
                .next()
                .unwrap_or("bad request")
                .trim_start_matches("error: ")
                .to_string(),
        )
    })
}

/// The registered game a parsed request names (a tree written out for a
/// trace is a position of the tree game), its parameters and the command.
fn resolve(cli: Cli) -> Result<Prepared, CliError> {
    let game_args = match &cli.command {
        Command::Solve(a) | Command::Analyze(a) => Some(&a.game),
        Command::Compare(a) => Some(&a.game),
        Command::Show(a) => Some(&a.game),
        Command::Count(a) => Some(&a.game),
        Command::Perft(a) => Some(&a.game),
        _ => None,
    };
    let (name, params) = match (&cli.command, game_args) {
        (_, Some(g)) => (g.game.clone(), params(g)?),
        (Command::Trace(t), None) => (
            t.target.clone(),
            ply_games::Params::parse(&t.params).map_err(CliError::from)?,
        ),
        _ => return Err(CliError::input("not an API command")),
    };
    // A tree written out is a position of the tree game.
    let (name, command) = match cli.command {
        Command::Trace(mut t) if ply_games::spec(&name).is_err() => {
            t.position = Some(std::mem::replace(&mut t.target, "tree".into()));
            ("tree".to_string(), Command::Trace(t))
        }
        c => (name, c),
    };
    Ok(Prepared {
        name,
        params,
        command,
    })
}

/// What a run hands back: the JSON, or the CLI's error (a setup error is
/// one too: an unknown game or parameter).
pub type Answer = Result<Value, CliError>;

/// Runs `command` (`solve`, `analyze`, `compare`, `trace`, `show`, `count`,
/// `perft`) on the JSON request `body`, on this thread: the JSON that
/// `ply COMMAND ... --json` prints, or its error. `cancel` may stop it.
pub fn call(command: &str, body: &[u8], cancel: Cancel) -> Answer {
    let request = prepare(command, body, None)?;
    run(request, cancel, None)
}

/// Runs a prepared request.
pub fn run(request: Prepared, cancel: Cancel, max_time: Option<Duration>) -> Answer {
    let run = Run {
        command: request.command,
        cancel,
        max_time,
    };
    ply_games::visit(&request.name, &request.params, run).map_err(CliError::from)?
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Searches ask once every `CHECK_INTERVAL` nodes, so a passed deadline
    /// stops at the first question (it once waited for the 256th: an
    /// alpha-beta trace then ran 262,144 nodes past its deadline).
    #[test]
    fn a_passed_deadline_stops_at_the_first_question() {
        let mut cancel = Cancel::new(Arc::default(), Some(Duration::ZERO), None);
        assert!(cancel.should_stop());
        let mut open = Cancel::new(Arc::default(), None, None);
        assert!(!open.should_stop());
    }
}
