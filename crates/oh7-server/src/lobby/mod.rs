//! Tables by code: the lobby loads a table from the log when a code names it, hands out its
//! task, and answers the public reads. Its other jobs have their own files: creating a table
//! from the create form (`create.rs`), the limits per address (`limits.rs`), the heartbeat of an
//! instance on a shared database (`cluster.rs`), and the bodies of the public reads
//! (`bodies.rs`). The codes and tokens themselves are made and checked in [`crate::secrets`].

mod cluster;
mod create;
mod limits;
mod room;

pub(crate) use create::CreateTable;
use limits::PerAddress;
pub(crate) use oh7_table::bodies::{TableStats, presets, table_stats};
pub(crate) use room::{OpenTable, QuickMatch};

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use tokio::sync::{Mutex, oneshot};

use crate::settings::Settings;
use crate::store::SharedStore;
use crate::store::StoredTable;
use crate::table::{Access, Table, TableHandle, TableMsg};
use oh7_table::project::TableInfo;

/// Where the table behind a code is.
pub(crate) enum Located {
    /// Here: its task, and the access the code gives.
    Here(TableHandle, Access),
    /// Played by the instance at this address.
    Elsewhere(String),
    /// No table has the code (or the server is stopping).
    Unknown,
}

/// Why a table could not be loaded here.
enum NotLoaded {
    /// Another instance holds it.
    Leased,
    /// Anything else (worded for the log).
    Failed(String),
}

/// Every table of the server, by code.
pub(crate) struct Lobby {
    store: SharedStore,
    /// The review service (tables hand it their requests; pages are read through it).
    pub reviews: std::sync::Arc<crate::reviews::Reviews>,
    settings: Arc<Settings>,
    tables: Mutex<HashMap<String, (TableHandle, Access)>>,
    /// Loaded tables by id, with when they were loaded.
    by_id: Mutex<HashMap<String, (TableHandle, Instant)>>,
    /// The one door to load a table from the database: held across the check, the load and
    /// the register, so concurrent finds of one table (by either code) get one handle.
    loading: Mutex<()>,
    per_address: std::sync::Mutex<PerAddress>,
    /// The server is stopping: no table is loaded any more.
    closing: std::sync::atomic::AtomicBool,
}

impl Lobby {
    /// An empty lobby on `store`.
    pub(crate) fn new(store: SharedStore, settings: Arc<Settings>, reviews: Arc<crate::reviews::Reviews>) -> Lobby {
        Lobby {
            store,
            reviews,
            settings,
            tables: Mutex::new(HashMap::new()),
            by_id: Mutex::new(HashMap::new()),
            loading: Mutex::new(()),
            per_address: std::sync::Mutex::new(PerAddress::default()),
            closing: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Restore every table whose game is not over from the log (on a shared database, those
    /// no other instance holds). Returns how many.
    pub(crate) async fn restore(&self) -> Result<usize, String> {
        let ids = self.store.unfinished().await.map_err(|e| e.to_string())?;
        let mut restored = 0;
        for id in &ids {
            let _door = self.loading.lock().await;
            if self.by_id.lock().await.get(id).is_some_and(|(h, _)| !h.tx.is_closed()) {
                // Claimed already (the first heartbeat found it orphaned).
                restored += 1;
                continue;
            }
            let stored = self.store.load(id).await.map_err(|e| e.to_string())?;
            match self.register(stored).await {
                Ok(_) => restored += 1,
                // Another instance took it meanwhile.
                Err(NotLoaded::Leased) => {}
                Err(NotLoaded::Failed(e)) => return Err(e),
            }
        }
        Ok(restored)
    }

    /// Take the table's lease and start its task (callers hold the loading door).
    async fn register(&self, stored: StoredTable) -> Result<TableHandle, NotLoaded> {
        let (id, join, watch) = (stored.id.clone(), stored.join_code.clone(), stored.watch_code.clone());
        match self.store.lease(&id).await {
            Ok(()) => {}
            Err(crate::store::StoreError::Leased { .. }) => return Err(NotLoaded::Leased),
            Err(e) => return Err(NotLoaded::Failed(e.to_string())),
        }
        // The seats of suspended accounts are played by bots from the start.
        let mut barred = Vec::new();
        for (_, account) in &stored.links {
            if self.store.room().is_suspended(account).await.map_err(|e| NotLoaded::Failed(e.to_string()))? {
                barred.push(account.clone());
            }
        }
        let handle = Table::spawn(stored, self.store.clone(), self.settings.clone(), self.reviews.clone())
            .map_err(NotLoaded::Failed)?;
        for account in barred {
            let _ = handle.tx.send(crate::table::TableMsg::Suspend { account }).await;
        }
        let mut tables = self.tables.lock().await;
        // Forget the handles of tables that unloaded themselves since (their tasks are gone).
        tables.retain(|_, (h, _)| !h.tx.is_closed());
        tables.insert(join, (handle.clone(), Access::Invite));
        tables.insert(watch, (handle.clone(), Access::Watch));
        let mut by_id = self.by_id.lock().await;
        by_id.retain(|_, (h, _)| !h.tx.is_closed());
        by_id.insert(id, (handle.clone(), Instant::now()));
        Ok(handle)
    }

    /// Link the seat of `token` at the table of invite `code` to `account` ([`TableMsg::Claim`]):
    /// `Ok(true)` if it is now the account's, `Ok(false)` if the code is not an invite here (a
    /// watch code, an unknown code, a table another instance plays: it is linked there on the
    /// next visit with the token) or the seat was linked already; a token of no seat there is
    /// refused. Nothing else changes at the table.
    pub(crate) async fn claim_seat(
        &self,
        code: &str,
        token: &str,
        account: &str,
    ) -> Result<bool, oh7_table::protocol::Refusal> {
        for _ in 0..3 {
            let handle = match self.locate(code).await {
                Located::Here(h, Access::Invite) => h,
                _ => return Ok(false),
            };
            let (reply, wait) = oneshot::channel();
            let msg = TableMsg::Claim { token: token.to_string(), account: account.to_string(), reply };
            if handle.tx.send(msg).await.is_err() {
                continue;
            }
            // A table that unloads itself meanwhile drops the answer: ask again.
            if let Ok(r) = wait.await {
                return r;
            }
        }
        Ok(false)
    }

    /// Where the table behind a code is played, loading it from the database if it is not in
    /// memory (a finished table, one unloaded while idle, or one whose instance died). Every
    /// load goes through one door, so one table has one task, whatever the number of
    /// connections asking at once; on a shared database, a table another instance holds is
    /// [`Located::Elsewhere`].
    pub(crate) async fn locate(&self, code: &str) -> Located {
        if code.len() != 32 || !code.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Located::Unknown;
        }
        if let Some((h, a)) = self.tables.lock().await.get(code).filter(|(h, _)| !h.tx.is_closed()) {
            return Located::Here(h.clone(), *a);
        }
        // One load at a time: whoever waited here finds the table registered by the one before.
        let _door = self.loading.lock().await;
        if self.is_closing() {
            return Located::Unknown;
        }
        if let Some((h, a)) = self.tables.lock().await.get(code).filter(|(h, _)| !h.tx.is_closed()) {
            return Located::Here(h.clone(), *a);
        }
        let Ok(Some(id)) = self.store.find_code(code).await else { return Located::Unknown };
        let Ok(stored) = self.store.load(&id).await else { return Located::Unknown };
        let access = if stored.join_code == code { Access::Invite } else { Access::Watch };
        match self.register(stored).await {
            Ok(handle) => Located::Here(handle, access),
            Err(NotLoaded::Leased) => {
                let owner = match self.store.cluster() {
                    Some(c) => c.owner_url(&id).await.ok().flatten(),
                    None => None,
                };
                // Held, but its owner's address is not known yet (it is starting): the client
                // asks again after its usual pause.
                owner.map_or(Located::Unknown, Located::Elsewhere)
            }
            Err(NotLoaded::Failed(e)) => {
                tracing::error!(table = %id, error = %e, "could not load the table");
                Located::Unknown
            }
        }
    }

    /// Turn-based tables whose deadline has passed: each is loaded (here, if no other instance
    /// holds it: a deadline fires on the table's owner only) and told to look.
    pub(crate) async fn sweep_deadlines(&self) {
        let now = self.settings.clock.now_s();
        let due = match self.store.accounts().due_tables(now).await {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the move deadlines");
                return;
            }
        };
        for id in due {
            if self.is_closing() {
                return;
            }
            let here = self.by_id.lock().await.get(&id).filter(|(h, _)| !h.tx.is_closed()).map(|(h, _)| h.clone());
            let handle = match here {
                Some(h) => Some(h),
                None => {
                    let _door = self.loading.lock().await;
                    let again =
                        self.by_id.lock().await.get(&id).filter(|(h, _)| !h.tx.is_closed()).map(|(h, _)| h.clone());
                    match again {
                        Some(h) => Some(h),
                        None => match self.store.load(&id).await {
                            Ok(stored) => self.register(stored).await.ok(),
                            Err(e) => {
                                tracing::error!(table = %id, error = %e, "could not load a table whose deadline passed");
                                None
                            }
                        },
                    }
                }
            };
            if let Some(h) = handle {
                let _ = h.tx.send(crate::table::TableMsg::DeadlinesDue).await;
            }
        }
    }

    /// Load table `id` here if no instance holds it now (the heartbeat found its owner's
    /// lease run out).
    async fn claim(&self, id: &str) {
        let _door = self.loading.lock().await;
        if self.is_closing() || self.by_id.lock().await.get(id).is_some_and(|(h, _)| !h.tx.is_closed()) {
            return;
        }
        match self.store.load(id).await {
            Ok(stored) => match self.register(stored).await {
                Ok(_) => {
                    metrics::counter!(crate::metrics::LEASES_CLAIMED).increment(1);
                    tracing::info!(table = %id, "claimed the table of an instance that stopped")
                }
                Err(NotLoaded::Leased) => {}
                Err(NotLoaded::Failed(e)) => tracing::error!(table = %id, error = %e, "could not claim the table"),
            },
            Err(e) => tracing::error!(table = %id, error = %e, "could not load the table to claim"),
        }
    }

    /// A table's stored log, as the database has it (for a player's statistics).
    pub(crate) async fn load_stored(&self, id: &str) -> Result<StoredTable, crate::store::StoreError> {
        self.store.load(id).await
    }

    /// The accounts and sessions of the lobby's store.
    pub(crate) fn accounts(&self) -> &dyn crate::accounts::AccountStore {
        self.store.accounts()
    }

    /// The lobby's counts: over every live instance on a shared database, else this one's.
    pub(crate) async fn counts(&self) -> Result<crate::store::LobbyCounts, crate::store::StoreError> {
        if let Some(c) = self.store.cluster() {
            return c.counts().await;
        }
        let tables_open = self.store.unfinished().await?.len();
        let connections = self.per_address.lock().expect("per-address lock").conns.values().sum();
        Ok(crate::store::LobbyCounts {
            instances: 1,
            servers: Vec::new(),
            tables_open,
            tables_running: self.handles().await.len(),
            connections,
        })
    }

    /// Whether a change can be committed now (`/readyz`), within `within`.
    pub(crate) async fn ready(&self, within: std::time::Duration) -> Result<(), String> {
        match tokio::time::timeout(within, self.store.ready()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no commit within {} s", within.as_secs())),
        }
    }

    /// Stop loading tables (the server is stopping).
    pub(crate) async fn close(&self) {
        let _door = self.loading.lock().await;
        self.closing.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether the server is stopping.
    pub(crate) fn is_closing(&self) -> bool {
        self.closing.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Every table task in memory, by table id.
    pub(crate) async fn handles_by_id(&self) -> HashMap<String, TableHandle> {
        self.by_id
            .lock()
            .await
            .iter()
            .filter(|(_, (h, _))| !h.tx.is_closed())
            .map(|(id, (h, _))| (id.clone(), h.clone()))
            .collect()
    }

    /// Every table task in memory (for shutdown).
    pub(crate) async fn handles(&self) -> Vec<TableHandle> {
        self.by_id.lock().await.values().filter(|(h, _)| !h.tx.is_closed()).map(|(h, _)| h.clone()).collect()
    }

    /// Ask the table behind `code` something (`make` builds the message around the reply).
    /// A table that unloaded itself meanwhile is loaded again and asked again. `Err`: the
    /// table is unknown ([`Located::Unknown`]) or played elsewhere.
    pub(crate) async fn ask<T>(
        &self,
        code: &str,
        make: impl Fn(oneshot::Sender<T>) -> TableMsg,
    ) -> Result<(T, Access), Located> {
        for _ in 0..3 {
            let (h, access) = match self.locate(code).await {
                Located::Here(h, a) => (h, a),
                other => return Err(other),
            };
            let (tx, rx) = oneshot::channel();
            if h.tx.send(make(tx)).await.is_err() {
                continue;
            }
            if let Ok(answer) = rx.await {
                return Ok((answer, access));
            }
        }
        Err(Located::Unknown)
    }

    /// Public information about the table behind `code`.
    pub(crate) async fn info(&self, code: &str) -> Result<TableInfo, Located> {
        self.ask(code, |reply| TableMsg::Info { reply }).await.map(|(i, _)| i)
    }

    /// The statistics of every finished game at the table behind `code` (`Ok(None)`: no game
    /// has finished yet).
    pub(crate) async fn stats(&self, code: &str) -> Result<Option<TableStats>, Located> {
        let (games, _) = self.ask(code, |reply| TableMsg::Finished { reply }).await?;
        if games.is_empty() {
            return Ok(None);
        }
        // Records are replayed into counters: off the async workers.
        tokio::task::spawn_blocking(move || table_stats(&games)).await.map(Some).map_err(|_| Located::Unknown)
    }

    /// The rules summary of the table behind `code`, for its player count, in both languages.
    pub(crate) async fn rules(&self, code: &str) -> Result<oh7_table::protocol::RulesBody, Located> {
        self.ask(code, |reply| TableMsg::Rules { reply }).await.map(|(r, _)| r)
    }

    /// The last finished game's record at the table behind `code`.
    pub(crate) async fn record(&self, code: &str) -> Result<Option<Value>, Located> {
        self.ask(code, |reply| TableMsg::Record { reply }).await.map(|(r, _)| r)
    }
}
