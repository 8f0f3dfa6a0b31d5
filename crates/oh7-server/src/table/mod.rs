//! One task per table: it drives the table's [`Machine`] (`oh7-table`, which holds what a table
//! does: seats, commands, rematch, clocks, bots, the projection into seat views and patches)
//! and does its I/O: it writes each change the machine asks for to the store **before** the
//! machine applies it and tells anyone, sends the machine's messages on the connections, runs
//! its timers on tokio and its bots and hints on blocking threads. Connections only send it
//! messages; nothing else touches a table's state.
//!
//! A table is rebuilt from its log by the same [`state::Core::apply`] that applies live changes,
//! so a restart continues every table at the version its clients were acked.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, UNIX_EPOCH};

use oh7_core::game::Seat;
use oh7_core::glossary::Lang;
use oh7_table::machine::{self, BotDone, Effect, Entropy, Machine, Output, Pending, Timer, WriteFailure};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;

use crate::secrets::{new_secret, new_seed};
use crate::settings::Settings;
use crate::store::SharedStore;
use crate::store::{Row, StoreError, StoredTable};
use oh7_table::event::{self, Event};
use oh7_table::project::TableInfo;
use oh7_table::protocol::{ClientMsg, Refusal, ServerMsg};

/// The store as tables and the lobby share it.
use oh7_table::core as state;
use state::Core;
pub(crate) use state::{FinishedGame, TableConfig};

pub(crate) use machine::{Access, ConnId, MAX_NAME, check_name};
pub(crate) use oh7_table::protocol::Frame;

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
    /// A signed-in person claims the seat of a token their browser kept (a guest's game played
    /// before the account): linked to `account` if the seat is linked to nobody.
    Claim {
        /// The seat token.
        token: String,
        /// The account's id.
        account: String,
        /// Whether the seat is now linked to it, or the refusal (nothing changed).
        reply: oneshot::Sender<Result<bool, Refusal>>,
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
    BotDone(BotDone),
    /// A timer of the machine fired.
    Timer(Timer),
    /// Public information (for HTTP).
    Info {
        /// The answer.
        reply: oneshot::Sender<TableInfo>,
    },
    /// The table's rules summary in both languages.
    Rules {
        /// The answer.
        reply: oneshot::Sender<oh7_table::protocol::RulesBody>,
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
    /// The operator suspended an account: its seats here are played by bots for good.
    Suspend {
        /// The account's id.
        account: String,
    },
    /// The operator closed the table: tell the clients and stop.
    Close,
    /// Tell the clients and stop.
    Shutdown {
        /// Done.
        reply: oneshot::Sender<()>,
    },
}

/// The server's random source, for the machine's seeds and seat tokens.
struct Os;

impl Entropy for Os {
    fn seed(&mut self) -> u64 {
        new_seed()
    }
    fn secret(&mut self) -> String {
        new_secret()
    }
}

/// A table task's state.
pub(crate) struct Table {
    id: String,
    store: SharedStore,
    settings: Arc<Settings>,
    machine: Machine,
    /// What the machine asked for when it was made (driven when the task starts).
    first: Option<Output>,
    /// Each connection's outbox.
    conns: HashMap<ConnId, mpsc::Sender<Frame>>,
    me: mpsc::Sender<TableMsg>,
    /// Last time anything happened (for unloading idle tables).
    last_busy: Instant,
    /// Where reviews are asked for.
    reviews: Arc<crate::reviews::Reviews>,
    /// This instance may no longer write the table (another one holds it): stop.
    lost: bool,
    /// Each away seat's grace timer and its absence, stopped when the seat comes back (a person
    /// who drops and comes back every minute would otherwise leave a sleeping task behind each
    /// time).
    grace_timers: HashMap<Seat, (u64, tokio::task::AbortHandle)>,
    /// An open table's listing as last written (`None`: not written by this task yet).
    listed: Option<Option<String>>,
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
        for (_, timer) in self.grace_timers.values() {
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

/// Milliseconds since 1970 by the server's clock.
fn now_ms(settings: &Settings) -> i64 {
    settings.clock.now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Table {
    /// Rebuild a table from its stored log and start its task.
    pub(crate) fn spawn(
        mut stored: StoredTable,
        store: SharedStore,
        settings: Arc<Settings>,
        reviews: Arc<crate::reviews::Reviews>,
    ) -> Result<TableHandle, String> {
        let (config, core) = replay(&stored.id, &stored.config, std::mem::take(&mut stored.events))?;
        let (tx, rx) = mpsc::channel(1024);
        let rules = machine::Settings {
            grace_ms: settings.grace.as_millis() as u64,
            rematch_wait_ms: settings.rematch_wait.as_millis() as u64,
            chat_len: settings.chat_len,
            chat_interval_ms: settings.chat_interval.as_millis() as u64,
            bot_pause_ms: settings.bot_pause.as_millis() as u64,
            keep_bots: true,
        };
        let codes = (stored.join_code, stored.watch_code);
        let (machine, first) =
            Machine::new(config, core, rules, codes, stored.links, stored.deadlines, now_ms(&settings));
        let t = Table {
            id: stored.id,
            store,
            settings,
            machine,
            first: Some(first),
            conns: HashMap::new(),
            me: tx.clone(),
            last_busy: Instant::now(),
            reviews,
            lost: false,
            grace_timers: HashMap::new(),
            listed: None,
        };
        // Its own root: the request that happened to load the table is not its parent.
        let span = tracing::info_span!(parent: None, "table", id = %t.id);
        tokio::spawn(tracing::Instrument::instrument(t.run(rx), span));
        Ok(TableHandle { tx })
    }

    async fn run(mut self, mut rx: mpsc::Receiver<TableMsg>) {
        tracing::info!(version = self.machine.version(), "table ready");
        // A rated table's finished games are rated (again: once only, whatever happened to the
        // write at their end).
        let rated: Vec<Row> =
            self.machine.core().finished.iter().filter_map(|g| self.rated(g)).map(Row::Rated).collect();
        if !rated.is_empty() {
            let (store, id) = (self.store.clone(), self.id.clone());
            crate::settings::spawn_here(async move {
                if let Err(e) = store.append(rated).await {
                    tracing::warn!(table = %id, error = %e, "could not rate the finished games");
                }
            });
        }
        if let Some(first) = self.first.take() {
            self.drive(first).await;
        }
        let idle = self.settings.idle_unload;
        let mut tick = tokio::time::interval((idle / 4).max(Duration::from_millis(20)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut gauge = crate::metrics::TableGauge::new(self.machine.core().state());
        loop {
            let msg = tokio::select! {
                m = rx.recv() => match m {
                    Some(m) => m,
                    None => break,
                },
                _ = tick.tick() => {
                    self.write_deadlines().await;
                    self.write_listing().await;
                    if self.is_idle() && rx.is_empty() {
                        self.unload(rx).await;
                        return;
                    }
                    continue;
                }
            };
            self.last_busy = Instant::now();
            let go_on = self.handle(msg).await;
            gauge.set(self.machine.core().state());
            if !go_on {
                break;
            }
            self.write_deadlines().await;
            self.write_listing().await;
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
        let version = self.machine.version();
        while let Ok(msg) = rx.try_recv() {
            if let TableMsg::Command { conn, msg } = msg {
                if msg.id().is_some()
                    && let Some(tx) = self.conns.get(&conn)
                {
                    let _ = tx.try_send(refused(&Refusal::moved(), msg.id(), version));
                }
            } else if let Some(TableMsg::Shutdown { reply }) = self.answer(msg) {
                let _ = reply.send(());
            }
        }
        let url = match self.store.cluster() {
            Some(c) => c.owner_url(&self.id).await.ok().flatten(),
            None => None,
        };
        tracing::warn!(version, owner = ?url, "table lost to another instance");
        let msg = match url {
            Some(url) => ServerMsg::Redirect { url, message: "This table is played on another server now.".into() },
            None => oh7_table::protocol::ClosingReason::Moved.msg(version),
        };
        self.tell_all(msg.frame()).await;
    }

    /// Send `f` to every connection and let them go (the last frame they get from the table).
    /// An outbox that is full gets up to a second to take it: a client must not lose its
    /// `closing` because it was slow.
    async fn tell_all(&mut self, f: Frame) {
        let mut full = Vec::new();
        for (_, tx) in self.conns.drain() {
            if let Err(mpsc::error::TrySendError::Full(f)) = tx.try_send(f.clone()) {
                full.push(async move {
                    let _ = tx.send(f).await;
                });
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), futures_util::future::join_all(full)).await;
    }

    /// Nobody connected, no bot deciding, nothing for a while.
    fn is_idle(&self) -> bool {
        self.conns.is_empty() && self.machine.is_quiet() && self.last_busy.elapsed() >= self.settings.idle_unload
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
        tracing::info!(version = self.machine.version(), "idle table unloaded");
    }

    /// Answer a question about the table (information, records); any other message is given
    /// back.
    fn answer(&self, msg: TableMsg) -> Option<TableMsg> {
        let core = self.machine.core();
        match msg {
            TableMsg::Info { reply } => {
                let _ = reply.send(self.machine.info());
            }
            TableMsg::Record { reply } => {
                let _ = reply.send(core.finished.last().map(|f| f.record_value()));
            }
            TableMsg::Rules { reply } => {
                let config = self.machine.config();
                let summary = |lang| config.spec.summary(Some(config.players), lang);
                let _ = reply.send(oh7_table::protocol::RulesBody { en: summary(Lang::En), fr: summary(Lang::Fr) });
            }
            TableMsg::Finished { reply } => {
                let _ = reply.send(core.finished.clone());
            }
            other => return Some(other),
        }
        None
    }

    /// Handle one message; `false` to stop.
    async fn handle(&mut self, msg: TableMsg) -> bool {
        let Some(msg) = self.answer(msg) else { return true };
        self.machine.set_now(now_ms(&self.settings));
        match msg {
            TableMsg::Attach { conn, tx, access, token, account, reply } => {
                let span = conn_span(conn);
                self.conns.insert(conn, tx);
                match span.in_scope(|| self.machine.attach(conn, access, token.as_deref(), account)) {
                    Ok(out) => {
                        self.drive(out).instrument(span).await;
                        let _ = reply.send(Ok(self.machine.seat_of(conn)));
                    }
                    Err(r) => {
                        self.conns.remove(&conn);
                        let _ = reply.send(Err(r));
                    }
                }
            }
            TableMsg::Claim { token, account, reply } => match self.machine.claim(&token, account.clone()) {
                Ok((linked, out)) => {
                    self.drive(out).await;
                    let held = self.machine.links().any(|(_, a)| a == account);
                    let _ = reply.send(Ok(linked && held));
                }
                Err(r) => {
                    let _ = reply.send(Err(r));
                }
            },
            TableMsg::Detach { conn } => {
                self.conns.remove(&conn);
                let out = conn_span(conn).in_scope(|| self.machine.detach(conn));
                self.drive(out).await;
            }
            TableMsg::Command { conn, msg } => {
                if self.conns.contains_key(&conn) {
                    let span = conn_span(conn);
                    let out = span.in_scope(|| self.machine.command(conn, msg, &mut Os));
                    self.drive(out).instrument(span).await;
                }
            }
            TableMsg::BotDone(done) => {
                let out = self.machine.bot_done(done);
                self.drive(out).await;
            }
            TableMsg::Timer(timer) => {
                if let Timer::Grace { seat, epoch } = timer
                    && self.grace_timers.get(&seat).is_some_and(|(e, _)| *e == epoch)
                {
                    self.grace_timers.remove(&seat);
                }
                let out = self.machine.timer(timer, &mut Os);
                self.drive(out).await;
            }
            TableMsg::Info { .. } | TableMsg::Record { .. } | TableMsg::Rules { .. } | TableMsg::Finished { .. } => {}
            TableMsg::Lost => self.lost = true,
            TableMsg::DeadlinesDue => {
                let out = self.machine.deadlines_due();
                self.drive(out).await;
            }
            TableMsg::Suspend { account } => {
                let (conns, out) = self.machine.suspend(&account);
                for c in conns {
                    // Its outbox dropped: the connection closes.
                    self.conns.remove(&c);
                }
                self.drive(out).await;
            }
            TableMsg::Close => {
                tracing::warn!("the operator closed the table");
                self.tell_all(oh7_table::protocol::ClosingReason::Closed.msg(self.machine.version()).frame()).await;
                return false;
            }
            TableMsg::Shutdown { reply } => {
                self.tell_all(oh7_table::protocol::ClosingReason::Stopping.msg(self.machine.version()).frame()).await;
                let _ = reply.send(());
                return false;
            }
        }
        true
    }

    /// Do what the machine asks, write the change it asks for, and go on with what it asks
    /// then, until it asks for nothing.
    async fn drive(&mut self, mut out: Output) {
        loop {
            self.execute(out.effects).await;
            let Some(p) = out.write else { break };
            out = self.write(p).await;
        }
    }

    /// Write a change to the store; only then may the machine apply it.
    async fn write(&mut self, p: Pending) -> Output {
        let mut rows = Vec::new();
        if let Some(ev) = p.event() {
            let body = serde_json::to_string(ev).expect("events always serialize");
            rows.push(Row::Event { table_id: self.id.clone(), version: p.version(), body });
            if p.starts_game() {
                rows.push(Row::Finished { table_id: self.id.clone(), finished: false });
            }
        }
        if let Some((seat, account)) = p.link() {
            rows.push(Row::Link { table_id: self.id.clone(), seat, account: account.to_string() });
        }
        let asked = Instant::now();
        let written = self.store.append(rows).await;
        if p.event().is_some() {
            metrics::histogram!(crate::metrics::COMMIT).record(asked.elapsed());
        }
        match written {
            Ok(()) => {
                if let Some(Event::Act { seat, by_bot, .. }) = p.event() {
                    let [person, bot, stand_in] = crate::metrics::MOVERS;
                    let by = match (self.machine.core().seats[*seat].bot.is_some(), by_bot) {
                        (true, _) => bot,
                        (false, true) => stand_in,
                        (false, false) => person,
                    };
                    metrics::counter!(crate::metrics::MOVES, "by" => by).increment(1);
                }
                tracing::debug!(version = p.version(), "committed");
                self.machine.written(p, &mut Os)
            }
            Err(e) => {
                let why = if matches!(e, StoreError::Leased { .. } | StoreError::Conflict { .. }) {
                    // Another instance holds the table now: this one stops and its clients go
                    // there.
                    tracing::warn!(error = %e, "the table is held elsewhere; the change is dropped");
                    self.lost = true;
                    WriteFailure::Moved
                } else {
                    tracing::error!(error = %e, "commit failed; the change is dropped");
                    WriteFailure::Storage
                };
                self.machine.not_written(p, why)
            }
        }
    }

    /// Carry out the machine's effects; a connection too slow to keep up is dropped (it
    /// reconnects and gets a snapshot), and what the machine then asks (telling the others the
    /// seat is away) is done too.
    async fn execute(&mut self, effects: Vec<Effect>) {
        let began = Instant::now();
        let mut queue = std::collections::VecDeque::from(effects);
        let mut dead = Vec::new();
        loop {
            let Some(effect) = queue.pop_front() else {
                // Leaving asks for no write: only messages and timers.
                let Some(conn) = dead.pop() else { break };
                if self.conns.remove(&conn).is_some() {
                    queue.extend(self.machine.detach(conn).effects);
                }
                continue;
            };
            match effect {
                Effect::Send { to, msg } => {
                    if let ServerMsg::Error { code, .. } = &msg {
                        metrics::counter!(crate::metrics::REFUSALS, "code" => code.as_str()).increment(1);
                    }
                    let f = msg.frame();
                    for conn in to {
                        if self.conns.get(&conn).is_some_and(|tx| tx.try_send(f.clone()).is_err()) {
                            dead.push(conn);
                        }
                    }
                }
                Effect::Timer { after_ms, timer } => {
                    let me = self.me.clone();
                    let handle = crate::settings::spawn_here(async move {
                        tokio::time::sleep(Duration::from_millis(after_ms)).await;
                        let _ = me.send(TableMsg::Timer(timer)).await;
                    });
                    if let Timer::Grace { seat, epoch } = timer
                        && let Some((_, old)) = self.grace_timers.insert(seat, (epoch, handle.abort_handle()))
                    {
                        old.abort();
                    }
                }
                Effect::CancelGrace { seat } => {
                    if let Some((_, timer)) = self.grace_timers.remove(&seat) {
                        timer.abort();
                    }
                }
                Effect::Bot(job) => {
                    let me = self.me.clone();
                    crate::settings::spawn_here(async move {
                        if job.pause_ms > 0 {
                            tokio::time::sleep(Duration::from_millis(job.pause_ms)).await;
                        }
                        if let Ok(done) = tokio::task::spawn_blocking(move || job.run()).await {
                            let _ = me.send(TableMsg::BotDone(done)).await;
                        }
                    });
                }
                Effect::Hint(job) => {
                    let tx = self.conns.get(&job.conn).cloned();
                    crate::settings::spawn_here(async move {
                        if let Ok(msg) = tokio::task::spawn_blocking(move || job.run()).await
                            && let Some(tx) = tx
                        {
                            let _ = tx.send(msg.frame()).await;
                        }
                    });
                }
                Effect::Review(job) => self.review(job),
                // Before the messages that follow it: a game's end is marked and rated before
                // anyone is told it ended (its time is in the broadcast's histogram too).
                Effect::GameOver(g) => self.game_over(&g).await,
            }
        }
        metrics::histogram!(crate::metrics::BROADCAST).record(began.elapsed());
    }

    /// A game ended: the table is marked finished and a rated game's ratings move, in one
    /// transaction. Written after the game's last event: if it is lost in a crash, the over
    /// table is merely loaded at the next start, and rates its finished games again (once: see
    /// ratings.rs).
    async fn game_over(&mut self, g: &FinishedGame) {
        let mut rows = vec![Row::Finished { table_id: self.id.clone(), finished: true }];
        rows.extend(self.rated(g).map(Row::Rated));
        if let Err(e) = self.store.append(rows).await {
            tracing::warn!(error = %e, "could not mark the table finished");
        }
    }

    /// A finished game's outcome for the ratings (`None`: the table is not rated).
    fn rated(&self, g: &FinishedGame) -> Option<crate::ratings::Rated> {
        let config = self.machine.config();
        if !config.rated {
            return None;
        }
        let mut people: Vec<(Seat, String)> = self.machine.links().map(|(s, a)| (s, a.to_string())).collect();
        people.sort();
        let spec = &config.spec;
        Some(crate::ratings::Rated {
            table_id: self.id.clone(),
            game: g.game,
            family: crate::ratings::family(spec.game_name(), &spec.label()),
            placings: crate::ratings::placings(&g.totals, &g.winners, &people),
        })
    }

    /// Hand a review to the review service; its messages go to the asking connection only.
    fn review(&self, job: machine::ReviewJob) {
        let Some(tx) = self.conns.get(&job.conn).cloned() else { return };
        let info = self.machine.info();
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
        self.reviews.request(crate::reviews::Job {
            table_id: self.id.clone(),
            game: job.game,
            seat: job.seat,
            record: job.done.record_value(),
            table,
            version: job.version,
            tx,
        });
    }

    /// Write the turn-based deadlines if they changed (they outlive the task and the server;
    /// the lobby's sweep reads them); tried again after the next message if the write fails.
    async fn write_deadlines(&mut self) {
        let Some(due) = self.machine.deadlines_to_write() else { return };
        let row = Row::Deadlines { table_id: self.id.clone(), due: due.clone() };
        match self.store.append(vec![row]).await {
            Ok(()) => self.machine.deadlines_written(&due),
            Err(e) => tracing::warn!(error = %e, "could not write the move deadlines"),
        }
    }
}

impl Table {
    /// An open table keeps its row among the open tables while it waits for players (written
    /// when its public facts change; removed when it starts, fills or nobody is left in it);
    /// tried again after the next message if the write fails.
    async fn write_listing(&mut self) {
        let config = self.machine.config();
        if !config.open {
            return;
        }
        let facts = oh7_table::bodies::listing(&self.machine.info())
            .map(|l| serde_json::to_string(&l).expect("a listing always serializes"));
        if self.listed.as_ref() == Some(&facts) {
            return;
        }
        let spec = &config.spec;
        let row = Row::Listing {
            table_id: self.id.clone(),
            watch_code: self.machine.watch_code().to_string(),
            host_account: self.machine.links().find(|(s, _)| *s == 0).map(|(_, a)| a.to_string()),
            family: crate::ratings::family(spec.game_name(), &spec.label()),
            facts: facts.clone(),
        };
        match self.store.append(vec![row]).await {
            Ok(()) => self.listed = Some(facts),
            Err(e) => tracing::warn!(error = %e, "could not write the table's listing"),
        }
    }
}

/// A refusal as a frame.
fn refused(r: &Refusal, id: Option<&str>, version: u64) -> Frame {
    metrics::counter!(crate::metrics::REFUSALS, "code" => r.code.as_str()).increment(1);
    r.to_msg(id, Some(version)).frame()
}

/// The span of what a table does for connection `conn` (its log lines carry the connection id).
fn conn_span(conn: ConnId) -> tracing::Span {
    tracing::info_span!("conn", id = conn)
}
