//! `count`'s and `perft`'s reports: the rules, without scoring.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::thousands;

/// The result of `count`: the distinct positions reachable.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CountReport {
    /// Distinct positions, the start included.
    pub positions: u64,
    /// How many of them are terminal.
    pub terminal: u64,
    /// The start position (text form only).
    #[serde(skip)]
    pub start: String,
}

impl fmt::Display for CountReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} distinct positions reachable from {} (the start included), {} of them terminal",
            thousands(self.positions),
            self.start,
            thousands(self.terminal)
        )
    }
}

/// The result of `perft`: move sequences of a given length.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PerftReport {
    /// Leaf count at the depth.
    pub nodes: u64,
    /// With `--divide`: the count below each root move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<PerftMove>>,
    /// The depth (text form only).
    #[serde(skip)]
    pub depth: u32,
    /// Wall-clock time (text form only).
    #[serde(skip)]
    pub elapsed: Duration,
}

/// A root move's perft count.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PerftMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Sequences below it.
    pub nodes: u64,
}

impl fmt::Display for PerftReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(divide) = &self.divide {
            for m in divide {
                writeln!(f, "{}: {}", m.mv, m.nodes)?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "perft({}) = {} ({:.3} s)",
            self.depth,
            thousands(self.nodes),
            self.elapsed.as_secs_f64()
        )
    }
}
