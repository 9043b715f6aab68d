//! `ply solve` and `ply analyze`: a plan run, its report printed.

use std::time::Instant;

use ply_core::observe::NoObserver;
use ply_core::registry::{GameSpec, GameVisitor, Registered};
use ply_core::search::{Engine, SearchOptions, solve_score};
use ply_core::{Notation, Searchable};
use ply_service::commands::solve::SOLVE_TIME_MS;
use ply_service::report::{BatchLine, BatchSummary};
use ply_service::{Command, Plan, Request, configure};

use crate::args::SolveArgs;
use crate::{CliError, CliResult};

/// Reads one line of a batch file: `moves [expected]`. `Ok(None)` for a
/// blank line or a comment; `Err` says what is wrong with it.
pub fn batch_line(line: &str) -> Result<Option<(&str, Option<i32>)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let moves = parts.next().unwrap_or("");
    let expected = match parts.next() {
        Some(e) => Some(
            e.parse::<i32>()
                .map_err(|_| format!("expected score '{e}' is not an integer"))?,
        ),
        None => None,
    };
    if let Some(extra) = parts.next() {
        return Err(format!("unexpected '{extra}' after the score"));
    }
    Ok(Some((moves, expected)))
}

/// `--batch FILE`: one `moves [expected]` a line; prints `moves score nodes
/// microseconds` a line (score from the side to move), then a summary. Bad
/// lines are reported on stderr and the rest still runs; mismatches or bad
/// lines make the exit status non-zero.
fn run_batch<G: Notation + Searchable>(
    game: &G,
    path: &std::path::Path,
    options: &SearchOptions,
    weak: bool,
) -> CliResult {
    let text = super::read_input(path)?;
    let mut engine = Engine::new(game, options);
    let mut sum = BatchSummary::default();
    let (mut total_nodes, mut total_us) = (0u64, 0f64);
    for (i, text) in text.lines().enumerate() {
        let line_no = i + 1;
        let bad = |what: &str| eprintln!("error: {}: line {line_no}: {what}", path.display());
        let (moves, expected) = match batch_line(text) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => continue,
            Err(e) => {
                bad(&e);
                sum.bad_lines += 1;
                continue;
            }
        };
        let state = match game.parse_position(moves) {
            Ok(s) if game.is_terminal(&s) => {
                bad(&format!("the game is already over in '{moves}'"));
                sum.bad_lines += 1;
                continue;
            }
            Ok(s) => s,
            Err(e) => {
                bad(&e.to_string());
                sum.bad_lines += 1;
                continue;
            }
        };
        engine.clear();
        // The engine counts the nodes (one per call of the search, as the
        // public solver does); no observer, so none slows the search.
        let nodes_before = engine.nodes;
        let start = Instant::now();
        let r = solve_score(&mut engine, game, &state, weak, &mut NoObserver)?;
        let solved = BatchLine {
            moves: moves.to_string(),
            score: r.value.for_player(game.to_move(&state)).0,
            nodes: engine.nodes - nodes_before,
            micros: start.elapsed().as_secs_f64() * 1e6,
        };
        println!("{solved}");
        sum.positions += 1;
        total_nodes += solved.nodes;
        total_us += solved.micros;
        if let Some(e) = expected {
            let e = if weak { e.signum() } else { e };
            if e != solved.score {
                sum.mismatches += 1;
                let got = solved.score;
                eprintln!("mismatch: line {line_no}: {moves}: expected {e}, got {got}");
            }
        }
    }
    let n = sum.positions.max(1) as f64;
    sum.mean_micros = total_us / n;
    sum.mean_nodes = total_nodes as f64 / n;
    println!("{sum}");
    if sum.mismatches > 0 || sum.bad_lines > 0 {
        return Err(CliError::failure(format!(
            "{} mismatch(es) and {} bad line(s) in {}",
            sum.mismatches,
            sum.bad_lines,
            path.display()
        )));
    }
    Ok(())
}

/// A `--batch` run: the game's score search on every line of a file.
struct Batch<'a> {
    path: &'a std::path::Path,
    request: &'a Request,
}

impl GameVisitor for Batch<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> CliResult {
        let state = ply_service::position(&game, spec.name, self.request)?;
        let plan = configure(self.request, &game, &state, spec, SOLVE_TIME_MS)?;
        let Plan::Score { options, weak } = plan else {
            return Err(CliError::input(
                "--batch runs the score search (--algo score)",
            ));
        };
        run_batch(&game, self.path, &options, weak)
    }
}

/// `ply solve`: the service's solve, or `--batch`.
pub fn run_solve(args: &SolveArgs) -> CliResult {
    let request = args.search.request(Request {
        vcf: args.vcf,
        ..args.game.request()?
    });
    match &args.batch {
        Some(path) => {
            let visitor = Batch {
                path,
                request: &request,
            };
            ply_games::visit(&args.game.game, &request.params()?, visitor)?
        }
        None => super::run(Command::Solve, request, args.game.json, args.search.quiet),
    }
}

/// `ply analyze`: the service's analyze (no progress lines: a search a
/// move would print one set each).
pub fn run_analyze(args: &SolveArgs) -> CliResult {
    if args.batch.is_some() {
        return Err(CliError::input("--batch is for solve"));
    }
    let request = args.search.request(Request {
        vcf: args.vcf,
        ..args.game.request()?
    });
    super::run(Command::Analyze, request, args.game.json, true)
}
