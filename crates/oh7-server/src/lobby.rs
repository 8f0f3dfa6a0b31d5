//! Tables by code, secrets, and the limits per address.
//!
//! A table has an internal id, an **invite code** (may take a seat) and a **spectator code**
//! (may only watch), each 128 bits from the OS random source. A person's seat token is 256 bits,
//! given once to its owner, stored only as its SHA-256 and compared in constant time; it is
//! looked up among one table's seats only, so a token is worth nothing at another table.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::sync::{Mutex, oneshot};

use crate::Settings;
use crate::game::GameSpec;
use crate::protocol::{ErrorCode, Refusal};
use crate::store::{Row, Store, StoredTable};
use crate::table::{Access, Table, TableConfig, TableHandle, TableMsg, check_name};

/// Lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the OS random source is unavailable");
    b
}

/// A new secret (seat token): 256 bits, hexadecimal.
pub fn new_secret() -> String {
    hex(&random_bytes::<32>())
}

/// A new code (table id, invite or spectator code): 128 bits, hexadecimal.
pub fn new_code() -> String {
    hex(&random_bytes::<16>())
}

/// A new game seed from the OS random source.
pub fn new_seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

/// SHA-256 of a token.
pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether two token hashes are equal, in constant time.
pub fn token_matches(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.ct_eq(b).into()
}

/// What a client asks to create a table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// `oh7` (default) or `seven`.
    #[serde(default)]
    pub game: Option<String>,
    /// `en`, `fr`, `fr-advanced`, `kod7` or `bga` (Oh 7).
    #[serde(default)]
    pub preset: Option<String>,
    /// A custom ruleset (TOML), instead of a preset.
    #[serde(default)]
    pub ruleset: Option<String>,
    /// Players.
    pub players: usize,
    /// Per seat: `"human"` or a bot level; seat 0 is the creator's unless it is a bot. Missing
    /// seats are for people.
    #[serde(default)]
    pub seats: Vec<String>,
    /// The creator's display name (needed unless every seat is a bot).
    #[serde(default)]
    pub name: Option<String>,
    /// `en` or `fr`.
    #[serde(default)]
    pub lang: Option<String>,
    /// A turn clock in seconds (10 to 600), off if left out.
    #[serde(default)]
    pub turn_clock_s: Option<u32>,
}

/// A sliding count of events per address (tables created, connections).
#[derive(Default)]
struct PerAddress {
    tables: HashMap<IpAddr, Vec<Instant>>,
    conns: HashMap<IpAddr, usize>,
}

/// Every table of the server, by code.
pub struct Lobby {
    store: Store,
    settings: Arc<Settings>,
    tables: Mutex<HashMap<String, (TableHandle, Access)>>,
    by_id: Mutex<HashMap<String, TableHandle>>,
    per_address: std::sync::Mutex<PerAddress>,
}

impl Lobby {
    /// An empty lobby on `store`.
    pub fn new(store: Store, settings: Arc<Settings>) -> Lobby {
        Lobby {
            store,
            settings,
            tables: Mutex::new(HashMap::new()),
            by_id: Mutex::new(HashMap::new()),
            per_address: std::sync::Mutex::new(PerAddress::default()),
        }
    }

    /// Restore every table whose game is not over from the log. Returns how many.
    pub async fn restore(&self) -> Result<usize, String> {
        let ids = self.store.unfinished().await.map_err(|e| e.to_string())?;
        for id in &ids {
            let stored = self.store.load(id).await.map_err(|e| e.to_string())?;
            self.register(stored).await?;
        }
        Ok(ids.len())
    }

    async fn register(&self, stored: StoredTable) -> Result<TableHandle, String> {
        let (id, join, watch) = (stored.id.clone(), stored.join_code.clone(), stored.watch_code.clone());
        let handle = Table::spawn(stored, self.store.clone(), self.settings.clone())?;
        let mut tables = self.tables.lock().await;
        tables.insert(join, (handle.clone(), Access::Invite));
        tables.insert(watch, (handle.clone(), Access::Watch));
        self.by_id.lock().await.insert(id, handle.clone());
        Ok(handle)
    }

    /// The table behind a code, loading a finished one from the database if needed.
    pub async fn find(&self, code: &str) -> Option<(TableHandle, Access)> {
        if code.len() != 32 || !code.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        if let Some(t) = self.tables.lock().await.get(code) {
            return Some(t.clone());
        }
        let id = self.store.find_code(code).await.ok()??;
        if self.by_id.lock().await.contains_key(&id) {
            return self.tables.lock().await.get(code).cloned();
        }
        let stored = self.store.load(&id).await.ok()?;
        let access = if stored.join_code == code { Access::Invite } else { Access::Watch };
        let handle = self.register(stored).await.ok()?;
        Some((handle, access))
    }

    /// Every table task (for shutdown).
    pub async fn handles(&self) -> Vec<TableHandle> {
        self.by_id.lock().await.values().cloned().collect()
    }

    /// Count a connection from `ip`; refused over the limit.
    pub fn connect(&self, ip: IpAddr) -> Result<(), Refusal> {
        let mut p = self.per_address.lock().expect("per-address lock");
        let n = p.conns.entry(ip).or_default();
        if *n >= self.settings.max_conns_per_ip {
            return Err(Refusal::new(
                ErrorCode::TooMany,
                format!("Too many connections from your address (at most {}).", self.settings.max_conns_per_ip),
            ));
        }
        *n += 1;
        Ok(())
    }

    /// A connection from `ip` closed.
    pub fn disconnect(&self, ip: IpAddr) {
        let mut p = self.per_address.lock().expect("per-address lock");
        if let Some(n) = p.conns.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                p.conns.remove(&ip);
            }
        }
    }

    /// Create a table. Returns the codes and, for the creator's seat, its token.
    pub async fn create(&self, req: CreateTable, ip: IpAddr) -> Result<Value, Refusal> {
        let bad = |m: String| Refusal::new(ErrorCode::BadRequest, m);
        let spec = match req.game.as_deref().unwrap_or("oh7") {
            "oh7" => {
                let ruleset = match (&req.preset, &req.ruleset) {
                    (Some(_), Some(_)) => return Err(bad("Give a preset or a ruleset, not both.".into())),
                    (_, Some(toml)) => {
                        if toml.len() > 8192 {
                            return Err(bad("A ruleset file has at most 8 KiB.".into()));
                        }
                        oh7_core::ruleset::Ruleset::from_toml(toml).map_err(|e| bad(format!("Ruleset: {e}")))?
                    }
                    (p, None) => {
                        let p = p.as_deref().unwrap_or("en");
                        let preset: oh7_core::ruleset::Preset = p.parse().map_err(|_| {
                            bad(format!(
                                "Unknown preset `{}`: choose en, fr, fr-advanced, kod7 or bga.",
                                p.chars().take(20).collect::<String>()
                            ))
                        })?;
                        oh7_core::ruleset::Ruleset::preset(preset)
                    }
                };
                GameSpec::Oh7 { ruleset }
            }
            "seven" => {
                if req.preset.is_some() {
                    return Err(bad("Seven has no presets: give its knobs as a ruleset (e.g. `limit = 50`).".into()));
                }
                let rules = match &req.ruleset {
                    Some(text) if text.len() > 8192 => return Err(bad("A ruleset file has at most 8 KiB.".into())),
                    Some(text) => toml::from_str(text).map_err(|e| bad(format!("Seven ruleset: {}", e.message())))?,
                    None => Default::default(),
                };
                GameSpec::Seven { rules }
            }
            _ => return Err(bad("The game is `oh7` or `seven`.".into())),
        };
        if req.players == 0 || req.players > 16 {
            return Err(bad("Players: 2 to 9 for Oh 7 (2 with the Dummy), 2 to 8 for Seven.".into()));
        }
        spec.check_players(req.players).map_err(|e| bad(format!("Players: {e}")))?;
        if req.seats.len() > req.players {
            return Err(bad(format!("{} seats listed for {} players.", req.seats.len(), req.players)));
        }
        let mut seats: Vec<Option<String>> = Vec::with_capacity(req.players);
        for s in 0..req.players {
            match req.seats.get(s).map(String::as_str) {
                None | Some("human") => seats.push(None),
                Some(level) if spec.levels().contains(&level) => seats.push(Some(level.to_string())),
                Some(level) => {
                    return Err(bad(format!(
                        "Seat {s}: `{}` is not a bot level; choose human or one of {}.",
                        level.chars().take(20).collect::<String>(),
                        spec.levels().join(", ")
                    )));
                }
            }
        }
        let all_bots = seats.iter().all(Option::is_some);
        let name = match (&req.name, all_bots) {
            (Some(n), false) => Some(check_name(n)?),
            (None, false) => return Err(Refusal::new(ErrorCode::BadName, "Give your name to take a seat.")),
            (_, true) => None,
        };
        if name.is_some() && seats[0].is_some() {
            return Err(bad("Seat 0 is the host's: make it human.".into()));
        }
        let lang = req.lang.unwrap_or_else(|| "en".into());
        if lang != "en" && lang != "fr" {
            return Err(bad("The language is `en` or `fr`.".into()));
        }
        if let Some(c) = req.turn_clock_s
            && !(10..=600).contains(&c)
        {
            return Err(bad("The turn clock is 10 to 600 seconds.".into()));
        }
        self.count_table(ip)?;
        let config = TableConfig { spec, players: req.players, seats, lang, turn_clock_s: req.turn_clock_s };
        let (id, join_code, watch_code) = (new_code(), new_code(), new_code());
        let mut events = Vec::new();
        let token = name.as_ref().map(|_| new_secret());
        if let (Some(name), Some(token)) = (&name, &token) {
            events.push(json!({"kind": "join", "seat": 0, "name": name, "token_hash": hex(&hash_token(token))}));
        }
        if all_bots {
            events.push(json!({"kind": "start", "seed": new_seed(), "fill": Value::Null}));
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
        self.register(stored).await.map_err(|e| Refusal::new(ErrorCode::Storage, e))?;
        tracing::info!(table = %id, players = req.players, "table created");
        Ok(json!({"invite": join_code, "watch": watch_code, "seat": token.as_ref().map(|_| 0), "token": token}))
    }

    fn count_table(&self, ip: IpAddr) -> Result<(), Refusal> {
        let mut p = self.per_address.lock().expect("per-address lock");
        let now = Instant::now();
        let list = p.tables.entry(ip).or_default();
        list.retain(|t| now.duration_since(*t).as_secs() < 3600);
        if list.len() >= self.settings.max_tables_per_ip {
            return Err(Refusal::new(
                ErrorCode::TooMany,
                format!("Too many tables from your address this hour (at most {}).", self.settings.max_tables_per_ip),
            ));
        }
        list.push(now);
        Ok(())
    }

    /// Public information about the table behind `code`.
    pub async fn info(&self, code: &str) -> Option<Value> {
        let (h, _) = self.find(code).await?;
        let (tx, rx) = oneshot::channel();
        h.tx.send(TableMsg::Info { reply: tx }).await.ok()?;
        rx.await.ok()
    }

    /// The last finished game's record at the table behind `code`.
    pub async fn record(&self, code: &str) -> Option<Option<Value>> {
        let (h, _) = self.find(code).await?;
        let (tx, rx) = oneshot::channel();
        h.tx.send(TableMsg::Record { reply: tx }).await.ok()?;
        rx.await.ok()
    }
}
