//! Bots: bot seats, and stand-ins for away people and people out of time. A bot decides from its
//! seat's view only, where the driver runs it ([`super::BotJob`]); its answer comes back with
//! [`Machine::bot_done`] and is written like a person's action, if it is still owed.

use oh7_bots::GameBots;
use oh7_core::game::Seat;

use super::commands::After;
use super::{BotDone, BotJob, Effect, Machine, Output};
use crate::event::Event;

/// A bot's seed at version `version` for `seat`.
pub fn bot_seed(version: u64, seat: Seat) -> u64 {
    (version << 8) ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Machine {
    /// Ask a bot for every seat a bot plays that owes a decision and is not being decided.
    pub(super) fn schedule(&mut self) {
        let Some(g) = &self.core.game else { return };
        if g.is_over() {
            return;
        }
        let all_bots = self.core.seats.iter().all(|s| s.bot.is_some());
        let pause_ms = if all_bots { 0 } else { self.settings.bot_pause_ms };
        for seat in g.to_move().iter() {
            if self.inflight.contains(seat) || !self.bot_plays(seat) {
                continue;
            }
            let owed = self.core.seats[seat].owed_since.unwrap_or(self.core.version);
            let level = self.core.seats[seat].bot.unwrap_or_else(|| self.config.spec.strongest_level());
            let bot = match self.bots[seat].take() {
                Some(b) => b,
                // Seeded from when the seat began to owe the decision: the same log asks the same
                // bot, whenever its driver runs it (a solo table cut and replayed decides alike).
                None => match self.config.spec.bot_of(level, bot_seed(owed, seat)) {
                    Ok(b) => b,
                    Err(e) => {
                        tracing::error!(seat, error = %e, "no bot for the seat");
                        continue;
                    }
                },
            };
            self.inflight.insert(seat);
            let asked = (self.core.game_number, self.core.version);
            self.out.effects.push(Effect::Bot(BotJob { seat, asked, pause_ms, bot, game: g.clone() }));
        }
    }

    /// A bot decided: its action is written if the seat still owes it and a bot still plays it.
    pub fn bot_done(&mut self, done: BotDone) -> Output {
        let BotDone { seat, asked, action, bot } = done;
        self.inflight.remove(seat);
        // A bot seat keeps its bot (and its memory); a stand-in for a person is made anew.
        if self.core.seats[seat].bot.is_some() && self.settings.keep_bots {
            self.bots[seat] = Some(bot);
        }
        let st = &self.core.seats[seat];
        let still_owed = st.owed_since.is_some_and(|v| v <= asked.1);
        if asked.0 != self.core.game_number || !still_owed || !self.bot_plays(seat) {
            self.schedule();
            return self.take();
        }
        let Some(action) = action else { return self.take() };
        let by_bot = st.bot.is_none();
        if let Err(r) = self.propose(Event::Act { seat, action, id: None, by_bot }, None, After::Bot { seat }) {
            tracing::error!(seat, code = r.code.as_str(), "a bot's decision was refused");
        }
        self.take()
    }
}
