//! # ply-games
//!
//! The games that exercise ply, one module each, each with its own position
//! and move notation and its declaration (name, rules, typed parameters;
//! [`ply_core::registry::Registered`]). No search code lives here: a game
//! states its rules through [`ply_core::Game`] and gets every search for free.
//!
//! The one list below names the games: [`GAMES`] holds their declarations
//! for listings, [`visit`] builds one by name from checked `key=value`
//! parameters and hands it, fully typed, to generic code.

pub use ply_core::registry::{GameSpec, GameVisitor, Params, SetupError};

mod common;
mod poker;

ply_core::register_games!(
    coins::Coins,
    tictactoe::TicTacToe,
    tree::Tree,
    pig::Pig,
    connect4::Connect4,
    chess::Chess,
    coinrow::CoinRow,
    grundy::Grundy,
    primes::Primes,
    hackenbush::Hackenbush,
    coloring::Coloring,
    divisor::Divisor,
    gomoku::Gomoku,
    go::Go,
    kuhn::Kuhn,
    leduc::Leduc,
);
