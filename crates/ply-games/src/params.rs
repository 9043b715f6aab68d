//! Game parameters as given on the command line (`--param key=value`).

use std::fmt;

/// A mistake in choosing or setting up a game: an unknown game, an unknown
/// parameter, a parameter value that makes no sense.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// `key=value` settings for a game, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    entries: Vec<(String, String)>,
}

impl Params {
    /// No parameters: every game's defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads `key=value` strings; a later setting of a key overrides an earlier one.
    pub fn parse<S: AsRef<str>>(items: &[S]) -> Result<Self, SetupError> {
        let mut p = Params::new();
        for item in items {
            let item = item.as_ref();
            let Some((k, v)) = item.split_once('=') else {
                return Err(SetupError(format!(
                    "parameter '{item}' should be written key=value, e.g. m=4"
                )));
            };
            let k = k.trim();
            if k.is_empty() {
                return Err(SetupError(format!(
                    "parameter '{item}' has no name before '='"
                )));
            }
            p = p.with(k, v.trim());
        }
        Ok(p)
    }

    /// These parameters with `key` set to `value`.
    pub fn with(mut self, key: &str, value: &str) -> Self {
        self.entries.retain(|(k, _)| k != key);
        self.entries.push((key.to_string(), value.to_string()));
        self
    }

    /// The value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Rejects any parameter `game` does not know, naming the ones it does.
    pub fn check_known(&self, game: &str, known: &[&str]) -> Result<(), SetupError> {
        for (k, _) in &self.entries {
            if !known.contains(&k.as_str()) {
                let list = if known.is_empty() {
                    "it takes none".to_string()
                } else {
                    format!("it takes: {}", known.join(", "))
                };
                return Err(SetupError(format!(
                    "unknown parameter '{k}' for {game}; {list}"
                )));
            }
        }
        Ok(())
    }

    /// The integer value of `key` in `min..=max`, or `default` when unset.
    pub fn int(&self, key: &str, default: u32, min: u32, max: u32) -> Result<u32, SetupError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<i64>() {
                Ok(n) if (i64::from(min)..=i64::from(max)).contains(&n) => Ok(n as u32),
                Ok(n) => Err(SetupError(format!(
                    "parameter {key}={n} is out of range: it must be from {min} to {max}"
                ))),
                Err(_) => Err(SetupError(format!(
                    "parameter {key}='{v}' is not a whole number"
                ))),
            },
        }
    }
}
