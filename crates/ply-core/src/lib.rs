//! # ply-core
//!
//! Two-player zero-sum games as search problems, and the searches over them.
//! A game implements [`Game`] once (whose turn, the legal moves, the result of
//! a move, the terminal test, the utility); every search here is generic over
//! it. This crate knows no game and does no I/O: the games live in
//! `ply-games`, requests and reports in `ply-service`, the command line in
//! `ply-cli`. It has no serde: what a front end prints is `ply-service`'s.
//!
//! - [`score`]: players, and scores whose point of view is part of their type.
//! - [`game`]: the [`Game`] trait (the rules) and the capability traits
//!   beside it; [`notation`]: the [`Notation`] trait.
//! - [`search`]: minimax (the reference) and alpha-beta, and the one-call API
//!   [`best_move`](search::best_move).
//! - [`observe`]: the events a search emits; statistics and traces are observers.
//! - [`explore`]: perft, position counts, leaf enumeration.
//! - [`play`]: agents (a search, a random mover) and a loop that plays games.
//! - [`registry`]: what a game declares about itself (name, rules, typed
//!   parameters), and the one-line list that registers games.
//! - [`conformance`]: the generic test every game runs.

pub mod conformance;
pub mod explore;
pub mod game;
pub mod notation;
pub mod observe;
pub mod play;
pub mod registry;
pub mod score;
pub mod search;

pub use game::{
    Chance, EngineGame, EngineHooks, Evaluation, Game, Impartial, Learn, NullMoveRule, Playouts,
    RngCore, Searchable, Shortcuts, ThreatSearch, Tuning, sort_by_priority,
};
pub use notation::{MoveError, Notation, ParseError, play_moves};
pub use score::{MaxScore, MoverScore, Player, Window};

/// The names most programs need: `use ply_core::prelude::*;`.
pub mod prelude {
    pub use crate::game::{
        Chance, EngineGame, EngineHooks, Evaluation, Game, Impartial, Learn, Playouts, Searchable,
        Shortcuts,
    };
    pub use crate::no_hooks;
    pub use crate::notation::{MoveError, Notation, ParseError, play_moves};
    pub use crate::observe::{NoObserver, Observer, Stats, Trace};
    pub use crate::registry::{
        GameSpec, GameVisitor, ParamKind, ParamSpec, ParamValues, Params, Registered, SetupError,
    };
    pub use crate::score::{MaxScore, MoverScore, Player, Window};
    pub use crate::search::{
        Algorithm, Analysis, Engine, MoveValue, Outcome, SearchOptions, Searched, TieBreak,
        alphabeta, analyze, best_move, iterative_deepening, minimax, solve,
    };
}
