//! `compare`'s report: every exact search on one position, side by side.

use std::fmt;

use serde::{Deserialize, Serialize, Serializer};

use ply_core::notation::Notation;
use ply_core::search::Outcome;

use super::{Score, StatsReport, thousands};

/// The result of `compare`: every exact search on one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CompareReport {
    /// The game's registered name.
    pub game: String,
    /// The position in the game's notation.
    pub position: String,
    /// The depth limit, if any.
    pub depth_limit: Option<u32>,
    /// Whether every search found the same value.
    pub agree: bool,
    /// One row a search, from the reference to the engine.
    pub searches: Vec<CompareRow>,
    /// The board (text form only).
    #[serde(skip)]
    pub board: String,
}

/// One search in a comparison.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CompareRow {
    /// The search, named by its features.
    pub search: String,
    /// Its value, MAX's view.
    pub value: Score,
    /// Its best move.
    pub best_move: Option<String>,
    /// Nodes visited.
    pub nodes: u64,
    /// Leaves scored.
    pub leaves: u64,
    /// Nodes cut off.
    pub cutoffs: u64,
    /// Table hits.
    pub tt_hits: u64,
    /// Wall-clock time in milliseconds.
    pub time_ms: f64,
    /// The effective branching factor: nodes to the power 1/depth (to
    /// three decimals in JSON).
    #[serde(serialize_with = "round3")]
    pub ebf: f64,
    /// Nodes as a fraction of plain alpha-beta's (to four decimals in JSON).
    #[serde(serialize_with = "round4")]
    pub nodes_vs_alphabeta: f64,
}

fn round3<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1e3).round() / 1e3)
}

fn round4<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((v * 1e4).round() / 1e4)
}

impl CompareReport {
    /// The report of a comparison: `rows` (name, outcome, stats) in the
    /// order run; the second is plain alpha-beta, the baseline.
    pub fn new<G: Notation>(
        name: &str,
        game: &G,
        state: &G::State,
        depth: Option<u32>,
        rows: &[(String, Outcome<G::Move>, StatsReport)],
    ) -> Self {
        let base = rows.get(1).map_or(1, |r| r.2.nodes.max(1)) as f64;
        let searches = rows
            .iter()
            .map(|(search, out, st)| {
                let ebf = (st.nodes as f64).powf(1.0 / f64::from(st.depth.max(1)));
                CompareRow {
                    search: search.clone(),
                    value: Score(out.value),
                    best_move: out.best_move.map(|m| game.format_move(state, m)),
                    nodes: st.nodes,
                    leaves: st.leaves,
                    cutoffs: st.cutoffs,
                    tt_hits: st.tt_hits,
                    time_ms: st.time_ms,
                    ebf,
                    nodes_vs_alphabeta: st.nodes as f64 / base,
                }
            })
            .collect();
        CompareReport {
            game: name.to_string(),
            position: game.format_position(state),
            depth_limit: depth,
            agree: rows.iter().all(|r| r.1.value == rows[0].1.value),
            searches,
            board: game.draw(state).trim_end().to_string(),
        }
    }
}

impl fmt::Display for CompareReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.board)?;
        writeln!(
            f,
            "{:<34} {:>7} {:>6} {:>12} {:>10} {:>10} {:>10} {:>10} {:>6} {:>8}",
            "search",
            "value",
            "move",
            "nodes",
            "leaves",
            "cutoffs",
            "tt hits",
            "time ms",
            "ebf",
            "vs a-b"
        )?;
        for r in &self.searches {
            writeln!(
                f,
                "{:<34} {:>7} {:>6} {:>12} {:>10} {:>10} {:>10} {:>10.3} {:>6.2} {:>8.3}",
                r.search,
                r.value.to_string(),
                r.best_move.as_deref().unwrap_or("-"),
                thousands(r.nodes),
                thousands(r.leaves),
                thousands(r.cutoffs),
                thousands(r.tt_hits),
                r.time_ms,
                r.ebf,
                r.nodes_vs_alphabeta
            )?;
        }
        if self.agree
            && let Some(first) = self.searches.first()
        {
            writeln!(f, "all searches agree: value {}", first.value)?;
        }
        Ok(())
    }
}
