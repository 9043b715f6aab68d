//! The GTP loop, fed arbitrary lines through the function `ply gtp` uses
//! (`Session::handle`), without a process. Every answer must be one GTP
//! response (`=` or `?`, ending in an empty line), and the positions the
//! session keeps must always be a legal game; searches are 30 simulations.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_cli::commands::gtp::Session;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::for_fuzzing();
    for line in text.lines().take(64) {
        if let Some(reply) = session.handle(line) {
            assert!(reply.starts_with('=') || reply.starts_with('?'), "{reply:?}");
            assert!(reply.ends_with("\n\n"));
            assert!(!reply[..reply.len() - 2].contains("\n\n"), "{reply:?}");
        }
        if session.quit {
            break;
        }
        session.check_game();
    }
});
