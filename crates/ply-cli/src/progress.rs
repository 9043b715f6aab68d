//! Progress for long searches on stderr: an observer that every so many
//! nodes looks at the clock and once a second reports, and the command
//! line's [`Control`], which also prints what the search thinks.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ply_core::Window;
use ply_core::observe::{NodeKind, Observer};
use ply_service::report::thousands;
use ply_service::{Control, Tell, Thinking};

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
    /// A progress reporter; `enabled` false
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

/// The command line's [`Control`]: the node-count line of [`Progress`]
/// on stderr, and what the search thinks (each finished iteration, the
/// score search's windows, CFR's iterations and exploitability) unless
/// quiet; warnings always.
pub struct Watch {
    progress: Progress,
    tell: Tell,
}

impl Watch {
    /// A watch that prints progress unless `quiet`.
    pub fn new(quiet: bool) -> Self {
        let tell: Tell = Arc::new(move |t: Thinking| match t {
            Thinking::Warning { .. } => eprintln!("{t}"),
            Thinking::Iteration { .. } | Thinking::Window { .. } | Thinking::Cfr { .. }
                if !quiet =>
            {
                eprintln!("{t}")
            }
            _ => {}
        });
        Watch {
            progress: Progress::new(!quiet),
            tell,
        }
    }

    /// Ends the progress line, if one was printed.
    pub fn finish(&self) {
        self.progress.finish();
    }
}

impl Observer for Watch {
    #[inline]
    fn enter(&mut self, ply: u32, index: Option<usize>, node: NodeKind, window: Option<Window>) {
        self.progress.enter(ply, index, node, window);
    }
}

impl Control for Watch {
    fn tell(&self) -> Option<Tell> {
        Some(Arc::clone(&self.tell))
    }
}
