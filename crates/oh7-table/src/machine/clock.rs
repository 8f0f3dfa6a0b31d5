//! Turn clocks: a person who owes a decision for longer than the table's clock has it made by
//! the strongest bot, once. Turn-based tables' deadlines: the same, after hours; the driver
//! keeps them where they outlive the table (the server's database) and says when some may have
//! passed ([`Machine::deadlines_due`]).

use std::collections::HashMap;

use oh7_core::game::Seat;

use super::{Effect, Machine, Output, Timer};

/// A turn-based table's deadline: the seat, since which version it owes the decision, and when
/// the decision is due (seconds since 1970).
pub type Deadline = (Seat, u64, i64);

impl Machine {
    /// Start a clock for every person who began to owe a decision at this version.
    pub(super) fn start_clocks(&mut self) {
        let Some(secs) = self.config.turn_clock_s else { return };
        let since = self.core.version;
        for (s, st) in self.core.seats.iter().enumerate() {
            if st.owed_since == Some(since) && st.bot.is_none() {
                let timer = Timer::Clock { seat: s, since };
                self.out.effects.push(Effect::Timer { after_ms: u64::from(secs) * 1000, timer });
            }
        }
    }

    pub(super) fn clock_ran_out(&mut self, seat: Seat, since: u64) {
        let st = &mut self.core.seats[seat];
        if st.owed_since == Some(since) && st.bot.is_none() && !st.bot_for_away {
            st.forced = true;
            self.schedule();
        }
    }

    /// Turn-based tables: who owes a decision now, since which version, due when (a seat that
    /// began to owe gets the table's deadline from now; one that no longer owes drops out).
    pub(super) fn note_deadlines(&mut self) {
        let Some(secs) = self.config.move_deadline_s else { return };
        let now = self.now_s();
        let mut next = HashMap::new();
        for (s, st) in self.core.seats.iter().enumerate() {
            let Some(since) = st.owed_since else { continue };
            if st.bot.is_some() {
                continue;
            }
            let due = match self.deadlines.get(&s) {
                Some(&(v, d)) if v == since => d,
                _ => now + secs as i64,
            };
            next.insert(s, (since, due));
        }
        if next != self.deadlines {
            self.deadlines = next;
            self.deadlines_dirty = true;
        }
    }

    /// The deadlines to write if they changed since they were last written (they replace the
    /// table's previous ones); the driver then calls [`Machine::deadlines_written`].
    pub fn deadlines_to_write(&self) -> Option<Vec<Deadline>> {
        if !self.deadlines_dirty {
            return None;
        }
        let mut due: Vec<Deadline> = self.deadlines.iter().map(|(s, (v, d))| (*s, *v, *d)).collect();
        due.sort_unstable();
        Some(due)
    }

    /// The deadlines as [`Machine::deadlines_to_write`] gave them are written.
    pub fn deadlines_written(&mut self, written: &[Deadline]) {
        if self.deadlines_to_write().as_deref() == Some(written) {
            self.deadlines_dirty = false;
        }
    }

    /// A person whose deadline has passed has this decision made by a bot (everyone sees it was
    /// a bot's).
    pub fn deadlines_due(&mut self) -> Output {
        let now = self.now_s();
        let mut due = false;
        for (&s, &(since, at)) in &self.deadlines {
            let st = &mut self.core.seats[s];
            if at <= now && st.owed_since == Some(since) && !st.forced {
                st.forced = true;
                due = true;
                tracing::info!(seat = s, "the move deadline passed: a bot decides");
            }
        }
        if due {
            self.schedule();
        }
        self.take()
    }
}
