//! The one dispatch: a command and a request in, a report out, for a
//! registered game found by name ([`run`]) or for a game the caller built
//! ([`run_on`]: a game written in Python). Limits apply here, the same
//! way for every front end.

use std::time::Instant;

use ply_core::explore::tree_size;
use ply_core::registry::{GameSpec, GameVisitor, Params, Registered};
use ply_core::search::MAX_PLY;
use ply_core::{Notation, Searchable, play_moves};

use crate::algo::Algo;
use crate::commands::cfr::{cfr_analyze, cfr_solve};
use crate::commands::compare::{COMPARE_TT_MB, agreed, compare_report};
use crate::commands::explore::{MAX_POSITIONS, count_report, perft_report};
use crate::commands::solve::{SOLVE_TIME_MS, analyze_report, solve_report, threat_report};
use crate::commands::trace::{mcts_trace_report, puct_trace_report, trace_dot, trace_report};
use crate::control::Control;
use crate::error::{Error, field, field_is};
use crate::plan::{Plan, configure};
use crate::report::{Report, ShowReport};
use crate::request::{Command, Limits, Request};

/// The fields each command reads beyond the game, position, moves and
/// parameters; any other field set is refused, so a misplaced option is
/// never silently ignored.
fn fields(command: Command) -> Vec<&'static str> {
    const SEARCH: &[&str] = &[
        "algo",
        "depth",
        "time_ms",
        "tt_mb",
        "order",
        "pvs",
        "fast_win",
        "seed",
        "iterations",
        "c",
        "simulations",
        "net",
        "threads",
        "star1",
        "weak",
        "infoset",
    ];
    match command {
        Command::Solve => [SEARCH, &["vcf"]].concat(),
        Command::Analyze => SEARCH.to_vec(),
        Command::Compare => vec!["depth", "tt_mb"],
        Command::Trace => vec![
            "tree",
            "algo",
            "depth",
            "star1",
            "dot",
            "iterations",
            "seed",
            "c",
            "simulations",
            "net",
        ],
        Command::Show => vec![],
        Command::Count => vec!["max_positions"],
        Command::Perft => vec!["depth", "divide"],
    }
}

/// Refuses the fields `command` does not read, and a depth past
/// [`MAX_PLY`].
fn check_fields(command: Command, request: &Request) -> Result<(), Error> {
    let set = serde_json::to_value(request).expect("a request always serialises");
    let allowed = fields(command);
    for key in set.as_object().into_iter().flat_map(|m| m.keys()) {
        let common = matches!(key.as_str(), "game" | "position" | "moves" | "params");
        if !common && !allowed.contains(&key.as_str()) {
            let takes: Vec<String> = allowed.iter().map(|f| field(f)).collect();
            return Err(Error::input(format!(
                "{} does not apply to {command} (it takes {})",
                field(key),
                if takes.is_empty() {
                    format!(
                        "{}, {}, {} and {} only",
                        field("game"),
                        field("position"),
                        field("moves"),
                        field("params")
                    )
                } else {
                    takes.join(", ")
                }
            )));
        }
    }
    if let Some(depth) = request.depth.filter(|&d| d > MAX_PLY) {
        return Err(Error::input(format!(
            "{} is deeper than any search goes: at most {MAX_PLY}",
            field_is("depth", depth)
        )));
    }
    Ok(())
}

/// A request checked and read: its fields checked for the command, the
/// limits applied, the game it names, the position (a tree written out
/// alone for a trace is a position of the `tree` game) and the parameters.
struct Target {
    request: Request,
    name: String,
    position: Option<String>,
    explicit_tree: bool,
    params: Params,
}

impl Target {
    /// What [`run`] and [`check`] read before they visit the game.
    fn new(command: Command, request: &Request, limits: &Limits) -> Result<Self, Error> {
        check_fields(command, request)?;
        if !limits.files && request.net.is_some() {
            return Err(Error::input(format!(
                "{} names a file, and a server reads none: leave it out to search with the game's built-in network",
                field("net")
            )));
        }
        let request = limits.apply(request);
        let (name, position, explicit_tree) = match (&request.tree, &request.game) {
            (Some(tree), None) if command == Command::Trace => {
                ("tree".to_string(), Some(tree.clone()), true)
            }
            (Some(_), _) => {
                return Err(Error::input(format!(
                    "give a {} (for a trace) or a {}, not both",
                    field("tree"),
                    field("game")
                )));
            }
            (None, Some(game)) => (game.clone(), request.position.clone(), false),
            (None, None) => return Err(Error::input(format!("{} is missing", field("game")))),
        };
        let params = request.params()?;
        Ok(Target {
            request,
            name,
            position,
            explicit_tree,
            params,
        })
    }

    /// The position in `game`: the position (default: the game's start),
    /// then the moves.
    fn setup<G: Notation>(&self, game: &G) -> Result<G::State, Error> {
        setup(
            game,
            &self.name,
            self.position.as_deref(),
            self.explicit_tree,
            &self.request,
        )
    }
}

/// The position a request names: its position (default: the game's
/// start), then its moves.
fn setup<G: Notation>(
    game: &G,
    name: &str,
    position: Option<&str>,
    explicit_tree: bool,
    request: &Request,
) -> Result<G::State, Error> {
    let start = match position {
        Some(text) => game.parse_position(text).map_err(|e| {
            let what = if explicit_tree {
                "tree".to_string()
            } else {
                format!("{name} position")
            };
            Error::input(format!("invalid {what} '{text}': {e}"))
        })?,
        None => game.initial_state(),
    };
    play_moves(game, &start, &request.move_list())
        .map_err(|e| Error::input(format!("in {}, {e}", field("moves"))))
}

/// The position `request` names in `game` (registered as `name`): its
/// position (default: the game's start), then its moves.
pub fn position<G: Notation>(game: &G, name: &str, request: &Request) -> Result<G::State, Error> {
    setup(game, name, request.position.as_deref(), false, request)
}

/// Runs `command` on the game `request` names, within `limits`; `control`
/// hears the search and may stop it. A tree written out for a trace is a
/// position of the `tree` game.
pub fn run<C: Control>(
    command: Command,
    request: &Request,
    limits: &Limits,
    control: &mut C,
) -> Result<Report, Error> {
    let target = Target::new(command, request, limits)?;
    let visitor = Dispatch {
        command,
        target: &target,
        limits,
        control,
    };
    ply_games::visit(&target.name, &target.params, visitor)?
}

/// Checks what [`run`] checks before it searches (the fields, the game,
/// its parameters, the position and moves), without searching: a server
/// refuses a bad request before it starts a stream.
pub fn check(command: Command, request: &Request, limits: &Limits) -> Result<(), Error> {
    let target = Target::new(command, request, limits)?;
    ply_games::visit(&target.name, &target.params, Check(&target))?
}

struct Check<'a>(&'a Target);

impl GameVisitor for Check<'_> {
    type Output = Result<(), Error>;
    fn visit<G: Registered>(self, game: G, _: &'static GameSpec) -> Result<(), Error> {
        self.0.setup(&game).map(drop)
    }
}

struct Dispatch<'a, C> {
    command: Command,
    target: &'a Target,
    limits: &'a Limits,
    control: &'a mut C,
}

impl<C: Control> GameVisitor for Dispatch<'_, C> {
    type Output = Result<Report, Error>;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> Result<Report, Error> {
        let state = self.target.setup(&game)?;
        if let Some(max) = self.limits.max_tree_nodes
            && spec.name == "tree"
            && tree_size(&game, &state, None, max).is_none()
        {
            return Err(Error::input(format!("the tree has more than {max} nodes")));
        }
        let request = &self.target.request;
        dispatch(
            &game,
            spec,
            &state,
            self.command,
            request,
            self.limits,
            spec.name == "tree",
            self.control,
        )
    }
}

/// Runs `command` on `state` of `game`, a game the caller built (a game
/// written in Python), declared by `spec`; the request's position, moves
/// and parameters are the caller's to apply first.
pub fn run_on<G: Notation + Searchable, C: Control>(
    game: &G,
    spec: &GameSpec,
    state: &G::State,
    command: Command,
    request: &Request,
    limits: &Limits,
    control: &mut C,
) -> Result<Report, Error> {
    check_fields(command, request)?;
    let request = limits.apply(request);
    dispatch(game, spec, state, command, &request, limits, false, control)
}

/// [`run`] and [`run_on`]'s one path: the command on the position, the
/// time limit watched; a search it stopped is an error that names it.
/// `is_tree`: the game is an explicit tree (a trace draws it whole).
#[allow(clippy::too_many_arguments)]
fn dispatch<G: Notation + Searchable, C: Control>(
    game: &G,
    spec: &GameSpec,
    state: &G::State,
    command: Command,
    request: &Request,
    limits: &Limits,
    is_tree: bool,
    control: &mut C,
) -> Result<Report, Error> {
    let deadline = match limits.max_time {
        Some(max) => {
            let at = Instant::now() + max;
            if !control.stop_at(at) {
                return Err(Error::internal(
                    "a time limit needs a control that can stop a search (such as Cancel)",
                ));
            }
            Some(at)
        }
        None => None,
    };
    let name = spec.name;
    let report = (|| {
        Ok(match command {
            Command::Solve if request.vcf => Report::Threat(threat_report(name, game, state)?),
            Command::Solve | Command::Analyze => {
                let mut plan = configure(request, game, state, spec, SOLVE_TIME_MS)?;
                if let Some(max) = limits.max_time {
                    plan = plan.within(max);
                }
                let only = request.infoset.as_deref();
                if let (Plan::Cfr(o), Command::Solve) = (plan, command) {
                    Report::Solve(cfr_solve(name, game, state, &o, only, &mut *control)?)
                } else if let Plan::Cfr(o) = plan {
                    Report::Analyze(cfr_analyze(name, game, state, &o, only, &mut *control)?)
                } else if command == Command::Solve {
                    Report::Solve(solve_report(name, game, state, &plan, &mut *control)?)
                } else {
                    Report::Analyze(analyze_report(name, game, state, &plan, &mut *control)?)
                }
            }
            Command::Compare => {
                let tt_mb = request.tt_mb.unwrap_or(COMPARE_TT_MB);
                let r = compare_report(name, game, state, request.depth, tt_mb, &mut *control)?;
                Report::Compare(agreed(r)?)
            }
            Command::Trace if request.algo == Some(Algo::Puct) => Report::PuctTrace(
                puct_trace_report(name, game, state, spec, request, &mut *control)?,
            ),
            Command::Trace if request.algo == Some(Algo::Mcts) => Report::MctsTrace(
                mcts_trace_report(name, game, state, request, &mut *control)?,
            ),
            Command::Trace if request.dot => {
                Report::Dot(trace_dot(game, state, request, is_tree, &mut *control)?)
            }
            Command::Trace => {
                Report::Trace(trace_report(name, game, state, request, &mut *control)?)
            }
            Command::Show => Report::Show(ShowReport::new(name, game, state)),
            Command::Count => Report::Count(count_report(
                game,
                state,
                request.max_positions.unwrap_or(MAX_POSITIONS),
                &mut *control,
            )?),
            Command::Perft => {
                let depth = request
                    .depth
                    .ok_or_else(|| Error::input(format!("perft needs a {}", field("depth"))))?;
                Report::Perft(perft_report(
                    game,
                    state,
                    depth,
                    request.divide,
                    &mut *control,
                )?)
            }
        })
    })();
    report.map_err(|e| match limits.max_time {
        Some(max) if deadline.is_some_and(|at| Instant::now() >= at) => Error::stopped(format!(
            "the search was stopped at the server's time limit ({} ms): give a {}, or a smaller position",
            max.as_millis(),
            field("depth")
        )),
        _ => e,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Words;

    /// A field the command does not read is refused by name, from every
    /// front end alike (the command line's grammar never sends one; the
    /// server's and Python's requests can).
    #[test]
    fn a_field_the_command_does_not_read_is_refused() {
        let solve = Request {
            divide: true,
            ..Request::game("tictactoe")
        };
        let e = check(Command::Solve, &solve, &Limits::NONE).unwrap_err();
        assert!(
            e.message(Words::Fields)
                .starts_with("'divide' does not apply to solve"),
            "{e}"
        );
        let show = Request {
            depth: Some(2),
            ..Request::game("tictactoe")
        };
        let e = check(Command::Show, &show, &Limits::NONE).unwrap_err();
        assert_eq!(
            e.message(Words::Fields),
            "'depth' does not apply to show (it takes 'game', 'position', 'moves' and 'params' only)"
        );
        assert_eq!(
            e.to_string(),
            "--depth does not apply to show (it takes GAME, --position, --moves and --param only)"
        );
        let perft = Request {
            depth: Some(2),
            divide: true,
            ..Request::game("tictactoe")
        };
        assert!(check(Command::Perft, &perft, &Limits::NONE).is_ok());
    }

    /// A server reads no file a request names: `net` is refused under
    /// its limits before anything is read; a local caller's request
    /// passes the same check (its file is read when the search runs).
    #[test]
    fn a_server_reads_no_network_file() {
        let puct = Request {
            algo: Some(Algo::Puct),
            net: Some("/etc/passwd".into()),
            ..Request::game("tictactoe")
        };
        let served = Limits::server(std::time::Duration::from_secs(5));
        let e = check(Command::Solve, &puct, &served).unwrap_err();
        assert_eq!(
            e.message(Words::Fields),
            "'net' names a file, and a server reads none: leave it out to search with the game's built-in network"
        );
        assert!(check(Command::Solve, &puct, &Limits::NONE).is_ok());
    }
}
