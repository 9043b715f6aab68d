//! Learned evaluators for ply's PUCT search, and their training by
//! self-play: AlphaZero (Silver et al. 2018) at the size of a lesson.
//!
//! [`net`] is the network (a residual tower with a policy head and a value
//! head, in burn on the CPU) and its safetensors file; [`evaluator`] makes
//! it PUCT's [`ply_core::search::puct::Evaluator`]; [`selfplay`] plays it
//! against itself and against plain MCTS; [`train`] fits it to its games;
//! [`learn`] is the loop of both. ply-core knows no network: the search
//! asks the evaluator trait, and this crate is where the ML library lives.

pub mod evaluator;
pub mod grade;
pub mod learn;
pub mod net;
pub mod selfplay;
pub mod supervised;
pub mod train;

pub use evaluator::{NetEvaluator, check_fits};
pub use net::{Network, Shape};

/// The networks trained by the documented commands and committed in the
/// repository's `nets/` (each file's metadata names the command, the
/// commit and its figures), built into the binary: the one a learned
/// search loads unless told another.
pub fn builtin(game: &str) -> Option<&'static [u8]> {
    match game {
        "tictactoe" => Some(include_bytes!("../../../nets/tictactoe.safetensors")),
        // Learned from the exact solver (`ply learn connect4 --supervised`)
        // until a self-play network of the same size is trained.
        "connect4" => Some(include_bytes!(
            "../../../nets/connect4-supervised.safetensors"
        )),
        _ => None,
    }
}

/// The network saved at `path`, checked to fit `game`; an error naming
/// the file (for tools that take a network's path: the examples).
pub fn load<G: ply_core::Learn>(game: &G, path: &str) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
    check_fits(game, &network).map_err(|e| format!("{path}: {e}"))?;
    Ok(network)
}
