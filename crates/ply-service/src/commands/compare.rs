//! `compare`: every exact search on one position, in one table.

use ply_core::search::{Outcome, comparison_set, describe, nimber};
use ply_core::{Notation, Searchable};

use crate::commands::solve::run_search;
use crate::control::Control;
use crate::error::Error;
use crate::plan::check_table;
use crate::report::{CompareReport, Report, StatsReport};

/// The table size of a comparison's searches that use one, when the
/// request names none.
pub const COMPARE_TT_MB: usize = 64;

/// Every exact search on `state` (to `depth` if given), side by side; the
/// nimber search too for impartial games. `stop` hears them all.
pub fn compare_report<G: Notation + Searchable, X: Control>(
    name: &str,
    game: &G,
    state: &G::State,
    depth: Option<u32>,
    tt_mb: usize,
    stop: &mut X,
) -> Result<CompareReport, Error> {
    check_table(tt_mb)?;
    let mut rows = Vec::new();
    for (algo, opts) in comparison_set(depth, tt_mb) {
        let (out, stats, elapsed) = run_search(game, state, algo, &opts, &mut *stop)?;
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

/// The comparison, or the error for searches that disagree (a bug), which
/// carries the comparison.
pub fn agreed(report: CompareReport) -> Result<CompareReport, Error> {
    if report.agree {
        return Ok(report);
    }
    let values: Vec<String> = report
        .searches
        .iter()
        .map(|r| format!("{} = {}", r.search, r.value))
        .collect();
    Err(Error::disagreement(
        format!(
            "THE SEARCHES DISAGREE: {}. This is a bug; please report it with the position.",
            values.join(", ")
        ),
        Report::Compare(report),
    ))
}
