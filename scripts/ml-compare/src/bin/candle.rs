//! Candle: the Connect Four network, inference and training throughput.
use candle_core::{DType, Device, Module, Result, Tensor, D};
use candle_nn::{conv2d, linear, AdamW, Conv2d, Conv2dConfig, Linear, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use std::time::Instant;

struct Net { stem: Conv2d, blocks: Vec<(Conv2d, Conv2d)>, pc: Conv2d, pf: Linear, vc: Conv2d, v1: Linear, v2: Linear }
const H: usize = 6; const W: usize = 7; const P: usize = 2;
impl Net {
    fn new(vb: VarBuilder, c: usize, b: usize) -> Result<Self> {
        let cfg = Conv2dConfig { padding: 1, ..Default::default() };
        let one = Conv2dConfig::default();
        let stem = conv2d(P, c, 3, cfg, vb.pp("stem"))?;
        let mut blocks = Vec::new();
        for i in 0..b { blocks.push((conv2d(c, c, 3, cfg, vb.pp(format!("b{i}a")))?, conv2d(c, c, 3, cfg, vb.pp(format!("b{i}b")))?)); }
        Ok(Net { stem, blocks, pc: conv2d(c, 2, 1, one, vb.pp("pc"))?, pf: linear(2*H*W, W, vb.pp("pf"))?,
            vc: conv2d(c, 1, 1, one, vb.pp("vc"))?, v1: linear(H*W, 64, vb.pp("v1"))?, v2: linear(64, 1, vb.pp("v2"))? })
    }
    fn forward(&self, x: &Tensor) -> Result<(Tensor, Tensor)> {
        let mut h = self.stem.forward(x)?.relu()?;
        for (a, b) in &self.blocks { let r = b.forward(&a.forward(&h)?.relu()?)?; h = (r + h)?.relu()?; }
        let p = self.pf.forward(&self.pc.forward(&h)?.relu()?.flatten_from(1)?)?;
        let v = self.v2.forward(&self.v1.forward(&self.vc.forward(&h)?.relu()?.flatten_from(1)?)?.relu()?)?.tanh()?;
        Ok((p, v))
    }
}
fn main() -> Result<()> {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (c, b) = (args[0], args[1]);
    let dev = Device::Cpu;
    let vm = VarMap::new();
    let net = Net::new(VarBuilder::from_varmap(&vm, DType::F32, &dev), c, b)?;
    for batch in [1usize, 16, 64] {
        let x = Tensor::randn(0f32, 1., (batch, P, H, W), &dev)?;
        let _ = net.forward(&x)?;
        let t = Instant::now(); let mut n = 0;
        while t.elapsed().as_secs_f64() < 2.0 { let (p, v) = net.forward(&x)?; let _ = candle_nn::ops::softmax_last_dim(&p)?.to_vec2::<f32>()?; let _ = v.flatten_all()?.to_vec1::<f32>()?; n += batch; }
        println!("candle c={c} b={b} infer batch={batch}: {:.0} positions/s", n as f64 / t.elapsed().as_secs_f64());
    }
    let mut opt = AdamW::new(vm.all_vars(), ParamsAdamW { lr: 1e-3, weight_decay: 1e-4, ..Default::default() })?;
    let batch = 256;
    let x = Tensor::randn(0f32, 1., (batch, P, H, W), &dev)?;
    let pt = candle_nn::ops::softmax_last_dim(&Tensor::randn(0f32, 1., (batch, W), &dev)?)?;
    let vt = Tensor::randn(0f32, 0.5, (batch, 1), &dev)?;
    let t = Instant::now(); let mut n = 0;
    while t.elapsed().as_secs_f64() < 3.0 {
        let (p, v) = net.forward(&x)?;
        let lp = candle_nn::ops::log_softmax(&p, D::Minus1)?;
        let pl = (lp * &pt)?.sum(1)?.mean_all()?.neg()?;
        let vl = (v - &vt)?.sqr()?.mean_all()?;
        opt.backward_step(&(pl + vl)?)?; n += batch;
    }
    println!("candle c={c} b={b} train batch={batch}: {:.0} samples/s", n as f64 / t.elapsed().as_secs_f64());
    Ok(())
}
