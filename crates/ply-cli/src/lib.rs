//! The `ply` command line as a library: its grammar (clap), which turns
//! arguments into ply-service's [`ply_service::Request`], the commands
//! that are the command line's own (`play`, `uci`, `gomocup`, `serve`,
//! `tune`, `--batch`), and the protocol loops the fuzz targets share.
//!
//! The binary (`main.rs`) is thin: it turns arguments into these calls and
//! results into text or JSON. The searches live in ply-core, the games in
//! ply-games, requests, the dispatch and the reports in ply-service.

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

impl From<ply_service::Error> for CliError {
    /// A service error's exit status: 2 for bad input, 3 for a search
    /// stopped before its end, 1 for the rest (a cap passed, searches that
    /// disagree, a machine that refused).
    fn from(e: ply_service::Error) -> Self {
        use ply_service::ErrorKind;
        let code = match e.kind {
            ErrorKind::Input => 2,
            ErrorKind::Stopped => 3,
            ErrorKind::Limit | ErrorKind::Disagreement | ErrorKind::Internal => 1,
        };
        CliError {
            message: e.to_string(),
            code,
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
