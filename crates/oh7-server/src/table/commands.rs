//! Commands: each is checked, written to the log, then applied, and only then is anyone told.

use oh7_bots::GameBots;
use std::time::Instant;

use oh7_core::game::Seat;

use super::{Access, ConnId, Table};
use crate::event::Event;
use crate::project::Happened;
use crate::protocol::{Ack, ClientMsg, ErrorCode, Refusal, ServerMsg, TableState};
use crate::secrets::{TokenHash, new_secret, new_seed};
use crate::store::{Row, StoreError};

impl Table {
    pub(super) async fn command(&mut self, conn: ConnId, msg: ClientMsg) {
        let Some(c) = self.conns.get(&conn) else { return };
        let (seat, access) = (c.seat, c.access);
        let id = msg.id().map(str::to_string);
        let r = match msg {
            ClientMsg::Sync {} => {
                self.send_snapshot(conn);
                Ok(None)
            }
            ClientMsg::Ping {} => {
                let pong = ServerMsg::Pong { version: self.core.version }.frame();
                if self.conns.get(&conn).is_some_and(|c| c.tx.try_send(pong).is_err()) {
                    self.detach(conn);
                }
                Ok(None)
            }
            ClientMsg::Hello { .. } => {
                Err(Refusal::new(ErrorCode::AlreadyJoined, "This connection has joined a table already."))
            }
            _ if access == Access::Watch => {
                Err(Refusal::new(ErrorCode::Spectator, "Spectators watch the game; they cannot act at the table."))
            }
            ClientMsg::Sit { id, name } => self.sit(conn, seat, &id, &name).await,
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
            ClientMsg::Act { id, action } => self.act(conn, seat, &id, &action).await,
            ClientMsg::Start { id, fill } => self.start(&id, seat, fill).await,
            ClientMsg::Rematch { id } => self.rematch(&id, seat).await,
            ClientMsg::Answer { id, yes } => self.answer_rematch(conn, &id, seat, yes).await,
            ClientMsg::Back { id } => self.back(&id, seat),
            ClientMsg::Chat { id, text } => self.chat(&id, seat, &text).await,
            ClientMsg::Seat { id, seat: target, bot } => self.set_seat(conn, &id, seat, target, bot).await,
            ClientMsg::Hint { id } => self.hint(conn, seat, id),
            ClientMsg::Review { id, game } => self.review(conn, seat, &id, game),
        };
        match r {
            Ok(Some(ack)) => self.reply(conn, &ServerMsg::Ack(ack)),
            Ok(None) => {}
            Err(refusal) => self.refuse(conn, id.as_deref(), refusal),
        }
    }

    fn ack(&self, id: &str) -> Ack {
        Ack { id: id.to_string(), version: self.core.version, ..Ack::default() }
    }

    /// Commit one event: check it (an action is read once, here), write it (an action in its
    /// canonical text), and only once it is durable apply it; the caller then tells everyone. On
    /// a refusal or a failed write nothing changed.
    pub(super) async fn commit(&mut self, ev: Event) -> Result<Happened, Refusal> {
        self.commit_with(ev, Vec::new()).await
    }

    /// [`Table::commit`], writing `also` in the same transaction (a seat's link to an account).
    pub(super) async fn commit_with(&mut self, ev: Event, also: Vec<Row>) -> Result<Happened, Refusal> {
        let checked = self.core.check(&self.config, &ev)?;
        let ev = match (ev, &checked) {
            (Event::Act { seat, id, by_bot, .. }, Some(c)) => {
                Event::Act { seat, action: c.text().to_string(), id, by_bot }
            }
            (ev, _) => ev,
        };
        let version = self.core.version + 1;
        let body = serde_json::to_string(&ev).expect("events always serialize");
        let mut rows = vec![Row::Event { table_id: self.id.clone(), version, body }];
        if matches!(ev, Event::Start { .. }) {
            rows.push(Row::Finished { table_id: self.id.clone(), finished: false });
        }
        rows.extend(also);
        let asked = std::time::Instant::now();
        let written = self.store.append(rows).await;
        metrics::histogram!(crate::metrics::COMMIT).record(asked.elapsed());
        if let Err(e) = written {
            if matches!(e, StoreError::Leased { .. } | StoreError::Conflict { .. }) {
                // Another instance holds the table now: this one stops and its clients go there.
                tracing::warn!(table = %self.id, error = %e, "the table is held elsewhere; the change is dropped");
                self.lost = true;
                return Err(Refusal::moved());
            }
            tracing::error!(table = %self.id, error = %e, "commit failed; the change is dropped");
            return Err(Refusal::new(
                ErrorCode::Storage,
                "The server could not save this; nothing changed. Try again.",
            ));
        }
        let happened = match self.core.apply_checked(&self.config, &ev, checked) {
            Ok(h) => h,
            Err(e) => {
                // Checked before the write, so this is a bug; the log holds the event and a
                // restart applies it or reports it.
                tracing::error!(table = %self.id, version, error = %e, "a committed event did not apply");
                return Err(e.into());
            }
        };
        self.core.version = version;
        if let Event::Act { by_bot, .. } = &ev {
            metrics::counter!(crate::metrics::MOVES, "by" => if *by_bot { "bot" } else { "person" }).increment(1);
        }
        tracing::debug!(table = %self.id, version, "committed");
        if matches!(happened, Happened::Act { .. }) && self.core.state() == TableState::Over {
            // Finished tables are not restored at start. Written after the game's last event:
            // if it is lost in a crash, the over table is merely loaded at the next start.
            // A rated game's ratings move in the same transaction; if both are lost in a crash,
            // the table rates its finished games again when it is loaded (once: see ratings.rs).
            let mut rows = vec![Row::Finished { table_id: self.id.clone(), finished: true }];
            rows.extend(self.core.finished.last().and_then(|g| self.rated(g)).map(Row::Rated));
            if let Err(e) = self.store.append(rows).await {
                tracing::warn!(table = %self.id, error = %e, "could not mark the table finished");
            }
        }
        Ok(happened)
    }

    /// A finished game's outcome for the ratings (`None`: the table is not rated).
    pub(super) fn rated(&self, g: &super::FinishedGame) -> Option<crate::ratings::Rated> {
        if !self.config.rated {
            return None;
        }
        let mut people: Vec<(Seat, String)> = self.links.iter().map(|(s, a)| (*s, a.clone())).collect();
        people.sort();
        let spec = &self.config.spec;
        Some(crate::ratings::Rated {
            table_id: self.id.clone(),
            game: g.game,
            family: crate::ratings::family(spec.game_name(), &spec.label()),
            placings: crate::ratings::placings(&g.totals, &g.winners, &people),
        })
    }

    async fn sit(&mut self, conn: ConnId, seat: Option<Seat>, id: &str, name: &str) -> Result<Option<Ack>, Refusal> {
        if let Some(ack) = self.sat.get(&(conn, id.to_string())) {
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
        let token = new_secret();
        let ev = Event::Join { seat: free, name, token_hash: TokenHash::of(&token) };
        let link = account.iter().map(|a| Row::Link { table_id: self.id.clone(), seat: free, account: a.clone() });
        let happened = self.commit_with(ev, link.collect()).await?;
        if let Some(a) = account {
            self.links.insert(free, a);
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = Some(free);
        }
        // The new seat's document starts from the guest's (spectator) document.
        self.seat_connected(free);
        let ack = Ack { seat: Some(free), token: Some(token), ..self.ack(id) };
        self.sat.insert((conn, id.to_string()), ack.clone());
        self.reply(conn, &ServerMsg::Ack(ack));
        self.broadcast(&happened);
        Ok(None)
    }

    async fn act(&mut self, conn: ConnId, seat: Option<Seat>, id: &str, action: &str) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat to play."));
        };
        self.core.may_act(seat)?;
        // Read once, in `commit`; the log keeps the canonical text.
        let ev = Event::Act { seat, action: action.to_string(), id: Some(id.to_string()), by_bot: false };
        let happened = self.commit(ev).await?;
        let ack = self.ack(id);
        self.after_change(&happened, Some((conn, ack)));
        Ok(None)
    }

    fn is_host(&self, seat: Option<Seat>) -> Result<(), Refusal> {
        if seat == Some(0) {
            Ok(())
        } else {
            Err(Refusal::new(ErrorCode::NotHost, "Only the host (seat 0) can do this."))
        }
    }

    async fn start(&mut self, id: &str, seat: Option<Seat>, fill: Option<String>) -> Result<Option<Ack>, Refusal> {
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
            if !self.config.spec.levels().contains(&level.as_str()) {
                return Err(Refusal::unknown_level(&self.config.spec, &level, None));
            }
            for s in free {
                fills[s] = Some(level.clone());
            }
        }
        let ev = Event::Start { seat: Some(0), id: Some(id.to_string()), seed: new_seed(), fill: Some(fills) };
        let happened = self.commit(ev).await?;
        self.after_change(&happened, None);
        Ok(Some(self.ack(id)))
    }

    /// The host makes a seat a bot seat (`bot`: its level) or a free seat again, in the lobby.
    async fn set_seat(
        &mut self,
        conn: ConnId,
        id: &str,
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
        if let Some(level) = &bot
            && !self.config.spec.levels().contains(&level.as_str())
        {
            return Err(Refusal::unknown_level(&self.config.spec, level, None));
        }
        let ev = Event::Seat { seat: 0, target, bot, id: Some(id.to_string()) };
        let happened = self.commit(ev).await?;
        // A bot made for the seat's old level (none before a start, but be sure) is dropped.
        self.bots[target] = None;
        // The host hears first, as the actor of `act` and `sit` does.
        self.reply(conn, &ServerMsg::Ack(self.ack(id)));
        self.broadcast(&happened);
        Ok(None)
    }

    async fn rematch(&mut self, id: &str, seat: Option<Seat>) -> Result<Option<Ack>, Refusal> {
        self.is_host(seat)?;
        self.core.may_rematch()?;
        if self.core.rematch.is_some() {
            // Asked again while the others answer: start now, bots for those not in (the start
            // carries this command's id, so a repeat of it is answered, not applied).
            self.start_rematch(Some(id)).await?;
            return Ok(Some(self.ack(id)));
        }
        if self.core.asked_seats().next().is_none() {
            // Nobody to ask: the game starts at once.
            let ev = Event::Start { seat: Some(0), id: Some(id.to_string()), seed: new_seed(), fill: None };
            let happened = self.commit(ev).await?;
            self.after_change(&happened, None);
            return Ok(Some(self.ack(id)));
        }
        let happened = self.commit(Event::Rematch { seat: 0, id: Some(id.to_string()) }).await?;
        self.arm_rematch();
        self.broadcast(&happened);
        Ok(Some(self.ack(id)))
    }

    /// The people at the table have until the deadline to answer the rematch.
    pub(super) fn arm_rematch(&mut self) {
        let Some(p) = &self.core.rematch else { return };
        let wait = self.settings.rematch_wait;
        self.rematch_deadline = Some(std::time::SystemTime::now() + wait);
        let (me, asked) = (self.me.clone(), p.asked);
        crate::spawn_here(async move {
            tokio::time::sleep(wait).await;
            let _ = me.send(super::TableMsg::RematchDeadline { asked }).await;
        });
    }

    pub(super) async fn rematch_deadline(&mut self, asked: u64) {
        if self.core.rematch.as_ref().is_some_and(|p| p.asked == asked)
            && let Err(r) = self.start_rematch(None).await
        {
            tracing::error!(table = %self.id, code = r.code.as_str(), "the rematch could not start");
        }
    }

    /// Start the rematch being asked: a bot plays for each person who is not in (declined or
    /// did not answer) until they take their seat back (`back`, or coming back to the table).
    /// `host_id`: the host's command that starts it now, if it is one.
    async fn start_rematch(&mut self, host_id: Option<&str>) -> Result<(), Refusal> {
        let Some(p) = self.core.rematch.clone() else { return Ok(()) };
        let (seat, id) = (host_id.map(|_| 0), host_id.map(str::to_string));
        let happened = self.commit(Event::Start { seat, id, seed: new_seed(), fill: None }).await?;
        self.rematch_deadline = None;
        for (s, a) in p.answers.iter().enumerate() {
            if *a != Some(true) {
                self.core.seats[s].bot_for_away = true;
                tracing::info!(table = %self.id, seat = s, "a bot plays for a seat not in the rematch");
            }
        }
        self.after_change(&happened, None);
        Ok(())
    }

    async fn answer_rematch(
        &mut self,
        conn: ConnId,
        id: &str,
        seat: Option<Seat>,
        yes: bool,
    ) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        if self.core.rematch.is_none() || !self.core.asked_seats().any(|s| s == seat) {
            return Err(Refusal::new(ErrorCode::NotAsked, "Nobody is asking you for another game now."));
        }
        let happened = self.commit(Event::Answer { seat, id: Some(id.to_string()), yes }).await?;
        self.reply(conn, &ServerMsg::Ack(self.ack(id)));
        self.broadcast(&happened);
        if self.core.rematch.as_ref().is_some_and(|p| p.complete())
            && let Err(r) = self.start_rematch(None).await
        {
            tracing::error!(table = %self.id, code = r.code.as_str(), "the rematch could not start");
        }
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
            tracing::info!(table = %self.id, seat, "the person takes the seat back");
            self.presence();
        }
        Ok(Some(self.ack(id)))
    }

    async fn chat(&mut self, id: &str, seat: Option<Seat>, text: &str) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat to chat."));
        };
        let text = text.trim();
        if text.is_empty() || text.chars().count() > self.settings.chat_len {
            return Err(Refusal::new(
                ErrorCode::ChatTooLong,
                format!("A chat line has 1 to {} characters.", self.settings.chat_len),
            )
            .param("max", self.settings.chat_len));
        }
        let now = Instant::now();
        if self.core.seats[seat].last_chat.is_some_and(|t| now.duration_since(t) < self.settings.chat_interval) {
            return Err(Refusal::new(ErrorCode::RateLimited, "One chat line at a time: wait a moment."));
        }
        let ev = Event::Chat { seat, id: Some(id.to_string()), text: text.to_string() };
        let happened = self.commit(ev).await?;
        self.core.seats[seat].last_chat = Some(now);
        self.broadcast(&happened);
        Ok(Some(self.ack(id)))
    }

    fn hint(&mut self, conn: ConnId, seat: Option<Seat>, id: String) -> Result<Option<Ack>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        let g = self.core.may_hint(seat)?.box_clone();
        let level = self.config.spec.strongest();
        let mut bot = self
            .config
            .spec
            .bot(level, self.core.version)
            .map_err(|e| Refusal::new(ErrorCode::BadRequest, e.to_string()))?;
        let tx = self.conns.get(&conn).map(|c| c.tx.clone());
        let version = self.core.version;
        crate::spawn_here(async move {
            let action = tokio::task::spawn_blocking(move || bot.decide(&*g, seat)).await.ok().flatten();
            if let Some(tx) = tx {
                let ack = Ack { id, version, hint: Some(action), level: Some(level), ..Ack::default() };
                let _ = tx.send(ServerMsg::Ack(ack).frame()).await;
            }
        });
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
        let Some(tx) = self.conns.get(&conn).map(|c| c.tx.clone()) else { return Ok(None) };
        let info = self.info();
        let table = crate::reviews::ReviewTable {
            preset: info.preset,
            lang: info.lang,
            players: info.players,
            names: info
                .seats
                .iter()
                .map(|s| s.name.clone().or_else(|| s.bot.as_ref().map(|b| format!("bot:{b}"))).unwrap_or_default())
                .collect(),
        };
        self.reply(conn, &ServerMsg::Ack(self.ack(id)));
        self.reviews.request(crate::reviews::Job {
            table_id: self.id.clone(),
            game,
            seat,
            record: done.record_value(),
            table,
            version: self.core.version,
            tx,
        });
        Ok(None)
    }

    /// After a committed game change: ack the actor, tell everyone, then ask bots and clocks.
    pub(super) fn after_change(&mut self, happened: &Happened, ack: Option<(ConnId, Ack)>) {
        // The ack goes to the connection that sent the command only: the seat's other
        // connections learn the change from the event, and one of them that sent the same id
        // gets its own answer, the repeated ack.
        if let Some((conn, ack)) = ack {
            self.reply(conn, &ServerMsg::Ack(ack));
        }
        self.broadcast(happened);
        if self.core.state() == TableState::Over {
            tracing::info!(table = %self.id, version = self.core.version, game = self.core.game_number, "game over");
        }
        self.start_clocks();
        self.note_deadlines();
        self.schedule();
    }
}
