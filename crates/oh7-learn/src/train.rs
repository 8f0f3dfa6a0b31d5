//! Training the hand model (`oh7 learn train`) with candle on the CPU, and its evaluation
//! against the uniform sampler (`oh7 learn eval`).
//!
//! The model is a small multilayer perceptron over the features of one (card, place) pair
//! (`oh7_bots::hand_model::pair_features`), whose output is added to the log of the place's room;
//! the loss is the cross-entropy of each hidden card's true place under a softmax over the
//! places it may be (the others masked out), averaged over the hidden cards of a batch. Weights start
//! from a seeded ChaCha draw and the batches come in a seeded order, so a seed and the data
//! give the same model. Rows of every tenth game (`game % 10 == 9`) are held out and score the
//! model after each epoch; the best epoch's weights are written, as F16.

use std::path::Path;

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use oh7_bots::hand_model::{HAND_INPUT, HandModel, LOCS, PAIR_FEATURES, REST, pair_features};
use oh7_core::card::CARD_IDS;
use oh7_core::card::Card;
use oh7_core::oh7::MAX_SEATS;
use oh7_core::rl::OH7_OBS;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::data::{Rows, input_of};

/// The settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainPlan {
    /// Width of the hidden layers.
    pub hidden: usize,
    /// Hidden layers.
    pub layers: usize,
    /// Passes over the training rows.
    pub epochs: usize,
    /// Rows per step.
    pub batch: usize,
    /// AdamW's learning rate.
    pub lr: f64,
    /// AdamW's weight decay.
    pub weight_decay: f64,
    /// The seed of the weights and the batch order.
    pub seed: u64,
}

impl Default for TrainPlan {
    fn default() -> Self {
        TrainPlan { hidden: 64, layers: 2, epochs: 3, batch: 64, lr: 1e-3, weight_decay: 1e-4, seed: 1 }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct Epoch {
    /// 1-based.
    pub epoch: usize,
    /// Mean training loss (nats per hidden card).
    pub train: f64,
    /// Held-out cross-entropy (nats per hidden card).
    pub held_out: f64,
}

fn e(err: candle_core::Error) -> String {
    err.to_string()
}

/// Whether row `k` is held out.
pub fn held_out(rows: &Rows, k: usize) -> bool {
    rows.game[k] % 10 == 9
}

struct Net {
    vars: Vec<(Var, Var)>,
}

impl Net {
    fn new(plan: &TrainPlan, rng: &mut ChaCha8Rng, dev: &Device) -> Result<Net, String> {
        let mut sizes = vec![PAIR_FEATURES];
        sizes.extend(std::iter::repeat_n(plan.hidden, plan.layers));
        sizes.push(1);
        let mut vars = Vec::new();
        for (i, w) in sizes.windows(2).enumerate() {
            let (ins, outs) = (w[0], w[1]);
            // Kaiming-uniform for ReLU layers; the last layer starts at zero, so the untrained
            // model is the room-proportional rule.
            let last = i + 2 == sizes.len();
            let bound = if last { 0.0 } else { (6.0 / ins as f64).sqrt() as f32 };
            let data: Vec<f32> =
                (0..ins * outs).map(|_| if last { 0.0 } else { rng.random_range(-bound..bound) }).collect();
            let wt = Var::from_tensor(&Tensor::from_vec(data, (outs, ins), dev).map_err(e)?).map_err(e)?;
            let b = Var::from_tensor(&Tensor::zeros(outs, DType::F32, dev).map_err(e)?).map_err(e)?;
            vars.push((wt, b));
        }
        Ok(Net { vars })
    }

    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let mut h = x.clone();
        for (i, (w, b)) in self.vars.iter().enumerate() {
            h = h.matmul(&w.as_tensor().t()?)?.broadcast_add(b.as_tensor())?;
            if i + 1 < self.vars.len() {
                h = h.relu()?;
            }
        }
        Ok(h)
    }

    fn all(&self) -> Vec<Var> {
        self.vars.iter().flat_map(|(w, b)| [w.clone(), b.clone()]).collect()
    }

    /// The weights as safetensors bytes (F16), in the names [`oh7_bots::hand_model::Mlp`] reads.
    fn to_safetensors(&self, meta: &str) -> Result<Vec<u8>, String> {
        let mut tensors = Vec::new();
        for (i, (w, b)) in self.vars.iter().enumerate() {
            for (name, t) in [(format!("l{i}.weight"), w), (format!("l{i}.bias"), b)] {
                let v: Vec<f32> = t.as_tensor().flatten_all().map_err(e)?.to_vec1().map_err(e)?;
                let bytes: Vec<u8> = v.iter().flat_map(|&x| half::f16::from_f32(x).to_le_bytes()).collect();
                tensors.push((name, t.as_tensor().dims().to_vec(), bytes));
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

/// A batch: one entry per hidden card of the rows: its [`LOCS`] places' features, the log of
/// each place's room plus the mask (0 or −1e9), and the one-hot true place.
fn batch(rows: &Rows, idx: &[usize], dev: &Device) -> Result<(Tensor, Tensor, Tensor, f64), String> {
    let mut x = vec![0.0f32; HAND_INPUT];
    let mut feats = Vec::new();
    let mut bias = Vec::new();
    let mut target = Vec::new();
    let mut f = [0.0f32; PAIR_FEATURES];
    let room_at = OH7_OBS + MAX_SEATS * CARD_IDS + MAX_SEATS * 5;
    for &k in idx {
        input_of(rows, k, &mut x);
        for c in 0..CARD_IDS {
            let h = rows.hidden[k * CARD_IDS + c];
            if h == 255 {
                continue;
            }
            let bits = rows.allowed[k * CARD_IDS + c];
            let card = Card::from_id(c as u8).expect("a card id");
            for l in 0..LOCS {
                pair_features(&x, card, l, &mut f);
                feats.extend_from_slice(&f);
                let room = if l == REST { x[room_at + MAX_SEATS] * 20.0 } else { x[room_at + l] * 13.0 };
                bias.push(if bits & (1 << l) != 0 { room.max(0.5).ln() } else { -1e9 });
                target.push(if l == h as usize { 1.0 } else { 0.0 });
            }
        }
    }
    let m = bias.len() / LOCS;
    let t = |v: Vec<f32>, shape: (usize, usize)| Tensor::from_vec(v, shape, dev).map_err(e);
    Ok((t(feats, (m * LOCS, PAIR_FEATURES))?, t(bias, (m, LOCS))?, t(target, (m, LOCS))?, m as f64))
}

fn loss(net: &Net, x: &Tensor, bias: &Tensor, target: &Tensor, count: f64) -> candle_core::Result<Tensor> {
    let m = bias.dim(0)?;
    let logits = (net.forward(x)?.reshape((m, LOCS))? + bias)?;
    let logp = candle_nn::ops::log_softmax(&logits, 1)?;
    (logp * target)?.sum_all()?.affine(-1.0 / count.max(1.0), 0.0)
}

/// Train a hand model on `rows`; `report` is told each epoch. Returns the best epoch's weights
/// (safetensors bytes) and the epochs' figures.
pub fn train(rows: &Rows, plan: &TrainPlan, report: &mut dyn FnMut(&Epoch)) -> Result<(Vec<u8>, Vec<Epoch>), String> {
    let dev = Device::Cpu;
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let net = Net::new(plan, &mut rng, &dev)?;
    let mut opt =
        AdamW::new(net.all(), ParamsAdamW { lr: plan.lr, weight_decay: plan.weight_decay, ..ParamsAdamW::default() })
            .map_err(e)?;
    let (mut train_idx, test_idx): (Vec<usize>, Vec<usize>) = (0..rows.len()).partition(|&k| !held_out(rows, k));
    if train_idx.is_empty() || test_idx.is_empty() {
        return Err(format!(
            "{} training rows and {} held-out rows: give data from at least 10 games",
            train_idx.len(),
            test_idx.len()
        ));
    }
    let meta =
        serde_json::json!({ "hidden": plan.hidden, "layers": plan.layers, "epochs": plan.epochs, "batch": plan.batch,
        "lr": plan.lr, "weight_decay": plan.weight_decay, "seed": plan.seed, "rows": rows.len() })
        .to_string();
    let mut best: Option<(f64, Vec<u8>)> = None;
    let mut epochs = Vec::new();
    for epoch in 1..=plan.epochs {
        train_idx.shuffle(&mut rng);
        let (mut sum, mut steps) = (0.0, 0usize);
        for chunk in train_idx.chunks(plan.batch) {
            let (x, m, t, count) = batch(rows, chunk, &dev)?;
            let l = loss(&net, &x, &m, &t, count).map_err(e)?;
            opt.backward_step(&l).map_err(e)?;
            sum += f64::from(l.to_scalar::<f32>().map_err(e)?);
            steps += 1;
        }
        let (mut nll, mut cards) = (0.0, 0.0);
        for chunk in test_idx.chunks(256) {
            let (x, m, t, count) = batch(rows, chunk, &dev)?;
            let l = loss(&net, &x, &m, &t, count).map_err(e)?;
            nll += f64::from(l.to_scalar::<f32>().map_err(e)?) * count;
            cards += count;
        }
        let ep = Epoch { epoch, train: sum / steps.max(1) as f64, held_out: nll / cards.max(1.0) };
        report(&ep);
        if best.as_ref().is_none_or(|b| ep.held_out < b.0) {
            best = Some((ep.held_out, net.to_safetensors(&meta)?));
        }
        epochs.push(ep);
    }
    Ok((best.expect("at least one epoch").1, epochs))
}

/// The cross-entropy of a model and of the uniform sampler over the rows that measured it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrossEntropy {
    /// Hidden cards scored.
    pub cards: u64,
    /// Decisions scored.
    pub rows: u64,
    /// The model's mean negative log-likelihood per hidden card (nats).
    pub model: f64,
    /// The uniform sampler's.
    pub uniform: f64,
}

/// Score `model` (the inference the bots use) on the rows whose uniform baseline was measured
/// (`oh7 learn data --baseline K`), only the held-out games' rows if `held_out_only`.
pub fn evaluate(model: &HandModel, rows: &Rows, held_out_only: bool) -> CrossEntropy {
    let mut x = vec![0.0f32; HAND_INPUT];
    let (mut m, mut u, mut cards, mut n) = (0.0f64, 0.0f64, 0u64, 0u64);
    for k in 0..rows.len() {
        if rows.uniform_nll[k].is_nan() || (held_out_only && !held_out(rows, k)) {
            continue;
        }
        input_of(rows, k, &mut x);
        let mut bits = [0u16; CARD_IDS];
        for (c, b) in bits.iter_mut().enumerate() {
            if rows.hidden[k * CARD_IDS + c] != 255 {
                *b = rows.allowed[k * CARD_IDS + c];
            }
        }
        let logits = model.logits(&x, &bits);
        for c in 0..CARD_IDS {
            let h = rows.hidden[k * CARD_IDS + c];
            if h == 255 {
                continue;
            }
            let l = &logits[c * LOCS..(c + 1) * LOCS];
            let top = l.iter().map(|&v| f64::from(v)).fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = l.iter().map(|&v| (f64::from(v) - top).exp()).sum();
            m -= f64::from(l[h as usize]) - top - z.ln();
            cards += 1;
        }
        u += f64::from(rows.uniform_nll[k]);
        n += 1;
    }
    let c = cards.max(1) as f64;
    CrossEntropy { cards, rows: n, model: m / c, uniform: u / c }
}

/// Read a model file.
pub fn load_model(path: &Path) -> Result<HandModel, String> {
    let bytes = std::fs::read(path).map_err(|x| format!("cannot open {}: {x}", path.display()))?;
    HandModel::from_safetensors(&bytes).map_err(|x| format!("{}: {x}", path.display()))
}
