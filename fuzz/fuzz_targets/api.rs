//! The web server's request bodies: any bytes as the body of every API
//! command, read by the same function the server uses (`api::prepare`),
//! and what reads run under a 20 ms deadline, as the server runs it.
#![no_main]

use std::sync::Arc;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use ply_cli::api::{self, Cancel};

const COMMANDS: [&str; 5] = ["solve", "analyze", "compare", "trace", "show"];

fuzz_target!(|data: &[u8]| {
    let [which, body @ ..] = data else { return };
    let command = COMMANDS[*which as usize % COMMANDS.len()];
    let limit = Duration::from_millis(20);
    let Ok(request) = api::prepare(command, body, Some(limit)) else {
        return;
    };
    let cancel = Cancel::new(Arc::default(), Some(limit), None);
    let _ = api::run(request, cancel, Some(limit));
});
