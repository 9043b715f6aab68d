//! ply's stand-in for the `colored` crate.
//!
//! burn-tensor (ply-learn's network library) depends on `colored`, which
//! is MPL-2.0, a weak copyleft licence, for one debugging report
//! (`check_closeness`, which ply never calls) that prints four words in
//! bold, green, yellow and red. ply keeps every dependency permissive, so
//! the workspace patches `colored` to this crate (`[patch.crates-io]` in
//! the root Cargo.toml): the same four methods, writing ANSI escape codes.

use std::fmt;

/// A string with its ANSI style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColoredString {
    text: String,
    code: &'static str,
}

impl fmt::Display for ColoredString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\x1b[{}m{}\x1b[0m", self.code, self.text)
    }
}

/// The styles burn-tensor uses.
pub trait Colorize {
    /// Bold.
    fn bold(self) -> ColoredString;
    /// Green.
    fn green(self) -> ColoredString;
    /// Yellow.
    fn yellow(self) -> ColoredString;
    /// Red.
    fn red(self) -> ColoredString;
}

fn styled(text: &str, code: &'static str) -> ColoredString {
    ColoredString {
        text: text.to_string(),
        code,
    }
}

impl Colorize for &str {
    fn bold(self) -> ColoredString {
        styled(self, "1")
    }
    fn green(self) -> ColoredString {
        styled(self, "32")
    }
    fn yellow(self) -> ColoredString {
        styled(self, "33")
    }
    fn red(self) -> ColoredString {
        styled(self, "31")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_ansi_codes() {
        assert_eq!("ok".green().to_string(), "\x1b[32mok\x1b[0m");
        assert_eq!("x".bold().to_string(), "\x1b[1mx\x1b[0m");
    }
}
