//! `ply`: the command line of the ply game-search engine.
//!
//! The binary is thin: it turns arguments into library calls and results
//! into text or JSON. Everything a test would want lives in ply-core and
//! ply-games.

mod args;
mod commands;
mod output;
mod progress;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

/// An error the user can act on: printed as `error: ...`, exit status `code`.
#[derive(Debug)]
pub struct CliError {
    /// What went wrong and, where it helps, what to do.
    pub message: String,
    /// The process exit status.
    pub code: u8,
}

impl CliError {
    /// Bad input: an unknown game, a malformed position, an illegal move.
    pub fn input(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: 2,
        }
    }

    /// The command ran but found a problem (e.g. searches that disagree).
    pub fn failure(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: 1,
        }
    }
}

impl From<ply_games::SetupError> for CliError {
    fn from(e: ply_games::SetupError) -> Self {
        CliError::input(e.0)
    }
}

impl From<ply_core::search::SearchError> for CliError {
    fn from(e: ply_core::search::SearchError) -> Self {
        CliError::input(e.to_string())
    }
}

/// The result of a command.
pub type CliResult = Result<(), CliError>;

/// Lets `ply ... | head` end quietly: restore the default SIGPIPE action
/// (Rust ignores it, which turns a closed pipe into a panic in `println!`).
fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default is async-signal-safe
    // and happens before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The stack the commands run on. Searches recurse once per ply, so a long
/// game (coins with 200,000 coins) needs far more than the 8 MiB main
/// thread; the memory is only reserved, and committed as it is touched.
const STACK_BYTES: usize = 1 << 30;

fn main() -> ExitCode {
    quiet_broken_pipe();
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .name("ply".into())
        .stack_size(STACK_BYTES)
        .spawn(move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            eprintln!("error: cannot start the search thread: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::List(a) => commands::list::run(&a),
        Command::Solve(a) => commands::solve::run_solve(&a),
        Command::Analyze(a) => commands::solve::run_analyze(&a),
        Command::Compare(a) => commands::compare::run(&a),
        Command::Play(a) => commands::play::run(&a),
        Command::Trace(a) => commands::trace::run(&a),
        Command::Show(a) => commands::explore::run_show(&a),
        Command::Count(a) => commands::explore::run_count(&a),
        Command::Perft(a) => commands::explore::run_perft(&a),
        Command::Uci(a) => commands::uci::run(&a),
        Command::Serve(a) => commands::serve::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
