//! The review document: its types (what a decision, a round and a game are given), its options
//! and its errors, the thresholds and scales, the seed of each decision, and the parallel walk
//! over the decisions that every game's review uses.

use std::sync::atomic::{AtomicUsize, Ordering};

use oh7_core::GameId;
use oh7_core::game::Seat;
use oh7_core::oh7::ReplayError;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use oh7_bots::level::{ReviewLevel, UnknownReviewLevel};

/// The format name of a review (the `format` field of [`Review`]).
pub const FORMAT: &str = "oh7-review/1";

/// The review seed used when none is given: reviews are reproducible by default.
pub const DEFAULT_SEED: u64 = 0x0007_7e71_e700_0007;

/// A loss of at least this many expected round points is an `inaccuracy`.
pub const INACCURACY: f64 = 0.5;
/// A loss of at least this many expected round points is a `mistake`.
pub const MISTAKE: f64 = 1.5;
/// A loss of at least this many expected round points is a `blunder`.
pub const BLUNDER: f64 = 3.0;
/// The accuracy of one decision is `100 × exp(−loss / ACCURACY_SCALE)`; a round's or a game's
/// is the mean over its evaluated decisions.
pub const ACCURACY_SCALE: f64 = 3.0;

/// The reviewer levels by name: `expert` is the `expert` player (ISMCTS, [`crate::Reviewer::Expert`]);
/// `easy`, `medium`, `hard` and `pimc` are the determinization search at those budgets.
pub const LEVELS: &[&str] = &oh7_bots::level::REVIEW_NAMES;

/// How a loss is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// At least [`INACCURACY`] points lost.
    Inaccuracy,
    /// At least [`MISTAKE`] points lost.
    Mistake,
    /// At least [`BLUNDER`] points lost.
    Blunder,
}

impl Mark {
    /// The mark of a loss in expected round points (Oh 7), if any.
    pub fn of(loss: f64) -> Option<Mark> {
        Mark::within(loss, [INACCURACY, MISTAKE, BLUNDER])
    }

    /// The mark of a loss against `[inaccuracy, mistake, blunder]` thresholds, if any.
    pub fn within(loss: f64, thresholds: [f64; 3]) -> Option<Mark> {
        let [inaccuracy, mistake, blunder] = thresholds;
        if loss >= blunder {
            Some(Mark::Blunder)
        } else if loss >= mistake {
            Some(Mark::Mistake)
        } else if loss >= inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The word shown to people.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// One legal option of a decision and what the reviewer expects of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionValue {
    /// The option as the engine writes it (a card `3S`, a suit letter, a seat number,
    /// `yes`/`no`, or the passed cards).
    pub option: String,
    /// Mean expected round points for the seat.
    pub value: f64,
    /// Mean tricks the seat ends the round with.
    pub tricks: f64,
    /// Share of samples in which the seat makes its bet (0 to 1). Seven: the share in which
    /// the seat goes out first.
    pub made: f64,
    /// Seven only: the mean points left in the seat's hand when the round ends (absent for
    /// Oh 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
}

/// The reviewer's evaluation of one decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Every legal option, in the engine's order, with its value.
    pub options: Vec<OptionValue>,
    /// The index in `options` of the best (highest value; the first among equals).
    pub best: usize,
}

/// What the oracle (every hand known) would have done: hindsight, not a fair judgement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hindsight {
    /// The oracle's option.
    pub oracle: String,
    /// Whether the seat chose the same.
    pub agrees: bool,
}

/// The review of one decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionReview {
    /// The decision's index among the seat's reviewed decisions (from 0; it seeds its
    /// evaluation).
    pub index: usize,
    /// The round number (from 1).
    pub round: u32,
    /// `pass`, `bet`, `reveal`, `choose_leader`, `choose_trump`, `announce_trump` or `play`.
    pub kind: String,
    /// The bet attempt (from 1) for a bet; the trick (from 1) for a play.
    pub step: usize,
    /// The seat's hand at that moment, as the engine writes its cards (`0S`; Seven `10H`,
    /// `AS'`).
    pub hand: Vec<String>,
    /// The cards already on the table in the trick (Oh 7 plays only), in order.
    pub trick: Vec<String>,
    /// The option chosen.
    pub chosen: String,
    /// The evaluation; `None` when this kind of decision is not evaluated (`note` says why).
    pub evaluation: Option<Evaluation>,
    /// The best option's value minus the chosen one's (never negative; 0 when the chosen
    /// option is the best).
    pub loss: Option<f64>,
    /// The mark of the loss.
    pub mark: Option<Mark>,
    /// One line on why, when the evaluation tells it.
    pub reason: Option<String>,
    /// Why the decision is not evaluated, when it is not.
    pub note: Option<String>,
    /// Hindsight: the oracle's choice (when asked for).
    pub hindsight: Option<Hindsight>,
    /// Seven only: the table the seat saw (absent for Oh 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seven: Option<SevenTable>,
}

/// What a Seven player saw on the table at a decision (public facts).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SevenTable {
    /// The top card of the discard pile.
    pub top: String,
    /// The active suit (letter).
    pub active_suit: String,
    /// `normal`, `penalty` (a pending 2 or A♠), `lock` (a pending 7), `free` (the seat plays
    /// any card after its 7 came back) or `call_out` (a call-out window).
    pub mode: String,
    /// Cards to draw if the pending penalty is taken (0 without one).
    pub penalty: u32,
    /// The number of cards in each hand, seat by seat.
    pub hand_counts: Vec<usize>,
    /// Cards in the draw pile.
    pub draw_pile: usize,
    /// The seat that may be called out (call-out windows only).
    pub offender: Option<Seat>,
}

/// Totals over a set of evaluated decisions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Decisions listed (one legal option is no decision and is not listed).
    pub decisions: usize,
    /// Decisions evaluated.
    pub evaluated: usize,
    /// Expected points lost, in all.
    pub loss: f64,
    /// Expected points lost per evaluated decision.
    pub loss_per_decision: f64,
    /// Mean of [`accuracy_of`] over the evaluated decisions (100 if none).
    pub accuracy: f64,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Hindsight: decisions where the seat chose as the oracle would have.
    pub oracle_agrees: Option<usize>,
}

/// One round's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundReview {
    /// The round number.
    pub round: u32,
    /// The seat's actual points this round.
    pub points: i32,
    /// Its decisions.
    pub summary: Summary,
}

/// Reviews written before Seven had reviews carry no `family`: they are of Oh 7.
fn oh7_family() -> GameId {
    GameId::Oh7
}

pub(crate) fn points_unit() -> String {
    "points".into()
}

/// The review of one seat's decisions in one finished game (Oh 7 family or Seven).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// Always [`FORMAT`].
    pub format: String,
    /// The game: `oh7` (the Oh 7 family) or `seven` (`game` is the whole game's summary).
    #[serde(default = "oh7_family")]
    pub family: GameId,
    /// The unit of values, losses and thresholds: `points` (Oh 7: expected round points) or
    /// `percent` (Seven: the chance to go out first, in percentage points).
    #[serde(default = "points_unit")]
    pub unit: String,
    /// The seat reviewed.
    pub seat: Seat,
    /// Its name in the record.
    pub name: String,
    /// The preset (`seven` for Seven).
    pub preset: String,
    /// Players (the Dummy not counted).
    pub players: usize,
    /// The reviewer level.
    pub level: ReviewLevel,
    /// The review seed (hexadecimal).
    pub seed: String,
    /// `[inaccuracy, mistake, blunder]` thresholds, in [`Review::unit`].
    pub thresholds: [f64; 3],
    /// The accuracy scale ([`ACCURACY_SCALE`]; Seven: [`crate::seven::ACCURACY_SCALE`]).
    pub accuracy_scale: f64,
    /// Every decision, in order.
    pub decisions: Vec<DecisionReview>,
    /// Per round.
    pub rounds: Vec<RoundReview>,
    /// The whole game.
    pub game: Summary,
    /// Indices (into `decisions`) of the three costliest decisions, costliest first (only
    /// decisions that lost something).
    pub costliest: Vec<usize>,
}

/// What to review with.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// The reviewer level.
    pub level: ReviewLevel,
    /// The review seed (each decision's search is seeded from it and the decision's index).
    pub seed: u64,
    /// Also ask the oracle (hindsight; it roughly doubles the time).
    pub hindsight: bool,
}

impl Default for ReviewOptions {
    fn default() -> ReviewOptions {
        ReviewOptions { level: ReviewLevel::Expert, seed: DEFAULT_SEED, hindsight: true }
    }
}

/// Why a record cannot be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// A Seven record.
    #[error("Seven records are not reviewed yet: only games of the Oh 7 family can be reviewed")]
    Seven,
    /// The record does not replay (or is not a record).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The Seven record does not replay.
    #[error(transparent)]
    SevenReplay(#[from] oh7_core::seven::ReplayError),
    /// The game has not ended.
    #[error("the game is not over: only finished games are reviewed")]
    NotFinished,
    /// No such player.
    #[error("there is no seat {seat}: the players' seats are 0 to {last}")]
    NoSuchSeat {
        /// The seat asked for.
        seat: Seat,
        /// The last player's seat.
        last: Seat,
    },
}

/// The seed of decision `index` of a review seeded `seed` (SplitMix64).
pub fn decision_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed.wrapping_add((index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Review every decision of `moments` on all cores with `review` (given each one's index),
/// telling `progress` how many are done of how many: the reviews in order.
pub(crate) fn review_each<M: Sync>(
    moments: &[M],
    progress: &(dyn Fn(usize, usize) + Sync),
    review: impl Fn(usize, &M) -> DecisionReview + Sync,
) -> Vec<DecisionReview> {
    let total = moments.len();
    progress(0, total);
    let done = AtomicUsize::new(0);
    moments
        .par_iter()
        .enumerate()
        .map(|(i, m)| {
            let d = review(i, m);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            d
        })
        .collect()
}
