//! Learned models for oh7's bots.
//!
//! What it is for: the training data (`data`: seeded games written as safetensors rows, each a
//! seat's observation, its legal ids, the true places of the cards it cannot see, the search's
//! visits and the round's points), the training of the hand model on the CPU
//! (`train`, over the plain-Rust network and optimizer of `nn`), and its cross-entropy beside the uniform deal sampler's; the leaf value's data and training (`value`).
//!
//! What it is not: the bots' inference, which lives in `oh7_bots::hand_model` as plain code so
//! that playing needs no tensor library.

pub mod bets;
pub mod data;
pub mod nn;
pub mod train;
pub mod value;

use std::path::{Path, PathBuf};

/// Why making data, training or reading a file failed (each worded at the edge).
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// The plan does not make sense: its bots, its table, too little data to train on.
    #[error("{0}")]
    Plan(String),
    /// A file could not be opened.
    #[error("cannot open {}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file that is not what it should be (its format, its tensors, its metadata), or that
    /// could not be written.
    #[error("{}: {why}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A game could not be played through (a bug: the plan was checked).
    #[error("{0}")]
    Game(String),
    /// The trained model could not be put in its file format.
    #[error("the model could not be written: {0}")]
    Model(String),
}

impl LearnError {
    /// A file error about `path`.
    pub(crate) fn file(path: &Path, why: impl ToString) -> LearnError {
        LearnError::File { path: path.to_path_buf(), why: why.to_string() }
    }
    /// The file at `path` could not be opened.
    pub(crate) fn open(path: &Path) -> impl FnOnce(std::io::Error) -> LearnError + '_ {
        move |source| LearnError::Open { path: path.to_path_buf(), source }
    }
}
