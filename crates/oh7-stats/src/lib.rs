//! Statistics of oh7 games, computed from records (`oh7-record/1`), so they work on any records:
//! simulated games now, online games later.
//!
//! What it is for: [`Stats`], an accumulator that takes one record at a time (constant memory:
//! counters and small histograms) and merges with other accumulators (one per thread), in any
//! order, with the same result to the last digit (all sums are integers); its [`Report`] as text
//! tables, JSON or CSV, with 95% intervals; the comparison of two reports
//! ([`report::compare`]); and charts ([`plot`]).
//!
//! What it is not: it plays no games and reads no files; the `oh7` command does both.

pub mod estimate;
pub mod oh7;
#[cfg(feature = "charts")]
pub mod plot;
pub mod report;
pub mod seven;

use oh7_core::GameId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use estimate::{Cell, CellKind, Hist, Mean, Rate};
pub use oh7::Oh7Stats;
pub use report::{Diff, Report, Section, compare};
pub use seven::SevenStats;

/// A record that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    /// Not JSON, or not a record of the expected shape.
    #[error("not a record: {0}")]
    Json(#[from] serde_json::Error),
    /// A `game` other than `oh7` and `seven`.
    #[error("unknown game `{0}` (expected oh7 or seven)")]
    UnknownGame(String),
    /// The record does not replay through the engine, so its figures cannot be trusted.
    #[error("the record does not replay: {0}")]
    Replay(#[from] oh7_core::RecordError),
}

/// Statistics of any mix of Oh 7 and Seven records.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// The Oh 7 family games.
    pub oh7: Oh7Stats,
    /// The Seven games.
    pub seven: SevenStats,
}

impl Stats {
    /// An empty accumulator.
    pub fn new() -> Stats {
        Stats::default()
    }

    /// Add a typed Oh 7 record.
    pub fn add_oh7(&mut self, r: &oh7_core::oh7::Record) {
        self.oh7.add(r);
    }

    /// Add a record as a JSON value (either game).
    pub fn add_value(&mut self, v: &Value) -> Result<(), StatsError> {
        let game = GameId::of_record(v).map_err(|_| {
            StatsError::UnknownGame(v.get("game").and_then(Value::as_str).unwrap_or("(none)").to_string())
        })?;
        match game {
            GameId::Oh7 => {
                let r = oh7_core::oh7::Record::deserialize(v)?;
                self.oh7.add(&r);
                Ok(())
            }
            GameId::Seven => Ok(self.seven.add(v)?),
        }
    }

    /// Add a record given as one line of JSON.
    pub fn add_line(&mut self, line: &str) -> Result<(), StatsError> {
        let v: Value = serde_json::from_str(line)?;
        self.add_value(&v)
    }

    /// Add a record from an untrusted file: it must replay exactly through the engine first
    /// (which checks every size before anything is allocated from it), so a record `oh7 replay`
    /// rejects is never summarised.
    pub fn add_checked_line(&mut self, line: &str) -> Result<(), StatsError> {
        if self.add_written_line(line.as_bytes()) {
            return Ok(());
        }
        let v: Value = serde_json::from_str(line)?;
        oh7_core::replay_record(&v)?;
        self.add_value(&v)
    }

    /// Add an Oh 7 record given as a line exactly as oh7 writes it, and say so; `false` (nothing
    /// added) for any other line, which [`Stats::add_checked_line`] takes or words an error for.
    /// Read typed, replayed, compared as text (`replay_written`): several times faster than the
    /// tree path, and the line need not be checked as UTF-8 first.
    pub fn add_written_line(&mut self, line: &[u8]) -> bool {
        match oh7_core::oh7::replay_written(line) {
            Some((_, r)) => {
                self.oh7.add(&r);
                true
            }
            None => false,
        }
    }

    /// Add another accumulator's counts.
    pub fn merge(&mut self, o: &Stats) {
        self.oh7.merge(&o.oh7);
        self.seven.merge(&o.seven);
    }

    /// Records added.
    pub fn games(&self) -> u64 {
        self.oh7.games + self.seven.games
    }

    /// The statistics as a report.
    pub fn report(&self) -> Report {
        let mut r = Report::default();
        self.oh7.report(&mut r);
        self.seven.report(&mut r);
        r
    }
}
