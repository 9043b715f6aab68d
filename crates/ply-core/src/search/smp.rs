//! Parallel search, the "lazy SMP" way: every thread searches the same
//! position with its own engine (killers, history, move lists), and all
//! share one transposition table. Nothing else is coordinated. The threads
//! drift apart in timing and move order, so each finds entries the others
//! stored and skips or orders subtrees with them; the main thread's answer
//! is the answer, reached sooner. The table is lock-free (see
//! [`crate::search::tt`]), so sharing it costs nothing per node.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::search::alphabeta::Engine;

/// The stack of a helper thread: searches recurse once per ply.
const HELPER_STACK: usize = 256 << 20;

/// What the helpers did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HelperStats {
    /// Helper threads that ran.
    pub threads: usize,
    /// Nodes they visited, all together.
    pub nodes: u64,
}

/// Runs `main` on this thread with `engine` while `threads - 1` helper
/// threads run `helper` (given a helper engine sharing `engine`'s table,
/// the helper's number from 1, and a flag to stop on). When `main` returns
/// the helpers are told to stop and are waited for. With `threads <= 1`,
/// or an engine without a table (nothing to share), `main` runs alone.
pub fn with_helpers<M, R>(
    engine: &mut Engine<M>,
    threads: usize,
    main: impl FnOnce(&mut Engine<M>) -> R,
    helper: impl Fn(&mut Engine<M>, usize, &AtomicBool) + Sync,
) -> (R, HelperStats)
where
    M: Copy + Eq + Send,
{
    if threads <= 1 || engine.table().is_none() {
        return (main(engine), HelperStats::default());
    }
    let stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let mut spawned = 0;
    let result = std::thread::scope(|scope| {
        for i in 1..threads {
            let mut e = engine.helper(i);
            let (stop, nodes, helper) = (&stop, &nodes, &helper);
            let started = std::thread::Builder::new()
                .name(format!("ply-helper-{i}"))
                .stack_size(HELPER_STACK)
                .spawn_scoped(scope, move || {
                    helper(&mut e, i, stop);
                    nodes.fetch_add(e.nodes, Ordering::Relaxed);
                });
            // A thread the system refuses is a helper less, not an error.
            if started.is_ok() {
                spawned += 1;
            }
        }
        let r = main(engine);
        stop.store(true, Ordering::Relaxed);
        r
    });
    (
        result,
        HelperStats {
            threads: spawned,
            nodes: nodes.load(Ordering::Relaxed),
        },
    )
}
