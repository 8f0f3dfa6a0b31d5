//! A trainable multilayer perceptron in plain Rust: dense layers with ReLU between them, a
//! linear last layer, backpropagation by hand and AdamW, single precision.
//!
//! Why not a tensor library: the models here are small (thousands to a few hundred thousand
//! weights), a CPU does them well in plain loops, and candle, the library first used, cost the
//! clean build about five minutes and CI about ten (`docs/learning.md`). The weights are written
//! in the layout `oh7_bots::hand_model::Mlp` reads (`l{i}.weight` as `[out, in]`, `l{i}.bias`),
//! which PyTorch's `nn.Linear` also uses. Every sum runs in a fixed order, so the same data and
//! seed give the same weights bit for bit on any machine.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One dense layer: `out = W·in + b`, `W` row-major `[outs][ins]`.
#[derive(Clone, Debug)]
struct Layer {
    ins: usize,
    outs: usize,
    w: Vec<f32>,
    b: Vec<f32>,
}

/// The network's parameters (and, in the same shape, their gradients and Adam's moments).
#[derive(Clone, Debug)]
pub struct Net {
    layers: Vec<Layer>,
}

/// The activations of one forward pass over a batch, kept for the backward pass.
#[derive(Default)]
pub struct Tape {
    rows: usize,
    /// `acts[0]` is the input; `acts[i + 1]` is layer `i`'s output (after ReLU but the last).
    acts: Vec<Vec<f32>>,
}

impl Tape {
    /// The network's outputs, `rows × outputs`, row-major.
    pub fn output(&self) -> &[f32] {
        self.acts.last().expect("a forward pass")
    }
}

/// `Σ a[i]·b[i]` in eight lanes (so the compiler vectorizes it), then the lanes in order.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let mut s = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    lanes.iter().sum::<f32>() + s
}

/// `y += a·x`.
fn axpy(a: f32, x: &[f32], y: &mut [f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

impl Net {
    /// A network of the given layer sizes (`sizes[0]` inputs, the last the outputs): hidden
    /// layers Kaiming-uniform from `rng`, biases zero, and the last layer zero when `zero_last`
    /// (so the untrained network adds nothing to what it is added to).
    pub fn new(sizes: &[usize], zero_last: bool, rng: &mut ChaCha8Rng) -> Net {
        assert!(sizes.len() >= 2, "a network has inputs and outputs");
        let mut layers = Vec::new();
        for (i, s) in sizes.windows(2).enumerate() {
            let (ins, outs) = (s[0], s[1]);
            let zero = zero_last && i + 2 == sizes.len();
            let bound = (6.0 / ins as f64).sqrt() as f32;
            let w = (0..ins * outs).map(|_| if zero { 0.0 } else { rng.random_range(-bound..bound) }).collect();
            layers.push(Layer { ins, outs, w, b: vec![0.0; outs] });
        }
        Net { layers }
    }

    /// The same shape, every parameter zero.
    pub fn zeros_like(&self) -> Net {
        let layers = self
            .layers
            .iter()
            .map(|l| Layer { ins: l.ins, outs: l.outs, w: vec![0.0; l.w.len()], b: vec![0.0; l.b.len()] })
            .collect();
        Net { layers }
    }

    /// Inputs.
    pub fn inputs(&self) -> usize {
        self.layers[0].ins
    }

    /// Outputs.
    pub fn outputs(&self) -> usize {
        self.layers.last().expect("a layer").outs
    }

    /// Forward over `rows` inputs (`x`, row-major), recorded in `tape`.
    pub fn forward(&self, x: &[f32], rows: usize, tape: &mut Tape) {
        assert_eq!(x.len(), rows * self.inputs(), "inputs of the batch");
        tape.rows = rows;
        tape.acts.resize_with(self.layers.len() + 1, Vec::new);
        tape.acts[0].clear();
        tape.acts[0].extend_from_slice(x);
        let last = self.layers.len() - 1;
        for (i, l) in self.layers.iter().enumerate() {
            let (before, after) = tape.acts.split_at_mut(i + 1);
            let (input, out) = (&before[i], &mut after[0]);
            out.clear();
            out.resize(rows * l.outs, 0.0);
            for r in 0..rows {
                let xr = &input[r * l.ins..(r + 1) * l.ins];
                for o in 0..l.outs {
                    let v = l.b[o] + dot(&l.w[o * l.ins..(o + 1) * l.ins], xr);
                    out[r * l.outs + o] = if i < last { v.max(0.0) } else { v };
                }
            }
        }
    }

    /// Add to `grad` the gradient of the loss whose gradient with respect to the outputs of the
    /// pass in `tape` is `dout` (`rows × outputs`).
    pub fn backward(&self, tape: &Tape, dout: &[f32], grad: &mut Net) {
        let rows = tape.rows;
        let mut d = dout.to_vec();
        let mut dx = Vec::new();
        for i in (0..self.layers.len()).rev() {
            let l = &self.layers[i];
            let g = &mut grad.layers[i];
            let input = &tape.acts[i];
            for r in 0..rows {
                let xr = &input[r * l.ins..(r + 1) * l.ins];
                for o in 0..l.outs {
                    let dv = d[r * l.outs + o];
                    if dv != 0.0 {
                        g.b[o] += dv;
                        axpy(dv, xr, &mut g.w[o * l.ins..(o + 1) * l.ins]);
                    }
                }
            }
            if i == 0 {
                break;
            }
            dx.clear();
            dx.resize(rows * l.ins, 0.0);
            for r in 0..rows {
                let dxr = &mut dx[r * l.ins..(r + 1) * l.ins];
                for o in 0..l.outs {
                    let dv = d[r * l.outs + o];
                    if dv != 0.0 {
                        axpy(dv, &l.w[o * l.ins..(o + 1) * l.ins], dxr);
                    }
                }
                // Through the ReLU of the layer below: no gradient where it was off.
                for (k, v) in dxr.iter_mut().enumerate() {
                    if input[r * l.ins + k] <= 0.0 {
                        *v = 0.0;
                    }
                }
            }
            std::mem::swap(&mut d, &mut dx);
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut Vec<f32>> {
        self.layers.iter_mut().flat_map(|l| [&mut l.w, &mut l.b])
    }

    /// The weights as safetensors bytes, F16, named `l{i}.weight` / `l{i}.bias`, with `meta`
    /// under the metadata key `training`.
    pub fn to_safetensors(&self, meta: &str) -> Result<Vec<u8>, String> {
        let mut tensors = Vec::new();
        for (i, l) in self.layers.iter().enumerate() {
            for (name, v, shape) in
                [(format!("l{i}.weight"), &l.w, vec![l.outs, l.ins]), (format!("l{i}.bias"), &l.b, vec![l.outs])]
            {
                let bytes: Vec<u8> = v.iter().flat_map(|&x| half::f16::from_f32(x).to_le_bytes()).collect();
                tensors.push((name, shape, bytes));
            }
        }
        let views: Vec<(String, safetensors::tensor::TensorView)> = tensors
            .iter()
            .map(|(n, s, b)| {
                safetensors::tensor::TensorView::new(safetensors::Dtype::F16, s.clone(), b)
                    .map(|v| (n.clone(), v))
                    .map_err(|x| x.to_string())
            })
            .collect::<Result<_, _>>()?;
        let mut info = std::collections::HashMap::new();
        info.insert("training".to_string(), meta.to_string());
        safetensors::serialize(views, Some(info)).map_err(|x| x.to_string())
    }
}

/// AdamW (Loshchilov and Hutter), with PyTorch's defaults for β₁, β₂ and ε.
pub struct AdamW {
    /// Learning rate.
    pub lr: f32,
    /// Decoupled weight decay.
    pub weight_decay: f32,
    m: Net,
    v: Net,
    t: i32,
}

impl AdamW {
    /// An optimizer for `net`'s parameters.
    pub fn new(net: &Net, lr: f32, weight_decay: f32) -> AdamW {
        AdamW { lr, weight_decay, m: net.zeros_like(), v: net.zeros_like(), t: 0 }
    }

    /// One step of `net` along `grad`.
    pub fn step(&mut self, net: &mut Net, grad: &mut Net) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let decay = 1.0 - self.lr * self.weight_decay;
        for (((p, g), m), v) in
            net.params_mut().zip(grad.params_mut()).zip(self.m.params_mut()).zip(self.v.params_mut())
        {
            for k in 0..p.len() {
                let gk = g[k];
                m[k] = B1 * m[k] + (1.0 - B1) * gk;
                v[k] = B2 * v[k] + (1.0 - B2) * gk * gk;
                p[k] = p[k] * decay - self.lr * (m[k] / c1) / ((v[k] / c2).sqrt() + EPS);
            }
        }
    }
}

impl Net {
    /// `self += other`, parameter by parameter.
    pub fn add(&mut self, other: &Net) {
        for (p, q) in self.params_mut().zip(other.layers.iter().flat_map(|l| [&l.w, &l.b])) {
            for (a, b) in p.iter_mut().zip(q) {
                *a += b;
            }
        }
    }

    /// Every gradient back to zero.
    pub fn clear(&mut self) {
        for p in self.params_mut() {
            p.fill(0.0);
        }
    }
}

/// The cross-entropy of groups of `k` logits against targets (probabilities, each group summing
/// to one or zero), summed over the groups, and its gradient with respect to the logits (written
/// into `grad`, scaled by `scale`). Logits of about −1e9 are masked out.
pub fn softmax_xent(logits: &[f32], target: &[f32], k: usize, scale: f32, grad: &mut Vec<f32>) -> f64 {
    grad.clear();
    grad.resize(logits.len(), 0.0);
    let mut total = 0.0f64;
    for ((l, t), g) in logits.chunks_exact(k).zip(target.chunks_exact(k)).zip(grad.chunks_exact_mut(k)) {
        let top = l.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let z: f64 = l.iter().map(|&v| f64::from(v - top).exp()).sum();
        let lz = z.ln();
        let mass: f32 = t.iter().sum();
        for j in 0..k {
            let logp = f64::from(l[j] - top) - lz;
            if t[j] != 0.0 {
                total -= f64::from(t[j]) * logp;
            }
            g[j] = scale * (mass * logp.exp() as f32 - t[j]);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn loss(net: &Net, x: &[f32], rows: usize, t: &[f32], k: usize) -> f64 {
        let mut tape = Tape::default();
        net.forward(x, rows, &mut tape);
        softmax_xent(tape.output(), t, k, 1.0, &mut Vec::new())
    }

    fn param<'n>(net: &'n mut Net, layer: usize, part: &str, k: usize) -> &'n mut f32 {
        let l = &mut net.layers[layer];
        if part == "w" { &mut l.w[k] } else { &mut l.b[k] }
    }

    /// The hand-written gradient equals the finite differences of the loss, weight by weight.
    #[test]
    fn backward_matches_finite_differences() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut net = Net::new(&[5, 7, 6, 3], false, &mut rng);
        let rows = 4;
        let x: Vec<f32> = (0..rows * 5).map(|_| rng.random_range(-1.0..1.0)).collect();
        let mut t = vec![0.0f32; rows * 3];
        for r in 0..rows {
            t[r * 3 + r % 3] = 1.0;
        }
        let mut tape = Tape::default();
        net.forward(&x, rows, &mut tape);
        let mut d = Vec::new();
        softmax_xent(tape.output(), &t, 3, 1.0, &mut d);
        let mut grad = net.zeros_like();
        net.backward(&tape, &d, &mut grad);
        let h = 1e-3f32;
        let mut checked = 0;
        // Every parameter (weights then bias of each layer) against its central difference.
        for li in 0..net.layers.len() {
            for (part, count) in [("w", net.layers[li].w.len()), ("b", net.layers[li].b.len())] {
                for k in 0..count {
                    let p0 = *param(&mut net, li, part, k);
                    *param(&mut net, li, part, k) = p0 + h;
                    let up = loss(&net, &x, rows, &t, 3);
                    *param(&mut net, li, part, k) = p0 - h;
                    let down = loss(&net, &x, rows, &t, 3);
                    *param(&mut net, li, part, k) = p0;
                    let numeric = (up - down) / (2.0 * f64::from(h));
                    let analytic = f64::from(*param(&mut grad, li, part, k));
                    assert!(
                        (numeric - analytic).abs() < 2e-3 + 1e-2 * numeric.abs(),
                        "layer {li} {part}{k}: {numeric} vs {analytic}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 5 * 7 + 7 + 7 * 6 + 6 + 6 * 3 + 3);
    }

    /// AdamW drives a small problem's loss down, and a masked logit gets no probability.
    #[test]
    fn adamw_learns_and_masks_hold() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut net = Net::new(&[2, 8, 2], false, &mut rng);
        let x = [0.0f32, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0];
        let t = [1.0f32, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0];
        let mut opt = AdamW::new(&net, 0.05, 0.0);
        let first = loss(&net, &x, 4, &t, 2);
        let (mut tape, mut d, mut grad) = (Tape::default(), Vec::new(), net.zeros_like());
        for _ in 0..300 {
            net.forward(&x, 4, &mut tape);
            softmax_xent(tape.output(), &t, 2, 0.25, &mut d);
            grad.clear();
            net.backward(&tape, &d, &mut grad);
            opt.step(&mut net, &mut grad);
        }
        let last = loss(&net, &x, 4, &t, 2);
        assert!(last < first / 10.0, "{first} → {last}");
        let mut g = Vec::new();
        let l = softmax_xent(&[0.3, -1e9, 0.1], &[1.0, 0.0, 0.0], 3, 1.0, &mut g);
        assert!(g[1].abs() < 1e-12 && l > 0.0 && l < 1.0);
    }
}
