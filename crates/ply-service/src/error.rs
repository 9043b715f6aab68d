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
///
/// The message names the request's fields (`depth`, `time_ms`, `moves`)
/// through [`field`], and each front end shows them in its own words
/// ([`Words`]): `--time-ms` on the command line, `time_ms=` in Python,
/// `'time_ms'` in JSON. `Display` uses the command line's.
#[derive(Clone, Debug)]
pub struct Error {
    /// Which kind, for the front end's mapping.
    pub kind: ErrorKind,
    /// What went wrong and, where it helps, what to do; fields marked.
    text: String,
    /// The report that shows the trouble, where there is one (the
    /// comparison whose searches disagree): a front end may show it
    /// before the message.
    pub report: Option<Box<Report>>,
}

/// How a front end names a request's fields in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// The command line's: `--time-ms`, `--param`, `GAME`.
    Flags,
    /// Python's keyword arguments: `time_ms=`, `params=`.
    Keywords,
    /// The JSON request's fields: `'time_ms'`.
    Fields,
}

/// Mark where a field begins and ends in a message, and its value
/// (characters no message otherwise holds).
const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';
const VALUE: char = '\u{3}';

/// The request field `name` (as the JSON request spells it), in a
/// message: shown in each front end's [`Words`].
pub fn field(name: &str) -> String {
    format!("{OPEN}{name}{CLOSE}")
}

/// The request field `name` given `value`, in a message: `--depth 7`,
/// `depth=7`, `'depth': 7`.
pub fn field_is(name: &str, value: impl fmt::Display) -> String {
    format!("{OPEN}{name}{VALUE}{value}{CLOSE}")
}

impl Words {
    /// How these words name the request field `name`.
    pub fn name(self, name: &str) -> String {
        match self {
            Words::Flags => match name {
                "game" | "tree" => name.to_uppercase(),
                "params" => "--param".to_string(),
                _ => format!("--{}", name.replace('_', "-")),
            },
            Words::Keywords => format!("{name}="),
            Words::Fields => format!("'{name}'"),
        }
    }

    /// How these words name the field `name` given `value`.
    pub fn name_is(self, name: &str, value: &str) -> String {
        match self {
            Words::Flags => format!("{} {value}", self.name(name)),
            Words::Keywords => format!("{name}={value}"),
            Words::Fields => format!("'{name}': {value}"),
        }
    }

    /// `text` with every [`field`] named in these words.
    pub fn render(self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(OPEN) {
            out.push_str(&rest[..start]);
            let after = &rest[start + OPEN.len_utf8()..];
            match after.find(CLOSE) {
                Some(end) => {
                    let marked = &after[..end];
                    out.push_str(&match marked.split_once(VALUE) {
                        Some((name, value)) => self.name_is(name, value),
                        None => self.name(marked),
                    });
                    rest = &after[end + CLOSE.len_utf8()..];
                }
                None => {
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            text: message.into(),
            report: None,
        }
    }

    /// The message, its fields named in `words`.
    pub fn message(&self, words: Words) -> String {
        words.render(&self.text)
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
    /// The message in the command line's words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Words::Flags))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_front_end_names_fields_in_its_words() {
        let e = Error::input(format!(
            "{} applies to id; {} and {} too; not {}",
            field("time_ms"),
            field("params"),
            field("game"),
            field_is("depth", 7)
        ));
        assert_eq!(
            e.to_string(),
            "--time-ms applies to id; --param and GAME too; not --depth 7"
        );
        assert_eq!(
            e.message(Words::Keywords),
            "time_ms= applies to id; params= and game= too; not depth=7"
        );
        assert_eq!(
            e.message(Words::Fields),
            "'time_ms' applies to id; 'params' and 'game' too; not 'depth': 7"
        );
        assert_eq!(Words::Keywords.render("no fields here"), "no fields here");
    }
}
