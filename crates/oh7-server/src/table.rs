//! One task per table: it owns the table's game and seats, applies commands one at a time,
//! commits each change to the log **before** anyone is told, then acks and broadcasts through
//! [`crate::project`]. Connections only send it messages; nothing else touches a table's state.
//!
//! A table is rebuilt from its log by the same [`Core::apply_event`] that applies live changes,
//! so a restart continues every table at the version its clients were acked.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oh7_core::game::{Seat, SeatSet};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use crate::Settings;
use crate::game::{AnyBot, AnyGame, GameSpec};
use crate::lobby::{hash_token, hex, token_matches};
use crate::project::{Happened, TableFacts, project};
use crate::protocol::{ClientMsg, ErrorCode, Refusal};
use crate::store::{Row, Store, StoredTable};

/// A connection's id (unique in the process).
pub type ConnId = u64;
/// A serialized message on its way to a client.
pub type Frame = Arc<str>;

/// Chat lines kept for snapshots.
const CHAT_KEPT: usize = 50;
/// Longest display name.
pub const MAX_NAME: usize = 24;

/// A table's settings, fixed at creation (stored as JSON in the `tables` row).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableConfig {
    /// Game and rules.
    pub spec: GameSpec,
    /// Players.
    pub players: usize,
    /// Per seat: `None` for a person, or a bot level.
    pub seats: Vec<Option<String>>,
    /// `en` or `fr`.
    pub lang: String,
    /// Seconds a person has for a decision before a bot makes it (`None`: no clock).
    #[serde(default)]
    pub turn_clock_s: Option<u32>,
}

/// How a connection came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// The invite code: may take a seat.
    Invite,
    /// The spectator code: may only watch.
    Watch,
}

/// What a table task is told.
pub enum TableMsg {
    /// A connection says hello (with a token to take back its seat).
    Attach {
        /// The connection.
        conn: ConnId,
        /// Where its messages go.
        tx: mpsc::Sender<Frame>,
        /// Which code it used.
        access: Access,
        /// A seat token.
        token: Option<String>,
        /// The seat, or the refusal (the connection stays as it was).
        reply: oneshot::Sender<Result<Option<Seat>, Refusal>>,
    },
    /// A connection closed.
    Detach {
        /// The connection.
        conn: ConnId,
    },
    /// A command of an attached connection.
    Command {
        /// The connection.
        conn: ConnId,
        /// The command.
        msg: ClientMsg,
    },
    /// A bot decided.
    BotDone {
        /// The seat.
        seat: Seat,
        /// Game number and version when it was asked.
        asked: (u32, u64),
        /// Its action.
        action: Option<String>,
        /// The bot, back.
        bot: AnyBot,
    },
    /// An away person's grace period ended.
    Grace {
        /// The seat.
        seat: Seat,
        /// Which absence.
        epoch: u64,
    },
    /// A person's turn clock ran out.
    Clock {
        /// The seat.
        seat: Seat,
        /// Since which version the seat owed the decision.
        since: u64,
    },
    /// Public information (for HTTP).
    Info {
        /// The answer.
        reply: oneshot::Sender<Value>,
    },
    /// The last finished game's record.
    Record {
        /// The answer.
        reply: oneshot::Sender<Option<Value>>,
    },
    /// Every finished game at the table, first to last.
    Finished {
        /// The answer.
        reply: oneshot::Sender<Vec<Arc<FinishedGame>>>,
    },
    /// Tell the clients and stop.
    Shutdown {
        /// Done.
        reply: oneshot::Sender<()>,
    },
}

/// One seat.
#[derive(Clone, Debug, Default)]
struct SeatState {
    /// A person's display name.
    name: Option<String>,
    /// SHA-256 of the person's token.
    token_hash: Option<[u8; 32]>,
    /// A bot seat's level.
    bot: Option<String>,
    /// Connections holding the seat.
    conns: u32,
    /// The person left (and has not come back).
    away: bool,
    /// Counts absences, so an old grace timer does nothing.
    away_epoch: u64,
    /// A bot plays for the away person.
    bot_for_away: bool,
    /// The turn clock ran out: a bot makes this one decision.
    forced: bool,
    /// Since which version the seat has owed a decision without a break.
    owed_since: Option<u64>,
    /// Last chat line (for the chat rate limit).
    last_chat: Option<Instant>,
}

/// A game of the table that has ended.
#[derive(Debug)]
pub struct FinishedGame {
    /// Its number at the table, from 1.
    pub game: u32,
    /// Its record (`oh7-record/1`, or Seven's).
    pub record: Value,
    /// Final totals by seat.
    pub totals: Vec<i64>,
    /// The winners.
    pub winners: Vec<Seat>,
}

/// The state a log rebuilds: everything but connections and bots.
struct Core {
    version: u64,
    seats: Vec<SeatState>,
    game: Option<AnyGame>,
    game_number: u32,
    /// Every finished game, first to last.
    finished: Vec<Arc<FinishedGame>>,
    chat: Arc<VecDeque<Value>>,
    /// Acks of acted commands, by seat and command id.
    acted: HashMap<(Seat, String), u64>,
}

/// What a commit restores if the database refuses it: all of [`Core`] but the acks (a
/// refused event's ack is removed by its key), so a backup costs no more than the game.
struct Saved {
    version: u64,
    seats: Vec<SeatState>,
    game: Option<AnyGame>,
    game_number: u32,
    finished: Vec<Arc<FinishedGame>>,
    chat: Arc<VecDeque<Value>>,
}

impl Core {
    fn new(config: &TableConfig) -> Core {
        let seats =
            config.seats.iter().map(|b| SeatState { bot: b.clone(), ..SeatState::default() }).collect::<Vec<_>>();
        Core {
            version: 0,
            seats,
            game: None,
            game_number: 0,
            finished: Vec::new(),
            chat: Arc::new(VecDeque::new()),
            acted: HashMap::new(),
        }
    }

    fn save(&self) -> Saved {
        Saved {
            version: self.version,
            seats: self.seats.clone(),
            game: self.game.clone(),
            game_number: self.game_number,
            finished: self.finished.clone(),
            chat: self.chat.clone(),
        }
    }

    fn restore(&mut self, saved: Saved, ev: &Value) {
        if let (Some(seat), Some(id)) = (ev["seat"].as_u64(), ev["id"].as_str()) {
            self.acted.remove(&(seat as Seat, id.to_string()));
        }
        let Saved { version, seats, game, game_number, finished, chat } = saved;
        (self.version, self.seats, self.game, self.game_number, self.finished, self.chat) =
            (version, seats, game, game_number, finished, chat);
    }

    fn names(&self) -> Vec<String> {
        self.seats
            .iter()
            .map(|s| match (&s.name, &s.bot) {
                (Some(n), _) => n.clone(),
                (None, Some(level)) => format!("bot:{level}"),
                (None, None) => "empty".to_string(),
            })
            .collect()
    }

    /// Apply one logged event (live or while restoring). Checks first: on error nothing of
    /// meaning changed (the caller restores its backup anyway).
    fn apply_event(&mut self, config: &TableConfig, ev: &Value) -> Result<Happened, String> {
        let happened = self.apply_event_inner(config, ev)?;
        // A seat's command id is answered with the same ack if it comes again.
        if let (Some(seat), Some(id)) = (ev["seat"].as_u64(), ev["id"].as_str()) {
            self.acted.insert((seat as Seat, id.to_string()), self.version + 1);
        }
        Ok(happened)
    }

    fn apply_event_inner(&mut self, config: &TableConfig, ev: &Value) -> Result<Happened, String> {
        let kind = ev["kind"].as_str().ok_or("event without a kind")?;
        let seat_of = |ev: &Value| -> Result<Seat, String> {
            ev["seat"].as_u64().map(|s| s as Seat).filter(|&s| s < config.players).ok_or("bad seat".to_string())
        };
        match kind {
            "join" => {
                let seat = seat_of(ev)?;
                let st = &mut self.seats[seat];
                if st.name.is_some() || st.bot.is_some() {
                    return Err("seat taken".into());
                }
                st.name = Some(ev["name"].as_str().ok_or("join without a name")?.to_string());
                let h = ev["token_hash"].as_str().ok_or("join without a token")?;
                st.token_hash = Some(unhex32(h).ok_or("bad token hash")?);
                Ok(Happened::Join { seat })
            }
            "start" => {
                if self.game.as_ref().is_some_and(|g| !g.is_over()) {
                    return Err("a game is running".into());
                }
                let seed = ev["seed"].as_u64().ok_or("start without a seed")?;
                if let Some(fill) = ev["fill"].as_array() {
                    for (s, level) in fill.iter().enumerate().take(config.players) {
                        if let Some(l) = level.as_str()
                            && self.seats[s].name.is_none()
                        {
                            self.seats[s].bot = Some(l.to_string());
                        }
                    }
                }
                if self.seats.iter().any(|s| s.name.is_none() && s.bot.is_none()) {
                    return Err("a seat is free".into());
                }
                let mut g = config.spec.new_game(config.players, seed)?;
                g.set_names(self.names());
                self.game = Some(g);
                self.game_number += 1;
                for s in &mut self.seats {
                    s.owed_since = None;
                    s.forced = false;
                }
                self.update_owed();
                Ok(Happened::Start { game: self.game_number })
            }
            "act" => {
                let seat = seat_of(ev)?;
                let action = ev["action"].as_str().ok_or("act without an action")?;
                let g = self.game.as_mut().ok_or("no game")?;
                let canonical = g.apply_text(seat, action)?;
                if g.is_over() {
                    let done = FinishedGame {
                        game: self.game_number,
                        record: g.record(),
                        totals: g.totals(),
                        winners: g.winners(),
                    };
                    self.finished.push(Arc::new(done));
                }
                self.seats[seat].forced = false;
                self.update_owed();
                Ok(Happened::Act { seat, action: canonical, by_bot: ev["by_bot"].as_bool().unwrap_or(false) })
            }
            "seat" => {
                // The host (`seat`, always 0) makes seat `target` a bot seat or a free seat.
                if self.game.is_some() {
                    return Err("the game has started".into());
                }
                let target = ev["target"]
                    .as_u64()
                    .map(|s| s as Seat)
                    .filter(|&s| s > 0 && s < config.players)
                    .ok_or("bad target seat")?;
                let bot = match &ev["bot"] {
                    Value::Null => None,
                    Value::String(l) if config.spec.levels().contains(&l.as_str()) => Some(l.clone()),
                    _ => return Err("bad bot level".into()),
                };
                let st = &mut self.seats[target];
                if st.name.is_some() {
                    return Err("a person sits there".into());
                }
                st.bot = bot.clone();
                Ok(Happened::Seat { seat: target, bot })
            }
            "chat" => {
                let seat = seat_of(ev)?;
                let text = ev["text"].as_str().ok_or("chat without text")?;
                let entry = json!({"seat": seat, "name": self.names()[seat], "text": text});
                let chat = Arc::make_mut(&mut self.chat);
                chat.push_back(entry.clone());
                while chat.len() > CHAT_KEPT {
                    chat.pop_front();
                }
                Ok(Happened::Chat { entry })
            }
            other => Err(format!("unknown event `{other}`")),
        }
    }

    /// Seats that owe a decision keep the version since which they have owed it.
    fn update_owed(&mut self) {
        let to_move = self.game.as_ref().map_or(SeatSet::EMPTY, |g| g.to_move());
        let next = self.version + 1;
        for (s, st) in self.seats.iter_mut().enumerate() {
            if !to_move.contains(s) {
                st.owed_since = None;
                st.forced = false;
            } else if st.owed_since.is_none() {
                st.owed_since = Some(next);
            }
        }
    }

    fn state(&self) -> &'static str {
        match &self.game {
            None => "lobby",
            Some(g) if g.is_over() => "over",
            Some(_) => "playing",
        }
    }
}

fn unhex32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

struct Conn {
    seat: Option<Seat>,
    access: Access,
    tx: mpsc::Sender<Frame>,
}

/// A table task's state.
pub struct Table {
    id: String,
    /// The invite code (told to those who came in with it).
    join_code: String,
    /// The spectator code.
    watch_code: String,
    config: TableConfig,
    store: Store,
    settings: Arc<Settings>,
    core: Core,
    bots: Vec<Option<AnyBot>>,
    inflight: SeatSet,
    conns: HashMap<ConnId, Conn>,
    /// Answers to guests' `sit` commands by connection and id.
    sat: HashMap<(ConnId, String), Value>,
    me: mpsc::Sender<TableMsg>,
    /// The table information last broadcast (events leave it out while it is unchanged).
    last_info: Value,
    /// The rules as JSON (for the table information; fixed at creation).
    ruleset: Value,
}

/// Sends to a table task.
#[derive(Clone)]
pub struct TableHandle {
    /// The task's mailbox.
    pub tx: mpsc::Sender<TableMsg>,
}

impl Table {
    /// Rebuild a table from its stored log and start its task.
    pub fn spawn(stored: StoredTable, store: Store, settings: Arc<Settings>) -> Result<TableHandle, String> {
        let config: TableConfig =
            serde_json::from_value(stored.config.clone()).map_err(|e| format!("table {}: settings: {e}", stored.id))?;
        let mut core = Core::new(&config);
        for (v, ev) in &stored.events {
            if *v != core.version + 1 {
                return Err(format!("table {}: version {v} follows {}", stored.id, core.version));
            }
            core.apply_event(&config, ev).map_err(|e| format!("table {} version {v}: {e}", stored.id))?;
            core.version = *v;
        }
        // Everyone is away until they reconnect; the grace period starts now.
        for st in &mut core.seats {
            if st.name.is_some() {
                st.away = true;
            }
        }
        let (tx, rx) = mpsc::channel(1024);
        let n = config.players;
        let ruleset = config.spec.ruleset_json();
        let mut t = Table {
            id: stored.id,
            join_code: stored.join_code,
            watch_code: stored.watch_code,
            config,
            store,
            settings,
            core,
            bots: (0..n).map(|_| None).collect(),
            inflight: SeatSet::EMPTY,
            conns: HashMap::new(),
            sat: HashMap::new(),
            me: tx.clone(),
            last_info: Value::Null,
            ruleset,
        };
        tracing::info!(table = %t.id, version = t.core.version, "table ready");
        for s in 0..n {
            if t.core.seats[s].away {
                t.start_grace(s);
            }
        }
        t.schedule();
        tokio::spawn(t.run(rx));
        Ok(TableHandle { tx })
    }

    async fn run(mut self, mut rx: mpsc::Receiver<TableMsg>) {
        while let Some(msg) = rx.recv().await {
            match msg {
                TableMsg::Attach { conn, tx, access, token, reply } => {
                    let r = self.attach(conn, tx, access, token);
                    let _ = reply.send(r);
                }
                TableMsg::Detach { conn } => self.detach(conn),
                TableMsg::Command { conn, msg } => self.command(conn, msg).await,
                TableMsg::BotDone { seat, asked, action, bot } => self.bot_done(seat, asked, action, bot).await,
                TableMsg::Grace { seat, epoch } => {
                    let st = &mut self.core.seats[seat];
                    if st.away && st.away_epoch == epoch && !st.bot_for_away {
                        st.bot_for_away = true;
                        tracing::info!(table = %self.id, seat, "a bot plays for the away seat");
                        self.broadcast(&Happened::Presence);
                        self.schedule();
                    }
                }
                TableMsg::Clock { seat, since } => {
                    let st = &mut self.core.seats[seat];
                    if st.owed_since == Some(since) && st.bot.is_none() && !st.bot_for_away {
                        st.forced = true;
                        self.schedule();
                    }
                }
                TableMsg::Info { reply } => {
                    let _ = reply.send(self.info());
                }
                TableMsg::Record { reply } => {
                    let _ = reply.send(self.core.finished.last().map(|f| f.record.clone()));
                }
                TableMsg::Finished { reply } => {
                    let _ = reply.send(self.core.finished.clone());
                }
                TableMsg::Shutdown { reply } => {
                    let msg = json!({"type": "closing", "version": self.core.version,
                        "message": "The server is stopping; the game is saved and continues when it is back."});
                    self.send_all(&msg);
                    self.conns.clear();
                    let _ = reply.send(());
                    break;
                }
            }
        }
    }

    fn attach(
        &mut self,
        conn: ConnId,
        tx: mpsc::Sender<Frame>,
        access: Access,
        token: Option<String>,
    ) -> Result<Option<Seat>, Refusal> {
        let mut seat = None;
        if let Some(token) = token {
            if access == Access::Watch {
                return Err(Refusal::new(
                    ErrorCode::BadToken,
                    "A spectator link cannot take a seat: use the invite link.",
                ));
            }
            let h = hash_token(&token);
            seat = self.core.seats.iter().position(|s| s.token_hash.is_some_and(|t| token_matches(&t, &h)));
            if seat.is_none() {
                return Err(Refusal::new(ErrorCode::BadToken, "This seat token is not valid at this table."));
            }
        }
        self.conns.insert(conn, Conn { seat, access, tx });
        if let Some(s) = seat {
            self.seat_connected(s);
        }
        self.send_snapshot(conn);
        Ok(seat)
    }

    fn seat_connected(&mut self, s: Seat) {
        let st = &mut self.core.seats[s];
        st.conns += 1;
        if st.away {
            st.away = false;
            st.bot_for_away = false;
            st.away_epoch += 1;
            tracing::info!(table = %self.id, seat = s, "back at the table");
            self.broadcast(&Happened::Presence);
        }
    }

    fn detach(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else { return };
        self.sat.retain(|(k, _), _| *k != conn);
        if let Some(s) = c.seat {
            let st = &mut self.core.seats[s];
            st.conns = st.conns.saturating_sub(1);
            if st.conns == 0 && !st.away {
                st.away = true;
                st.away_epoch += 1;
                tracing::info!(table = %self.id, seat = s, "away");
                self.start_grace(s);
                self.broadcast(&Happened::Presence);
            }
        }
    }

    fn start_grace(&self, s: Seat) {
        let epoch = self.core.seats[s].away_epoch;
        let me = self.me.clone();
        let grace = self.settings.grace;
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            let _ = me.send(TableMsg::Grace { seat: s, epoch }).await;
        });
    }

    fn reply(&self, conn: ConnId, msg: &Value) {
        if let Some(c) = self.conns.get(&conn) {
            let _ = c.tx.try_send(Frame::from(msg.to_string()));
        }
    }

    fn refuse(&self, conn: ConnId, id: Option<&str>, r: Refusal) {
        self.reply(conn, &r.to_msg(id, Some(self.core.version)));
    }

    async fn command(&mut self, conn: ConnId, msg: ClientMsg) {
        let Some(c) = self.conns.get(&conn) else { return };
        let (seat, access) = (c.seat, c.access);
        let id = msg.id().map(str::to_string);
        let r = match msg {
            ClientMsg::Sync {} => {
                self.send_snapshot(conn);
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
            | ClientMsg::Chat { ref id, .. }
            | ClientMsg::Seat { ref id, .. }
                if seat.is_some_and(|s| self.core.acted.contains_key(&(s, id.clone()))) =>
            {
                let v = seat.and_then(|s| self.core.acted.get(&(s, id.clone()))).copied().unwrap_or_default();
                Ok(Some(json!({"type": "ack", "id": id, "version": v, "repeated": true})))
            }
            ClientMsg::Act { id, action } => self.act(conn, seat, &id, &action).await,
            ClientMsg::Start { id, fill } => self.start(&id, seat, fill).await,
            ClientMsg::Rematch { id } => self.rematch(&id, seat).await,
            ClientMsg::Chat { id, text } => self.chat(&id, seat, &text).await,
            ClientMsg::Seat { id, seat: target, bot } => self.set_seat(conn, &id, seat, target, bot).await,
            ClientMsg::Hint { id } => self.hint(conn, seat, id),
        };
        match r {
            Ok(Some(ack)) => self.reply(conn, &ack),
            Ok(None) => {}
            Err(refusal) => self.refuse(conn, id.as_deref(), refusal),
        }
    }

    fn ack(&self, id: &str) -> Value {
        json!({"type": "ack", "id": id, "version": self.core.version})
    }

    /// Commit one event: apply it, write it, and only then let the caller tell anyone. On any
    /// failure the table is as it was.
    async fn commit(&mut self, ev: Value) -> Result<Happened, Refusal> {
        let backup = self.core.save();
        let happened = match self.core.apply_event(&self.config, &ev) {
            Ok(h) => h,
            Err(e) => {
                self.core.restore(backup, &ev);
                return Err(Refusal::new(ErrorCode::Illegal, e));
            }
        };
        self.core.version += 1;
        let mut rows = vec![Row::Event { table_id: self.id.clone(), version: self.core.version, body: ev.to_string() }];
        match &happened {
            Happened::Start { .. } => rows.push(Row::Finished { table_id: self.id.clone(), finished: false }),
            Happened::Act { .. } if self.core.state() == "over" => {
                rows.push(Row::Finished { table_id: self.id.clone(), finished: true })
            }
            _ => {}
        }
        if let Err(e) = self.store.append(rows).await {
            tracing::error!(table = %self.id, error = %e, "commit failed; the change is dropped");
            self.core.restore(backup, &ev);
            return Err(Refusal::new(
                ErrorCode::Storage,
                "The server could not save this; nothing changed. Try again.",
            ));
        }
        tracing::debug!(table = %self.id, version = self.core.version, kind = %ev["kind"], "committed");
        Ok(happened)
    }

    async fn sit(&mut self, conn: ConnId, seat: Option<Seat>, id: &str, name: &str) -> Result<Option<Value>, Refusal> {
        if let Some(ack) = self.sat.get(&(conn, id.to_string())) {
            return Ok(Some(ack.clone()));
        }
        if seat.is_some() {
            return Err(Refusal::new(ErrorCode::AlreadySeated, "You have a seat at this table already."));
        }
        let name = check_name(name)?;
        if self.core.game.is_some() {
            return Err(Refusal::new(ErrorCode::AlreadyStarted, "The game has started: you can watch it."));
        }
        let Some(free) = self.core.seats.iter().position(|s| s.name.is_none() && s.bot.is_none()) else {
            return Err(Refusal::new(ErrorCode::TableFull, "Every seat is taken: you can watch the game."));
        };
        let token = crate::lobby::new_secret();
        let ev = json!({"kind": "join", "seat": free, "name": name, "token_hash": hex(&hash_token(&token))});
        let happened = self.commit(ev).await?;
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = Some(free);
        }
        self.seat_connected(free);
        let ack = json!({"type": "ack", "id": id, "version": self.core.version, "seat": free, "token": token});
        self.sat.insert((conn, id.to_string()), ack.clone());
        self.reply(conn, &ack);
        self.broadcast(&happened);
        Ok(None)
    }

    async fn act(
        &mut self,
        conn: ConnId,
        seat: Option<Seat>,
        id: &str,
        action: &str,
    ) -> Result<Option<Value>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        let Some(g) = &self.core.game else {
            return Err(Refusal::new(ErrorCode::NotStarted, "The game has not started yet."));
        };
        if g.is_over() {
            return Err(Refusal::new(ErrorCode::GameOver, "The game is over."));
        }
        if !g.to_move().contains(seat) {
            return Err(Refusal::new(ErrorCode::NotYourTurn, "It is not your turn: wait for the other players."));
        }
        if action.len() > 200 {
            return Err(Refusal::new(ErrorCode::Illegal, "That is not an action of this game."));
        }
        let ev = json!({"kind": "act", "seat": seat, "action": action, "id": id, "by_bot": false});
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

    async fn start(&mut self, id: &str, seat: Option<Seat>, fill: Option<String>) -> Result<Option<Value>, Refusal> {
        self.is_host(seat)?;
        if self.core.game.is_some() {
            return Err(Refusal::new(ErrorCode::AlreadyStarted, "The game has started already."));
        }
        let free: Vec<Seat> = (0..self.config.players)
            .filter(|&s| self.core.seats[s].name.is_none() && self.core.seats[s].bot.is_none())
            .collect();
        let mut fills = vec![Value::Null; self.config.players];
        if !free.is_empty() {
            let Some(level) = fill else {
                return Err(Refusal::new(
                    ErrorCode::SeatsFree,
                    "Some seats are free: wait for your friends, or fill the seats with bots.",
                ));
            };
            if !self.config.spec.levels().contains(&level.as_str()) {
                return Err(crate::lobby::unknown_level(&self.config.spec, &level, None));
            }
            for s in free {
                fills[s] = Value::String(level.clone());
            }
        }
        let ev = json!({"kind": "start", "seat": 0, "id": id, "seed": crate::lobby::new_seed(), "fill": fills});
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
    ) -> Result<Option<Value>, Refusal> {
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
            .with(json!({"seat": target, "min": 1, "max": players - 1})));
        }
        if self.core.seats[target].name.is_some() {
            return Err(Refusal::new(ErrorCode::SeatTaken, format!("A person sits at seat {target}."))
                .with(json!({"seat": target})));
        }
        if let Some(level) = &bot
            && !self.config.spec.levels().contains(&level.as_str())
        {
            return Err(crate::lobby::unknown_level(&self.config.spec, level, None));
        }
        let ev = json!({"kind": "seat", "seat": 0, "target": target, "bot": bot, "id": id});
        let happened = self.commit(ev).await?;
        // A bot made for the seat's old level (none before a start, but be sure) is dropped.
        self.bots[target] = None;
        // The host hears first, as the actor of `act` and `sit` does.
        self.reply(conn, &self.ack(id));
        self.broadcast(&happened);
        Ok(None)
    }

    async fn rematch(&mut self, id: &str, seat: Option<Seat>) -> Result<Option<Value>, Refusal> {
        self.is_host(seat)?;
        match &self.core.game {
            None => return Err(Refusal::new(ErrorCode::NotStarted, "The game has not started yet.")),
            Some(g) if !g.is_over() => return Err(Refusal::new(ErrorCode::NotOver, "The game is not over yet.")),
            Some(_) => {}
        }
        let ev = json!({"kind": "start", "seat": 0, "id": id, "seed": crate::lobby::new_seed(), "fill": Value::Null});
        let happened = self.commit(ev).await?;
        self.after_change(&happened, None);
        Ok(Some(self.ack(id)))
    }

    async fn chat(&mut self, id: &str, seat: Option<Seat>, text: &str) -> Result<Option<Value>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat to chat."));
        };
        let text = text.trim();
        if text.is_empty() || text.chars().count() > self.settings.chat_len {
            return Err(Refusal::new(
                ErrorCode::ChatTooLong,
                format!("A chat line has 1 to {} characters.", self.settings.chat_len),
            )
            .with(json!({"max": self.settings.chat_len})));
        }
        let now = Instant::now();
        if self.core.seats[seat].last_chat.is_some_and(|t| now.duration_since(t) < self.settings.chat_interval) {
            return Err(Refusal::new(ErrorCode::RateLimited, "One chat line at a time: wait a moment."));
        }
        let ev = json!({"kind": "chat", "seat": seat, "id": id, "text": text});
        let happened = self.commit(ev).await?;
        self.core.seats[seat].last_chat = Some(now);
        self.broadcast(&happened);
        Ok(Some(self.ack(id)))
    }

    fn hint(&mut self, conn: ConnId, seat: Option<Seat>, id: String) -> Result<Option<Value>, Refusal> {
        let Some(seat) = seat else {
            return Err(Refusal::new(ErrorCode::NotSeated, "Take a seat first."));
        };
        let Some(g) = &self.core.game else {
            return Err(Refusal::new(ErrorCode::NotStarted, "The game has not started yet."));
        };
        if !g.to_move().contains(seat) {
            return Err(Refusal::new(ErrorCode::NotYourTurn, "Nothing to decide now."));
        }
        let g = g.clone();
        let level = self.config.spec.strongest();
        let mut bot =
            self.config.spec.bot(level, self.core.version).map_err(|e| Refusal::new(ErrorCode::BadRequest, e))?;
        let tx = self.conns.get(&conn).map(|c| c.tx.clone());
        let version = self.core.version;
        tokio::spawn(async move {
            let action = tokio::task::spawn_blocking(move || g.decide(&mut bot, seat)).await.ok().flatten();
            if let Some(tx) = tx {
                let msg = json!({"type": "ack", "id": id, "version": version, "hint": action, "level": level});
                let _ = tx.send(Frame::from(msg.to_string())).await;
            }
        });
        Ok(None)
    }

    /// After a committed game change: ack the actor, tell everyone, then ask bots and clocks.
    fn after_change(&mut self, happened: &Happened, ack: Option<(ConnId, Value)>) {
        // The ack goes to the connection that sent the command only: the seat's other
        // connections learn the change from the event, and one of them that sent the same id
        // gets its own answer, the repeated ack.
        if let Some((conn, ack)) = ack {
            self.reply(conn, &ack);
        }
        self.broadcast(happened);
        if self.core.state() == "over" {
            tracing::info!(table = %self.id, version = self.core.version, game = self.core.game_number, "game over");
        }
        self.start_clocks();
        self.schedule();
    }

    fn start_clocks(&self) {
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

    fn bot_plays(&self, s: Seat) -> bool {
        let st = &self.core.seats[s];
        st.bot.is_some() || st.bot_for_away || st.forced
    }

    /// Ask a bot for every seat a bot plays that owes a decision and is not being decided.
    fn schedule(&mut self) {
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
            tokio::spawn(async move {
                if !pause.is_zero() {
                    tokio::time::sleep(pause).await;
                }
                let done = tokio::task::spawn_blocking(move || {
                    let mut bot = bot;
                    let action = game.decide(&mut bot, seat);
                    (action, bot)
                })
                .await;
                if let Ok((action, bot)) = done {
                    let _ = me.send(TableMsg::BotDone { seat, asked, action, bot }).await;
                }
            });
        }
    }

    async fn bot_done(&mut self, seat: Seat, asked: (u32, u64), action: Option<String>, bot: AnyBot) {
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
        let ev = json!({"kind": "act", "seat": seat, "action": action, "id": Value::Null, "by_bot": by_bot});
        match self.commit(ev).await {
            Ok(happened) => self.after_change(&happened, None),
            Err(r) => tracing::error!(table = %self.id, seat, code = r.code.as_str(), "a bot's decision was refused"),
        }
    }

    /// Public facts about the table (no codes, no tokens, no cards).
    pub fn info(&self) -> Value {
        let seats: Vec<Value> = self
            .core
            .seats
            .iter()
            .enumerate()
            .map(|(s, st)| {
                let status = if st.bot.is_some() {
                    "bot"
                } else if st.name.is_none() {
                    "empty"
                } else if st.bot_for_away {
                    "bot_for_away"
                } else if st.away {
                    "away"
                } else {
                    "here"
                };
                json!({"seat": s, "name": st.name, "bot": st.bot, "status": status})
            })
            .collect();
        let (game, preset) = match &self.config.spec {
            GameSpec::Oh7 { ruleset } => ("oh7", ruleset.preset.name()),
            GameSpec::Seven { .. } => ("seven", "seven"),
        };
        json!({
            "game": game,
            "preset": preset,
            "ruleset": self.ruleset,
            "players": self.config.players,
            "lang": self.config.lang,
            "state": self.core.state(),
            "game_number": self.core.game_number,
            "host": 0,
            "turn_clock_s": self.config.turn_clock_s,
            "seats": seats,
            "totals": self.core.game.as_ref().map(|g| g.totals()),
            "winners": self.core.game.as_ref().filter(|g| g.is_over()).map(|g| g.winners()),
            "record": !self.core.finished.is_empty(),
        })
    }

    fn facts<'a>(&'a self, info: &'a Value, chat: &'a [Value]) -> TableFacts<'a> {
        TableFacts { version: self.core.version, info, game: self.core.game.as_ref(), chat }
    }

    fn send_snapshot(&mut self, conn: ConnId) {
        let Some(c) = self.conns.get(&conn) else { return };
        let info = self.info();
        let chat: Vec<Value> = self.core.chat.iter().cloned().collect();
        let mut msg = project(&self.facts(&info, &chat), &Happened::Snapshot, c.seat);
        // The links this connection may share: the invite link only to those who have it.
        msg["links"] = match c.access {
            Access::Invite => json!({"invite": self.join_code, "watch": self.watch_code}),
            Access::Watch => json!({"watch": self.watch_code}),
        };
        if c.tx.try_send(Frame::from(msg.to_string())).is_err() {
            self.conns.remove(&conn);
        }
    }

    /// Tell every connection what happened, each through its own seat's projection.
    fn broadcast(&mut self, happened: &Happened) {
        let mut info = self.info();
        if info == self.last_info && !matches!(happened, Happened::Presence) {
            info = Value::Null;
        } else {
            self.last_info = info.clone();
        }
        let chat: Vec<Value> = Vec::new();
        let mut frames: HashMap<Option<Seat>, Frame> = HashMap::new();
        let mut dead = Vec::new();
        for (&id, c) in &self.conns {
            let frame = frames
                .entry(c.seat)
                .or_insert_with(|| Frame::from(project(&self.facts(&info, &chat), happened, c.seat).to_string()));
            if c.tx.try_send(frame.clone()).is_err() {
                dead.push(id);
            }
        }
        // A client too slow to keep up is dropped; it reconnects and gets a snapshot.
        for id in dead {
            self.detach(id);
        }
    }

    fn send_all(&self, msg: &Value) {
        let f = Frame::from(msg.to_string());
        for c in self.conns.values() {
            let _ = c.tx.try_send(f.clone());
        }
    }
}

/// A display name: trimmed, 1 to 24 characters, no control characters.
pub fn check_name(name: &str) -> Result<String, Refusal> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > MAX_NAME || n.chars().any(char::is_control) {
        return Err(Refusal::new(
            ErrorCode::BadName,
            format!("A name has 1 to {MAX_NAME} characters, without control characters."),
        )
        .with(json!({"max": MAX_NAME})));
    }
    Ok(n.to_string())
}
