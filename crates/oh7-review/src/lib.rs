//! Reviews of a player's decisions after an Oh 7 game (issue 27): for every decision the seat
//! made, the value of each legal option as the determinization search sees it **from the
//! seat's view at that moment**, the expected points lost by the choice, a mark when the loss
//! is large, summaries per round and per game, and (apart, labelled hindsight) what the oracle,
//! which sees every hand, would have done.
//!
//! Every evaluation is a function of the [`SeatView`], the legal actions, the level and a seed
//! made from the review seed and the decision's index: two games that differ only in what the
//! seat could not see give the same review of that decision. The oracle's hindsight is the one
//! part that reads the hidden hands.
//!
//! Thresholds and the accuracy figure are in expected round points (`docs/review.md`):
//! [`INACCURACY`], [`MISTAKE`], [`BLUNDER`], [`ACCURACY_SCALE`].
//!
//! The crate's files, as `seven.rs` is Seven's: [`document`] the review document (its types,
//! options and errors), this one the dispatch by game; [`marks`] the accuracy and the
//! summaries every game's review shares; [`oh7`] the Oh 7 family's evaluators and its record
//! walk; [`seven`] Seven's.

pub mod document;
pub mod marks;
pub mod oh7;
pub mod seven;

use oh7_core::GameId;
use oh7_core::game::Seat;
use serde_json::Value;

pub use document::*;

pub use marks::{accuracy_in, accuracy_of};
pub use oh7::{
    Moment, NotEvaluated, Reviewer, decisions_of, evaluate, kind_of, option_text, review_moment, review_oh7,
};

/// Review `seat`'s decisions in the finished game `record` (`oh7-record/1`), an Oh 7 game or
/// a Seven game (by the record's `game` field: `seven` goes to
/// [`crate::seven::review_seven`], anything else to [`review_oh7`]). `progress` is as
/// for [`review_oh7`]. CPU-heavy: run it on a blocking thread.
pub fn review_record(
    record: &Value,
    seat: Seat,
    opts: &ReviewOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, ReviewError> {
    match GameId::of_record(record) {
        Ok(GameId::Seven) => crate::seven::review_seven(record, seat, opts, progress),
        _ => review_oh7(record, seat, opts, progress),
    }
}
