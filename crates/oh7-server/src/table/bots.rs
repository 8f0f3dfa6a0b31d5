//! Bots: bot seats, and stand-ins for away people and people out of time. A bot decides on a
//! blocking thread from its seat's view only; its answer comes back as a message and is
//! committed like a person's action, if it is still owed.

use oh7_bots::GameBots;
use std::time::Duration;

use oh7_core::game::Seat;

use super::{Table, TableMsg};
use crate::event::Event;
use oh7_bots::DynBot;

impl Table {
    pub(super) fn bot_plays(&self, s: Seat) -> bool {
        let st = &self.core.seats[s];
        st.bot.is_some() || st.bot_for_away || st.forced
    }

    /// Ask a bot for every seat a bot plays that owes a decision and is not being decided.
    pub(super) fn schedule(&mut self) {
        let Some(g) = &self.core.game else { return };
        if g.is_over() {
            return;
        }
        let all_bots = self.core.seats.iter().all(|s| s.bot.is_some());
        let pause = if all_bots { Duration::ZERO } else { self.settings.bot_pause };
        for seat in g.to_move().iter() {
            if self.inflight.contains(seat) || !self.bot_plays(seat) {
                continue;
            }
            let level = self.core.seats[seat].bot.clone().unwrap_or_else(|| self.config.spec.strongest().to_string());
            let bot = match self.bots[seat].take() {
                Some(b) => b,
                None => {
                    let seed = (self.core.version << 8) ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    match self.config.spec.bot(&level, seed) {
                        Ok(b) => b,
                        Err(e) => {
                            tracing::error!(table = %self.id, seat, error = %e, "no bot for the seat");
                            continue;
                        }
                    }
                }
            };
            self.inflight.insert(seat);
            let game = g.clone();
            let asked = (self.core.game_number, self.core.version);
            let me = self.me.clone();
            crate::spawn_here(async move {
                if !pause.is_zero() {
                    tokio::time::sleep(pause).await;
                }
                let done = tokio::task::spawn_blocking(move || {
                    let mut bot = bot;
                    let action = bot.decide(&*game, seat);
                    (action, bot)
                })
                .await;
                if let Ok((action, bot)) = done {
                    let _ = me.send(TableMsg::BotDone { seat, asked, action, bot }).await;
                }
            });
        }
    }

    pub(super) async fn bot_done(
        &mut self,
        seat: Seat,
        asked: (u32, u64),
        action: Option<String>,
        bot: Box<dyn DynBot>,
    ) {
        self.inflight.remove(seat);
        // A bot seat keeps its bot (and its memory); a stand-in for a person is made anew.
        if self.core.seats[seat].bot.is_some() {
            self.bots[seat] = Some(bot);
        }
        let st = &self.core.seats[seat];
        let still_owed = st.owed_since.is_some_and(|v| v <= asked.1);
        if asked.0 != self.core.game_number || !still_owed || !self.bot_plays(seat) {
            self.schedule();
            return;
        }
        let Some(action) = action else { return };
        let by_bot = st.bot.is_none();
        match self.commit(Event::Act { seat, action, id: None, by_bot }).await {
            Ok(happened) => self.after_change(&happened, None),
            Err(r) => tracing::error!(table = %self.id, seat, code = r.code.as_str(), "a bot's decision was refused"),
        }
    }
}
