//! Burn (Flex CPU backend): the Connect Four network, inference and training throughput.
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Linear, LinearConfig, PaddingConfig2d};
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::tensor::activation::{log_softmax, relu, softmax, tanh};
use burn::tensor::Distribution;
use std::time::Instant;

const H: usize = 6; const W: usize = 7; const P: usize = 2;
#[derive(Module, Debug)]
struct Block { a: Conv2d, b: Conv2d }
#[derive(Module, Debug)]
struct Net { stem: Conv2d, blocks: Vec<Block>, pc: Conv2d, pf: Linear, vc: Conv2d, v1: Linear, v2: Linear }
fn conv(i: usize, o: usize, k: usize, d: &Device) -> Conv2d {
    Conv2dConfig::new([i, o], [k, k]).with_padding(if k == 3 { PaddingConfig2d::Explicit(1, 1, 1, 1) } else { PaddingConfig2d::Valid }).init(d)
}
impl Net {
    fn new(c: usize, b: usize, d: &Device) -> Self {
        Net { stem: conv(P, c, 3, d), blocks: (0..b).map(|_| Block { a: conv(c, c, 3, d), b: conv(c, c, 3, d) }).collect(),
            pc: conv(c, 2, 1, d), pf: LinearConfig::new(2 * H * W, W).init(d), vc: conv(c, 1, 1, d),
            v1: LinearConfig::new(H * W, 64).init(d), v2: LinearConfig::new(64, 1).init(d) }
    }
    fn forward(&self, x: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut h = relu(self.stem.forward(x));
        for bl in &self.blocks { let r = bl.b.forward(relu(bl.a.forward(h.clone()))); h = relu(r + h); }
        let p = self.pf.forward(relu(self.pc.forward(h.clone())).flatten(1, 3));
        let v = tanh(self.v2.forward(relu(self.v1.forward(relu(self.vc.forward(h)).flatten(1, 3)))));
        (p, v)
    }
}
fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (c, b) = (args[0], args[1]);
    let dev = Device::flex();
    let net = Net::new(c, b, &dev);
    for batch in [1usize, 16, 64] {
        let x = Tensor::<4>::random([batch, P, H, W], Distribution::Normal(0., 1.), &dev);
        let _ = net.forward(x.clone());
        let t = Instant::now(); let mut n = 0;
        while t.elapsed().as_secs_f64() < 2.0 { let (p, v) = net.forward(x.clone()); let _ = softmax(p, 1).into_data().try_to_vec::<f32>().unwrap(); let _ = v.into_data().try_to_vec::<f32>().unwrap(); n += batch; }
        println!("burn c={c} b={b} infer batch={batch}: {:.0} positions/s", n as f64 / t.elapsed().as_secs_f64());
    }
    let ad = dev.autodiff();
    let mut net = Net::new(c, b, &ad);
    let mut opt = AdamConfig::new().init();
    let batch = 256;
    let x = Tensor::<4>::random([batch, P, H, W], Distribution::Normal(0., 1.), &ad);
    let pt = softmax(Tensor::<2>::random([batch, W], Distribution::Normal(0., 1.), &ad), 1);
    let vt = Tensor::<2>::random([batch, 1], Distribution::Normal(0., 0.5), &ad);
    let t = Instant::now(); let mut n = 0;
    while t.elapsed().as_secs_f64() < 3.0 {
        let (p, v) = net.forward(x.clone());
        let pl = (log_softmax(p, 1) * pt.clone()).sum_dim(1).mean().neg();
        let vl = (v - vt.clone()).powi_scalar(2).mean();
        let grads = (pl + vl).backward();
        let grads = GradientsParams::from_grads(grads, &net);
        net = opt.step(1e-3, net, grads); n += batch;
    }
    println!("burn c={c} b={b} train batch={batch}: {:.0} samples/s", n as f64 / t.elapsed().as_secs_f64());
}
