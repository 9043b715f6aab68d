//! The Gomocup loop, fed arbitrary lines through the function `ply gomocup`
//! uses (`Session::handle`), without a process. Every move it answers must
//! be legal on the board the lines built; searches are capped at 2 ms and
//! the table at 1 MiB (a 64 MiB one per START held it to 36 inputs a second).
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use ply_cli::commands::gomocup::Session;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::with_cap(Duration::from_millis(2), 1);
    for line in text.lines().take(64) {
        let reply = session.handle(line);
        if reply.end {
            break;
        }
        session.check_moves();
    }
});
