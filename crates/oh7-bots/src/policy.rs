//! The learned **policy prior**: from a seat's view (the observation and public history the hand
//! model reads, [`crate::hand_model::hand_input`]), a probability for each of its legal bets or
//! cards, trained on the expert's search (its root visit distributions) by `oh7 learn train
//! --kind prior`. The search uses it through the [`Prior`] seam: PUCT at the root
//! (`ismcts:prior=true`).
//!
//! Inference is the hand model's plain-loop [`Mlp`]: one pass per decision (3,831 inputs), the
//! same floats on every machine.

use std::sync::{Arc, OnceLock};

use oh7_core::card::{CARD_IDS, CardSet};
use oh7_core::oh7::{PhaseView, SeatView};
use oh7_core::rl::{BET, OH7_ACTIONS, PLAY};

use crate::hand_model::{HAND_INPUT, Mlp, ModelError, hand_input};
use crate::sample::Knowledge;
use crate::seams::Prior;

/// The prior shipped with oh7 (`models/prior.safetensors`, trained by the commands in
/// `docs/learning.md`).
pub const SHIPPED: &[u8] = include_bytes!("../models/prior.safetensors");

/// The policy network: [`HAND_INPUT`] floats to one logit per action id ([`OH7_ACTIONS`]).
#[derive(Clone, Debug)]
pub struct PolicyNet {
    mlp: Mlp,
}

impl PolicyNet {
    /// Read a network from safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<PolicyNet, ModelError> {
        let mlp = Mlp::from_safetensors(bytes)?;
        if (mlp.inputs(), mlp.outputs()) != (HAND_INPUT, OH7_ACTIONS) {
            return Err(ModelError::Shape(format!(
                "a policy prior maps {HAND_INPUT} inputs to {OH7_ACTIONS} outputs; this one {} to {}",
                mlp.inputs(),
                mlp.outputs()
            )));
        }
        Ok(PolicyNet { mlp })
    }

    /// The network shipped with oh7, read once.
    pub fn shipped() -> &'static Arc<PolicyNet> {
        static NET: OnceLock<Arc<PolicyNet>> = OnceLock::new();
        NET.get_or_init(|| Arc::new(PolicyNet::from_safetensors(SHIPPED).expect("the shipped policy prior loads")))
    }

    /// The logits ([`OH7_ACTIONS`]) for an input ([`HAND_INPUT`] floats).
    pub fn logits(&self, input: &[f32], scratch: &mut [Vec<f32>; 2]) -> Vec<f32> {
        self.mlp.forward(input, scratch).to_vec()
    }
}

/// The [`Prior`] a [`PolicyNet`] gives the search.
pub struct PolicyPrior {
    net: Arc<PolicyNet>,
    input: Vec<f32>,
    scratch: [Vec<f32>; 2],
}

impl PolicyPrior {
    /// The prior of `net`.
    pub fn new(net: Arc<PolicyNet>) -> PolicyPrior {
        PolicyPrior { net, input: vec![0.0; HAND_INPUT], scratch: [Vec::new(), Vec::new()] }
    }

    /// The prior of the shipped network.
    pub fn shipped() -> PolicyPrior {
        PolicyPrior::new(PolicyNet::shipped().clone())
    }
}

impl Prior for PolicyPrior {
    fn root(&mut self, view: &SeatView<'_>, legal: CardSet) -> [f32; CARD_IDS] {
        let know = Knowledge::from_view(view);
        hand_input(view, &know, &mut self.input);
        let logits = self.net.logits(&self.input, &mut self.scratch);
        let base = if matches!(view.phase(), PhaseView::Betting { .. }) { BET } else { PLAY };
        let top = legal.iter().map(|c| logits[base + c.id() as usize]).fold(f32::NEG_INFINITY, f32::max);
        let mut out = [0.0f32; CARD_IDS];
        for c in legal.iter() {
            out[c.id() as usize] = (logits[base + c.id() as usize] - top).exp();
        }
        out
    }
}
