//! Learned models for oh7's bots.
//!
//! What it is for: the training data (`data`: seeded games written as safetensors rows, each a
//! seat's observation, its legal ids, the true places of the cards it cannot see, the search's
//! visits and the round's points), the training of the hand model on the CPU
//! (`train`, over the plain-Rust network and optimizer of `nn`), and its cross-entropy beside the uniform deal sampler's; the leaf value's data and training (`value`).
//!
//! What it is not: the bots' inference, which lives in `oh7_bots::hand_model` as plain code so
//! that playing needs no tensor library.

pub mod data;
pub mod nn;
pub mod train;
pub mod value;
