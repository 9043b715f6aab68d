//! What each command does, as functions a front end may also call alone
//! (`ply play` runs searches move by move; `--batch` solves line by line).

pub mod cfr;
pub mod compare;
pub mod explore;
pub mod solve;
pub mod trace;
