//! The network: AlphaZero's residual tower with a policy head and a value
//! head, small enough for a two-core machine.
//!
//! ```text
//! planes ─ conv3×3 ─ relu ─ [conv3×3 ─ relu ─ conv3×3 ─ (+) ─ relu] × blocks ─┬─ policy: conv1×1 (2) ─ relu ─ linear → one logit per policy index
//!                                                                                └─ value:  conv1×1 (1) ─ relu ─ linear (64) ─ relu ─ linear ─ tanh
//! ```
//!
//! AlphaZero normalises each convolution's output by batch normalisation;
//! this tower has none, so that training and play compute the same
//! function and a position's estimate does not depend on the batch it is
//! evaluated in (the search's batches are small and ragged). At these
//! depths (a few blocks) Adam trains it without.
//!
//! Weights are saved in safetensors, each tensor named by its place in the
//! tower (`blocks.0.a.weight`), with the shape and the game in the file's
//! metadata, so a file says what it is and is checked against the game
//! that loads it.

use std::collections::HashMap;

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Linear, LinearConfig, PaddingConfig2d};
use burn::store::{ModuleSnapshot, SafetensorsStore};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::{Device, Tensor, TensorData};

/// A network's shape: what it reads, what it answers, how big it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Input planes, height, width (the game's [`ply_core::Learn::planes`]).
    pub planes: [usize; 3],
    /// Policy outputs (the game's [`ply_core::Learn::policy_size`]).
    pub policy: usize,
    /// Channels of the residual tower.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
}

impl Shape {
    /// Numbers in one position's input.
    pub fn input_len(&self) -> usize {
        self.planes.iter().product()
    }

    /// The shape as the file's metadata writes it.
    fn metadata(&self) -> HashMap<String, String> {
        let [p, h, w] = self.planes;
        HashMap::from([
            ("ply.planes".into(), format!("{p}x{h}x{w}")),
            ("ply.policy".into(), self.policy.to_string()),
            ("ply.channels".into(), self.channels.to_string()),
            ("ply.blocks".into(), self.blocks.to_string()),
        ])
    }

    /// The shape a file's metadata writes; an error names what is missing.
    fn from_metadata(meta: &HashMap<String, String>) -> Result<Shape, String> {
        let get = |k: &str| {
            meta.get(k)
                .ok_or_else(|| format!("the file has no '{k}' in its metadata: not a ply network"))
        };
        let num = |k: &str| -> Result<usize, String> {
            get(k)?
                .parse()
                .map_err(|_| format!("the file's '{k}' is not a number"))
        };
        let planes: Vec<usize> = get("ply.planes")?
            .split('x')
            .map(|n| {
                n.parse()
                    .map_err(|_| "the file's 'ply.planes' is not PxHxW".to_string())
            })
            .collect::<Result<_, _>>()?;
        let [p, h, w] = planes[..] else {
            return Err("the file's 'ply.planes' is not PxHxW".into());
        };
        Ok(Shape {
            planes: [p, h, w],
            policy: num("ply.policy")?,
            channels: num("ply.channels")?,
            blocks: num("ply.blocks")?,
        })
    }
}

/// The metadata that is the shape, kept apart from what the file says
/// about the network.
const SHAPE_KEYS: [&str; 4] = ["ply.planes", "ply.policy", "ply.channels", "ply.blocks"];

/// One residual block: two 3×3 convolutions and the skip around them.
#[derive(Module, Debug)]
pub struct Block {
    a: Conv2d,
    b: Conv2d,
}

/// The tower and its two heads.
#[derive(Module, Debug)]
pub struct Net {
    stem: Conv2d,
    blocks: Vec<Block>,
    policy_conv: Conv2d,
    policy_out: Linear,
    value_conv: Conv2d,
    value_hidden: Linear,
    value_out: Linear,
}

/// Units in the value head's hidden layer (AlphaZero: 256; 64 suffices at
/// this size).
const VALUE_HIDDEN: usize = 64;

fn conv(from: usize, to: usize, kernel: usize, device: &Device) -> Conv2d {
    let pad = kernel / 2;
    Conv2dConfig::new([from, to], [kernel, kernel])
        .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
        .init(device)
}

impl Net {
    /// A network of `shape` with fresh (random) weights on `device`.
    pub fn new(shape: &Shape, device: &Device) -> Net {
        let [p, h, w] = shape.planes;
        let c = shape.channels;
        Net {
            stem: conv(p, c, 3, device),
            blocks: (0..shape.blocks)
                .map(|_| Block {
                    a: conv(c, c, 3, device),
                    b: conv(c, c, 3, device),
                })
                .collect(),
            policy_conv: conv(c, 2, 1, device),
            policy_out: LinearConfig::new(2 * h * w, shape.policy).init(device),
            value_conv: conv(c, 1, 1, device),
            value_hidden: LinearConfig::new(h * w, VALUE_HIDDEN).init(device),
            value_out: LinearConfig::new(VALUE_HIDDEN, 1).init(device),
        }
    }

    /// The policy's logits `[batch, policy]` and the values `[batch, 1]`
    /// (for the player to move, -1 to 1) of a batch of inputs.
    pub fn forward(&self, x: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut h = relu(self.stem.forward(x));
        for block in &self.blocks {
            let r = block.b.forward(relu(block.a.forward(h.clone())));
            h = relu(r + h);
        }
        let p = relu(self.policy_conv.forward(h.clone())).flatten(1, 3);
        let p = self.policy_out.forward(p);
        let v = relu(self.value_conv.forward(h)).flatten(1, 3);
        let v = tanh(self.value_out.forward(relu(self.value_hidden.forward(v))));
        (p, v)
    }
}

/// A network ready to evaluate: its weights on the CPU, its shape, and
/// what its file said of it.
#[derive(Clone, Debug)]
pub struct Network {
    /// The weights (no gradients).
    pub net: Net,
    /// Its shape.
    pub shape: Shape,
    /// The file's metadata beyond the shape: the game, the command and
    /// commit that trained it, its figures.
    pub about: HashMap<String, String>,
}

/// The device every network here runs on: burn's pure-Rust CPU backend;
/// with the `cuda` feature, burn's default device, which is the first CUDA
/// GPU (the `BURN_DEVICE` variable picks another of the compiled ones).
/// One function, so that weights, inputs and training meet on one device.
pub fn device() -> Device {
    #[cfg(feature = "cuda")]
    return Device::default();
    #[cfg(not(feature = "cuda"))]
    Device::flex()
}

impl Network {
    /// A network of `shape` with random weights (seeded: burn draws
    /// them from its backend's generator, seeded here).
    pub fn random(shape: Shape, seed: u64) -> Network {
        // burn's generator is one for the process: seeding it and drawing
        // the weights must not interleave with another thread's.
        static DRAWING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _alone = DRAWING.lock().unwrap_or_else(|e| e.into_inner());
        let device = device();
        device.seed(seed);
        let network = Network {
            net: Net::new(&shape, &device),
            shape,
            about: HashMap::new(),
        };
        // burn draws a parameter when it is first used: use them all now.
        network.run(vec![0.0; shape.input_len()], 1);
        network
    }

    /// For each input (`batch` positions, [`Shape::input_len`] numbers
    /// each), the policy's logits and the value.
    pub fn run(&self, inputs: Vec<f32>, batch: usize) -> (Vec<f32>, Vec<f32>) {
        let [p, h, w] = self.shape.planes;
        let x = Tensor::<4>::from_data(TensorData::new(inputs, [batch, p, h, w]), &device());
        let (logits, values) = self.net.forward(x);
        (floats(logits), floats(values))
    }

    /// The network as safetensors bytes, with its shape and `about` in
    /// the metadata.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut store = SafetensorsStore::from_bytes(None);
        for (k, v) in self.shape.metadata().into_iter().chain(self.about.clone()) {
            store = store.metadata(k, v);
        }
        self.net
            .save_into(&mut store)
            .map_err(|e| format!("could not write the network: {e}"))?;
        store
            .get_bytes()
            .map_err(|e| format!("could not write the network: {e}"))
    }

    /// A network from safetensors bytes written by [`Network::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let meta = metadata(bytes)?;
        let shape = Shape::from_metadata(&meta)?;
        let mut net = Net::new(&shape, &device());
        let mut store = SafetensorsStore::from_bytes(Some(bytes.to_vec()));
        let applied = net
            .load_from(&mut store)
            .map_err(|e| format!("the weights do not fit the network the file describes: {e}"))?;
        if !applied.missing.is_empty() {
            return Err(format!(
                "the file lacks weights the network needs: {}",
                applied
                    .missing
                    .iter()
                    .map(|(name, _)| name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let about = meta
            .into_iter()
            .filter(|(k, _)| !SHAPE_KEYS.contains(&k.as_str()))
            .collect();
        Ok(Network { net, shape, about })
    }
}

/// A tensor's numbers, in order.
pub(crate) fn floats<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data()
        .try_to_vec::<f32>()
        .expect("the network computes in f32")
}

/// The metadata of a safetensors file (its header's `__metadata__`).
fn metadata(bytes: &[u8]) -> Result<HashMap<String, String>, String> {
    let (_, meta) = safetensors::SafeTensors::read_metadata(bytes)
        .map_err(|e| format!("not a safetensors file: {e}"))?;
    Ok(meta.metadata().clone().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> Shape {
        Shape {
            planes: [2, 3, 3],
            policy: 9,
            channels: 8,
            blocks: 1,
        }
    }

    /// A network written and read back computes the same numbers, and
    /// keeps what its file says of it.
    #[test]
    fn safetensors_round_trip() {
        let mut net = Network::random(shape(), 7);
        net.about.insert("ply.game".into(), "tictactoe".into());
        let input: Vec<f32> = (0..36).map(|i| (i % 3) as f32 - 1.0).collect();
        let before = net.run(input.clone(), 2);
        let back = Network::from_bytes(&net.to_bytes().unwrap()).unwrap();
        assert_eq!(back.shape, net.shape);
        assert_eq!(
            back.about.get("ply.game").map(String::as_str),
            Some("tictactoe")
        );
        assert_eq!(back.run(input, 2), before);
    }

    /// Seeded weights are the same weights.
    #[test]
    fn random_weights_follow_the_seed() {
        let input = vec![1.0; 18];
        let a = Network::random(shape(), 3).run(input.clone(), 1);
        let b = Network::random(shape(), 3).run(input.clone(), 1);
        let c = Network::random(shape(), 4).run(input, 1);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    /// A file that is not a network says so.
    #[test]
    fn bad_files_are_named() {
        let err = Network::from_bytes(b"hello").unwrap_err();
        assert!(err.contains("not a safetensors file"), "{err}");
        let mut net = Network::random(shape(), 1);
        net.about.clear();
        let bytes = net.to_bytes().unwrap();
        // Drop the shape from the metadata: the file no longer says what it is.
        let at = bytes
            .windows(12)
            .position(|w| w == b"ply.channels")
            .unwrap();
        let mut bytes = bytes;
        bytes[at + 11] = b'z';
        let err = Network::from_bytes(&bytes).unwrap_err();
        assert!(err.contains("'ply.channels'"), "{err}");
    }
}
