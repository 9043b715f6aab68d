//! Progress for long searches: on stderr, as an observer that every so
//! many nodes looks at the clock and once a second reports; and as events
//! ([`Thinking`]) for whoever listens (the web page's stream).

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ply_core::observe::{NoObserver, NodeKind, Observer};
use ply_service::report::{MctsMoveReport, Score, line, thousands};
use ply_core::search::Iteration;
use ply_core::{Notation, Window};
use serde::Serialize;

/// Prints "nodes, nodes/s, deepest ply" to stderr about once a second once
/// a search has run for a second. Quiet searches (the usual ones) print nothing.
pub struct Progress {
    start: Instant,
    last: Instant,
    nodes: u64,
    max_ply: u32,
    printed: bool,
    enabled: bool,
}

const CHECK_EVERY: u64 = 1 << 18;
const INTERVAL: Duration = Duration::from_secs(1);

impl Progress {
    /// A progress reporter for the search `label` names; `enabled` false
    /// silences it (e.g. for tests that compare stderr).
    pub fn new(enabled: bool) -> Self {
        let now = Instant::now();
        Progress {
            start: now,
            last: now,
            nodes: 0,
            max_ply: 0,
            printed: false,
            enabled,
        }
    }

    /// Ends the progress line, if one was printed.
    pub fn finish(&self) {
        if self.printed {
            eprintln!();
        }
    }
}

impl Observer for Progress {
    #[inline]
    fn enter(&mut self, ply: u32, _: Option<usize>, _: NodeKind, _: Option<Window>) {
        self.nodes += 1;
        self.max_ply = self.max_ply.max(ply);
        if self.enabled && self.nodes & (CHECK_EVERY - 1) == 0 {
            let now = Instant::now();
            if now - self.last >= INTERVAL {
                self.last = now;
                let secs = (now - self.start).as_secs_f64();
                eprint!(
                    "\rsearching: {} nodes, {:.2} M nodes/s, deepest ply {}, {:.0} s   ",
                    thousands(self.nodes),
                    self.nodes as f64 / secs / 1e6,
                    self.max_ply,
                    secs
                );
                self.printed = true;
            }
        }
    }
}

/// What a search says as it goes, for a watcher (the web page's stream):
/// each finished iteration of iterative deepening, the node count now and
/// then, and MCTS's root visits.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Thinking {
    /// Iterative deepening finished a depth.
    Iteration {
        depth: u32,
        /// MAX's view.
        value: Score,
        /// Plies to the end when the value is a proven win or loss.
        distance: Option<u32>,
        nodes: u64,
        seldepth: u32,
        time_ms: f64,
        pv: Vec<String>,
    },
    /// Any search, about five times a second: nodes so far.
    Nodes { nodes: u64, time_ms: f64 },
    /// MCTS, about ten times a second: the first tree's root moves.
    Mcts {
        iterations: u64,
        time_ms: f64,
        moves: Vec<MctsMoveReport>,
    },
}

impl Thinking {
    /// The event for a finished iteration.
    pub fn iteration<G: Notation>(game: &G, state: &G::State, it: &Iteration<G::Move>) -> Self {
        Thinking::Iteration {
            depth: it.depth,
            value: Score(it.outcome.value),
            distance: it.outcome.distance,
            nodes: it.nodes,
            seldepth: it.seldepth,
            time_ms: it.elapsed.as_secs_f64() * 1e3,
            pv: line(game, state, &it.outcome.pv),
        }
    }
}

impl fmt::Display for Thinking {
    /// The progress line the command line prints on stderr.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Thinking::Iteration {
                depth,
                value,
                distance,
                nodes,
                time_ms,
                pv,
                ..
            } => {
                let secs = (time_ms / 1e3).max(1e-9);
                let end = distance.map_or(String::new(), |d| format!(" (end in {d})"));
                write!(
                    f,
                    "depth {depth:>3}  value {:>6}{end}  nodes {:>12}  {:>7.2} M nodes/s  {time_ms:>8.1} ms  pv {}",
                    value.to_string(),
                    thousands(*nodes),
                    *nodes as f64 / secs / 1e6,
                    pv.join(" ")
                )
            }
            Thinking::Nodes { nodes, time_ms } => {
                write!(f, "searching: {} nodes, {time_ms:.0} ms", thousands(*nodes))
            }
            Thinking::Mcts {
                iterations, moves, ..
            } => {
                let top: Vec<String> = moves
                    .iter()
                    .take(5)
                    .map(|m| format!("{} {}", m.mv, m.visits))
                    .collect();
                write!(
                    f,
                    "mcts: {} iterations; {}",
                    thousands(*iterations),
                    top.join(", ")
                )
            }
        }
    }
}

/// Who hears [`Thinking`]: shared with the search's thread.
pub type Tell = Arc<dyn Fn(Thinking) + Send + Sync>;

/// An observer that may also hear what the search thinks, and stop it.
pub trait Listen: Observer {
    /// Where [`Thinking`] goes, if anywhere (then the search builds it).
    fn tell(&self) -> Option<Tell> {
        None
    }
}

impl Listen for NoObserver {}
