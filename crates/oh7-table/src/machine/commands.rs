//! Commands: each is checked here (an action is read once), handed to the driver to write, and
//! applied only once [`Machine::written`] says it is durable; then the actor is answered and
//! everyone told.

use oh7_bots::GameBots;
use oh7_core::game::Seat;

use super::{Access, ConnId, Effect, Entropy, HintJob, Machine, Output, Pending, ReviewJob, WriteFailure};
use crate::event::Event;
use crate::project::Happened;
use crate::protocol::{Ack, ClientMsg, ErrorCode, Refusal, ServerMsg, TableState};
use crate::token::TokenHash;

/// What to do once a change is written.
pub(super) enum After {
    /// A seat was claimed by its token for an account ([`Machine::claim`]); nobody to tell.
    Claim { seat: Seat },
    /// A guest sat: the seat's token goes to the connection.
    Sit { conn: ConnId, id: String, token: String, seat: Seat },
    /// A person's action.
    Act { conn: ConnId, id: String },
    /// The host started the game (or a game at once, nobody to ask).
    Start { conn: ConnId, id: String },
    /// The host changed a seat.
    SetSeat { conn: ConnId, id: String, target: Seat },
    /// The host asked for another game.
    Rematch { conn: ConnId, id: String },
    /// The rematch being asked starts (`host`: the host's command that starts it now).
    RematchStart { host: Option<(ConnId, String)>, answers: Vec<Option<bool>> },
    /// A person answered the rematch.
    Answer { conn: ConnId, id: String },
    /// A chat line.
    Chat { conn: ConnId, id: String, seat: Seat },
    /// A bot's decision.
    Bot { seat: Seat },
    /// A connection with a seat token linked the seat to its account; it joins now.
    Attach { conn: ConnId, access: Access, seat: Seat, account: String },
}

impl After {
    /// The command this change answers, if a connection sent one.
    fn command(&self) -> Option<(ConnId, &str)> {
        match self {
            After::Sit { conn, id, .. }
            | After::Act { conn, id }
            | After::Start { conn, id }
            | After::SetSeat { conn, id, .. }
            | After::Rematch { conn, id }
            | After::Answer { conn, id }
            | After::Chat { conn, id, .. } => Some((*conn, id)),
            After::RematchStart { host, .. } => host.as_ref().map(|(c, id)| (*c, id.as_str())),
            After::Bot { .. } | After::Attach { .. } | After::Claim { .. } => None,
        }
    }
}

impl Machine {
    /// A command of an attached connection (its seeds and tokens from `entropy`).
    pub fn command(&mut self, conn: ConnId, msg: ClientMsg, entropy: &mut dyn Entropy) -> Output {
        if let Some(c) = self.conns.get(&conn) {
            let (seat, access) = (c.seat, c.access);
            let id = msg.id().map(str::to_string);
            match self.run(conn, seat, access, msg, entropy) {
                Ok(Some(ack)) => self.reply(conn, ServerMsg::Ack(ack)),
                Ok(None) => {}
                Err(refusal) => self.refuse(conn, id.as_deref(), refusal),
            }
        }
        self.take()
    }

    fn run(
        &mut self,
        conn: ConnId,
        seat: Option<Seat>,
        access: Access,
        msg: ClientMsg,
        entropy: &mut dyn Entropy,
    ) -> Result<Option<Ack>, Refusal> {
        match msg {
            ClientMsg::Sync {} => {
                self.send_snapshot(conn);
                Ok(None)
            }
            ClientMsg::Ping {} => {
                self.reply(conn, ServerMsg::Pong { version: self.core.version });
                Ok(None)
            }
            ClientMsg::Hello { .. } => {
                Err(Refusal::new(ErrorCode::AlreadyJoined, "This connection has joined a table already."))
            }
            _ if access == Access::Watch => {
                Err(Refusal::new(ErrorCode::Spectator, "Spectators watch the game; they cannot act at the table."))
            }
            ClientMsg::Sit { id, name } => self.sit(conn, seat, id, &name, entropy),
            ClientMsg::Act { ref id, .. }
            | ClientMsg::Start { ref id, .. }
            | ClientMsg::Rematch { ref id }
            | ClientMsg::Answer { ref id, .. }
            | ClientMsg::Chat { ref id, .. }
            | ClientMsg::Seat { ref id, .. }
                if seat.and_then(|s| self.core.acted.get(s, id)).is_some() =>
            {
                let version = seat.and_then(|s| self.core.acted.get(s, id)).unwrap_or_default();
                Ok(Some(Ack { id: id.clone(), version, repeated: Some(true), ..Ack::default() }))
            }
            ClientMsg::Act { id, action } => self.act(conn, seat, id, action),
            ClientMsg::Start { id, fill } => self.start(conn, id, seat, fill, entropy),
            ClientMsg::Rematch { id } => self.rematch(conn, id, seat, entropy),
            ClientMsg::Answer { id, yes } => self.answer_rematch(conn, id, seat, yes),
            ClientMsg::Back { id } => self.back(&id, seat),
            ClientMsg::Chat { id, text } => self.chat(conn, id, seat, &text),
            ClientMsg::Seat { id, seat: target, bot } => self.set_seat(conn, id, seat, target, bot),
            ClientMsg::Hint { id } => self.hint(conn, seat, id),
            ClientMsg::Review { id, game } => self.review(conn, seat, &id, game),
        }
    }

    pub(super) fn ack(&self, id: &str) -> Ack {
        Ack { id: id.to_string(), version: self.core.version, ..Ack::default() }
    }

    /// Check `ev` (an action is read once, here, and kept in its canonical text) and hand it to
    /// the driver to write; on a refusal nothing changed.
    pub(super) fn propose(&mut self, ev: Event, link: Option<(Seat, String)>, after: After) -> Result<(), Refusal> {
        let checked = self.core.check(&self.config, &ev)?;
        let ev = match (ev, &checked) {
            (Event::Act { seat, id, by_bot, .. }, Some(c)) => {
                Event::Act { seat, action: c.text().to_string(), id, by_bot }
            }
            (ev, _) => ev,
        };
        debug_assert!(self.out.write.is_none(), "one change at a time");
        self.out.write = Some(Pending { event: Some(ev), checked, version: self.core.version + 1, link, after });
        Ok(())
    }

    /// The driver wrote the change: apply it, answer, tell everyone, and go on.
    pub fn written(&mut self, p: Pending, entropy: &mut dyn Entropy) -> Output {
        let Pending { event, checked, version, link, after } = p;
        let mut happened = None;
        if let Some(ev) = &event {
            match self.core.apply_checked(&self.config, ev, checked) {
                Ok(h) => happened = Some(h),
                Err(e) => {
                    // Checked before the write, so this is a bug; the log holds the event and a
                    // restart applies it or reports it.
                    tracing::error!(version, error = %e, "a written event did not apply");
                    self.failed(&after, e.into());
                    return self.take();
                }
            }
            self.core.version = version;
            if matches!(happened, Some(Happened::Act { .. }))
                && self.core.state() == TableState::Over
                && let Some(g) = self.core.finished.last()
            {
                tracing::info!(version, game = self.core.game_number, "game over");
                self.out.effects.push(Effect::GameOver(g.clone()));
            }
        }
        if let Some((seat, account)) = link {
            self.links.insert(seat, account);
        }
        let happened = happened.as_ref();
        match after {
            After::Sit { conn, id, token, seat, .. } => {
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.seat = Some(seat);
                }
                // The new seat's document starts from the guest's (spectator) document.
                self.seat_connected(seat);
                let ack = Ack { seat: Some(seat), token: Some(token), ..self.ack(&id) };
                self.sat.insert((conn, id), ack.clone());
                self.reply(conn, ServerMsg::Ack(ack));
                self.broadcast(happened);
            }
            After::Act { conn, id } => {
                let ack = self.ack(&id);
                self.after_change(happened, Some((conn, ack)));
            }
            After::Start { conn, id } => {
                self.after_change(happened, None);
                self.reply(conn, ServerMsg::Ack(self.ack(&id)));
            }
            After::SetSeat { conn, id, target } => {
                // A bot made for the seat's old level (none before a start, but be sure) is
                // dropped.
                self.bots[target] = None;
                // The host hears first, as the actor of `act` and `sit` does.
                self.reply(conn, ServerMsg::Ack(self.ack(&id)));
                self.broadcast(happened);
            }
            After::Rematch { conn, id } => {
                self.arm_rematch();
                self.broadcast(happened);
                self.reply(conn, ServerMsg::Ack(self.ack(&id)));
            }
            After::RematchStart { host, answers } => {
                self.rematch_deadline_ms = None;
                for (s, a) in answers.iter().enumerate() {
                    if *a != Some(true) {
                        self.core.seats[s].bot_for_away = true;
                        tracing::info!(seat = s, "a bot plays for a seat not in the rematch");
                    }
                }
                self.after_change(happened, None);
                if let Some((conn, id)) = host {
                    self.reply(conn, ServerMsg::Ack(self.ack(&id)));
                }
            }
            After::Answer { conn, id } => {
                self.reply(conn, ServerMsg::Ack(self.ack(&id)));
                self.broadcast(happened);
                if self.core.rematch.as_ref().is_some_and(|p| p.complete())
                    && let Err(r) = self.start_rematch(None, entropy)
                {
                    tracing::error!(code = r.code.as_str(), "the rematch could not start");
                }
            }
            After::Chat { conn, id, seat } => {
                self.core.seats[seat].last_chat_ms = Some(self.now_ms);
                self.broadcast(happened);
                self.reply(conn, ServerMsg::Ack(self.ack(&id)));
            }
            After::Bot { .. } => self.after_change(happened, None),
            After::Attach { conn, access, seat, account } => self.join(conn, access, Some(seat), Some(account)),
            After::Claim { seat } => tracing::info!(seat, "a guest's seat now follows its account"),
        }
        self.take()
    }

    /// The driver could not write the change: nothing changed; the command that asked for it is
    /// refused.
    pub fn not_written(&mut self, p: Pending, why: WriteFailure) -> Output {
        let refusal = match why {
            WriteFailure::Moved => Refusal::moved(),
            WriteFailure::Storage => {
                Refusal::new(ErrorCode::Storage, "The server could not save this; nothing changed. Try again.")
            }
        };
        if let After::Attach { conn, access, seat, account } = p.after {
            // The seat stays the person's by its token.
            tracing::warn!(seat, "could not link the seat to its account");
            self.join(conn, access, Some(seat), Some(account));
        } else {
            self.failed(&p.after, refusal);
        }
        self.take()
    }

    fn failed(&mut self, after: &After, refusal: Refusal) {
        match (after.command(), after) {
            (Some((conn, id)), _) => {
                let id = id.to_string();
                self.refuse(conn, Some(&id), refusal);
            }
            (None, After::Bot { seat }) => {
                tracing::error!(seat, code = refusal.code.as_str(), "a bot's decision was not written");
            }
            (None, _) => tracing::error!(code = refusal.code.as_str(), "a change was not written"),
        }
    }

    fn sit(
        &mut self,
        conn: ConnId,
        seat: Option<Seat>,
        id: String,
        name: &str,
        entropy: &mut dyn Entropy,
    ) -> Result<Option<Ack>, Refusal> {
        if let Some(ack) = self.sat.get(&(conn, id.clone())) {
            return Ok(Some(ack.clone()));
        }
        if seat.is_some() {
            return Err(Refusal::new(ErrorCode::AlreadySeated, "You have a seat at this table already."));
        }
        let name = super::check_name(name)?;
        if self.core.game.is_some() {
            return Err(Refusal::new(ErrorCode::AlreadyStarted, "The game has started: you can watch it."));
        }
        let Some(free) = self.core.seats.iter().position(|s| s.name.is_none() && s.bot.is_none()) else {
            return Err(Refusal::new(ErrorCode::TableFull, "Every seat is taken: you can watch the game."));
        };
        // A signed-in person's seat is their account's from its first write.
        let account = self.conns.get(&conn).and_then(|c| c.account.clone());
        if self.config.rated && account.is_none() {
            return Err(Refusal::new(ErrorCode::SignedOut, "This table is rated: sign in to sit at it."));
        }
        let token = entropy.secret();
        let ev = Event::Join { seat: free, name, token_hash: TokenHash::of(&token) };
        let link = account.map(|a| (free, a));
        self.propose(ev, link, After::Sit { conn, id, token, seat: free })?;
        Ok(None)
    }

    fn act(&mut self, conn: ConnId, seat: Option<Seat>, id: String, action: String) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat to play."));
        };
        self.core.may_act(seat)?;
        let ev = Event::Act { seat, action, id: Some(id.clone()), by_bot: false };
        self.propose(ev, None, After::Act { conn, id })?;
        Ok(None)
    }

    fn is_host(&self, seat: Option<Seat>) -> Result<(), Refusal> {
        if seat == Some(0) {
            Ok(())
        } else {
            Err(Refusal::new(ErrorCode::NotHost, "Only the host (seat 0) can do this."))
        }
    }

    fn start(
        &mut self,
        conn: ConnId,
        id: String,
        seat: Option<Seat>,
        fill: Option<String>,
        entropy: &mut dyn Entropy,
    ) -> Result<Option<Ack>, Refusal> {
        self.is_host(seat)?;
        if self.core.game.is_some() {
            return Err(Refusal::new(ErrorCode::AlreadyStarted, "The game has started already."));
        }
        let free: Vec<Seat> = (0..self.config.players)
            .filter(|&s| self.core.seats[s].name.is_none() && self.core.seats[s].bot.is_none())
            .collect();
        let mut fills = vec![None; self.config.players];
        if !free.is_empty() {
            let Some(level) = fill else {
                return Err(Refusal::new(
                    ErrorCode::SeatsFree,
                    "Some seats are free: wait for your friends, or fill the seats with bots.",
                ));
            };
            let Some(level) = self.config.spec.level(&level) else {
                return Err(Refusal::unknown_level(&self.config.spec, &level, None));
            };
            for s in free {
                fills[s] = Some(level);
            }
        }
        let ev = Event::Start { seat: Some(0), id: Some(id.clone()), seed: entropy.seed(), fill: Some(fills) };
        self.propose(ev, None, After::Start { conn, id })?;
        Ok(None)
    }

    /// The host makes a seat a bot seat (`bot`: its level) or a free seat again, in the lobby.
    fn set_seat(
        &mut self,
        conn: ConnId,
        id: String,
        seat: Option<Seat>,
        target: usize,
        bot: Option<String>,
    ) -> Result<Option<Ack>, Refusal> {
        self.is_host(seat)?;
        if self.core.game.is_some() {
            return Err(Refusal::new(ErrorCode::AlreadyStarted, "The game has started already."));
        }
        let players = self.config.players;
        if target == 0 || target >= players {
            return Err(Refusal::new(
                ErrorCode::BadSeat,
                format!("Choose a seat from 1 to {}: seat 0 is the host's.", players - 1),
            )
            .param("seat", target)
            .param("min", 1)
            .param("max", players - 1));
        }
        if self.core.seats[target].name.is_some() {
            return Err(
                Refusal::new(ErrorCode::SeatTaken, format!("A person sits at seat {target}.")).param("seat", target)
            );
        }
        // The level read once, here at the edge; the log writes its name back.
        let bot = match bot {
            None => None,
            Some(name) => match self.config.spec.level(&name) {
                Some(level) => Some(level),
                None => return Err(Refusal::unknown_level(&self.config.spec, &name, None)),
            },
        };
        let ev = Event::Seat { seat: 0, target, bot, id: Some(id.clone()) };
        self.propose(ev, None, After::SetSeat { conn, id, target })?;
        Ok(None)
    }

    fn rematch(
        &mut self,
        conn: ConnId,
        id: String,
        seat: Option<Seat>,
        entropy: &mut dyn Entropy,
    ) -> Result<Option<Ack>, Refusal> {
        self.is_host(seat)?;
        self.core.may_rematch()?;
        if self.core.rematch.is_some() {
            // Asked again while the others answer: start now, bots for those not in (the start
            // carries this command's id, so a repeat of it is answered, not applied).
            self.start_rematch(Some((conn, id)), entropy)?;
            return Ok(None);
        }
        if self.core.asked_seats().next().is_none() {
            // Nobody to ask: the game starts at once.
            let ev = Event::Start { seat: Some(0), id: Some(id.clone()), seed: entropy.seed(), fill: None };
            self.propose(ev, None, After::Start { conn, id })?;
            return Ok(None);
        }
        self.propose(Event::Rematch { seat: 0, id: Some(id.clone()) }, None, After::Rematch { conn, id })?;
        Ok(None)
    }

    /// The people at the table have until the deadline to answer the rematch.
    pub(super) fn arm_rematch(&mut self) {
        let Some(p) = &self.core.rematch else { return };
        let wait = self.settings.rematch_wait_ms;
        self.rematch_deadline_ms = Some(self.now_ms + wait as i64);
        let timer = super::Timer::Rematch { asked: p.asked };
        self.out.effects.push(Effect::Timer { after_ms: wait, timer });
    }

    pub(super) fn rematch_deadline(&mut self, asked: u64, entropy: &mut dyn Entropy) {
        if self.core.rematch.as_ref().is_some_and(|p| p.asked == asked)
            && let Err(r) = self.start_rematch(None, entropy)
        {
            tracing::error!(code = r.code.as_str(), "the rematch could not start");
        }
    }

    /// Start the rematch being asked: a bot plays for each person who is not in (declined or
    /// did not answer) until they take their seat back (`back`, or coming back to the table).
    /// `host`: the host's command that starts it now, if it is one.
    fn start_rematch(&mut self, host: Option<(ConnId, String)>, entropy: &mut dyn Entropy) -> Result<(), Refusal> {
        let Some(p) = self.core.rematch.clone() else { return Ok(()) };
        let (seat, id) = (host.as_ref().map(|_| 0), host.as_ref().map(|(_, id)| id.clone()));
        let ev = Event::Start { seat, id, seed: entropy.seed(), fill: None };
        self.propose(ev, None, After::RematchStart { host, answers: p.answers })
    }

    fn answer_rematch(
        &mut self,
        conn: ConnId,
        id: String,
        seat: Option<Seat>,
        yes: bool,
    ) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        if self.core.rematch.is_none() || !self.core.asked_seats().any(|s| s == seat) {
            return Err(Refusal::new(ErrorCode::NotAsked, "Nobody is asking you for another game now."));
        }
        self.propose(Event::Answer { seat, id: Some(id.clone()), yes }, None, After::Answer { conn, id })?;
        Ok(None)
    }

    /// Take back a seat a bot plays for the person (they are at the table). Nothing to take
    /// back is answered all the same.
    fn back(&mut self, id: &str, seat: Option<Seat>) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        let st = &mut self.core.seats[seat];
        if st.bot_for_away {
            st.bot_for_away = false;
            tracing::info!(seat, "the person takes the seat back");
            self.presence();
        }
        Ok(Some(self.ack(id)))
    }

    fn chat(&mut self, conn: ConnId, id: String, seat: Option<Seat>, text: &str) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat to chat."));
        };
        let text = text.trim();
        let max = self.settings.chat_len;
        if text.is_empty() || text.chars().count() > max {
            return Err(Refusal::new(ErrorCode::ChatTooLong, format!("A chat line has 1 to {max} characters."))
                .param("max", max));
        }
        let interval = self.settings.chat_interval_ms as i64;
        if self.core.seats[seat].last_chat_ms.is_some_and(|t| (self.now_ms - t).abs() < interval) {
            return Err(Refusal::new(ErrorCode::RateLimited, "One chat line at a time: wait a moment."));
        }
        let ev = Event::Chat { seat, id: Some(id.clone()), text: text.to_string() };
        self.propose(ev, None, After::Chat { conn, id, seat })?;
        Ok(None)
    }

    fn hint(&mut self, conn: ConnId, seat: Option<Seat>, id: String) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        if self.config.rated {
            return Err(Refusal::new(
                ErrorCode::NoHints,
                "No hints at a rated table: the game counts for the ratings.",
            ));
        }
        let game = self.core.may_hint(seat)?.box_clone();
        let level = self.config.spec.strongest();
        let bot = self
            .config
            .spec
            .bot(level, self.core.version)
            .map_err(|e| Refusal::new(ErrorCode::BadRequest, e.to_string()))?;
        let version = self.core.version;
        self.out.effects.push(Effect::Hint(HintJob { conn, id, version, level, seat, bot, game }));
        Ok(None)
    }

    /// Ask for the review of this seat's decisions in a finished game; the messages go to this
    /// connection only.
    fn review(
        &mut self,
        conn: ConnId,
        seat: Option<Seat>,
        id: &str,
        game: Option<u32>,
    ) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Only a player can review their own decisions."));
        };
        let last = self.core.finished.len() as u32;
        let game = game.unwrap_or(last);
        let Some(done) = game.checked_sub(1).and_then(|i| self.core.finished.get(i as usize)).cloned() else {
            return Err(Refusal::new(
                ErrorCode::NotOver,
                if last == 0 {
                    "No game has finished at this table yet.".to_string()
                } else {
                    format!("Game {game} has not finished: choose 1 to {last}.")
                },
            )
            .param("game", game)
            .param("finished", last));
        };
        self.reply(conn, ServerMsg::Ack(self.ack(id)));
        let version = self.core.version;
        self.out.effects.push(Effect::Review(ReviewJob { conn, game, seat, done, version }));
        Ok(None)
    }

    /// After a committed game change: ack the actor, tell everyone, then ask bots and clocks.
    pub(super) fn after_change(&mut self, happened: Option<&Happened>, ack: Option<(ConnId, Ack)>) {
        // The ack goes to the connection that sent the command only: the seat's other
        // connections learn the change from the event, and one of them that sent the same id
        // gets its own answer, the repeated ack.
        if let Some((conn, ack)) = ack {
            self.reply(conn, ServerMsg::Ack(ack));
        }
        // A deadline is part of the table information: noted before the telling, it comes
        // with the event that started it.
        self.note_deadlines();
        self.broadcast(happened);
        self.start_clocks();
        self.schedule();
    }
}
