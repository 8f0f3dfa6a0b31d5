//! Turn clocks: a person who owes a decision for longer than the table's clock has it made by
//! the strongest bot, once.

use std::time::Duration;

use oh7_core::game::Seat;

use super::{Table, TableMsg};

impl Table {
    /// Start a clock for every person who began to owe a decision at this version.
    pub(super) fn start_clocks(&self) {
        let Some(secs) = self.config.turn_clock_s else { return };
        for (s, st) in self.core.seats.iter().enumerate() {
            if st.owed_since == Some(self.core.version) && st.bot.is_none() {
                let me = self.me.clone();
                let since = self.core.version;
                tokio::spawn(async move {
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
}
