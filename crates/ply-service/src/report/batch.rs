//! `solve --batch`'s lines and summary.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One solved line of a batch file: the moves, the score from the side to
/// move, the nodes and the time. Its text is the line `ply solve --batch`
/// prints, the format of the public Connect Four test sets' results.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BatchLine {
    /// The position as given (its moves).
    pub moves: String,
    /// The score, side to move's view.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Microseconds.
    pub micros: f64,
}

impl fmt::Display for BatchLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {:.0}",
            self.moves, self.score, self.nodes, self.micros
        )
    }
}

/// A batch's summary line.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BatchSummary {
    /// Positions solved.
    pub positions: u64,
    /// Mean microseconds a position.
    pub mean_micros: f64,
    /// Mean nodes a position.
    pub mean_nodes: f64,
    /// Lines whose expected score differed.
    pub mismatches: u64,
    /// Lines that could not be read.
    pub bad_lines: u64,
}

impl fmt::Display for BatchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "positions {}, mean time {:.1} us, mean nodes {:.1}, mismatches {}, bad lines {}",
            self.positions, self.mean_micros, self.mean_nodes, self.mismatches, self.bad_lines
        )
    }
}
