//! The UCI loop, fed arbitrary lines through the function `ply uci` uses
//! (`Session::handle`), without a process. Searches are kept short: every
//! `go` gets a `movetime 2` appended (the first limit reached wins), and
//! the session ends by stopping whatever still runs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_cli::commands::uci::Session;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(1);
    for line in text.lines().take(64) {
        let line = if line.trim_start().starts_with("go") {
            format!("{line} movetime 2")
        } else {
            line.to_string()
        };
        if !session.handle(&line) {
            break;
        }
    }
    session.finish(true);
});
