//! `solve` and `analyze` with CFR: the whole game solved for an
//! equilibrium strategy, reported for every information set (or one).

use std::time::{Duration, Instant};

use ply_core::search::SearchError;
use ply_core::search::cfr::{Cfr, CfrOptions};
use ply_core::{Notation, Searchable};

use crate::control::{Control, Thinking};
use crate::error::{Error, field_is};
use crate::plan::Plan;
use crate::report::{
    AnalyzeReport, AnalyzeResult, CfrSolve, Header, SolveReport, SolveResult, cfr_sets,
};

/// How often the run looks at its control (to stop).
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// How often the listener hears the iterations and the exploitability
/// (a best response each time: two walks of the tree).
const TELL_EVERY: Duration = Duration::from_millis(500);

/// Runs CFR as `options` says on the whole of `game`; with `only`, finds
/// that information set first. `control` hears the progress and may stop
/// it.
fn run_cfr<G: Notation + Searchable, X: Control>(
    name: &str,
    game: &G,
    options: &CfrOptions,
    only: Option<&str>,
    control: &mut X,
) -> Result<(Cfr<G>, Option<usize>, Duration), Error> {
    let start = Instant::now();
    let mut cfr = Cfr::new(game, options)?;
    let only = match only {
        None => None,
        Some(set) => Some(find_set(name, &cfr, set)?),
    };
    let tell = control.tell();
    let mut told = Instant::now();
    let mut stopped = false;
    cfr.run(options.iterations, LOOK_EVERY, &mut |c| {
        if let Some(tell) = &tell
            && told.elapsed() >= TELL_EVERY
        {
            told = Instant::now();
            let e = c.tree().exploitability(&c.average_strategy());
            tell(Thinking::Cfr {
                iterations: c.iterations(),
                of: options.iterations,
                exploitability: e.exploitability,
                value: e.value,
                time_ms: start.elapsed().as_secs_f64() * 1e3,
            });
        }
        stopped = control.should_stop();
        !stopped
    });
    if stopped {
        return Err(SearchError::Stopped.into());
    }
    Ok((cfr, only, start.elapsed()))
}

/// `solve` by CFR: the value, the exploitability and the average strategy
/// of every information set (or of the one named `only`); `state` is the
/// position asked about, whose information set is `here`.
pub fn cfr_solve<G: Notation + Searchable, X: Control>(
    name: &str,
    game: &G,
    state: &G::State,
    options: &CfrOptions,
    only: Option<&str>,
    control: &mut X,
) -> Result<SolveReport, Error> {
    let header = Header::new(name, game, state, Plan::Cfr(*options).name());
    let (cfr, only, elapsed) = run_cfr(name, game, options, only, control)?;
    Ok(SolveReport {
        header,
        result: SolveResult::Cfr(CfrSolve::new(game, state, &cfr, only, elapsed)),
    })
}

/// `analyze` by CFR: [`cfr_solve`]'s answer, and each information set's
/// reach, current strategy and regrets.
pub fn cfr_analyze<G: Notation + Searchable, X: Control>(
    name: &str,
    game: &G,
    state: &G::State,
    options: &CfrOptions,
    only: Option<&str>,
    control: &mut X,
) -> Result<AnalyzeReport, Error> {
    let header = Header::new(name, game, state, Plan::Cfr(*options).name());
    let (cfr, only, elapsed) = run_cfr(name, game, options, only, control)?;
    Ok(AnalyzeReport {
        header,
        result: AnalyzeResult::Cfr {
            solve: CfrSolve::new(game, state, &cfr, only, elapsed),
            sets: cfr_sets(game, &cfr, only),
        },
    })
}

/// The information set named `set`, or an error that lists some.
fn find_set<G: Notation + Searchable>(name: &str, cfr: &Cfr<G>, set: &str) -> Result<usize, Error> {
    let tree = cfr.tree();
    if let Some(i) = tree.find(set.trim()) {
        return Ok(i);
    }
    let sets = tree.infosets();
    let shown: Vec<&str> = tree
        .display_order()
        .into_iter()
        .take(12)
        .map(|i| sets[i].name.as_str())
        .collect();
    let more = if sets.len() > shown.len() {
        format!(
            " and {} more (analyze lists them all)",
            sets.len() - shown.len()
        )
    } else {
        String::new()
    };
    Err(Error::input(format!(
        "{} is not an information set of {name}: a set is what the player to move sees, written as the game writes it: {}{more}",
        field_is("infoset", set),
        shown.join(", ")
    )))
}
