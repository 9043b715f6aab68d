//! `ply`: the command line of the ply game-search engine.
//!
//! The binary is thin: it turns arguments into library calls (ply-cli's
//! own library, ply-core, ply-games) and results into text or JSON.

use std::process::ExitCode;

use clap::Parser;
use ply_cli::args::{Cli, Command};
use ply_cli::commands;

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
    let cli = if started_as_brain() {
        Cli {
            command: Command::Gomocup,
        }
    } else {
        Cli::parse()
    };
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

/// Gomocup managers run brains whose file name starts with `pbrain-`,
/// without arguments: `pbrain-ply` (a copy or link of ply) speaks the
/// protocol at once.
fn started_as_brain() -> bool {
    std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|f| f.to_string_lossy().starts_with("pbrain-"))
        })
        .unwrap_or(false)
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
        Command::Gomocup => commands::gomocup::run(),
        Command::Serve(a) => commands::serve::run(&a),
        Command::Tune(c) => commands::tune::run(&c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
