//! Training: minibatches of samples, each seen through a random symmetry
//! of the rules, and Adam on the sum of the two heads' losses.

use burn::module::Module;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use ply_core::Learn;

use crate::net::{Net, Network, Shape, device, floats};
use crate::selfplay::Sample;

/// A network being trained: its weights with gradients, and Adam's state.
pub struct Trainer {
    /// The weights (taken out for each step: Adam returns new ones).
    net: Option<Net>,
    optimizer: ModuleOptimizer,
    shape: Shape,
    device: Device,
    /// Adam's step size.
    pub learning_rate: f64,
}

/// The losses of one step (or the mean of several).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// The policy's cross-entropy against the search's visit shares.
    pub policy: f64,
    /// The value's mean squared error against the results.
    pub value: f64,
}

impl Losses {
    /// The mean of several steps' losses (zero for none).
    pub fn mean(steps: &[Losses]) -> Losses {
        let n = steps.len().max(1) as f64;
        Losses {
            policy: steps.iter().map(|l| l.policy).sum::<f64>() / n,
            value: steps.iter().map(|l| l.value).sum::<f64>() / n,
        }
    }
}

/// L2 regularisation, as AlphaZero's c = 1e-4.
const WEIGHT_DECAY: f32 = 1e-4;

impl Trainer {
    /// Training starts from `network`'s weights.
    pub fn new(network: &Network, learning_rate: f64) -> Trainer {
        let device = device().autodiff();
        Trainer {
            net: Some(network.net.clone().to_device(&device).train()),
            optimizer: AdamConfig::new()
                .with_weight_decay(Some(WeightDecayConfig::new(WEIGHT_DECAY)))
                .init(),
            shape: network.shape,
            device,
            learning_rate,
        }
    }

    /// The weights as they are now, for play.
    pub fn network(&self) -> Network {
        Network {
            net: self.weights().valid().to_device(&device()),
            shape: self.shape,
            about: Default::default(),
        }
    }

    /// One step on `batch`, each sample seen through a symmetry drawn
    /// from `rng`.
    pub fn step<G: Learn>(
        &mut self,
        game: &G,
        batch: &[&Sample<G::State>],
        rng: &mut Xoshiro256PlusPlus,
    ) -> Losses {
        let (len, size, n) = (self.shape.input_len(), self.shape.policy, batch.len());
        let mut inputs = vec![0.0f32; len * n];
        let mut policies = vec![0.0f32; size * n];
        let mut values = Vec::with_capacity(n);
        for (i, sample) in batch.iter().enumerate() {
            let sym = rng.random_range(0..game.symmetries());
            let image = game.symmetric_state(&sample.state, sym);
            game.encode(&image, &mut inputs[i * len..(i + 1) * len]);
            for (k, &p) in sample.policy.iter().enumerate() {
                policies[i * size + game.symmetric_index(k, sym)] = p;
            }
            values.push(sample.value);
        }
        let [p, h, w] = self.shape.planes;
        let d = &self.device;
        let x = Tensor::<4>::from_data(TensorData::new(inputs, [n, p, h, w]), d);
        let target_p = Tensor::<2>::from_data(TensorData::new(policies, [n, size]), d);
        let target_v = Tensor::<2>::from_data(TensorData::new(values, [n, 1]), d);
        let (logits, v) = self.weights().forward(x);
        let policy_loss = (log_softmax(logits, 1) * target_p).sum_dim(1).mean().neg();
        let value_loss = (v - target_v).powi_scalar(2).mean();
        let losses = Losses {
            policy: f64::from(floats(policy_loss.clone())[0]),
            value: f64::from(floats(value_loss.clone())[0]),
        };
        let grads = (policy_loss + value_loss).backward();
        let net = self
            .net
            .take()
            .expect("the weights are back after each step");
        let grads = GradientsParams::from_grads(grads, &net);
        self.net = Some(self.optimizer.step(self.learning_rate, net, grads));
        losses
    }

    fn weights(&self) -> &Net {
        self.net
            .as_ref()
            .expect("the weights are back after each step")
    }
}
