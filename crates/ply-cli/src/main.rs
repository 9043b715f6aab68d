//! `ply`: the command line of the ply game-search engine.
//!
//! The binary is thin: it turns arguments into library calls (ply-cli's
//! own library, ply-core, ply-games) and results into text or JSON.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
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
        parse()
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

/// [`Cli::parse`], without dropping clap's description of the command
/// line afterwards: it is every subcommand's every flag, freeing it is 7%
/// of the instructions of a short command (`ply solve` on a position one
/// move from the end), and the process is about to need no memory back.
fn parse() -> Cli {
    let mut command = Cli::command();
    let mut matches = command.get_matches_mut();
    let cli =
        Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| e.format(&mut command).exit());
    std::mem::forget(command);
    cli
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
        Command::Gtp(a) => commands::gtp::run(&a),
        Command::Gomocup => commands::gomocup::run(),
        Command::Serve(a) => commands::serve::run(&a),
        Command::Tune(c) => commands::tune::run(&c),
        #[cfg(feature = "learn")]
        Command::Learn(a) => commands::learn::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
