//! Tables by code, and the limits per address. The codes and tokens themselves are made and
//! checked in [`crate::secrets`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{Mutex, oneshot};

use crate::Settings;
use crate::event::{Event, LOG_FORMAT};
use crate::project::TableInfo;
use crate::protocol::{ErrorCode, Refusal};
use crate::secrets::{TokenHash, new_code, new_secret, new_seed};
use crate::store::{Row, StoredTable};
use crate::table::{Access, FinishedGame, SharedStore, Table, TableConfig, TableHandle, TableMsg, check_name};
use oh7_bots::{GameBots, GameSpec};
use oh7_core::registry::{GameId, GameRequest, SpecError};

/// Largest custom ruleset text, in bytes.
pub(crate) const MAX_RULESET: usize = 8192;
/// Players at a table created without a count (brought into the game's range).
pub(crate) const DEFAULT_PLAYERS: usize = 4;
/// The languages of a table.
pub(crate) const LANGS: [&str; 2] = ["en", "fr"];
/// The turn clock's range, in seconds.
pub(crate) const CLOCK_S: std::ops::RangeInclusive<u32> = 10..=600;

/// What a client asks to create a table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct CreateTable {
    /// `oh7` (default) or `seven`.
    pub game: Option<String>,
    /// `en`, `fr`, `fr-advanced`, `kod7` or `bga` (Oh 7).
    pub preset: Option<String>,
    /// A custom ruleset (TOML), instead of a preset.
    pub ruleset: Option<String>,
    /// Players; left out: 4, or the nearest count the game allows.
    pub players: Option<usize>,
    /// Per seat: `"human"` or a bot level; seat 0 is the creator's unless it is a bot. Missing
    /// seats are for people.
    pub seats: Vec<String>,
    /// The creator's display name (needed unless every seat is a bot).
    pub name: Option<String>,
    /// `en` or `fr`.
    pub lang: Option<String>,
    /// A turn clock in seconds (10 to 600), off if left out.
    pub turn_clock_s: Option<u32>,
}

/// The answer to a table's creation: its codes and, if the creator sits, seat 0's token.
#[derive(Debug, Serialize)]
pub(crate) struct Created {
    /// The invite code.
    pub invite: String,
    /// The spectator code.
    pub watch: String,
    /// The creator's seat (0), if they sit.
    pub seat: Option<usize>,
    /// The creator's seat token.
    pub token: Option<String>,
}

/// A sliding count of events per address (tables created, connections).
#[derive(Default)]
struct PerAddress {
    tables: HashMap<IpAddr, Vec<Instant>>,
    conns: HashMap<IpAddr, usize>,
    /// Connections per address on the other instances (as of the last heartbeat).
    elsewhere: HashMap<IpAddr, usize>,
}

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
        let handle = Table::spawn(stored, self.store.clone(), self.settings.clone(), self.reviews.clone())
            .map_err(NotLoaded::Failed)?;
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

    /// Load table `id` here if no instance holds it now (the heartbeat found its owner's
    /// lease run out).
    async fn claim(&self, id: &str) {
        let _door = self.loading.lock().await;
        if self.is_closing() || self.by_id.lock().await.get(id).is_some_and(|(h, _)| !h.tx.is_closed()) {
            return;
        }
        match self.store.load(id).await {
            Ok(stored) => match self.register(stored).await {
                Ok(_) => tracing::info!(table = %id, "claimed the table of an instance that stopped"),
                Err(NotLoaded::Leased) => {}
                Err(NotLoaded::Failed(e)) => tracing::error!(table = %id, error = %e, "could not claim the table"),
            },
            Err(e) => tracing::error!(table = %id, error = %e, "could not load the table to claim"),
        }
    }

    /// One heartbeat on a shared database: say this instance is alive at `url` with its
    /// connections per address, renew its leases, stop the tables it lost (a pause longer than
    /// the lease), and claim those whose instance died.
    pub(crate) async fn heartbeat(&self, url: &str) {
        let Some(cluster) = self.store.cluster() else { return };
        let began = Instant::now();
        let conns: Vec<(IpAddr, usize)> = {
            let p = self.per_address.lock().expect("per-address lock");
            p.conns.iter().map(|(ip, n)| (*ip, *n)).collect()
        };
        let beat = match cluster.heartbeat(url, conns).await {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "heartbeat failed");
                return;
            }
        };
        self.per_address.lock().expect("per-address lock").elsewhere = beat.conns_elsewhere;
        let lost: Vec<(String, TableHandle)> = self
            .by_id
            .lock()
            .await
            .iter()
            .filter(|(id, (h, at))| *at < began && !h.tx.is_closed() && !beat.held.contains(*id))
            .map(|(id, (h, _))| (id.clone(), h.clone()))
            .collect();
        for (id, h) in lost {
            tracing::warn!(table = %id, "lost the table's lease: stopping it here");
            let _ = h.tx.send(TableMsg::Lost).await;
        }
        for id in beat.orphans {
            if self.is_closing() {
                break;
            }
            self.claim(&id).await;
        }
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

    /// Stop loading tables (the server is stopping).
    pub(crate) async fn close(&self) {
        let _door = self.loading.lock().await;
        self.closing.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether the server is stopping.
    pub(crate) fn is_closing(&self) -> bool {
        self.closing.load(std::sync::atomic::Ordering::SeqCst)
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

    /// Count a connection from `ip`; refused over the limit (on a shared database, counting
    /// those open on the other instances as of their last heartbeat).
    pub(crate) fn connect(&self, ip: IpAddr) -> Result<(), Refusal> {
        let mut p = self.per_address.lock().expect("per-address lock");
        let elsewhere = p.elsewhere.get(&ip).copied().unwrap_or(0);
        let n = p.conns.entry(ip).or_default();
        if *n + elsewhere >= self.settings.max_conns_per_ip {
            return Err(Refusal::new(
                ErrorCode::TooMany,
                format!("Too many connections from your address (at most {}).", self.settings.max_conns_per_ip),
            ));
        }
        *n += 1;
        Ok(())
    }

    /// A connection from `ip` closed.
    pub(crate) fn disconnect(&self, ip: IpAddr) {
        let mut p = self.per_address.lock().expect("per-address lock");
        if let Some(n) = p.conns.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                p.conns.remove(&ip);
            }
        }
    }

    /// Create a table. Returns the codes and, for the creator's seat, its token.
    ///
    /// Whatever a person can get wrong in the create form has its own code and the figures to
    /// word it (`params`); `bad_request` is left for what no form sends.
    pub(crate) async fn create(&self, req: CreateTable, ip: IpAddr) -> Result<Created, Refusal> {
        let bad = |m: String| Refusal::new(ErrorCode::BadRequest, m);
        let bad_ruleset =
            |detail: String| Refusal::new(ErrorCode::BadRuleset, format!("Ruleset: {detail}")).param("detail", detail);
        let too_large = || {
            Refusal::new(ErrorCode::RulesetTooLarge, format!("A ruleset file has at most {} KiB.", MAX_RULESET / 1024))
                .param("max_bytes", MAX_RULESET)
        };
        let short = |t: &str| t.chars().take(20).collect::<String>();
        if req.ruleset.as_ref().is_some_and(|t| t.len() > MAX_RULESET) {
            return Err(too_large());
        }
        let request =
            GameRequest { game: req.game.as_deref(), preset: req.preset.as_deref(), ruleset: req.ruleset.as_deref() };
        let spec = GameSpec::from_request(&request).map_err(|e| match e {
            SpecError::UnknownGame(_) => {
                let names: Vec<String> = GameId::names().iter().map(|n| format!("`{n}`")).collect();
                bad(format!("The game is {}.", names.join(" or ")))
            }
            SpecError::PresetAndRuleset => {
                Refusal::new(ErrorCode::PresetAndRuleset, "Give a preset or a ruleset, not both.")
            }
            SpecError::UnknownPreset { game, given, presets } => {
                let entry = game.entry();
                let message = if entry.has_presets {
                    format!("Unknown preset `{given}`: choose {}.", or_list(&presets))
                } else {
                    format!("{} has no presets: give its knobs as a ruleset (e.g. `limit = 50`).", entry.title)
                };
                Refusal::new(ErrorCode::UnknownPreset, message).param("preset", given).param("presets", presets)
            }
            SpecError::BadRuleset(detail) => bad_ruleset(detail),
        })?;
        let Some((min, max)) = spec.player_range() else {
            // Seven knobs no player count can use (a hand size too large, a zero turn limit).
            let detail =
                spec.check_players(spec.id().entry().players.0).err().map(|e| e.to_string()).unwrap_or_default();
            return Err(bad_ruleset(detail));
        };
        let players = req.players.unwrap_or(DEFAULT_PLAYERS.clamp(min, max));
        let bad_players = |detail: String| {
            Refusal::new(ErrorCode::BadPlayers, format!("Players: {detail}")).param("min", min).param("max", max)
        };
        if !(min..=max).contains(&players) {
            let detail = spec.ruleset().and_then(|r| r.check_players(players).err()).map(|e| e.to_string());
            return Err(bad_players(
                detail.unwrap_or_else(|| format!("this game is played by {min} to {max} players; got {players}")),
            ));
        }
        spec.check_players(players).map_err(|e| bad_ruleset(e.to_string()))?;
        if req.seats.len() > players {
            return Err(bad(format!("{} seats listed for {players} players.", req.seats.len())));
        }
        let mut seats: Vec<Option<String>> = Vec::with_capacity(players);
        for s in 0..players {
            match req.seats.get(s).map(String::as_str) {
                None | Some("human") => seats.push(None),
                Some(level) if spec.levels().contains(&level) => seats.push(Some(level.to_string())),
                Some(level) => {
                    return Err(Refusal::unknown_level(&spec, level, Some(s)));
                }
            }
        }
        let all_bots = seats.iter().all(Option::is_some);
        let name = match (&req.name, all_bots) {
            (Some(n), false) => Some(check_name(n)?),
            (None, false) => {
                return Err(Refusal::new(ErrorCode::BadName, "Give your name to take a seat.")
                    .param("max", crate::table::MAX_NAME));
            }
            (_, true) => None,
        };
        if name.is_some() && seats[0].is_some() {
            return Err(Refusal::new(ErrorCode::HostSeatBot, "Seat 0 is the host's: make it human."));
        }
        let lang = req.lang.unwrap_or_else(|| "en".into());
        if !LANGS.contains(&lang.as_str()) {
            return Err(Refusal::new(ErrorCode::BadLang, "The language is `en` or `fr`.")
                .param("lang", short(&lang))
                .param("langs", LANGS.to_vec()));
        }
        if let Some(c) = req.turn_clock_s
            && !CLOCK_S.contains(&c)
        {
            return Err(Refusal::new(
                ErrorCode::BadClock,
                format!("The turn clock is {} to {} seconds.", CLOCK_S.start(), CLOCK_S.end()),
            )
            .param("min", *CLOCK_S.start())
            .param("max", *CLOCK_S.end()));
        }
        self.count_table(ip).await?;
        let config = TableConfig { spec, players, seats, lang, turn_clock_s: req.turn_clock_s, log: LOG_FORMAT };
        let (id, join_code, watch_code) = (new_code(), new_code(), new_code());
        let mut events = Vec::new();
        let token = name.as_ref().map(|_| new_secret());
        if let (Some(name), Some(token)) = (&name, &token) {
            events.push(Event::Join { seat: 0, name: name.clone(), token_hash: TokenHash::of(token) });
        }
        if all_bots {
            events.push(Event::Start { seat: None, id: None, seed: new_seed(), fill: None });
        }
        let config_json = serde_json::to_value(&config).map_err(|e| bad(e.to_string()))?;
        let created_at = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        let mut rows = vec![Row::Table {
            id: id.clone(),
            join_code: join_code.clone(),
            watch_code: watch_code.clone(),
            config: config_json.to_string(),
            created_at,
        }];
        let events: Vec<Value> =
            events.iter().map(|e| serde_json::to_value(e).expect("events always serialize")).collect();
        for (i, ev) in events.iter().enumerate() {
            rows.push(Row::Event { table_id: id.clone(), version: i as u64 + 1, body: ev.to_string() });
        }
        self.store
            .append(rows)
            .await
            .map_err(|_| Refusal::new(ErrorCode::Storage, "The server could not save the table; try again."))?;
        let stored = StoredTable {
            id: id.clone(),
            join_code: join_code.clone(),
            watch_code: watch_code.clone(),
            config: config_json,
            events: events.into_iter().enumerate().map(|(i, e)| (i as u64 + 1, e)).collect(),
        };
        {
            let _door = self.loading.lock().await;
            self.register(stored).await.map_err(|e| {
                let why = match e {
                    NotLoaded::Leased => "held by another instance".to_string(),
                    NotLoaded::Failed(e) => e,
                };
                tracing::error!(table = %id, error = %why, "a new table could not start");
                Refusal::new(ErrorCode::Storage, "The server could not start the table; try again.")
            })?;
        }
        tracing::info!(table = %id, players, "table created");
        Ok(Created { invite: join_code, watch: watch_code, seat: token.as_ref().map(|_| 0), token })
    }

    async fn count_table(&self, ip: IpAddr) -> Result<(), Refusal> {
        let too_many = || {
            Refusal::new(
                ErrorCode::TooMany,
                format!("Too many tables from your address this hour (at most {}).", self.settings.max_tables_per_ip),
            )
        };
        if let Some(c) = self.store.cluster() {
            // Counted in the shared database, whichever instance the address uses.
            return match c.count_created(ip, self.settings.max_tables_per_ip).await {
                Ok(true) => Ok(()),
                Ok(false) => Err(too_many()),
                Err(e) => {
                    tracing::error!(error = %e, "could not count the tables of an address");
                    Err(Refusal::new(ErrorCode::Storage, "The server could not save the table; try again."))
                }
            };
        }
        let mut p = self.per_address.lock().expect("per-address lock");
        let now = Instant::now();
        let list = p.tables.entry(ip).or_default();
        list.retain(|t| now.duration_since(*t).as_secs() < 3600);
        if list.len() >= self.settings.max_tables_per_ip {
            return Err(too_many());
        }
        list.push(now);
        Ok(())
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
    pub(crate) async fn rules(&self, code: &str) -> Result<crate::protocol::RulesBody, Located> {
        self.ask(code, |reply| TableMsg::Rules { reply }).await.map(|(r, _)| r)
    }

    /// The last finished game's record at the table behind `code`.
    pub(crate) async fn record(&self, code: &str) -> Result<Option<Value>, Located> {
        self.ask(code, |reply| TableMsg::Record { reply }).await.map(|(r, _)| r)
    }
}

// The bodies below list their fields in alphabetical order: they were once built as `Value` maps,
// whose keys serde_json writes sorted, and the same order keeps every body byte for byte.

/// One value per game of the registry, keyed by its name (`oh7`, `seven`).
pub(crate) type ByGame<T> = std::collections::BTreeMap<GameId, T>;

/// One game and preset a table can be created with, in [`Presets`].
#[derive(Debug, Serialize)]
pub(crate) struct PresetGame {
    /// `oh7` or `seven`.
    pub game: &'static str,
    /// The most players.
    pub max_players: usize,
    /// The fewest players.
    pub min_players: usize,
    /// The preset's name (`seven` for Seven).
    pub preset: String,
    /// Its rules, as the engine's knobs.
    pub ruleset: Value,
}

/// The body of `GET /api/presets`: see [`presets`].
#[derive(Debug, Serialize)]
pub(crate) struct Presets {
    /// Every game and preset with its player counts and rules.
    pub games: Vec<PresetGame>,
    /// Each game's bot levels, weakest first.
    pub levels: ByGame<&'static [&'static str]>,
    /// Each game's strongest bot level.
    pub strongest: ByGame<&'static str>,
}

/// What every create form needs to know: the bot levels of each game, the strongest, and each
/// preset's player counts and rules (from the engine's own knobs).
pub(crate) fn presets() -> Presets {
    let specs = GameSpec::all();
    let games = specs
        .iter()
        .filter_map(|spec| {
            let (min, max) = spec.player_range()?;
            Some(PresetGame {
                game: spec.game_name(),
                max_players: max,
                min_players: min,
                preset: spec.label(),
                ruleset: spec.ruleset_json(),
            })
        })
        .collect();
    Presets {
        games,
        levels: GameId::ALL.into_iter().map(|g| (g, g.levels())).collect(),
        strongest: GameId::ALL.into_iter().map(|g| (g, g.strongest())).collect(),
    }
}

/// One finished game in [`TableStats::history`].
#[derive(Debug, Serialize)]
pub(crate) struct GameResult {
    /// Its number at the table, from 1.
    pub game: u32,
    /// Final totals by seat.
    pub totals: Vec<i64>,
    /// The winners.
    pub winners: Vec<oh7_core::Seat>,
}

/// The body of `GET /api/tables/{code}/stats`: see [`table_stats`].
#[derive(Debug, Serialize)]
pub(crate) struct TableStats {
    /// How many games have finished.
    pub games: usize,
    /// Each finished game's totals and winners, in order.
    pub history: Vec<GameResult>,
    /// The Oh 7 figures over every finished Oh 7 game (`null` when there is none).
    pub stats: Option<Oh7Figures>,
    /// The Seven figures over every finished Seven game (`null` when there is none).
    pub seven: Option<SevenFigures>,
}

/// The figures of `oh7-stats` over a table's finished Seven games, in [`TableStats`].
#[derive(Debug, Serialize)]
pub(crate) struct SevenFigures {
    /// Rounds played.
    pub rounds: u64,
    /// Draw actions (a turn's draw or a penalty), and the cards they drew.
    pub draws: u64,
    /// Cards drawn.
    pub cards_drawn: u64,
    /// Last cards announced.
    pub announces: u64,
    /// Call-outs that made a player draw.
    pub callouts: u64,
    /// Per seat.
    pub players: Vec<SevenSeatFigures>,
}

/// One seat's Seven figures, in [`SevenFigures`].
#[derive(Debug, Serialize)]
pub(crate) struct SevenSeatFigures {
    /// The seat, from 0.
    pub seat: usize,
    /// The mean points added per round played (fewer is better).
    pub points_per_round: f64,
    /// The share of its rounds in which the seat went out first.
    pub out_rate: f64,
    /// Action cards played (2, A♠, 7, 8, 10, J).
    pub action_cards: u64,
    /// Turns taken (plays, draws, passes).
    pub turns: u64,
}

/// The figures of `oh7-stats` over a table's finished Oh 7 games, in [`TableStats`].
#[derive(Debug, Serialize)]
pub(crate) struct Oh7Figures {
    /// Per seat.
    pub players: Vec<SeatFigures>,
    /// Rounds played.
    pub rounds: u64,
    /// For the whole table.
    pub table: TableFigures,
}

/// A table's figures over every seat, in [`Oh7Figures`].
#[derive(Debug, Serialize)]
pub(crate) struct TableFigures {
    /// The mean of each round's highest bid.
    pub average_top_bid: f64,
    /// The share of bids that are 0.
    pub nil_bid_rate: f64,
    /// By suit letter: the share of rounds with a trump that had this suit as trump (every suit
    /// of the decks played is listed, 0 if never trump).
    pub trump_selection_rate: std::collections::BTreeMap<String, f64>,
}

/// One seat's figures, in [`Oh7Figures`].
#[derive(Debug, Serialize)]
pub(crate) struct SeatFigures {
    /// The mean bid.
    pub average_bid: f64,
    /// The share of bids that are 0.
    pub nil_bid_rate: f64,
    /// The share of rounds with more tricks than bid.
    pub overshoot_rate: f64,
    /// The mean points per round.
    pub points_per_round: f64,
    /// The seat, from 0.
    pub seat: usize,
    /// The share of rounds with fewer tricks than bid.
    pub shortfall_rate: f64,
    /// The share of rounds with exactly the tricks bid.
    pub success_rate: f64,
    /// The share of bids that are the round's highest.
    pub top_bid_rate: f64,
}

/// The statistics of a table's finished games: each game's totals and winners, and for Oh 7 the
/// figures of `oh7-stats` (the same accumulator as `oh7 stats`) over all of them.
pub(crate) fn table_stats(games: &[Arc<FinishedGame>]) -> TableStats {
    let history = games
        .iter()
        .map(|g| GameResult { game: g.game, totals: g.totals.clone(), winners: g.winners.clone() })
        .collect();
    let of = |id| -> Vec<&Value> {
        games.iter().map(|g| &g.record).filter(|r| GameId::of_record(r).ok() == Some(id)).collect()
    };
    let oh7 = of(GameId::Oh7);
    let stats = if oh7.is_empty() { None } else { Some(oh7_figures(&oh7)) };
    let seven = of(GameId::Seven);
    let seven = if seven.is_empty() { None } else { Some(seven_figures(&seven)) };
    TableStats { games: games.len(), history, stats, seven }
}

fn seven_figures(records: &[&Value]) -> SevenFigures {
    let mut acc = oh7_stats::Stats::new();
    for r in records {
        if let Err(e) = acc.add_value(r) {
            tracing::error!(error = %e, "a finished game's record is not readable for statistics");
        }
    }
    let o = &acc.seven;
    let players = o
        .by_seat
        .iter()
        .enumerate()
        .map(|(seat, p)| SevenSeatFigures {
            seat,
            points_per_round: p.points.value(),
            out_rate: p.out.value(),
            action_cards: p.plays[..oh7_stats::seven::ACTION_CARDS.len()].iter().sum(),
            turns: p.turns,
        })
        .collect();
    SevenFigures {
        rounds: o.rounds,
        draws: o.draws,
        cards_drawn: o.cards_drawn,
        announces: o.announces,
        callouts: o.callouts,
        players,
    }
}

fn oh7_figures(records: &[&Value]) -> Oh7Figures {
    let mut acc = oh7_stats::Stats::new();
    // Every suit of the deck is listed, those never trump at 0.
    let mut suits: Vec<oh7_core::card::Suit> = Vec::new();
    for r in records {
        if let Err(e) = acc.add_value(r) {
            tracing::error!(error = %e, "a finished game's record is not readable for statistics");
            continue;
        }
        let players = r["players"].as_u64().unwrap_or(0) as usize;
        if let Ok(rules) = oh7_core::ruleset::Ruleset::deserialize(&r["ruleset"]) {
            for s in rules.suits(players) {
                if !suits.contains(&s) {
                    suits.push(s);
                }
            }
        }
    }
    let o = &acc.oh7;
    let mut trump = std::collections::BTreeMap::new();
    for s in oh7_core::card::Suit::ALL {
        let rate = o.trump_rates().into_iter().find(|(t, _)| *t == s).map(|(_, r)| r.value());
        if rate.is_some() || suits.contains(&s) {
            trump.insert(s.letter().to_string(), rate.unwrap_or(0.0));
        }
    }
    let players = o
        .by_seat
        .iter()
        .enumerate()
        .map(|(seat, p)| SeatFigures {
            average_bid: p.bet.value(),
            nil_bid_rate: p.nil.value(),
            overshoot_rate: p.over.value(),
            points_per_round: p.points.value(),
            seat,
            shortfall_rate: p.under.value(),
            success_rate: p.made.value(),
            top_bid_rate: p.top.value(),
        })
        .collect();
    Oh7Figures {
        players,
        rounds: o.rounds,
        table: TableFigures {
            average_top_bid: o.top_bid.value(),
            nil_bid_rate: o.nil.value(),
            trump_selection_rate: trump,
        },
    }
}

/// `a, b or c`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    //! The typed bodies against a frozen copy of the `json!` code they replaced, byte for byte.

    use super::*;
    use serde_json::json;

    fn old_presets() -> Value {
        let specs = GameSpec::all();
        let games: Vec<Value> = specs
            .iter()
            .filter_map(|spec| {
                let (min, max) = spec.player_range()?;
                Some(json!({
                    "game": spec.game_name(),
                    "preset": spec.label(),
                    "min_players": min,
                    "max_players": max,
                    "ruleset": spec.ruleset_json(),
                }))
            })
            .collect();
        let oh7 = GameSpec::Oh7 { ruleset: oh7_core::ruleset::Ruleset::preset(oh7_core::ruleset::Preset::En) };
        let seven = GameSpec::Seven { rules: Default::default() };
        json!({
            "levels": {"oh7": oh7.levels(), "seven": seven.levels()},
            "strongest": {"oh7": oh7.strongest(), "seven": seven.strongest()},
            "games": games,
        })
    }

    fn old_table_stats(games: &[Arc<FinishedGame>]) -> Value {
        let history: Vec<Value> =
            games.iter().map(|g| json!({"game": g.game, "totals": g.totals, "winners": g.winners})).collect();
        let oh7: Vec<&Value> = games.iter().map(|g| &g.record).filter(|r| r["game"] == "oh7").collect();
        let stats = if oh7.is_empty() { Value::Null } else { old_oh7_stats_json(&oh7) };
        json!({"games": games.len(), "history": history, "stats": stats})
    }

    fn old_oh7_stats_json(records: &[&Value]) -> Value {
        let mut acc = oh7_stats::Stats::new();
        let mut suits: Vec<oh7_core::card::Suit> = Vec::new();
        for r in records {
            if acc.add_value(r).is_err() {
                continue;
            }
            let players = r["players"].as_u64().unwrap_or(0) as usize;
            if let Ok(rules) = oh7_core::ruleset::Ruleset::deserialize(&r["ruleset"]) {
                for s in rules.suits(players) {
                    if !suits.contains(&s) {
                        suits.push(s);
                    }
                }
            }
        }
        let o = &acc.oh7;
        let mut trump = serde_json::Map::new();
        for s in oh7_core::card::Suit::ALL {
            let rate = o.trump_rates().into_iter().find(|(t, _)| *t == s).map(|(_, r)| r.value());
            if rate.is_some() || suits.contains(&s) {
                trump.insert(s.letter().to_string(), json!(rate.unwrap_or(0.0)));
            }
        }
        let players: Vec<Value> = o
            .by_seat
            .iter()
            .enumerate()
            .map(|(seat, p)| {
                json!({
                    "seat": seat,
                    "points_per_round": p.points.value(),
                    "average_bid": p.bet.value(),
                    "nil_bid_rate": p.nil.value(),
                    "top_bid_rate": p.top.value(),
                    "success_rate": p.made.value(),
                    "overshoot_rate": p.over.value(),
                    "shortfall_rate": p.under.value(),
                })
            })
            .collect();
        json!({
            "rounds": o.rounds,
            "table": {
                "nil_bid_rate": o.nil.value(),
                "average_top_bid": o.top_bid.value(),
                "trump_selection_rate": trump,
            },
            "players": players,
        })
    }

    /// A whole game of `spec` for `players`, each decision picked by `seed` among the legal ones.
    fn finished(number: u32, spec: &GameSpec, players: usize, seed: u64) -> Arc<FinishedGame> {
        let mut g = spec.new_game(players, seed).expect("a game");
        let mut pick = seed;
        while let Some(seat) = g.to_move().lowest() {
            let legal = g.legal_text(seat);
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let action = &legal[(pick >> 33) as usize % legal.len()];
            g.apply_text(seat, action).expect("a legal action");
        }
        Arc::new(FinishedGame { game: number, record: g.record(), totals: g.totals(), winners: g.winners() })
    }

    fn same(new: &impl Serialize, old: &Value) {
        assert_eq!(serde_json::to_string(new).unwrap(), old.to_string());
    }

    #[test]
    fn presets_are_as_before() {
        same(&presets(), &old_presets());
    }

    /// The Oh 7 part of the statistics is as before (the Seven figures are new: checked below).
    fn same_stats(new: &TableStats, old: &Value) {
        let mut v = serde_json::to_value(new).unwrap();
        v.as_object_mut().unwrap().remove("seven");
        assert_eq!(v.to_string(), old.to_string());
    }

    #[test]
    fn stats_are_as_before() {
        let specs = GameSpec::all();
        let seven = specs.iter().find(|s| s.game_name() == "seven").expect("seven");
        let (smin, _) = seven.player_range().expect("seven's players");
        // No game yet, only Seven (stats null), and a record the accumulator cannot read.
        same_stats(&table_stats(&[]), &old_table_stats(&[]));
        let sevens = vec![finished(1, seven, smin, 1), finished(2, seven, smin, 2)];
        same_stats(&table_stats(&sevens), &old_table_stats(&sevens));
        // Seven's own figures: every round of both games, each seat's share of rounds gone out.
        let sv = table_stats(&sevens).seven.expect("Seven figures");
        let rounds: usize = sevens.iter().map(|g| g.record["rounds"].as_array().unwrap().len()).sum();
        assert!(sv.rounds > 0 && sv.rounds as usize <= rounds, "{} of {rounds}", sv.rounds);
        assert_eq!(sv.players.len(), smin);
        let out: f64 = sv.players.iter().map(|p| p.out_rate).sum();
        assert!(out > 0.0, "someone goes out: {out}");
        assert!(sv.players.iter().all(|p| p.turns > 0));
        assert!(table_stats(&[]).seven.is_none());
        let garbage = vec![Arc::new(FinishedGame {
            game: 1,
            record: json!({"game": "oh7", "players": 3}),
            totals: vec![0, 0, 0],
            winners: vec![],
        })];
        same_stats(&table_stats(&garbage), &old_table_stats(&garbage));
        // Every Oh 7 preset at its player counts alone, then all of them (and Seven) together.
        let mut all = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let (min, max) = spec.player_range().expect("players");
            for players in [min, max] {
                let one = vec![finished(1, spec, players, 7 + i as u64 * 31 + players as u64)];
                same_stats(&table_stats(&one), &old_table_stats(&one));
                all.push(finished(all.len() as u32 + 1, spec, players, 100 + all.len() as u64));
            }
        }
        same_stats(&table_stats(&all), &old_table_stats(&all));
        let figures = table_stats(&all).stats.expect("Oh 7 figures");
        assert!(figures.rounds > 0 && !figures.players.is_empty() && !figures.table.trump_selection_rate.is_empty());
        all.extend(garbage);
        same_stats(&table_stats(&all), &old_table_stats(&all));
    }
}
