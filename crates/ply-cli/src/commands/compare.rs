//! `ply compare`: every exact search on one position, in one table.

use ply_core::observe::NoObserver;
use ply_service::report::{CompareReport, StatsReport};
use ply_core::search::{Outcome, comparison_set, nimber};

use ply_core::registry::{GameSpec, GameVisitor, Registered};

use crate::args::CompareArgs;
use crate::commands::describe;
use crate::commands::solve::run_search;
use crate::output::{emit, params, setup};
use crate::progress::Listen;
use crate::{CliError, CliResult};

/// Every exact search on `state` (to `depth` if given), side by side; the
/// nimber search too for impartial games. `stop` hears them all.
pub fn compare_report<G: Registered, X: Listen>(
    name: &str,
    game: &G,
    state: &G::State,
    depth: Option<u32>,
    tt_mb: usize,
    stop: &mut X,
) -> Result<CompareReport, CliError> {
    super::check_table(tt_mb)?;
    let mut rows = Vec::new();
    for (algo, opts) in comparison_set(depth, tt_mb) {
        let (out, stats, elapsed) = run_search(game, state, algo, &opts, true, &mut *stop)?;
        rows.push((
            describe(algo, &opts),
            out,
            StatsReport::new(&stats, elapsed),
        ));
    }
    // Impartial games have one more exact search: by nimbers.
    if G::IMPARTIAL && depth.is_none() {
        let r = nimber(game, state)?;
        let out = Outcome {
            value: r.value,
            best_move: r.best_move,
            pv: r.best_move.into_iter().collect(),
            distance: None,
            proven: true,
        };
        rows.push((
            "nimber".into(),
            out,
            StatsReport::new(&r.stats(), r.elapsed),
        ));
    }
    Ok(CompareReport::new(name, game, state, depth, &rows))
}

/// The error for searches that disagree: a bug.
pub fn disagreement(report: &CompareReport) -> CliError {
    let values: Vec<String> = report
        .searches
        .iter()
        .map(|r| format!("{} = {}", r.search, r.value))
        .collect();
    CliError::failure(format!(
        "THE SEARCHES DISAGREE: {}. This is a bug; please report it with the position.",
        values.join(", ")
    ))
}

struct Compare<'a>(&'a CompareArgs);

impl GameVisitor for Compare<'_> {
    type Output = CliResult;
    fn visit<G: Registered>(self, game: G, info: &'static GameSpec) -> CliResult {
        let a = self.0;
        let state = setup(&game, &a.game)?;
        let report = compare_report(info.name, &game, &state, a.depth, a.tt_mb, &mut NoObserver)?;
        emit(&report, a.game.json);
        if !report.agree {
            return Err(disagreement(&report));
        }
        Ok(())
    }
}

pub fn run(args: &CompareArgs) -> CliResult {
    ply_games::visit(&args.game.game, &params(&args.game)?, Compare(args))?
}
