//! A network as PUCT's evaluator: positions in, priors over the legal
//! moves and a value out.

use ply_core::Learn;
use ply_core::search::puct::{Estimate, Evaluator, Leaf};

use crate::net::Network;

/// Whether `network` reads and answers what `game` writes and asks: an
/// error in the user's terms where it does not (a network trained for
/// another game or board).
pub fn check_fits<G: Learn>(game: &G, network: &Network) -> Result<(), String> {
    if !game.learnable() {
        return Err("this game cannot be learned: it says nothing of how a network sees it".into());
    }
    let (planes, policy) = (game.planes(), game.policy_size());
    if network.shape.planes != planes || network.shape.policy != policy {
        let [p, h, w] = network.shape.planes;
        let [gp, gh, gw] = planes;
        return Err(format!(
            "the network reads {p}x{h}x{w} planes and answers {} moves; this game is {gp}x{gh}x{gw} planes and {policy} moves (a network for another game or board size?)",
            network.shape.policy
        ));
    }
    Ok(())
}

/// PUCT's evaluator over a network: each batch of leaves encoded, run
/// through the network at once, each leaf's logits softmaxed over its
/// legal moves alone (an illegal move's logit means nothing).
pub struct NetEvaluator<'n> {
    network: &'n Network,
}

impl<'n> NetEvaluator<'n> {
    /// An evaluator over `network` (which [`check_fits`] the game).
    pub fn new(network: &'n Network) -> Self {
        NetEvaluator { network }
    }
}

impl<G: Learn> Evaluator<G> for NetEvaluator<'_> {
    fn evaluate(&mut self, game: &G, leaves: &[Leaf<'_, G>]) -> Vec<Estimate> {
        let len = self.network.shape.input_len();
        let size = self.network.shape.policy;
        let mut inputs = vec![0.0f32; len * leaves.len()];
        for (leaf, out) in leaves.iter().zip(inputs.chunks_exact_mut(len)) {
            game.encode(leaf.state, out);
        }
        let (logits, values) = self.network.run(inputs, leaves.len());
        leaves
            .iter()
            .enumerate()
            .map(|(i, leaf)| {
                let row = &logits[i * size..(i + 1) * size];
                let picked: Vec<f32> = leaf
                    .moves
                    .iter()
                    .map(|&m| row[game.policy_index(leaf.state, m)])
                    .collect();
                Estimate {
                    priors: softmax(&picked),
                    value: values[i],
                }
            })
            .collect()
    }
}

/// Probabilities from logits, computed from the largest down so no
/// exponential overflows.
pub fn softmax(logits: &[f32]) -> Vec<f32> {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = logits.iter().map(|&l| (l - top).exp()).collect();
    let total: f32 = exps.iter().sum();
    exps.iter().map(|e| e / total).collect()
}
