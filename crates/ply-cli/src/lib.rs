//! The `ply` command line as a library: its commands, and the one entry
//! point ([`api::call`]) that the web server and the Python bindings use
//! to answer exactly what `ply ... --json` prints.
//!
//! The binary (`main.rs`) is thin: it turns arguments into these calls and
//! results into text or JSON. The searches live in ply-core, the games in
//! ply-games.

pub mod api;
pub mod args;
pub mod commands;
pub mod output;
pub mod progress;

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
