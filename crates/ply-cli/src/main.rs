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

fn main() -> ExitCode {
    quiet_broken_pipe();
    let cli = if started_as_brain() {
        Cli {
            command: Command::Gomocup,
        }
    } else {
        Cli::parse()
    };
    // Searches recurse once per ply: the commands run on a search thread.
    let worker = ply_service::spawn("ply", move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            eprintln!("error: {e}");
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
        Command::List(a) => {
            ply_cli::output::emit(&ply_service::report::list_report(), a.json);
            Ok(())
        }
        Command::Solve(a) => commands::solve::run_solve(&a),
        Command::Analyze(a) => commands::solve::run_analyze(&a),
        Command::Compare(a) => commands::compare(&a),
        Command::Play(a) => commands::play::run(&a),
        Command::Trace(a) => commands::trace(&a),
        Command::Show(a) => commands::show(&a),
        Command::Count(a) => commands::count(&a),
        Command::Perft(a) => commands::perft(&a),
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
