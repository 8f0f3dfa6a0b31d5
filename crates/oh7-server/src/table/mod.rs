//! One task per table: it owns the table's game and seats, applies commands one at a time,
//! commits each change to the log **before** anyone is told, then acks and broadcasts through
//! [`crate::project`]. Connections only send it messages; nothing else touches a table's state.
//!
//! A table is rebuilt from its log by the same [`state::Core::apply`] that applies live changes,
//! so a restart continues every table at the version its clients were acked. The parts, by job:
//! [`state`] (what the log rebuilds), [`commands`] (check, write, apply), [`seats`] (who is
//! connected, away and back), [`clock`] (turn clocks), [`bots`] (asking bots), [`outbox`] (the
//! messages, each viewer's document and its patches).

mod bots;
mod clock;
mod commands;
mod outbox;
mod seats;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use oh7_core::game::{Seat, SeatSet};
use oh7_core::glossary::Lang;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;

use crate::Settings;
use crate::event;
use crate::project::TableInfo;
use crate::protocol::{Ack, ClientMsg, ErrorCode, Refusal, ServerMsg};
use crate::store::{Row, Store, StoredTable};
use oh7_bots::DynBot;

/// The store as tables and the lobby share it.
pub(crate) type SharedStore = Arc<dyn Store>;

use oh7_table::core as state;
use state::Core;
pub(crate) use state::{FinishedGame, TableConfig};

/// A connection's id (unique in the process).
pub(crate) type ConnId = u64;
pub(crate) use crate::protocol::Frame;

/// Longest display name.
pub(crate) const MAX_NAME: usize = 24;

/// How a connection came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// The invite code: may take a seat.
    Invite,
    /// The spectator code: may only watch.
    Watch,
}

/// What a table task is told.
pub(crate) enum TableMsg {
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
        /// The account signed in on the connection (its session's), if any: without a token, it
        /// takes back the seat the account holds; with one, it links the seat to the account.
        account: Option<String>,
        /// The seat, or the refusal (the connection stays as it was).
        reply: oneshot::Sender<Result<Option<Seat>, Refusal>>,
    },
    /// A turn-based table: a deadline may have passed (the lobby's sweep).
    DeadlinesDue,
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
        bot: Box<dyn DynBot>,
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
    /// The deadline of the rematch asked at version `asked` passed.
    RematchDeadline {
        /// The version of the host's request.
        asked: u64,
    },
    /// Public information (for HTTP).
    Info {
        /// The answer.
        reply: oneshot::Sender<TableInfo>,
    },
    /// The table's rules summary in both languages.
    Rules {
        /// The answer.
        reply: oneshot::Sender<crate::protocol::RulesBody>,
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
    /// Another instance holds the table now (the heartbeat found this one's lease gone): send
    /// the clients there and stop.
    Lost,
    /// Tell the clients and stop.
    Shutdown {
        /// Done.
        reply: oneshot::Sender<()>,
    },
}

struct Conn {
    seat: Option<Seat>,
    access: Access,
    tx: mpsc::Sender<Frame>,
    /// The account signed in on the connection.
    account: Option<String>,
}

/// A table task's state.
pub(crate) struct Table {
    id: String,
    /// The invite code (told to those who came in with it).
    join_code: String,
    /// The spectator code.
    watch_code: String,
    config: TableConfig,
    store: SharedStore,
    settings: Arc<Settings>,
    core: Core,
    bots: Vec<Option<Box<dyn DynBot>>>,
    inflight: SeatSet,
    conns: HashMap<ConnId, Conn>,
    /// Answers to guests' `sit` commands by connection and id.
    sat: HashMap<(ConnId, String), Ack>,
    me: mpsc::Sender<TableMsg>,
    /// Each kind of viewer's view and legal actions as last sent (`None`: spectators and
    /// guests); with [`Table::table_part`], its document.
    docs: HashMap<Option<Seat>, crate::project::Sight>,
    /// The table information as last sent (the same for every viewer), and as it was made.
    table_part: Value,
    last_info: Option<TableInfo>,
    /// The rules as JSON (for the table information; fixed at creation).
    ruleset: Value,
    /// Last time anything happened (for unloading idle tables).
    last_busy: Instant,
    /// Where reviews are asked for.
    reviews: Arc<crate::reviews::Reviews>,
    /// This instance may no longer write the table (another one holds it): stop.
    lost: bool,
    /// When the rematch being asked starts without those who have not answered.
    rematch_deadline: Option<std::time::SystemTime>,
    /// The account that holds each linked seat.
    links: HashMap<Seat, String>,
    /// A turn-based table's deadlines: per seat that owes, `(owed since version, due at)`.
    deadlines: HashMap<Seat, (u64, i64)>,
    /// The deadlines changed since they were last written.
    deadlines_dirty: bool,
    /// Each away seat's grace timer, stopped when the seat comes back (a person who drops and
    /// comes back every minute would otherwise leave a sleeping task behind each time).
    grace_timers: HashMap<Seat, tokio::task::AbortHandle>,
}

/// A table's settings and state rebuilt from its log.
fn replay(id: &str, config: &Value, events: Vec<(u64, Value)>) -> Result<(TableConfig, Core), String> {
    let config: TableConfig =
        serde_json::from_value(config.clone()).map_err(|e| format!("table {id}: settings: {e}"))?;
    let mut core = Core::new(&config);
    for (v, body) in events {
        if v != core.version + 1 {
            return Err(format!("table {id}: version {v} follows {}", core.version));
        }
        let ev = event::read(config.log, body).map_err(|e| format!("table {id} version {v}: {e}"))?;
        core.apply(&config, &ev).map_err(|e| format!("table {id} version {v}: {e}"))?;
        core.version = v;
    }
    Ok((config, core))
}

/// The finished games of a stored table, from its log (no task started): for a player's
/// statistics.
pub(crate) fn finished_games(stored: StoredTable) -> Result<Vec<Arc<FinishedGame>>, String> {
    let (_, core) = replay(&stored.id, &stored.config, stored.events)?;
    Ok(core.finished.clone())
}

impl Drop for Table {
    /// A table that stops (unloaded, moved, the server stopping) leaves no grace timer asleep.
    fn drop(&mut self) {
        for timer in self.grace_timers.values() {
            timer.abort();
        }
    }
}

/// Sends to a table task.
#[derive(Clone)]
pub(crate) struct TableHandle {
    /// The task's mailbox.
    pub tx: mpsc::Sender<TableMsg>,
}

impl Table {
    /// Rebuild a table from its stored log and start its task.
    pub(crate) fn spawn(
        mut stored: StoredTable,
        store: SharedStore,
        settings: Arc<Settings>,
        reviews: Arc<crate::reviews::Reviews>,
    ) -> Result<TableHandle, String> {
        let (config, mut core) = replay(&stored.id, &stored.config, std::mem::take(&mut stored.events))?;
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
            docs: HashMap::new(),
            table_part: Value::Null,
            last_info: None,
            ruleset,
            last_busy: Instant::now(),
            reviews,
            lost: false,
            rematch_deadline: None,
            links: stored.links.into_iter().filter(|(s, _)| *s < n).collect(),
            deadlines: stored.deadlines.into_iter().filter(|(s, ..)| *s < n).map(|(s, v, d)| (s, (v, d))).collect(),
            deadlines_dirty: false,
            grace_timers: HashMap::new(),
        };
        // Deadlines lost in a crash start again from now (a crash may lengthen one, never
        // shorten it).
        t.note_deadlines();
        tracing::info!(table = %t.id, version = t.core.version, "table ready");
        for s in 0..n {
            if t.core.seats[s].away {
                t.start_grace(s);
            }
        }
        // A rated table's finished games are rated (again: once only, whatever happened to the
        // write at their end).
        let rated: Vec<Row> = t.core.finished.iter().filter_map(|g| t.rated(g)).map(Row::Rated).collect();
        if !rated.is_empty() {
            let (store, id) = (t.store.clone(), t.id.clone());
            crate::spawn_here(async move {
                if let Err(e) = store.append(rated).await {
                    tracing::warn!(table = %id, error = %e, "could not rate the finished games");
                }
            });
        }
        // A rematch being asked when the server stopped: the people get the whole wait again.
        t.arm_rematch();
        t.schedule();
        // Its own root: the request that happened to load the table is not its parent.
        let span = tracing::info_span!(parent: None, "table", id = %t.id);
        tokio::spawn(tracing::Instrument::instrument(t.run(rx), span));
        Ok(TableHandle { tx })
    }

    async fn run(mut self, mut rx: mpsc::Receiver<TableMsg>) {
        let idle = self.settings.idle_unload;
        let mut tick = tokio::time::interval((idle / 4).max(std::time::Duration::from_millis(20)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut gauge = crate::metrics::TableGauge::new(self.core.state());
        loop {
            let msg = tokio::select! {
                m = rx.recv() => match m {
                    Some(m) => m,
                    None => break,
                },
                _ = tick.tick() => {
                    if self.deadlines_dirty {
                        self.write_deadlines().await;
                    }
                    if self.is_idle() && rx.is_empty() {
                        self.unload(rx).await;
                        return;
                    }
                    continue;
                }
            };
            self.last_busy = Instant::now();
            let go_on = self.handle(msg).await;
            gauge.set(self.core.state());
            if !go_on {
                break;
            }
            if self.deadlines_dirty {
                self.write_deadlines().await;
            }
            if self.lost {
                self.moved(&mut rx).await;
                break;
            }
        }
    }

    /// This instance lost the table: answer every command already queued (`moved`: nothing
    /// changed), send every client to the instance that holds it now (or, not known yet, to
    /// reconnect) and stop; the mailbox closes with the task, and with it the clients'
    /// connections.
    async fn moved(&mut self, rx: &mut mpsc::Receiver<TableMsg>) {
        rx.close();
        while let Ok(msg) = rx.try_recv() {
            if let TableMsg::Command { conn, msg } = msg {
                if msg.id().is_some() {
                    self.refuse(conn, msg.id(), Refusal::moved());
                }
            } else if let Some(TableMsg::Shutdown { reply }) = self.answer(msg) {
                let _ = reply.send(());
            }
        }
        let url = match self.store.cluster() {
            Some(c) => c.owner_url(&self.id).await.ok().flatten(),
            None => None,
        };
        tracing::warn!(table = %self.id, version = self.core.version, owner = ?url, "table lost to another instance");
        let msg = match url {
            Some(url) => ServerMsg::Redirect { url, message: "This table is played on another server now.".into() },
            None => crate::protocol::ClosingReason::Moved.msg(self.core.version),
        };
        let f = msg.frame();
        for c in self.conns.values() {
            let _ = c.tx.try_send(f.clone());
        }
        self.conns.clear();
    }

    /// Nobody connected, no bot deciding, nothing for a while.
    fn is_idle(&self) -> bool {
        self.conns.is_empty() && self.inflight.is_empty() && self.last_busy.elapsed() >= self.settings.idle_unload
    }

    /// Leave memory: close the mailbox (the lobby sees a closed handle and loads the table anew
    /// from its log on the next link), then answer what was already queued. A connection that
    /// was about to attach sees its answer dropped and asks the lobby again.
    async fn unload(self, mut rx: mpsc::Receiver<TableMsg>) {
        // The lease goes back first, while the mailbox is still open: no new task for the table
        // can start (and take the lease) before this one has given it back.
        if let Some(c) = self.store.cluster() {
            c.release(&self.id).await;
        }
        rx.close();
        while let Ok(msg) = rx.try_recv() {
            // Anything but a question or a shutdown needs the task: dropped, and its sender asks
            // the lobby again.
            if let Some(TableMsg::Shutdown { reply }) = self.answer(msg) {
                let _ = reply.send(());
            }
        }
        tracing::info!(table = %self.id, version = self.core.version, "idle table unloaded");
    }

    /// Answer a question about the table (information, records); any other message is given
    /// back.
    fn answer(&self, msg: TableMsg) -> Option<TableMsg> {
        match msg {
            TableMsg::Info { reply } => {
                let _ = reply.send(self.info());
            }
            TableMsg::Record { reply } => {
                let _ = reply.send(self.core.finished.last().map(|f| f.record_value()));
            }
            TableMsg::Rules { reply } => {
                let summary = |lang| self.config.spec.summary(Some(self.config.players), lang);
                let _ = reply.send(crate::protocol::RulesBody { en: summary(Lang::En), fr: summary(Lang::Fr) });
            }
            TableMsg::Finished { reply } => {
                let _ = reply.send(self.core.finished.clone());
            }
            other => return Some(other),
        }
        None
    }

    /// Handle one message; `false` to stop.
    async fn handle(&mut self, msg: TableMsg) -> bool {
        let Some(msg) = self.answer(msg) else { return true };
        match msg {
            TableMsg::Attach { conn, tx, access, token, account, reply } => {
                let r = self.attach(conn, tx, access, token, account).instrument(conn_span(conn)).await;
                let _ = reply.send(r);
            }
            TableMsg::Detach { conn } => conn_span(conn).in_scope(|| self.detach(conn)),
            TableMsg::Command { conn, msg } => self.command(conn, msg).instrument(conn_span(conn)).await,
            TableMsg::BotDone { seat, asked, action, bot } => self.bot_done(seat, asked, action, bot).await,
            TableMsg::Grace { seat, epoch } => self.grace_over(seat, epoch),
            TableMsg::Clock { seat, since } => self.clock_ran_out(seat, since),
            TableMsg::RematchDeadline { asked } => self.rematch_deadline(asked).await,
            TableMsg::Info { .. } | TableMsg::Record { .. } | TableMsg::Rules { .. } | TableMsg::Finished { .. } => {}
            TableMsg::Lost => self.lost = true,
            TableMsg::DeadlinesDue => self.deadlines_due(),
            TableMsg::Shutdown { reply } => {
                self.closing(crate::protocol::ClosingReason::Stopping);
                self.conns.clear();
                let _ = reply.send(());
                return false;
            }
        }
        true
    }
}

/// The span of what a table does for connection `conn` (its log lines carry the connection id).
fn conn_span(conn: ConnId) -> tracing::Span {
    tracing::info_span!("conn", id = conn)
}

/// A display name: trimmed, 1 to 24 characters, no control characters.
pub(crate) fn check_name(name: &str) -> Result<String, Refusal> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > MAX_NAME || n.chars().any(char::is_control) {
        return Err(Refusal::new(
            ErrorCode::BadName,
            format!("A name has 1 to {MAX_NAME} characters, without control characters."),
        )
        .param("max", MAX_NAME));
    }
    Ok(n.to_string())
}
