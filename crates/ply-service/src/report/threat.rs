//! `solve --vcf`'s report: the game's threat search alone.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use ply_core::game::Chance;
use ply_core::notation::Notation;

use super::{Header, Number, line, thousands};

/// The result of `solve --vcf`: the game's threat search alone
/// ([`ply_core::game::EngineHooks::threat_win`]; in gomoku, victory by
/// continuous fours).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ThreatReport {
    /// What was searched.
    #[serde(flatten)]
    pub header: Header,
    /// The forced win: both sides' moves from the position, the last one
    /// winning; null when none was found.
    pub vcf: Option<Vec<String>>,
    /// Whether the search ran to its end, so that a null `vcf` proves
    /// there is no such win (`false`: the node budget ran out first).
    pub complete: bool,
    /// Positions visited.
    pub nodes: u64,
    /// Wall-clock time in milliseconds.
    pub time_ms: Number,
}

impl ThreatReport {
    /// The report of `found`, a threat search of `state` that took `elapsed`.
    pub fn new<G: Notation + Chance>(
        name: &str,
        game: &G,
        state: &G::State,
        found: &ply_core::game::ThreatSearch<G::Move>,
        elapsed: Duration,
    ) -> Self {
        let vcf = found.win.as_ref().map(|moves| line(game, state, moves));
        ThreatReport {
            header: Header::new(name, game, state, "vcf".into()),
            vcf,
            complete: found.complete,
            nodes: found.nodes,
            time_ms: Number(elapsed.as_secs_f64() * 1e3),
        }
    }
}

impl fmt::Display for ThreatReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {}", self.header.game, self.header.position)?;
        writeln!(f, "{}", self.header.board)?;
        writeln!(f, "{} to move; threat search", self.header.mover())?;
        match &self.vcf {
            Some(line) => writeln!(
                f,
                "forced win by continuous threats in {} moves: {}",
                line.len().div_ceil(2),
                line.join(" ")
            )?,
            None if self.complete => writeln!(f, "no forced win by continuous threats")?,
            None => writeln!(
                f,
                "none found within the budget of {} positions (not a proof)",
                thousands(self.nodes)
            )?,
        }
        writeln!(
            f,
            "stats:     nodes {}, time {:.3} ms",
            thousands(self.nodes),
            self.time_ms.0
        )
    }
}
