//! How a caller watches and stops a search: a [`Control`] is an observer
//! (it hears the search's events and answers `should_stop`) that may also
//! listen to what the search thinks ([`Thinking`]: each finished
//! iteration, the node count now and then, MCTS's root visits, the score
//! search's windows). The service itself prints nothing: the command
//! line's control writes these to stderr, the server's streams them, and
//! Python's only stops on Ctrl-C.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use ply_core::observe::{NoObserver, NodeKind, Observer};
use ply_core::search::Iteration;
use ply_core::{Notation, Window};

use crate::report::{MctsMoveReport, Score, display_line, line, thousands};

/// What a search says as it goes, for a watcher: each finished iteration
/// of iterative deepening, the node count now and then, MCTS's root
/// visits, the score search's windows, and warnings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        /// The line as players write it (chess: SAN), where that differs
        /// from `pv` (the game's notation, which engines read back).
        #[serde(skip_serializing_if = "Option::is_none", default)]
        pv_display: Option<Vec<String>>,
    },
    /// Any search, about five times a second: nodes so far.
    Nodes { nodes: u64, time_ms: f64 },
    /// MCTS, about ten times a second: the first tree's root moves.
    Mcts {
        iterations: u64,
        time_ms: f64,
        moves: Vec<MctsMoveReport>,
    },
    /// The score search narrowed its window to `[lo, hi]` (the mover's view).
    Window { lo: i32, hi: i32 },
    /// Something the person should know about the answer (an MCTS tree
    /// that reached its cap).
    Warning { message: String },
    /// CFR, about twice a second: iterations run of those asked, and the
    /// average strategy's exploitability and value (MAX's view).
    Cfr {
        iterations: u64,
        of: u64,
        exploitability: f64,
        value: f64,
        time_ms: f64,
    },
}

impl Thinking {
    /// The event for a finished iteration.
    pub fn iteration<G: Notation>(game: &G, state: &G::State, it: &Iteration<G::Move>) -> Self {
        let pv = line(game, state, &it.outcome.pv);
        let shown = display_line(game, state, &it.outcome.pv);
        Thinking::Iteration {
            depth: it.depth,
            value: Score(it.outcome.value),
            distance: it.outcome.distance,
            nodes: it.nodes,
            seldepth: it.seldepth,
            time_ms: it.elapsed.as_secs_f64() * 1e3,
            pv_display: (shown != pv).then_some(shown),
            pv,
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
            Thinking::Window { lo, hi } => write!(f, "score window [{lo}, {hi}]"),
            Thinking::Warning { message } => write!(f, "warning: {message}"),
            Thinking::Cfr {
                iterations,
                of,
                exploitability,
                value,
                time_ms,
            } => write!(
                f,
                "cfr: {} of {} iterations, {:.1} s; exploitability {exploitability:.6}, value {value:+.4}",
                thousands(*iterations),
                thousands(*of),
                time_ms / 1e3
            ),
        }
    }
}

/// Who hears [`Thinking`]: shared with the search's thread.
pub type Tell = Arc<dyn Fn(Thinking) + Send + Sync>;

/// An observer that may also hear what the search thinks, and stop it.
pub trait Control: Observer {
    /// Where [`Thinking`] goes, if anywhere (then the search builds it;
    /// `None`, the default, costs nothing).
    fn tell(&self) -> Option<Tell> {
        None
    }

    /// Asked by the dispatch when its limits have a time cap: from now on
    /// `should_stop` must answer true once `at` has passed. A control
    /// that cannot stop a search answers false (the default), and the
    /// dispatch then refuses to run under a time cap. The deadline lives
    /// in the control, not in an observer the dispatch adds, so that a
    /// control whose `should_stop` is always false (the command line's)
    /// keeps the searches' stop checks compiled away: wrapping every
    /// control in a deadline cost minimax 3.5% more instructions.
    fn stop_at(&mut self, _at: Instant) -> bool {
        false
    }
}

impl Control for NoObserver {}

impl<C: Control + ?Sized> Control for &mut C {
    fn tell(&self) -> Option<Tell> {
        (**self).tell()
    }

    fn stop_at(&mut self, at: Instant) -> bool {
        (**self).stop_at(at)
    }
}

/// A control that stops a search when its flag is raised (by another
/// thread: the server when a client goes away, Python on Ctrl-C) or its
/// deadline passes and, if given a listener, tells it the node count now
/// and then.
pub struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
    tell: Option<Tell>,
    start: Instant,
    last: Instant,
    nodes: u64,
}

/// How often a listened-to search tells its node count.
const NODES_EVERY: Duration = Duration::from_millis(200);

impl Cancel {
    /// A control on `flag`, telling `tell` if given.
    pub fn new(flag: Arc<AtomicBool>, tell: Option<Tell>) -> Self {
        let now = Instant::now();
        Cancel {
            flag,
            deadline: None,
            tell,
            start: now,
            last: now,
            nodes: 0,
        }
    }

    /// Whether the flag was raised.
    pub fn raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

impl Control for Cancel {
    fn tell(&self) -> Option<Tell> {
        self.tell.clone()
    }

    fn stop_at(&mut self, at: Instant) -> bool {
        self.deadline = Some(self.deadline.map_or(at, |d| d.min(at)));
        true
    }
}

impl Observer for Cancel {
    fn enter(&mut self, _: u32, _: Option<usize>, _: NodeKind, _: Option<Window>) {
        let Some(tell) = &self.tell else { return };
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            let now = Instant::now();
            if now - self.last >= NODES_EVERY {
                self.last = now;
                tell(Thinking::Nodes {
                    nodes: self.nodes,
                    time_ms: (now - self.start).as_secs_f64() * 1e3,
                });
            }
        }
    }

    /// Searches ask every `CHECK_INTERVAL` nodes (MCTS ten times a
    /// second), so the clock is read each time: throttling here as well
    /// once left an alpha-beta trace unstopped for 262,144 nodes.
    fn should_stop(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.flag.store(true, Ordering::Relaxed);
        }
        self.raised()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Searches ask once every `CHECK_INTERVAL` nodes, so a passed deadline
    /// stops at the first question (it once waited for the 256th: an
    /// alpha-beta trace then ran 262,144 nodes past its deadline).
    #[test]
    fn a_passed_deadline_stops_at_the_first_question() {
        let mut passed = Cancel::new(Arc::default(), None);
        assert!(passed.stop_at(Instant::now()));
        assert!(passed.should_stop());
        let mut open = Cancel::new(Arc::default(), None);
        assert!(!open.should_stop());
        let mut raised = Cancel::new(Arc::new(AtomicBool::new(true)), None);
        assert!(raised.should_stop());
    }
}
