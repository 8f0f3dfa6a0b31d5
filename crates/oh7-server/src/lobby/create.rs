//! Creating a table from the create form: every field checked, each mistake with its own
//! code and the figures to word it; the table written, then registered.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::secrets::{TokenHash, new_code, new_secret, new_seed};
use crate::store::{Row, StoredTable};
use crate::table::{TableConfig, check_name};
use oh7_bots::{GameBots, GameSpec};
use oh7_core::registry::{GameId, GameRequest, OptionValue, SpecError, request_options};
use oh7_table::event::{Event, LOG_FORMAT};
use oh7_table::protocol::{ErrorCode, Refusal};

use super::{Lobby, NotLoaded};

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
    /// Knobs laid over the preset or the ruleset (`{"target": 21, "passing": true}`).
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
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
    /// A rated table (the creator signed in, sitting; only signed-in people may sit).
    #[serde(default)]
    pub rated: bool,
    /// A turn-based table: hours each person has for a decision (1 to 336), instead of a live
    /// game's clock and away seats.
    pub move_hours: Option<u32>,
    /// A tutorial: its family's prepared deal ([`oh7_table::tutorial`]), dealt at once, the
    /// creator against bots only (every other seat a bot; not rated, not turn-based).
    #[serde(default)]
    pub tutorial: bool,
    /// Anyone may join: listed among the open tables while it waits for players (`false`: by
    /// its link only).
    #[serde(default)]
    pub open: bool,
}

/// The most options a creation may give (the game's knobs are fewer).
const MAX_OPTIONS: usize = 32;

/// A turn-based table's move deadline, in hours.
pub(crate) const MOVE_HOURS: std::ops::RangeInclusive<u32> = 1..=336;

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

impl Lobby {
    /// Create a table. Returns the codes and, for the creator's seat, its token.
    ///
    /// Whatever a person can get wrong in the create form has its own code and the figures to
    /// word it (`params`); `bad_request` is left for what no form sends.
    /// `account`: the creator's, when signed in (their seat is the account's).
    pub(crate) async fn create(
        &self,
        req: CreateTable,
        ip: IpAddr,
        account: Option<String>,
    ) -> Result<Created, Refusal> {
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
        if req.options.len() > MAX_OPTIONS {
            return Err(bad(format!("At most {MAX_OPTIONS} options.")));
        }
        let options = request_options(&req.options);
        let request = GameRequest {
            game: req.game.as_deref(),
            preset: req.preset.as_deref(),
            ruleset: req.ruleset.as_deref(),
            options: &options,
        };
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
            e @ SpecError::BadOption { .. } => bad_ruleset(e.to_string()),
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
        // Each seat's level read once, here at the edge (the stored settings write its name back).
        let mut seats: Vec<Option<oh7_bots::Level>> = Vec::with_capacity(players);
        for s in 0..players {
            match req.seats.get(s).map(String::as_str) {
                None | Some("human") => seats.push(None),
                Some(name) => match spec.level(name) {
                    Some(level) => seats.push(Some(level)),
                    None => return Err(Refusal::unknown_level(&spec, name, Some(s))),
                },
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
        if let Some(h) = req.move_hours
            && (!MOVE_HOURS.contains(&h) || req.turn_clock_s.is_some())
        {
            return Err(Refusal::new(
                ErrorCode::BadDeadline,
                format!(
                    "A move deadline is {} to {} hours, and a turn-based table has no turn clock.",
                    MOVE_HOURS.start(),
                    MOVE_HOURS.end()
                ),
            )
            .param("min", *MOVE_HOURS.start())
            .param("max", *MOVE_HOURS.end()));
        }
        if req.rated && (account.is_none() || name.is_none()) {
            return Err(Refusal::new(ErrorCode::SignedOut, "Sign in, and sit at the table, to make it rated."));
        }
        if req.tutorial
            && (name.is_none() || seats[1..].iter().any(Option::is_none) || req.rated || req.move_hours.is_some())
        {
            return Err(bad("A tutorial seats its creator against bots only, unrated and live.".into()));
        }
        if req.open && (name.is_none() || req.tutorial) {
            return Err(bad("An open table is one where its creator sits and waits for others.".into()));
        }
        let tutorial = req.tutorial.then(|| oh7_table::tutorial::seed(&spec));
        self.count_table(ip).await?;
        let config = TableConfig {
            spec,
            players,
            seats,
            lang,
            turn_clock_s: req.turn_clock_s,
            log: LOG_FORMAT,
            rated: req.rated,
            move_deadline_s: req.move_hours.map(|h| u64::from(h) * 3600),
            open: req.open,
        };
        let (join_code, watch_code) = (new_code(), new_code());
        let mut events = Vec::new();
        let token = name.as_ref().map(|_| new_secret());
        if let (Some(name), Some(token)) = (&name, &token) {
            events.push(Event::Join { seat: 0, name: name.clone(), token_hash: TokenHash::of(token) });
        }
        if all_bots {
            events.push(Event::Start { seat: None, id: None, seed: new_seed(), fill: None });
        }
        // A tutorial is dealt at once: its first game is the family's prepared deal.
        if let Some(seed) = tutorial {
            events.push(Event::Start { seat: None, id: None, seed, fill: None });
        }
        // The creator's seat is their account's, from the first write.
        let links: Vec<(usize, String)> = account.filter(|_| token.is_some()).map(|a| (0, a)).into_iter().collect();
        let id = self.store_new_table(&config, events, links, join_code.clone(), watch_code.clone()).await?;
        tracing::info!(table = %id, players, "table created");
        Ok(Created { invite: join_code, watch: watch_code, seat: token.as_ref().map(|_| 0), token })
    }

    /// Write a new table (its settings, first events and the seats accounts hold) and start its
    /// task; returns its id.
    pub(super) async fn store_new_table(
        &self,
        config: &TableConfig,
        events: Vec<Event>,
        links: Vec<(usize, String)>,
        join_code: String,
        watch_code: String,
    ) -> Result<String, Refusal> {
        let bad = |m: String| Refusal::new(ErrorCode::BadRequest, m);
        let id = new_code();
        let config_json = serde_json::to_value(config).map_err(|e| bad(e.to_string()))?;
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
        for (seat, account) in &links {
            rows.push(Row::Link { table_id: id.clone(), seat: *seat, account: account.clone() });
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
            links,
            deadlines: Vec::new(),
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
        Ok(id)
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
