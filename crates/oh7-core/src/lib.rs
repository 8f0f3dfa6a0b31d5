#![recursion_limit = "256"]
// Per-seat data lives in parallel fixed arrays indexed by seat; index loops say that best.
#![allow(clippy::needless_range_loop)]
//! The oh7 rules engine.
//!
//! What it is for: the rules of the Oh 7 family (`en`, `fr`, `fr-advanced`, `kod7`, `bga`, the
//! Dummy, custom rulesets) and of Seven, as exact state machines behind one [`game::Game`]
//! interface; seat views (what one seat may know); game records (`oh7-record/1`) and replay.
//!
//! What it is not: it does no I/O, no async, reads no clock and uses no global RNG. Chance
//! comes from a ChaCha RNG seeded by the caller, so a seed plus the actions replays a game.

pub mod card;
pub mod dyn_game;
pub mod game;
pub mod glossary;
pub mod oh7;
pub mod refusal;
pub mod rl;
pub mod rl_seven;
pub mod ruleset;
pub mod seven;
pub mod wording;

pub use card::{Card, CardSet, Suit};
pub use dyn_game::DynGame;
pub use game::{Game, Seat, SeatSet, SeatViewLike};

/// Why a record of either game was refused.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// No `game` field.
    #[error("not a game record: no `game` field")]
    NoGame,
    /// A `game` other than `oh7` and `seven`.
    #[error("unknown game `{0}`: records of `oh7` and `seven` replay")]
    UnknownGame(String),
    /// An Oh 7 record that does not replay.
    #[error(transparent)]
    Oh7(#[from] oh7::ReplayError),
    /// A Seven record that does not replay.
    #[error(transparent)]
    Seven(#[from] seven::ReplayError),
}

/// Replay a record of either game through the engine: the one check every reader of records
/// (`replay`, `stats`, `play --resume`) makes before trusting a record. Sizes (players, hand
/// sizes) are validated by the rules before anything is allocated from them.
///
/// The game comes back behind [`DynGame`]; a reader that needs the concrete game downcasts it
/// ([`DynGame::as_any`], [`DynGame::into_any`]).
pub fn replay_record(v: &serde_json::Value) -> Result<Box<dyn DynGame>, RecordError> {
    match v.get("game").and_then(serde_json::Value::as_str) {
        Some("oh7") => Ok(Box::new(oh7::replay(v)?)),
        Some("seven") => Ok(Box::new(seven::replay(v)?)),
        Some(other) => Err(RecordError::UnknownGame(other.chars().take(40).collect())),
        None => Err(RecordError::NoGame),
    }
}
