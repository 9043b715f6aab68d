//! What a game declares about itself, once, in its own file: its name, its
//! rules in a line, its typed parameters (name, default, allowed values,
//! meaning) and how its positions and moves are written ([`GameSpec`]).
//! Listings, parameter checking, the CLI's dispatch by name, and any other
//! front end read that one declaration; a crate names its games in one
//! list with [`register_games!`](crate::register_games).

use std::fmt;

use crate::game::Searchable;
use crate::notation::Notation;

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

/// `key=value` settings for a game as a person wrote them, in order; a
/// game's declaration checks and types them ([`GameSpec::check`]).
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

    /// Every setting, `(key, value)`, in the order first set.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// The type, default and allowed values of a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A whole number from `min` to `max`.
    Int {
        /// Used when the parameter is not given.
        default: i64,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A comma-separated list of whole numbers, each from `min` to `max`.
    Ints {
        /// Used when the parameter is not given.
        default: &'static [i64],
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// One of a few words.
    Choice {
        /// Used when the parameter is not given.
        default: &'static str,
        /// The words allowed.
        values: &'static [&'static str],
    },
}

/// A parameter a game takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Its name in `--param name=value`.
    pub name: &'static str,
    /// Its type, default and allowed values.
    pub kind: ParamKind,
    /// What it means.
    pub meaning: &'static str,
}

fn join(values: &[i64]) -> String {
    let v: Vec<String> = values.iter().map(i64::to_string).collect();
    v.join(",")
}

impl ParamSpec {
    /// The default as a person would write it: `3`, `1,2`, `freestyle`.
    pub fn default_text(&self) -> String {
        match self.kind {
            ParamKind::Int { default, .. } => default.to_string(),
            ParamKind::Ints { default, .. } => join(default),
            ParamKind::Choice { default, .. } => default.to_string(),
        }
    }

    /// The allowed values in words: `1 to 64`, `each 1 to 9`, `freestyle or standard`.
    pub fn allowed_text(&self) -> String {
        match self.kind {
            ParamKind::Int { min, max, .. } => format!("{min} to {max}"),
            ParamKind::Ints { min, max, .. } => format!("each {min} to {max}"),
            ParamKind::Choice { values, .. } => values.join(" or "),
        }
    }

    /// Reads `text` as this parameter's value, or says what is wrong.
    fn read(&self, text: Option<&str>) -> Result<ParamValue, SetupError> {
        let name = self.name;
        let int = |v: &str| -> Result<i64, SetupError> {
            v.trim()
                .parse::<i64>()
                .map_err(|_| SetupError(format!("parameter {name}='{v}' is not a whole number")))
        };
        match (self.kind, text) {
            (ParamKind::Int { default, .. }, None) => Ok(ParamValue::Int(default)),
            (ParamKind::Int { min, max, .. }, Some(v)) => match int(v)? {
                n if (min..=max).contains(&n) => Ok(ParamValue::Int(n)),
                n => Err(SetupError(format!(
                    "parameter {name}={n} is out of range: it must be from {min} to {max}"
                ))),
            },
            (ParamKind::Ints { default, .. }, None) => Ok(ParamValue::Ints(default.to_vec())),
            (ParamKind::Ints { min, max, .. }, Some(v)) => {
                let mut list = Vec::new();
                for part in v.split(',') {
                    let n = int(part).map_err(|_| {
                        SetupError(format!(
                            "parameter {name}: '{}' is not a whole number; write a list like {name}=1,2,3",
                            part.trim()
                        ))
                    })?;
                    if !(min..=max).contains(&n) {
                        return Err(SetupError(format!(
                            "parameter {name}={n} is out of range: each must be from {min} to {max}"
                        )));
                    }
                    list.push(n);
                }
                Ok(ParamValue::Ints(list))
            }
            (ParamKind::Choice { default, .. }, None) => Ok(ParamValue::Choice(default)),
            (ParamKind::Choice { values, .. }, Some(v)) => {
                let v = v.trim();
                values
                    .iter()
                    .find(|w| w.eq_ignore_ascii_case(v))
                    .map(|w| ParamValue::Choice(w))
                    .ok_or_else(|| {
                        SetupError(format!(
                            "parameter {name}='{v}' is not one of: {}",
                            values.join(", ")
                        ))
                    })
            }
        }
    }
}

/// A checked parameter value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    /// A whole number.
    Int(i64),
    /// A list of whole numbers.
    Ints(Vec<i64>),
    /// One of the declared words.
    Choice(&'static str),
}

/// Every parameter of a game with its checked value (given, or the default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamValues {
    values: Vec<(&'static str, ParamValue)>,
}

impl ParamValues {
    fn get(&self, name: &str) -> &ParamValue {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("parameter '{name}' is not in the game's declaration"))
    }

    /// The whole number `name`, declared as [`ParamKind::Int`] (a game
    /// reading a parameter it did not declare is a bug in that game).
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            ParamValue::Int(n) => *n,
            v => panic!("parameter '{name}' is declared as {v:?}, not a whole number"),
        }
    }

    /// The list `name`, declared as [`ParamKind::Ints`].
    pub fn ints(&self, name: &str) -> &[i64] {
        match self.get(name) {
            ParamValue::Ints(v) => v,
            v => panic!("parameter '{name}' is declared as {v:?}, not a list"),
        }
    }

    /// The word `name`, declared as [`ParamKind::Choice`].
    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            ParamValue::Choice(w) => w,
            v => panic!("parameter '{name}' is declared as {v:?}, not a choice"),
        }
    }
}

/// A game's declaration: what `ply list` shows, what parameter checking
/// and the front ends read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Its name on the command line.
    pub name: &'static str,
    /// One line on the rules.
    pub rules: &'static str,
    /// Its parameters.
    pub params: &'static [ParamSpec],
    /// How positions are written.
    pub positions: &'static str,
    /// How moves are written.
    pub moves: &'static str,
    /// The start position, as written.
    pub default_position: &'static str,
    /// For games that cannot be searched to the end (chance, long games):
    /// the depth a search uses when none is given.
    pub default_depth: Option<u32>,
    /// Whether `solve` defaults to the exact score search (null-window
    /// probes) rather than iterative deepening under a clock.
    pub exact_solver: bool,
    /// Whether searches without a named algorithm run MCTS: games too big
    /// to search to the end and without an evaluation worth a depth limit
    /// (Go), where random playouts judge positions better than a guess.
    pub mcts_default: bool,
    /// RAVE's `k` for the MCTS of the front ends (`solve`, `analyze`,
    /// the page) on this game, with an exploration constant of 0 unless
    /// the request names one; `None` for plain UCT. Games whose moves are
    /// points (Go), where a move's value elsewhere in a playout says much
    /// about its value here.
    pub mcts_rave: Option<u32>,
}

impl GameSpec {
    /// A declaration with the given name, rules and notations, no
    /// parameters, the empty default position, and the engine's defaults.
    pub const fn new(
        name: &'static str,
        rules: &'static str,
        positions: &'static str,
        moves: &'static str,
    ) -> Self {
        GameSpec {
            name,
            rules,
            params: &[],
            positions,
            moves,
            default_position: "",
            default_depth: None,
            exact_solver: false,
            mcts_default: false,
            mcts_rave: None,
        }
    }

    /// Checks `params` against the declaration: every name known, every
    /// value of its type and in its range; the others take their defaults.
    pub fn check(&self, params: &Params) -> Result<ParamValues, SetupError> {
        for (k, _) in &params.entries {
            if !self.params.iter().any(|p| p.name == k) {
                let known: Vec<&str> = self.params.iter().map(|p| p.name).collect();
                let list = if known.is_empty() {
                    "it takes none".to_string()
                } else {
                    format!("it takes: {}", known.join(", "))
                };
                return Err(SetupError(format!(
                    "unknown parameter '{k}' for {}; {list}",
                    self.name
                )));
            }
        }
        let mut values = ParamValues::default();
        for p in self.params {
            values.values.push((p.name, p.read(params.get(p.name))?));
        }
        Ok(values)
    }
}

/// A game that declares itself: the rules, every capability, a notation,
/// and a [`GameSpec`], built from checked parameters.
pub trait Registered: Notation + Searchable + Sized {
    /// The declaration.
    const SPEC: GameSpec;

    /// The game with these parameters (checked against [`Self::SPEC`];
    /// this checks only what the declaration cannot say, such as a board
    /// too large for its representation).
    fn from_params(values: &ParamValues) -> Result<Self, SetupError>;

    /// The game with its default parameters.
    fn with_defaults() -> Result<Self, SetupError> {
        Self::from_params(&Self::SPEC.check(&Params::new())?)
    }
}

/// Generic code that wants a game by name: [`register_games!`]'s `visit`
/// builds the game and calls [`GameVisitor::visit`] with its concrete type,
/// so the code runs monomorphised for that game.
///
/// [`register_games!`]: crate::register_games
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the game that was named, with its declaration.
    fn visit<G: Registered>(self, game: G, spec: &'static GameSpec) -> Self::Output;
}

/// Builds `G` from `params` and visits it: what a registry's `visit` does
/// for the game it found.
pub fn build<G: Registered, V: GameVisitor>(
    params: &Params,
    visitor: V,
) -> Result<V::Output, SetupError> {
    let values = G::SPEC.check(params)?;
    Ok(visitor.visit(G::from_params(&values)?, &G::SPEC))
}

/// The error for a name no game has, listing the games there are.
pub fn unknown_game(name: &str, games: &[&GameSpec]) -> SetupError {
    let names: Vec<&str> = games.iter().map(|g| g.name).collect();
    SetupError(format!(
        "unknown game '{name}'; the games are: {} (see `ply list`)",
        names.join(", ")
    ))
}

/// Names a crate's games, one `module::Type` each, in the order listings
/// show them: declares each module and re-exports its type, and defines
/// `GAMES` (their declarations), `spec(name)` and `visit(name, params,
/// visitor)`. Adding a game is one line here and one file. For games
/// already in scope (an example, a test), `register_games!(types: A, B)`
/// defines the same without declaring modules.
#[macro_export]
macro_rules! register_games {
    ($($module:ident :: $game:ident),+ $(,)?) => {
        $(pub mod $module; pub use $module::$game;)+
        $crate::register_games!(types: $($game),+);
    };
    (types: $($game:ty),+ $(,)?) => {
        /// Every game's declaration, in the order `ply list` shows them.
        pub const GAMES: &[&$crate::registry::GameSpec] =
            &[$(&<$game as $crate::registry::Registered>::SPEC),+];

        /// The declaration of the game `name`, or an error listing the games.
        pub fn spec(
            name: &str,
        ) -> ::std::result::Result<&'static $crate::registry::GameSpec, $crate::registry::SetupError> {
            GAMES
                .iter()
                .copied()
                .find(|g| g.name == name)
                .ok_or_else(|| $crate::registry::unknown_game(name, GAMES))
        }

        /// Builds the game `name` with `params`, checked against its
        /// declaration, and runs `visitor` on it.
        pub fn visit<V: $crate::registry::GameVisitor>(
            name: &str,
            params: &$crate::registry::Params,
            visitor: V,
        ) -> ::std::result::Result<V::Output, $crate::registry::SetupError> {
            $(
                if name == <$game as $crate::registry::Registered>::SPEC.name {
                    return $crate::registry::build::<$game, V>(params, visitor);
                }
            )+
            Err($crate::registry::unknown_game(name, GAMES))
        }
    };
}
