//! Errors as a type: what went wrong, in kinds each front end maps to its
//! own terms (an exit status, an HTTP status, a Python exception class).

use std::fmt;

use ply_core::registry::SetupError;
use ply_core::search::SearchError;

use crate::report::Report;

/// What kind of trouble a request met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad input: an unknown game or field, a malformed position, an
    /// illegal move, an option that does not apply. The user can fix it.
    Input,
    /// The work passed one of its caps (a count's positions): the answer
    /// exists, but finding it costs more than allowed.
    Limit,
    /// The searches that must agree did not: a bug in ply.
    Disagreement,
    /// The search was stopped (a time limit, a client gone, Ctrl-C)
    /// before it found an answer.
    Stopped,
    /// The machine refused (a thread could not start).
    Internal,
}

/// An error with a message for the person who made the request.
#[derive(Clone, Debug)]
pub struct Error {
    /// Which kind, for the front end's mapping.
    pub kind: ErrorKind,
    /// What went wrong and, where it helps, what to do.
    pub message: String,
    /// The report that shows the trouble, where there is one (the
    /// comparison whose searches disagree): a front end may show it
    /// before the message.
    pub report: Option<Box<Report>>,
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            report: None,
        }
    }

    /// Bad input.
    pub fn input(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Input, message)
    }

    /// Past a cap.
    pub fn limit(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Limit, message)
    }

    /// Stopped before the end.
    pub fn stopped(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Stopped, message)
    }

    /// The machine refused.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Internal, message)
    }

    /// Searches that disagree, with the report that shows it.
    pub fn disagreement(message: impl Into<String>, report: Report) -> Self {
        Error {
            report: Some(Box::new(report)),
            ..Error::new(ErrorKind::Disagreement, message)
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<SetupError> for Error {
    fn from(e: SetupError) -> Self {
        Error::input(e.0)
    }
}

impl From<SearchError> for Error {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::Stopped => Error::stopped(e.to_string()),
            e => Error::input(e.to_string()),
        }
    }
}
