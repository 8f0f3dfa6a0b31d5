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
pub mod moves;
pub mod oh7;
pub mod refusal;
pub mod registry;
pub mod rl;
pub mod rl_seven;
pub mod rules_summary;
pub mod ruleset;
pub mod seven;
pub mod view_text;
pub mod wording;

pub use card::{Card, CardSet, Suit};
pub use dyn_game::DynGame;
pub use game::{Game, Seat, SeatSet, SeatViewLike};

pub use registry::{GameId, GameSpec, RecordError, replay_record, replay_record_actions};
