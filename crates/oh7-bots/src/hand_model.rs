//! The learned hand model: for each card a seat cannot see, the probability of each other seat
//! (or the cards out of the hands: the discard, the Dummy's face-down pile) holding it, read
//! from the seat's view only; and the deal sampler weighted by it.
//!
//! The input is the seat's [`oh7_core::rl`] observation ([`OH7_OBS`] floats) followed by
//! [`HAND_EXTRA`] floats of public history the observation sums away: the cards each seat
//! played this round, the suits each seat has shown it lacks, each seat's number of unknown
//! cards and the set of cards whose place the seat does not know (`hand_extra`). The output is
//! [`CARD_IDS`] × [`LOCS`] logits: location `r < MAX_SEATS` is the seat `r` places after the
//! observer, location [`REST`] the cards out of the hands. Locations a card cannot be in (a full
//! hand, a void shown, no card out of the hands) are masked out ([`allowed`]), so the sampler
//! never draws a deal the view contradicts.
//!
//! The network is a small multilayer perceptron (ReLU between layers), trained by `oh7 learn
//! train` (the `oh7-learn` crate) and shipped as safetensors in `models/`. Inference is
//! written here as plain loops in a fixed order rather than through a tensor library: three
//! matrix-vector products, the same float operations in the same order on every CPU, so a
//! decision depends only on the view, the seed and the weights; and the crates that only play
//! (the server, the Python package) do not build a tensor library.

use std::sync::OnceLock;

use oh7_core::card::{CARD_IDS, Card, CardSet};
use oh7_core::oh7::{MAX_SEATS, SeatView};
use oh7_core::rl::{OH7_OBS, OH7_OBS_LAYOUT, OH7_SEAT_FIELDS, encode_oh7};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::sample::Knowledge;

/// Locations of a card: the seats relative to the observer, then the cards out of the hands.
pub const LOCS: usize = MAX_SEATS + 1;
/// The location "out of the hands" (the discard, the Dummy's face-down pile).
pub const REST: usize = MAX_SEATS;
/// Floats of public history after the observation.
pub const HAND_EXTRA: usize = MAX_SEATS * CARD_IDS + MAX_SEATS * 5 + MAX_SEATS + 1 + CARD_IDS;
/// Floats in the hand model's input.
pub const HAND_INPUT: usize = OH7_OBS + HAND_EXTRA;
/// Logits in its output.
pub const HAND_OUTPUT: usize = CARD_IDS * LOCS;

/// The model shipped with oh7 (`models/hand.safetensors`, trained by the commands in
/// `docs/learning.md`).
pub const SHIPPED: &[u8] = include_bytes!("../models/hand.safetensors");

/// Write the hand model's input for `view`'s seat into `out` ([`HAND_INPUT`] floats).
pub fn hand_input(view: &SeatView, know: &Knowledge, out: &mut [f32]) {
    assert_eq!(out.len(), HAND_INPUT, "the hand model's input has HAND_INPUT floats");
    let me = know.me;
    encode_oh7(view, me, CardSet::EMPTY, &mut out[..OH7_OBS]);
    hand_extra(view, know, &mut out[OH7_OBS..]);
}

/// The history part of the input ([`HAND_EXTRA`] floats).
pub fn hand_extra(view: &SeatView, know: &Knowledge, out: &mut [f32]) {
    out.fill(0.0);
    let me = know.me;
    let seats = know.seats;
    let rel = |s: usize| (s + seats - me) % seats;
    for t in view.tricks().iter().chain(std::iter::once(view.trick())) {
        for (s, c) in t.plays() {
            out[rel(s) * CARD_IDS + c.id() as usize] = 1.0;
        }
    }
    let voids = MAX_SEATS * CARD_IDS;
    let slots = voids + MAX_SEATS * 5;
    for s in 0..seats {
        for b in 0..5 {
            if know.voids[s] & (1 << b) != 0 {
                out[voids + rel(s) * 5 + b] = 1.0;
            }
        }
        out[slots + rel(s)] = know.sizes[s].saturating_sub(know.known[s].len()) as f32 / 13.0;
    }
    out[slots + MAX_SEATS] = know.rest as f32 / 20.0;
    let unknown = slots + MAX_SEATS + 1;
    for c in know.unknown.iter() {
        out[unknown + c.id() as usize] = 1.0;
    }
}

/// Where a card of unknown place may be, by location (seat relative to the observer, then
/// [`REST`]): a seat with room for an unknown card that has not shown a void in its suit, or
/// out of the hands if any unknown card is. With `voids` false, voids are not counted (the
/// sampler's last resort when the voids admit no deal).
pub fn allowed(know: &Knowledge, c: Card, voids: bool) -> [bool; LOCS] {
    let mut a = [false; LOCS];
    for s in 0..know.seats {
        if s != know.me && know.sizes[s] > know.known[s].len() && !(voids && blocked(know.voids[s], c)) {
            a[(s + know.seats - know.me) % know.seats] = true;
        }
    }
    a[REST] = know.rest > 0;
    a
}

#[inline]
fn blocked(voids: u8, c: Card) -> bool {
    c.suit().is_some_and(|s| voids & (1 << s.index()) != 0)
}

/// Why a model file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Not a safetensors file.
    #[error("not a safetensors file: {0}")]
    Format(String),
    /// A tensor is missing or has the wrong shape or type.
    #[error("{0}")]
    Shape(String),
}

/// One dense layer: `out = w · in + b`, `w` row-major `[out][in]`.
#[derive(Clone, Debug)]
struct Dense {
    w: Vec<f32>,
    b: Vec<f32>,
    ins: usize,
    outs: usize,
}

impl Dense {
    fn apply(&self, x: &[f32], y: &mut [f32]) {
        debug_assert_eq!((x.len(), y.len()), (self.ins, self.outs));
        for (o, yo) in y.iter_mut().enumerate() {
            let row = &self.w[o * self.ins..(o + 1) * self.ins];
            // Eight partial sums in a fixed order: the compiler vectorises it, and the result
            // is the same on every machine.
            let mut acc = [0.0f32; 8];
            let mut chunks = row.chunks_exact(8).zip(x.chunks_exact(8));
            for (r, v) in &mut chunks {
                for k in 0..8 {
                    acc[k] += r[k] * v[k];
                }
            }
            let tail: f32 =
                row.chunks_exact(8).remainder().iter().zip(x.chunks_exact(8).remainder()).map(|(a, b)| a * b).sum();
            *yo = self.b[o] + ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail;
        }
    }
}

/// A multilayer perceptron read from safetensors: tensors `l{i}.weight` (`[out, in]`) and
/// `l{i}.bias` (`[out]`), `i = 0, 1, …`, in F32 or F16; ReLU between layers, none after the last.
#[derive(Clone, Debug)]
pub struct Mlp {
    layers: Vec<Dense>,
}

fn floats(view: &safetensors::tensor::TensorView<'_>) -> Result<Vec<f32>, ModelError> {
    let d = view.data();
    Ok(match view.dtype() {
        safetensors::Dtype::F32 => d.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
        safetensors::Dtype::F16 => d.chunks_exact(2).map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
        t => return Err(ModelError::Shape(format!("tensor type {t:?}: F32 or F16 expected"))),
    })
}

impl Mlp {
    /// Read a model from safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<Mlp, ModelError> {
        let st = safetensors::SafeTensors::deserialize(bytes).map_err(|e| ModelError::Format(e.to_string()))?;
        let mut layers = Vec::new();
        loop {
            let i = layers.len();
            let Ok(w) = st.tensor(&format!("l{i}.weight")) else { break };
            let b = st.tensor(&format!("l{i}.bias")).map_err(|_| ModelError::Shape(format!("l{i}.bias is missing")))?;
            let (outs, ins) = match w.shape() {
                [o, i] => (*o, *i),
                s => return Err(ModelError::Shape(format!("l{i}.weight has shape {s:?}: [out, in] expected"))),
            };
            if b.shape() != [outs] {
                return Err(ModelError::Shape(format!("l{i}.bias has shape {:?}: [{outs}] expected", b.shape())));
            }
            if let Some(prev) = layers.last().map(|l: &Dense| l.outs)
                && prev != ins
            {
                return Err(ModelError::Shape(format!("l{i} takes {ins} inputs but l{} gives {prev}", i - 1)));
            }
            layers.push(Dense { w: floats(&w)?, b: floats(&b)?, ins, outs });
        }
        if layers.is_empty() {
            return Err(ModelError::Shape("no layer l0.weight".into()));
        }
        Ok(Mlp { layers })
    }

    /// Inputs.
    pub fn inputs(&self) -> usize {
        self.layers[0].ins
    }

    /// Outputs.
    pub fn outputs(&self) -> usize {
        self.layers.last().expect("a layer").outs
    }

    /// The first layer's pre-activation for an input whose nonzero entries are `x` (index,
    /// value), into `h`: its bias plus those columns, in `x`'s order. With
    /// [`Mlp::forward_from_first`], the same as [`Mlp::forward`] up to the order of the sums,
    /// at a fraction of its cost for a sparse input.
    pub fn first_sparse(&self, x: &[(usize, f32)], h: &mut Vec<f32>) {
        let l = &self.layers[0];
        h.clear();
        h.extend_from_slice(&l.b);
        for &(i, v) in x {
            self.first_add(i, v, h);
        }
    }

    /// Add `v` times the first layer's column `i` to a pre-activation `h`.
    pub fn first_add(&self, i: usize, v: f32, h: &mut [f32]) {
        let l = &self.layers[0];
        for (o, ho) in h.iter_mut().enumerate() {
            *ho += l.w[o * l.ins + i] * v;
        }
    }

    /// The outputs from the first layer's pre-activation `h` ([`Mlp::first_sparse`]).
    pub fn forward_from_first<'s>(&self, h: &[f32], scratch: &'s mut [Vec<f32>; 2]) -> &'s [f32] {
        let [a, b] = scratch;
        a.clear();
        a.extend_from_slice(h);
        for l in &self.layers[1..] {
            for v in a.iter_mut() {
                *v = v.max(0.0);
            }
            b.clear();
            b.resize(l.outs, 0.0);
            l.apply(a, b);
            std::mem::swap(a, b);
        }
        a
    }

    /// The outputs for `x`; `scratch` is reused between calls.
    pub fn forward<'s>(&self, x: &[f32], scratch: &'s mut [Vec<f32>; 2]) -> &'s [f32] {
        let [a, b] = scratch;
        a.clear();
        a.extend_from_slice(x);
        for (i, l) in self.layers.iter().enumerate() {
            b.clear();
            b.resize(l.outs, 0.0);
            l.apply(a, b);
            if i + 1 < self.layers.len() {
                for v in b.iter_mut() {
                    *v = v.max(0.0);
                }
            }
            std::mem::swap(a, b);
        }
        a
    }
}

/// Features of one (card, place) pair ([`pair_features`]).
pub const PAIR_FEATURES: usize = 46;

/// Offsets of the observation's fields, found by name in [`OH7_OBS_LAYOUT`].
struct Offsets {
    preset: usize,
    players: usize,
    phase: usize,
    hand: usize,
    played: usize,
    trick: usize,
    trick_leader: usize,
    tricks_done: usize,
    lead: usize,
    trump: usize,
    bets_known: usize,
    seats: usize,
}

fn offsets() -> &'static Offsets {
    static O: OnceLock<Offsets> = OnceLock::new();
    O.get_or_init(|| {
        let at = |prefix: &str| {
            let mut o = 0;
            for (name, len) in OH7_OBS_LAYOUT {
                if name.starts_with(prefix) {
                    return o;
                }
                o += len;
            }
            panic!("no field {prefix} in the observation")
        };
        Offsets {
            preset: at("preset:"),
            players: at("players:"),
            phase: at("phase:"),
            hand: at("my hand"),
            played: at("cards played this round"),
            trick: at("current trick:"),
            trick_leader: at("trick leader:"),
            tricks_done: at("tricks done"),
            lead: at("lead suit:"),
            trump: at("trump:"),
            bets_known: at("final bets known"),
            seats: at("per relative seat:"),
        }
    })
}

/// The features of "card `c` is at place `l`" read from a hand-model input (`hand_input`): the
/// card (value, kind, trump, lead suit, how many unseen cards of its suit beat it, how many of
/// its suit I hold and have seen played), the place (out of the hands, its room, the seat's bet,
/// tricks won and still needed, what it played of the card's suit and of trumps, its revealed
/// bet cards, its place in the current trick, its distance from me) and the table (phase, tricks
/// done, players, preset). The same function makes the training rows and the bots' input.
pub fn pair_features(x: &[f32], c: Card, l: usize, out: &mut [f32]) {
    let o = offsets();
    out[..PAIR_FEATURES].fill(0.0);
    let id = c.id() as usize;
    let extra = &x[OH7_OBS..];
    let unknown = &extra[MAX_SEATS * CARD_IDS + MAX_SEATS * 5 + MAX_SEATS + 1..];
    let suit = c.suit();
    let same_suit = |from: &[f32]| -> f32 {
        match suit {
            Some(s) => (s.index() * 16..s.index() * 16 + 16).map(|k| from[k]).sum(),
            None => 0.0,
        }
    };
    let trump = (0..5).find(|&k| x[o.trump + k] > 0.5);
    let lead = (0..5).find(|&k| x[o.lead + k] > 0.5);
    let trump_range = |from: &[f32]| -> f32 { trump.map_or(0.0, |t| (t * 16..t * 16 + 16).map(|k| from[k]).sum()) };
    // The card.
    out[0] = f32::from(c.value()) / 7.0;
    out[1 + match c.kind() {
        oh7_core::card::Kind::Regular(_) => 0,
        oh7_core::card::Kind::Star => 1,
        oh7_core::card::Kind::Void => 2,
        oh7_core::card::Kind::Interrobang => 3,
    }] = 1.0;
    out[5] = f32::from(u8::from(suit.is_some() && suit.map(|s| s.index()) == trump));
    out[6] = f32::from(u8::from(suit.is_some() && suit.map(|s| s.index()) == lead));
    if let Some(s) = suit {
        let higher: f32 = (id + 1..s.index() * 16 + 16).map(|k| unknown[k]).sum();
        out[7] = higher / 8.0;
    }
    out[8] = same_suit(&x[o.hand..o.hand + CARD_IDS]) / 8.0;
    out[9] = same_suit(&x[o.played..o.played + CARD_IDS]) / 8.0;
    // The table.
    let phase = &x[o.phase..o.phase + 8];
    out[10] = phase[1];
    out[11] = phase[6];
    out[12] = x[o.tricks_done];
    out[13] = (0..8).find(|&k| x[o.players + k] > 0.5).map_or(0.0, |k| (k + 2) as f32 / 9.0);
    for k in 0..5 {
        out[14 + k] = x[o.preset + k];
    }
    // The place.
    let room_at = MAX_SEATS * CARD_IDS + MAX_SEATS * 5;
    if l == REST {
        out[19] = 1.0;
        out[20] = extra[room_at + MAX_SEATS] * 20.0 / 13.0;
        return;
    }
    out[20] = extra[room_at + l];
    let seat = &x[o.seats + l * OH7_SEAT_FIELDS..o.seats + (l + 1) * OH7_SEAT_FIELDS];
    // present, Dummy, owes, decided, hand size, final bet, tricks won, total, made, bonus.
    out[21] = seat[1];
    out[22] = seat[4];
    let known = x[o.bets_known];
    out[23] = known;
    out[24] = seat[5] * known;
    out[25] = seat[6];
    out[26] = (seat[5] - seat[6]) * known;
    let played = &extra[l * CARD_IDS..(l + 1) * CARD_IDS];
    out[27] = same_suit(played) / 8.0;
    out[28] = trump_range(played) / 8.0;
    out[29] = played.iter().sum::<f32>() / 13.0;
    let revealed = &seat[10..10 + CARD_IDS];
    out[30] = revealed.iter().sum::<f32>() / 3.0;
    out[31] = same_suit(revealed) / 3.0;
    out[32] = trump_range(revealed) / 3.0;
    // The card of its last revealed bet attempt: value, kind regular, suit the card's.
    let last = &seat[10 + CARD_IDS + 6..];
    out[33] = last[0];
    out[34] = last[1];
    out[35] = suit.map_or(0.0, |s| last[5 + s.index()]);
    out[36] = x[o.trick_leader + l];
    let in_trick: f32 = x[o.trick + l * CARD_IDS..o.trick + (l + 1) * CARD_IDS].iter().sum();
    out[37] = in_trick;
    out[38] = l as f32 / 8.0;
    out[39] = 1.0;
    // What it played of the card's suit below and above the card, and its highest there.
    if let Some(s) = suit {
        let base = s.index() * 16;
        out[40] = (base..id).map(|k| played[k]).sum::<f32>() / 8.0;
        out[41] = (id + 1..base + 16).map(|k| played[k]).sum::<f32>() / 8.0;
        out[42] = (base..base + 16).rev().find(|&k| played[k] > 0.5).map_or(0.0, |k| ((k - base) / 2) as f32 / 7.0);
        // Cards of the suit still unseen by me that beat it, mine included.
        let mine = &x[o.hand..o.hand + CARD_IDS];
        out[45] = (id + 1..base + 16).map(|k| unknown[k] + mine[k]).sum::<f32>() / 8.0;
    }
    // Its share of the tricks so far, and the tricks it still needs per card in hand.
    out[43] = seat[6] * 13.0 / (x[o.tricks_done] * 13.0 + 1.0);
    out[44] = if seat[4] > 0.0 { ((seat[5] - seat[6]) * known / seat[4]).clamp(-2.0, 2.0) } else { 0.0 };
}

/// The hand model: an [`Mlp`] from [`PAIR_FEATURES`] to one number, the logit of a (card,
/// place) pair over the log of the place's room (a model whose network says 0 everywhere is the
/// uniform sampler's room-proportional rule). Its few thousand weights are shared by every card
/// and place, so it learns how bets, tricks and plays move cards rather than memorising deals.
#[derive(Clone, Debug)]
pub struct HandModel {
    mlp: Mlp,
}

/// For each card id and location, the probability of the card being there (zero for the
/// cards whose place is known and the locations [`allowed`] excludes).
pub type CardProbs = [[f32; LOCS]; CARD_IDS];

impl HandModel {
    /// A hand model from safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<HandModel, ModelError> {
        let mlp = Mlp::from_safetensors(bytes)?;
        if (mlp.inputs(), mlp.outputs()) != (PAIR_FEATURES, 1) {
            return Err(ModelError::Shape(format!(
                "a hand model maps {PAIR_FEATURES} features to 1 output; this one {} to {}",
                mlp.inputs(),
                mlp.outputs()
            )));
        }
        Ok(HandModel { mlp })
    }

    /// The model shipped with oh7, read once.
    pub fn shipped() -> &'static HandModel {
        static MODEL: OnceLock<HandModel> = OnceLock::new();
        MODEL.get_or_init(|| HandModel::from_safetensors(SHIPPED).expect("the shipped hand model loads"))
    }

    /// The logits ([`HAND_OUTPUT`]: card id × place) for an input, over the places `allowed`
    /// gives each card (bit `l` of `allowed[card]`); the others are `-inf`.
    pub fn logits(&self, input: &[f32], allowed: &[u16; CARD_IDS]) -> Vec<f32> {
        let mut out = vec![f32::NEG_INFINITY; HAND_OUTPUT];
        let mut scratch = [Vec::new(), Vec::new()];
        let mut f = [0.0f32; PAIR_FEATURES];
        let room_at = OH7_OBS + MAX_SEATS * CARD_IDS + MAX_SEATS * 5;
        for (id, &bits) in allowed.iter().enumerate() {
            if bits == 0 {
                continue;
            }
            let c = Card::from_id(id as u8).expect("a card id");
            for l in 0..LOCS {
                if bits & (1 << l) != 0 {
                    pair_features(input, c, l, &mut f);
                    let room = if l == REST { input[room_at + MAX_SEATS] * 20.0 } else { input[room_at + l] * 13.0 };
                    out[id * LOCS + l] = room.max(0.5).ln() + self.mlp.forward(&f, &mut scratch)[0];
                }
            }
        }
        out
    }

    /// The probabilities for `view`'s seat, softmax over each unknown card's allowed locations.
    pub fn probs(&self, view: &SeatView, know: &Knowledge) -> CardProbs {
        let mut input = vec![0.0f32; HAND_INPUT];
        hand_input(view, know, &mut input);
        let logits = self.logits(&input, &allowed_bits(know));
        probs_from_logits(&logits, know)
    }
}

/// Each card's allowed places as bits ([`allowed`], without voids for a card the voids leave
/// nowhere); 0 for the cards whose place is known.
pub fn allowed_bits(know: &Knowledge) -> [u16; CARD_IDS] {
    let mut out = [0u16; CARD_IDS];
    for c in know.unknown.iter() {
        let ok = allowed(know, c, true);
        let ok = if ok.iter().any(|&x| x) { ok } else { allowed(know, c, false) };
        out[c.id() as usize] = (0..LOCS).filter(|&l| ok[l]).fold(0, |b, l| b | (1 << l));
    }
    out
}

/// Softmax of each unknown card's logits over its allowed locations.
pub fn probs_from_logits(logits: &[f32], know: &Knowledge) -> CardProbs {
    let mut p = [[0.0f32; LOCS]; CARD_IDS];
    for c in know.unknown.iter() {
        let id = c.id() as usize;
        let ok = allowed(know, c, true);
        let ok = if ok.iter().any(|&x| x) { ok } else { allowed(know, c, false) };
        let l = &logits[id * LOCS..(id + 1) * LOCS];
        let top = (0..LOCS).filter(|&k| ok[k]).map(|k| l[k]).fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for k in 0..LOCS {
            if ok[k] {
                p[id][k] = (l[k] - top).exp();
                sum += p[id][k];
            }
        }
        for k in 0..LOCS {
            p[id][k] /= sum;
        }
    }
    p
}

impl Knowledge {
    /// One deal consistent with the knowledge, each unknown card placed with weight
    /// `p(card, place) · room left / room at the start` (`probs`: a hand model's output). A model
    /// that says "uniform" (each place in proportion to its room) gives [`Knowledge::sample`]'s
    /// distribution; every hard constraint holds either way.
    pub fn sample_weighted(&self, rng: &mut ChaCha8Rng, probs: &CardProbs) -> ([CardSet; MAX_SEATS], Vec<Card>) {
        for attempt in 0..24 {
            if let Some(r) = self.try_sample_weighted(rng, probs, attempt < 20) {
                return r;
            }
        }
        self.sample(rng)
    }

    fn try_sample_weighted(
        &self,
        rng: &mut ChaCha8Rng,
        probs: &CardProbs,
        voids: bool,
    ) -> Option<([CardSet; MAX_SEATS], Vec<Card>)> {
        let mut hands = self.known;
        // Room by location (relative seat, then the rest).
        let mut room = [0u32; LOCS];
        for s in 0..self.seats {
            if s != self.me {
                room[(s + self.seats - self.me) % self.seats] = self.sizes[s].saturating_sub(self.known[s].len());
            }
        }
        room[REST] = self.rest;
        let start = room;
        let mut cards: Vec<(u32, Card)> = Vec::with_capacity(self.unknown.len() as usize);
        for c in self.unknown.iter() {
            let places = allowed(self, c, voids).iter().filter(|&&x| x).count() as u32;
            cards.push((places * 1024 + rng.random_range(0..1024), c));
        }
        cards.sort_unstable();
        let mut rest = Vec::with_capacity(self.rest as usize);
        for &(_, c) in &cards {
            let ok = allowed(self, c, voids);
            let p = &probs[c.id() as usize];
            let mut w = [0.0f64; LOCS];
            let mut total = 0.0;
            for k in 0..LOCS {
                if ok[k] && room[k] > 0 {
                    w[k] = f64::from(p[k].max(1e-6)) * f64::from(room[k]) / f64::from(start[k]);
                    total += w[k];
                }
            }
            if total <= 0.0 {
                return None;
            }
            let mut x = rng.random::<f64>() * total;
            let mut to = (0..LOCS).rev().find(|&k| w[k] > 0.0).expect("a place with weight");
            for k in 0..LOCS {
                if w[k] > 0.0 && x < w[k] {
                    to = k;
                    break;
                }
                x -= w[k];
            }
            room[to] -= 1;
            if to == REST {
                rest.push(c);
            } else {
                hands[(to + self.me) % self.seats].insert(c);
            }
        }
        for i in (1..rest.len()).rev() {
            let j = rng.random_range(0..=i);
            rest.swap(i, j);
        }
        Some((hands, rest))
    }
}

/// The location of each card id for `me`, from the true hands and the cards out of the hands
/// (training targets): `Some(location)` for the cards whose place `know` does not give.
pub fn true_locations(know: &Knowledge, hands: &[CardSet]) -> [Option<u8>; CARD_IDS] {
    let mut out = [None; CARD_IDS];
    for c in know.unknown.iter() {
        let loc =
            (0..know.seats).find(|&s| hands[s].contains(c)).map_or(REST, |s| (s + know.seats - know.me) % know.seats);
        out[c.id() as usize] = Some(loc as u8);
    }
    out
}
