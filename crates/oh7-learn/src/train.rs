//! Training the hand model (`oh7 learn train`) on the CPU (plain Rust, [`crate::nn`]), and its evaluation
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

use half::f16;
use oh7_bots::hand_model::{HAND_INPUT, HandModel, LOCS, PAIR_FEATURES, REST, pair_features};
use oh7_bots::policy::PolicyNet;
use oh7_core::card::CARD_IDS;
use oh7_core::card::Card;
use oh7_core::oh7::MAX_SEATS;
use oh7_core::rl::{OH7_ACTIONS, OH7_OBS};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::LearnError;
use crate::data::{Rows, input_of};
use crate::nn::{AdamW, Net, Tape, softmax_xent};

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

impl TrainPlan {
    /// The layer sizes of a network of this plan: `inputs`, the hidden layers, `outputs`.
    pub fn sizes(&self, inputs: usize, outputs: usize) -> Vec<usize> {
        let mut sizes = vec![inputs];
        sizes.extend(std::iter::repeat_n(self.hidden, self.layers));
        sizes.push(outputs);
        sizes
    }
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

/// Whether row `k` is held out.
pub fn held_out(rows: &Rows, k: usize) -> bool {
    rows.game[k] % 10 == 9
}

/// A batch of groups of `k` logits, each group a softmax against a target distribution: the
/// network's inputs (`k / outputs` rows of them per group), what is added to its outputs (a log
/// prior, and −1e9 for what is masked out) and the targets. For the hand model a group is a
/// hidden card's [`LOCS`] places (one network row each); for the prior, a decision's ids.
pub(crate) struct Batch {
    pub(crate) k: usize,
    pub(crate) feats: Vec<f32>,
    pub(crate) bias: Vec<f32>,
    pub(crate) target: Vec<f32>,
}

impl Batch {
    fn cards(&self) -> usize {
        self.bias.len() / self.k
    }
}

fn batch(rows: &Rows, idx: &[usize]) -> Batch {
    let mut x = vec![0.0f32; HAND_INPUT];
    let mut b = Batch { k: LOCS, feats: Vec::new(), bias: Vec::new(), target: Vec::new() };
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
                b.feats.extend_from_slice(&f);
                let room = if l == REST { x[room_at + MAX_SEATS] * 20.0 } else { x[room_at + l] * 13.0 };
                b.bias.push(if bits & (1 << l) != 0 { room.max(0.5).ln() } else { -1e9 });
                b.target.push(if l == h as usize { 1.0 } else { 0.0 });
            }
        }
    }
    b
}

/// The summed cross-entropy of the cards `cards` of the batch; with `grad`, the gradient of that
/// sum times `scale` is added there.
fn loss_of(net: &Net, b: &Batch, cards: std::ops::Range<usize>, scale: f32, grad: Option<&mut Net>) -> f64 {
    if cards.is_empty() {
        return 0.0;
    }
    let (lo, hi) = (cards.start * b.k, cards.end * b.k);
    let (ins, outs) = (net.inputs(), net.outputs());
    let mut tape = Tape::default();
    net.forward(&b.feats[lo / outs * ins..hi / outs * ins], (hi - lo) / outs, &mut tape);
    let logits: Vec<f32> = tape.output().iter().zip(&b.bias[lo..hi]).map(|(o, x)| o + x).collect();
    let mut d = Vec::new();
    let total = softmax_xent(&logits, &b.target[lo..hi], b.k, scale, &mut d);
    if let Some(g) = grad {
        net.backward(&tape, &d, g);
    }
    total
}

/// Parts a batch is cut into, worked on in parallel and added up in order: a fixed number, so
/// the weights do not depend on the number of threads.
const PARTS: usize = 4;

/// The batch's summed cross-entropy; with `grad`, its mean's gradient is added there.
fn loss(net: &Net, b: &Batch, grad: Option<&mut Net>) -> f64 {
    let m = b.cards();
    let part = m.div_ceil(PARTS).max(1);
    let ranges: Vec<_> = (0..PARTS).map(|i| (i * part).min(m)..((i + 1) * part).min(m)).collect();
    match grad {
        None => ranges.into_par_iter().map(|r| loss_of(net, b, r, 1.0, None)).collect::<Vec<_>>().iter().sum(),
        Some(g) => {
            let scale = 1.0 / m.max(1) as f32;
            let parts: Vec<(f64, Net)> = ranges
                .into_par_iter()
                .map(|r| {
                    let mut pg = net.zeros_like();
                    (loss_of(net, b, r, scale, Some(&mut pg)), pg)
                })
                .collect();
            let mut total = 0.0;
            for (l, pg) in &parts {
                total += l;
                g.add(pg);
            }
            total
        }
    }
}

/// Train a hand model on `rows`; `report` is told each epoch. Returns the best epoch's weights
/// (safetensors bytes) and the epochs' figures.
pub fn train(
    rows: &Rows,
    plan: &TrainPlan,
    report: &mut dyn FnMut(&Epoch),
) -> Result<(Vec<u8>, Vec<Epoch>), LearnError> {
    let all: Vec<usize> = (0..rows.len()).collect();
    fit(&all, &|k| held_out(rows, k), &plan.sizes(PAIR_FEATURES, 1), plan, &|idx| batch(rows, idx), report)
}

/// Train the policy prior on the rows a search decided (their root visits are the targets);
/// `report` is told each epoch. Returns the best epoch's weights and the epochs' figures (nats
/// per decision).
pub fn train_prior(
    rows: &Rows,
    plan: &TrainPlan,
    report: &mut dyn FnMut(&Epoch),
) -> Result<(Vec<u8>, Vec<Epoch>), LearnError> {
    let searched: Vec<usize> = (0..rows.len()).filter(|&k| rows.searched[k] == 1).collect();
    let sizes = plan.sizes(HAND_INPUT, OH7_ACTIONS);
    fit(&searched, &|k| held_out(rows, k), &sizes, plan, &|idx| prior_batch(rows, idx), report)
}

/// A batch of decisions for the prior: the input, the legal mask as 0 / −1e9, the visits.
fn prior_batch(rows: &Rows, idx: &[usize]) -> Batch {
    let mut b =
        Batch { k: OH7_ACTIONS, feats: vec![0.0; idx.len() * HAND_INPUT], bias: Vec::new(), target: Vec::new() };
    for (n, &k) in idx.iter().enumerate() {
        input_of(rows, k, &mut b.feats[n * HAND_INPUT..(n + 1) * HAND_INPUT]);
        let at = k * OH7_ACTIONS..(k + 1) * OH7_ACTIONS;
        b.bias.extend(rows.mask[at.clone()].iter().map(|&m| if m == 1 { 0.0 } else { -1e9 }));
        b.target.extend(rows.visits[at].iter().map(|&v| f16::from_bits(v).to_f32()));
    }
    b
}

/// Train a network of `sizes` on the rows `use_rows` (those `held` says are held out score each
/// epoch), their batches made by `make`.
pub(crate) fn fit(
    use_rows: &[usize],
    held: &dyn Fn(usize) -> bool,
    sizes: &[usize],
    plan: &TrainPlan,
    make: &dyn Fn(&[usize]) -> Batch,
    report: &mut dyn FnMut(&Epoch),
) -> Result<(Vec<u8>, Vec<Epoch>), LearnError> {
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    // The last layer starts at zero, so the untrained model adds nothing: the hand model is
    // then the room-proportional rule, the prior uniform over the legal ids.
    let mut net = Net::new(sizes, true, &mut rng);
    let mut grad = net.zeros_like();
    let mut opt = AdamW::new(&net, plan.lr as f32, plan.weight_decay as f32);
    let (mut train_idx, test_idx): (Vec<usize>, Vec<usize>) = use_rows.iter().partition(|&&k| !held(k));
    if train_idx.is_empty() || test_idx.is_empty() {
        return Err(LearnError::Plan(format!(
            "{} training rows and {} held-out rows: give data from at least 10 games",
            train_idx.len(),
            test_idx.len()
        )));
    }
    let meta =
        serde_json::json!({ "hidden": plan.hidden, "layers": plan.layers, "epochs": plan.epochs, "batch": plan.batch,
        "lr": plan.lr, "weight_decay": plan.weight_decay, "seed": plan.seed, "rows": use_rows.len() })
        .to_string();
    let mut best: Option<(f64, Vec<u8>)> = None;
    let mut epochs = Vec::new();
    for epoch in 1..=plan.epochs {
        train_idx.shuffle(&mut rng);
        let (mut sum, mut steps) = (0.0, 0usize);
        for chunk in train_idx.chunks(plan.batch) {
            let b = make(chunk);
            if b.cards() == 0 {
                continue;
            }
            grad.clear();
            sum += loss(&net, &b, Some(&mut grad)) / b.cards() as f64;
            opt.step(&mut net, &mut grad);
            steps += 1;
        }
        let (mut nll, mut cards) = (0.0, 0usize);
        for chunk in test_idx.chunks(256) {
            let b = make(chunk);
            nll += loss(&net, &b, None);
            cards += b.cards();
        }
        let ep = Epoch { epoch, train: sum / steps.max(1) as f64, held_out: nll / cards.max(1) as f64 };
        report(&ep);
        if best.as_ref().is_none_or(|b| ep.held_out < b.0) {
            best = Some((ep.held_out, net.to_safetensors(&meta).map_err(LearnError::Model)?));
        }
        epochs.push(ep);
    }
    Ok((best.expect("at least one epoch").1, epochs))
}

/// How a policy prior scores against the search it learned from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PriorScore {
    /// Decisions scored (those a search decided).
    pub rows: u64,
    /// Mean cross-entropy of the search's visits under the prior (nats per decision).
    pub model: f64,
    /// The same under the uniform distribution over the legal ids.
    pub uniform: f64,
    /// How often the prior's most likely id is the search's most visited.
    pub agree: f64,
}

/// Score `net` (the inference the bots use) on the rows a search decided, only the held-out
/// games' if `held_out_only`.
pub fn evaluate_prior(net: &PolicyNet, rows: &Rows, held_out_only: bool) -> PriorScore {
    let mut x = vec![0.0f32; HAND_INPUT];
    let mut scratch = [Vec::new(), Vec::new()];
    let (mut m, mut u, mut agree, mut n) = (0.0f64, 0.0f64, 0u64, 0u64);
    for k in 0..rows.len() {
        if rows.searched[k] != 1 || (held_out_only && !held_out(rows, k)) {
            continue;
        }
        input_of(rows, k, &mut x);
        let logits = net.logits(&x, &mut scratch);
        let at = k * OH7_ACTIONS;
        let legal: Vec<usize> = (0..OH7_ACTIONS).filter(|&i| rows.mask[at + i] == 1).collect();
        let top = legal.iter().map(|&i| f64::from(logits[i])).fold(f64::NEG_INFINITY, f64::max);
        let lz = legal.iter().map(|&i| (f64::from(logits[i]) - top).exp()).sum::<f64>().ln();
        let visits = |i: usize| f64::from(f16::from_bits(rows.visits[at + i]).to_f32());
        for &i in &legal {
            let t = visits(i);
            m -= t * (f64::from(logits[i]) - top - lz);
            u += t * (legal.len() as f64).ln();
        }
        let best_model = legal.iter().copied().max_by(|&a, &b| logits[a].total_cmp(&logits[b]));
        let best_search = legal.iter().copied().max_by(|&a, &b| visits(a).total_cmp(&visits(b)));
        agree += u64::from(best_model == best_search);
        n += 1;
    }
    let c = n.max(1) as f64;
    PriorScore { rows: n, model: m / c, uniform: u / c, agree: agree as f64 / c }
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
pub fn load_model(path: &Path) -> Result<HandModel, LearnError> {
    let bytes = std::fs::read(path).map_err(LearnError::open(path))?;
    HandModel::from_safetensors(&bytes).map_err(|x| LearnError::file(path, x))
}

/// Read a policy prior file.
pub fn load_prior(path: &Path) -> Result<PolicyNet, LearnError> {
    let bytes = std::fs::read(path).map_err(LearnError::open(path))?;
    PolicyNet::from_safetensors(&bytes).map_err(|x| LearnError::file(path, x))
}
