//! Turn clocks: a person who owes a decision for longer than the table's clock has it made by
//! the strongest bot, once. Turn-based tables' deadlines: the same, after hours, kept in the
//! database (they outlive the table's task and the server) and checked by the lobby's sweep.

use std::collections::HashMap;
use std::time::Duration;

use oh7_core::game::Seat;

use super::{Table, TableMsg};
use crate::store::Row;

impl Table {
    /// Start a clock for every person who began to owe a decision at this version.
    pub(super) fn start_clocks(&self) {
        let Some(secs) = self.config.turn_clock_s else { return };
        for (s, st) in self.core.seats.iter().enumerate() {
            if st.owed_since == Some(self.core.version) && st.bot.is_none() {
                let me = self.me.clone();
                let since = self.core.version;
                crate::spawn_here(async move {
                    tokio::time::sleep(Duration::from_secs(secs as u64)).await;
                    let _ = me.send(TableMsg::Clock { seat: s, since }).await;
                });
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
        let now = self.settings.clock.now_s();
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

    /// Write the deadlines (they replace the table's previous ones); tried again after the next
    /// message if the write fails.
    pub(super) async fn write_deadlines(&mut self) {
        let mut due: Vec<crate::store::Deadline> = self.deadlines.iter().map(|(s, (v, d))| (*s, *v, *d)).collect();
        due.sort_unstable();
        let row = Row::Deadlines { table_id: self.id.clone(), due };
        match self.store.append(vec![row]).await {
            Ok(()) => self.deadlines_dirty = false,
            Err(e) => tracing::warn!(table = %self.id, error = %e, "could not write the move deadlines"),
        }
    }

    /// The lobby's sweep: a person whose deadline has passed has this decision made by a bot
    /// (everyone sees it was a bot's).
    pub(super) fn deadlines_due(&mut self) {
        let now = self.settings.clock.now_s();
        let mut due = false;
        for (&s, &(since, at)) in &self.deadlines {
            let st = &mut self.core.seats[s];
            if at <= now && st.owed_since == Some(since) && !st.forced {
                st.forced = true;
                due = true;
                tracing::info!(table = %self.id, seat = s, "the move deadline passed: a bot decides");
            }
        }
        if due {
            self.schedule();
        }
    }
}
