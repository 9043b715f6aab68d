//! The web server's request bodies: any bytes as the body of every API
//! command, read as the server reads them (`Request::from_json`), and what
//! reads run by the service's dispatch under the server's limits with a
//! 20 ms time limit, as the server runs it.
#![no_main]

use std::sync::Arc;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use ply_service::{Cancel, Command, Limits, Request};

const COMMANDS: [Command; 5] = [
    Command::Solve,
    Command::Analyze,
    Command::Compare,
    Command::Trace,
    Command::Show,
];

fuzz_target!(|data: &[u8]| {
    let [which, body @ ..] = data else { return };
    let command = COMMANDS[*which as usize % COMMANDS.len()];
    let Ok(request) = Request::from_json(body) else {
        return;
    };
    let limits = Limits::server(Duration::from_millis(20));
    let mut cancel = Cancel::new(Arc::default(), None);
    let _ = ply_service::run(command, &request, &limits, &mut cancel);
});
