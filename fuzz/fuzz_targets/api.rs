//! The web server's request bodies: any bytes as the body of every API
//! command, read as the server reads them (`Request::from_json`), and what
//! reads run by the service's dispatch under the server's limits with a
//! 20 ms time limit, on a search thread, as the server runs it.
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
    // On a search thread, as the server runs it: a search recurses once
    // a ply, up to `MAX_PLY`, which libFuzzer's own stack does not hold.
    let limits = Limits::server(Duration::from_millis(20));
    let search = ply_service::spawn("ply-api", move || {
        let mut cancel = Cancel::new(Arc::default(), None);
        let _ = ply_service::run(command, &request, &limits, &mut cancel);
    });
    search
        .expect("a search thread starts")
        .join()
        .expect("the search does not panic");
});
