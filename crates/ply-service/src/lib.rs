//! # ply-service
//!
//! The layer between ply's engine and its front ends: a request in, a
//! report out. The command line (`ply-cli`), the web server (`ply serve`)
//! and the Python bindings (`ply-py`) each turn their input into the same
//! [`Request`], call the same dispatch ([`run`], or [`run_on`] for a game
//! the caller built) and render the same [`Report`], so they answer alike
//! and none re-parses another's format. It has serde, and no command-line
//! parser, web server or Python.
//!
//! - [`algo`]: the one list of searches ([`Algo`]).
//! - [`request`]: the [`Command`], the [`Request`] and the [`Limits`].
//! - [`plan`]: what a request's search fields ask for ([`configure`]).
//! - [`learned`]: PUCT over a learned network (the `learn` feature).
//! - [`run`]: the one dispatch.
//! - [`control`]: watching and stopping a search ([`Control`], [`Thinking`]).
//! - [`error`]: errors as a type ([`ErrorKind`]), mapped by each front end.
//! - [`report`]: what the searches found, one module per report, with
//!   their text forms.
//! - [`commands`]: each command's work, for front ends that run it alone.
//!
//! ```
//! use ply_service::{Command, Limits, Request, run};
//!
//! // `ply solve tictactoe --algo alphabeta`: the textbook alpha-beta.
//! let request = Request {
//!     algo: Some("alphabeta".parse().unwrap()),
//!     ..Request::game("tictactoe")
//! };
//! let mut quiet = ply_core::observe::NoObserver;
//! let report = run(Command::Solve, &request, &Limits::NONE, &mut quiet).unwrap();
//! let json = serde_json::to_value(&report).unwrap();
//! assert_eq!((json["value"].clone(), json["stats"]["nodes"].clone()), (0.into(), 18_297.into()));
//! ```

pub mod algo;
pub mod commands;
pub mod control;
pub mod error;
pub mod learned;
pub mod plan;
pub mod report;
pub mod request;
mod run;

pub use algo::Algo;
pub use control::{Cancel, Control, Tell, Thinking};
pub use error::{Error, ErrorKind, Words};
pub use plan::{Plan, configure};
pub use report::Report;
pub use request::{Command, Limits, Request};
pub use run::{check, position, run, run_on};

/// The stack of a search thread: searches recurse once per ply, up to
/// [`ply_core::search::MAX_PLY`] plies (a few hundred bytes each), far more
/// than a thread's usual 8 MiB holds; the memory is only reserved, and
/// committed as it is touched. [`run`] and [`run_on`] need it: call them
/// on a thread from [`spawn`].
pub const SEARCH_STACK: usize = 1 << 30;

/// Runs `work` on a new thread named `name` with [`SEARCH_STACK`]: the
/// one place a front end starts a search thread.
pub fn spawn<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<std::thread::JoinHandle<T>, Error> {
    search_thread(name).spawn(work).map_err(cannot_start)
}

/// [`spawn`] within `scope`, for work that borrows from the caller (Python
/// waits for a game it owns to be searched).
pub fn spawn_scoped<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    name: &str,
    work: impl FnOnce() -> T + Send + 'scope,
) -> Result<std::thread::ScopedJoinHandle<'scope, T>, Error> {
    search_thread(name)
        .spawn_scoped(scope, work)
        .map_err(cannot_start)
}

fn search_thread(name: &str) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(SEARCH_STACK)
}

fn cannot_start(e: std::io::Error) -> Error {
    Error::internal(format!("cannot start a search thread: {e}"))
}
