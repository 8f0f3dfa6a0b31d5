//! A solo table: one person (seat 0) against bots, played on the person's own device. The same
//! [`Core`] as a server's table applies its events, and the same projection ([`sight`],
//! [`told`], [`crate::patch`]) turns each change into the messages of the protocol, so the
//! browser's reducer and drawing cannot tell a solo table from an online one.
//!
//! The driver (the browser's Web Worker) holds no rules: it passes the person's commands in
//! ([`Solo::command`]), asks for the bots' decisions at the pace it likes ([`Solo::bot_turn`]),
//! stores the events of each [`Output`] **before** it delivers the output's messages, and gives
//! a new seed for each game (the core reads no random source). A solo table rebuilt from its
//! stored events ([`Solo::restore`]) is the table it was: the bots' seeds come from the table's
//! version and the seat, so a game replays, and **undo** (take back the person's last decision)
//! is the log cut before that decision and replayed; the bots then decide again from the same
//! seeds.
//!
//! What a solo table has that an online one must not: undo. What it has not: other people, so
//! no seats to take, no chat, no rematch to answer, no clocks.

use oh7_bots::{GameBots, GameSpec};
use oh7_core::game::Seat;
use oh7_core::registry::{GameRequest, SpecError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::{Core, TableConfig};
use crate::event::{Event, LOG_FORMAT};
use crate::project::{Happened, Sight, TableInfo, sight, table_part, told};
use crate::protocol::{Ack, ErrorCode, Links, MAX_ID_LEN, PROTOCOL, Refusal, ServerMsg};
use crate::token::TokenHash;

/// The person's seat.
pub const YOU: Seat = 0;

/// A solo table's settings, as the page's form gives them (the game and its rules as the
/// server's create request names them).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoloSetup {
    /// The game (`oh7`, `seven`; absent: `oh7`).
    #[serde(default)]
    pub game: Option<String>,
    /// A preset (`en`, `fr`, `fr-advanced`, `kod7`, `bga`).
    #[serde(default)]
    pub preset: Option<String>,
    /// A custom ruleset (TOML), instead of a preset.
    #[serde(default)]
    pub ruleset: Option<String>,
    /// Players, the person included.
    pub players: usize,
    /// The bots' level (every other seat).
    pub level: String,
    /// `en` or `fr`.
    pub lang: String,
    /// The person's name (empty: "Player", in the table's language).
    #[serde(default)]
    pub name: String,
}

/// A command of the person at a solo table: the online protocol's `act`, `hint`, `rematch`,
/// `sync` and `ping`, and `undo`, which only a solo table has. A new game's seed comes with
/// `rematch` (the driver's random source, never the core's).
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum SoloMsg {
    /// One decision, in the engine's notation.
    Act {
        /// Command id.
        id: String,
        /// The action.
        action: String,
    },
    /// What the strongest bot would do now.
    Hint {
        /// Command id.
        id: String,
    },
    /// Take back the person's last decision of this game (and the bots' decisions after it).
    Undo {
        /// Command id.
        id: String,
    },
    /// Another game at the same seats, once this one is over.
    Rematch {
        /// Command id.
        id: String,
        /// The new game's seed.
        seed: u64,
    },
    /// A snapshot.
    Sync {},
    /// A `pong`.
    Ping {},
}

/// What one step of a solo table gives its driver: the events to store (in order, after those
/// stored before) and then the messages for the page. `reset`: the stored log is to be replaced
/// by [`Solo::events`] (an undo cut it) before the messages go.
#[derive(Debug, Default, Serialize)]
pub struct Output {
    /// New events of the log.
    pub events: Vec<Event>,
    /// The log was cut: store the whole of [`Solo::events`] instead of appending.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reset: bool,
    /// The messages, as a connection of seat 0 would get them.
    pub messages: Vec<ServerMsg>,
}

/// What a solo table is stored as: its settings and its log.
#[derive(Debug, Serialize, Deserialize)]
pub struct Saved {
    /// The table's settings.
    pub config: TableConfig,
    /// Every event, first to last.
    pub events: Vec<Event>,
}

/// One person's table against bots, with no I/O.
pub struct Solo {
    config: TableConfig,
    core: Core,
    log: Vec<Event>,
    /// The person's document as last sent (`None`: send a snapshot next).
    doc: Option<Sight>,
    table_part: Value,
    last_info: Option<TableInfo>,
    ruleset: Value,
}

fn bad(message: &str) -> Refusal {
    Refusal::new(ErrorCode::BadRequest, message)
}

impl Solo {
    /// A new solo table, its first game dealt from `seed`; the output holds its first events
    /// and the person's snapshot.
    pub fn new(setup: SoloSetup, seed: u64) -> Result<(Solo, Output), Refusal> {
        let request = GameRequest {
            game: setup.game.as_deref(),
            preset: setup.preset.as_deref(),
            ruleset: setup.ruleset.as_deref(),
        };
        let spec = GameSpec::from_request(&request).map_err(|e| {
            let code = match e {
                SpecError::PresetAndRuleset => ErrorCode::PresetAndRuleset,
                SpecError::UnknownPreset { .. } => ErrorCode::UnknownPreset,
                _ => ErrorCode::BadRuleset,
            };
            Refusal::new(code, e.to_string())
        })?;
        let (min, max) = spec.player_range().unwrap_or((0, 0));
        if !(min..=max).contains(&setup.players) {
            return Err(Refusal::new(ErrorCode::BadPlayers, format!("This game is played by {min} to {max} players."))
                .param("min", min)
                .param("max", max));
        }
        if !spec.levels().contains(&setup.level.as_str()) {
            return Err(Refusal::unknown_level(&spec, &setup.level, None));
        }
        if setup.lang != "en" && setup.lang != "fr" {
            return Err(Refusal::new(ErrorCode::BadLang, "Choose English (`en`) or French (`fr`).")
                .param("lang", setup.lang.chars().take(8).collect::<String>())
                .param("langs", vec!["en", "fr"]));
        }
        let name = match setup.name.trim() {
            "" if setup.lang == "fr" => "Joueur".to_string(),
            "" => "Player".to_string(),
            n if n.chars().count() > 24 || n.chars().any(char::is_control) => {
                return Err(Refusal::new(
                    ErrorCode::BadName,
                    "A name has 1 to 24 characters, without control characters.",
                )
                .param("max", 24));
            }
            n => n.to_string(),
        };
        let seats = (0..setup.players).map(|s| (s != YOU).then(|| setup.level.clone())).collect();
        let config = TableConfig {
            spec,
            players: setup.players,
            seats,
            lang: setup.lang,
            turn_clock_s: None,
            log: LOG_FORMAT,
            rated: false,
            move_deadline_s: None,
        };
        let mut solo = Solo::empty(config);
        let mut out = Output::default();
        // The person's seat has no token: nobody else can come to take it.
        for ev in [
            Event::Join { seat: YOU, name, token_hash: TokenHash([0; 32]) },
            Event::Start { seat: None, id: None, seed, fill: None },
        ] {
            solo.commit(ev, &mut out)?;
        }
        out.messages.push(solo.snapshot());
        Ok((solo, out))
    }

    fn empty(config: TableConfig) -> Solo {
        let ruleset = config.spec.ruleset_json();
        Solo {
            core: Core::new(&config),
            config,
            log: Vec::new(),
            doc: None,
            table_part: Value::Null,
            last_info: None,
            ruleset,
        }
    }

    /// The table its stored settings and events make (every event checked as it applies).
    pub fn restore(saved: Saved) -> Result<Solo, String> {
        let mut solo = Solo::empty(saved.config);
        for (i, ev) in saved.events.into_iter().enumerate() {
            solo.core.apply(&solo.config, &ev).map_err(|e| format!("event {}: {e}", i + 1))?;
            solo.core.version += 1;
            solo.log.push(ev);
        }
        if solo.log.is_empty() {
            return Err("a solo table's log starts with its person and its first game".into());
        }
        Ok(solo)
    }

    /// What to store: the settings and every event.
    pub fn saved(&self) -> Saved {
        Saved { config: self.config.clone(), events: self.log.clone() }
    }

    /// Every event of the table, first to last.
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// The table's settings.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// The table's state (its game, seats, finished games).
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The records of the finished games, first to last.
    pub fn records(&self) -> Vec<Value> {
        self.core.finished.iter().map(|f| f.record_value()).collect()
    }

    /// The person's whole document, sent as a `snapshot`.
    pub fn snapshot(&mut self) -> ServerMsg {
        let info = self.info();
        self.table_part = table_part(&info);
        self.last_info = Some(info);
        let seen = sight(self.core.game.as_deref(), Some(YOU));
        let msg = ServerMsg::Snapshot {
            protocol: PROTOCOL,
            version: self.core.version,
            you: Some(YOU),
            table: self.table_part.clone(),
            view: seen.view(),
            legal: seen.legal(),
            chat: Vec::new(),
            links: Links { invite: None, watch: String::new() },
        };
        self.doc = Some(seen);
        msg
    }

    fn info(&self) -> TableInfo {
        self.core.info(&self.config, &self.ruleset, 0, 0)
    }

    /// Check `ev`, apply it, and add it and what the person is told of it to `out`.
    fn commit(&mut self, ev: Event, out: &mut Output) -> Result<(), Refusal> {
        let checked = self.core.check(&self.config, &ev)?;
        let ev = match (ev, &checked) {
            (Event::Act { seat, id, by_bot, .. }, Some(c)) => {
                Event::Act { seat, action: c.text().to_string(), id, by_bot }
            }
            (ev, _) => ev,
        };
        let happened = self.core.apply_checked(&self.config, &ev, checked)?;
        self.core.version += 1;
        self.log.push(ev.clone());
        out.events.push(ev);
        if let Some(msg) = self.tell(&happened) {
            out.messages.push(msg);
        }
        Ok(())
    }

    /// The `event` message of `happened` for the person: the patch from the document last sent.
    fn tell(&mut self, happened: &Happened) -> Option<ServerMsg> {
        let seen = self.doc.as_mut()?;
        let mut patch = serde_json::Map::new();
        let info = self.core.info(&self.config, &self.ruleset, 0, 0);
        if self.last_info.as_ref() != Some(&info) {
            let table = table_part(&info);
            crate::patch::diff_into("t", &self.table_part, &table, &mut patch);
            self.table_part = table;
            self.last_info = Some(info);
        }
        let new = sight(self.core.game.as_deref(), Some(YOU));
        seen.diff_into(&new, &mut patch);
        *seen = new;
        Some(ServerMsg::Event { version: self.core.version, event: told(happened, Some(YOU)), patch })
    }

    fn ack(&self, id: &str) -> Ack {
        Ack { id: id.to_string(), version: self.core.version, ..Ack::default() }
    }

    /// One command of the person (a JSON text, as a WebSocket would carry it): its answer (an
    /// `ack` or an `error`, which changes nothing) and what it changed.
    pub fn command_text(&mut self, text: &str) -> Output {
        match serde_json::from_str::<SoloMsg>(text) {
            Ok(msg) => self.command(msg),
            Err(e) => {
                let r = Refusal::new(ErrorCode::Malformed, format!("Not a command of this table: {e}."));
                Output { messages: vec![r.to_msg(None, Some(self.core.version))], ..Output::default() }
            }
        }
    }

    /// One command of the person: its answer (an `ack` or an `error`, which changes nothing)
    /// and what it changed.
    pub fn command(&mut self, msg: SoloMsg) -> Output {
        let mut out = Output::default();
        let id = match &msg {
            SoloMsg::Act { id, .. } | SoloMsg::Hint { id } | SoloMsg::Undo { id } | SoloMsg::Rematch { id, .. } => {
                Some(id.clone())
            }
            SoloMsg::Sync {} | SoloMsg::Ping {} => None,
        };
        if id.as_ref().is_some_and(|id| id.is_empty() || id.len() > MAX_ID_LEN) {
            let r = Refusal::new(ErrorCode::Malformed, format!("A command id has 1 to {MAX_ID_LEN} characters."));
            out.messages.push(r.to_msg(None, Some(self.core.version)));
            return out;
        }
        let r = match msg {
            SoloMsg::Sync {} => {
                out.messages.push(self.snapshot());
                Ok(None)
            }
            SoloMsg::Ping {} => {
                out.messages.push(ServerMsg::Pong { version: self.core.version });
                Ok(None)
            }
            SoloMsg::Act { id, .. } | SoloMsg::Rematch { id, .. } if self.core.acted.get(YOU, &id).is_some() => {
                let version = self.core.acted.get(YOU, &id).unwrap_or_default();
                Ok(Some(Ack { id, version, repeated: Some(true), ..Ack::default() }))
            }
            SoloMsg::Act { id, action } => self.act(&id, action, &mut out),
            SoloMsg::Hint { id } => self.hint(&id),
            SoloMsg::Undo { id } => self.undo(&id, &mut out),
            SoloMsg::Rematch { id, seed } => self.rematch(&id, seed, &mut out),
        };
        match r {
            // The answer goes first, as a server acks the actor before it broadcasts.
            Ok(Some(ack)) => out.messages.insert(0, ServerMsg::Ack(ack)),
            Ok(None) => {}
            Err(refusal) => {
                out.events.clear();
                out.messages = vec![refusal.to_msg(id.as_deref(), Some(self.core.version))];
            }
        }
        out
    }

    fn act(&mut self, id: &str, action: String, out: &mut Output) -> Result<Option<Ack>, Refusal> {
        self.core.may_act(YOU)?;
        self.commit(Event::Act { seat: YOU, action, id: Some(id.to_string()), by_bot: false }, out)?;
        Ok(Some(self.ack(id)))
    }

    fn hint(&mut self, id: &str) -> Result<Option<Ack>, Refusal> {
        let g = self.core.may_hint(YOU)?;
        let level = self.config.spec.strongest();
        let mut bot = self.config.spec.bot(level, self.core.version).map_err(|e| bad(&e.to_string()))?;
        let action = bot.decide(g, YOU);
        Ok(Some(Ack { hint: Some(action), level: Some(level), ..self.ack(id) }))
    }

    fn rematch(&mut self, id: &str, seed: u64, out: &mut Output) -> Result<Option<Ack>, Refusal> {
        self.core.may_rematch()?;
        self.commit(Event::Start { seat: Some(YOU), id: Some(id.to_string()), seed, fill: None }, out)?;
        Ok(Some(self.ack(id)))
    }

    /// Whether a bot owes a decision now (the driver then calls [`Solo::bot_turn`], after the
    /// pause it likes).
    pub fn bot_owes(&self) -> bool {
        self.next_bot().is_some()
    }

    fn next_bot(&self) -> Option<Seat> {
        let g = self.core.game.as_ref()?;
        g.to_move().iter().find(|&s| s != YOU)
    }

    /// The decision of the lowest bot seat that owes one, committed (`None`: no bot owes one).
    /// The bot is made for this decision with a seed from the table's version and its seat, so
    /// the same table at the same version always decides the same.
    pub fn bot_turn(&mut self) -> Option<Output> {
        let seat = self.next_bot()?;
        let g = self.core.game.as_ref()?;
        let level = self.core.seats[seat].bot.clone().unwrap_or_else(|| self.config.spec.strongest().to_string());
        let seed = bot_seed(self.core.version, seat);
        let mut bot = self.config.spec.bot(&level, seed).ok()?;
        let action = bot.decide(g.as_ref(), seat)?;
        let mut out = Output::default();
        self.commit(Event::Act { seat, action, id: None, by_bot: false }, &mut out).ok()?;
        Some(out)
    }

    /// Take back the person's last decision of the game being played: the log is cut before it
    /// and replayed, and the person gets a snapshot.
    fn undo(&mut self, id: &str, out: &mut Output) -> Result<Option<Ack>, Refusal> {
        let start = self.log.iter().rposition(|e| matches!(e, Event::Start { .. })).unwrap_or(0);
        let Some(cut) = self.log.iter().rposition(|e| matches!(e, Event::Act { seat: YOU, .. })) else {
            return Err(nothing_to_undo());
        };
        if cut < start || self.core.game.as_ref().is_some_and(|g| g.is_over()) {
            return Err(nothing_to_undo());
        }
        let mut events = self.log.clone();
        events.truncate(cut);
        let rebuilt = Solo::restore(Saved { config: self.config.clone(), events }).map_err(|e| bad(&e))?;
        *self = rebuilt;
        out.reset = true;
        out.messages.push(self.snapshot());
        Ok(Some(self.ack(id)))
    }
}

fn nothing_to_undo() -> Refusal {
    Refusal::new(ErrorCode::NothingToUndo, "You have made no decision in this game to take back.")
}

/// A bot's seed at version `version` for `seat` (the server's formula).
pub fn bot_seed(version: u64, seat: Seat) -> u64 {
    (version << 8) ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(preset: Option<&str>, game: &str, players: usize, level: &str) -> SoloSetup {
        SoloSetup {
            game: Some(game.into()),
            preset: preset.map(str::to_string),
            ruleset: None,
            players,
            level: level.into(),
            lang: "en".into(),
            name: "Ada".into(),
        }
    }

    /// A client's document, rebuilt from the messages as `web/state.js` does.
    struct Client {
        doc: Value,
        version: u64,
    }

    impl Client {
        fn new() -> Client {
            Client { doc: Value::Null, version: 0 }
        }

        fn take(&mut self, out: &Output) {
            for m in &out.messages {
                let v = serde_json::to_value(m).unwrap();
                match v["type"].as_str().unwrap() {
                    "snapshot" => {
                        self.doc = serde_json::json!({"t": v["table"], "v": v["view"], "l": v["legal"]});
                        self.version = v["version"].as_u64().unwrap();
                    }
                    "event" => {
                        let version = v["version"].as_u64().unwrap();
                        assert_eq!(version, self.version + 1, "no gap");
                        self.version = version;
                        if let Some(p) = v["patch"].as_object() {
                            crate::patch::apply(&mut self.doc, p).unwrap();
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn first_legal(doc: &Value) -> String {
        doc["l"][0]["a"].as_str().expect("a legal action").to_string()
    }

    /// Plays to the end: the person the first legal action each time, the bots as they decide.
    fn play_out(solo: &mut Solo, client: &mut Client, n: &mut u32) {
        loop {
            while let Some(out) = solo.bot_turn() {
                client.take(&out);
            }
            if solo.core.game.as_ref().unwrap().is_over() {
                return;
            }
            *n += 1;
            let act = format!(r#"{{"type":"act","id":"c{n}","action":"{}"}}"#, first_legal(&client.doc));
            let out = solo.command_text(&act);
            assert!(matches!(out.messages[0], ServerMsg::Ack(_)), "{:?}", out.messages[0]);
            client.take(&out);
        }
    }

    #[test]
    fn a_whole_solo_game_is_played_and_the_patches_rebuild_the_document() {
        for (preset, game, players) in [(Some("en"), "oh7", 4), (None, "seven", 3)] {
            let (mut solo, out) = Solo::new(setup(preset, game, players, "heuristic"), 7).unwrap();
            let mut client = Client::new();
            client.take(&out);
            let mut n = 0;
            play_out(&mut solo, &mut client, &mut n);
            // The document the patches made is the snapshot's.
            let snap = serde_json::to_value(solo.snapshot()).unwrap();
            assert_eq!(client.doc["v"], snap["view"]);
            assert_eq!(client.doc["t"], snap["table"]);
            assert_eq!(solo.records().len(), 1);
            // The stored log rebuilds the same table, and so the same record.
            let saved = serde_json::to_string(&solo.saved()).unwrap();
            let back = Solo::restore(serde_json::from_str(&saved).unwrap()).unwrap();
            assert_eq!(back.records(), solo.records());
        }
    }

    #[test]
    fn undo_takes_back_a_bet_and_a_card_and_the_bots_decide_again_alike() {
        let (mut solo, out) = Solo::new(setup(Some("en"), "oh7", 4, "medium"), 11).unwrap();
        let mut client = Client::new();
        client.take(&out);
        // Nothing to take back before the person's first decision.
        while let Some(o) = solo.bot_turn() {
            client.take(&o);
        }
        let before = solo.core.version;
        let r = solo.command_text(r#"{"type":"undo","id":"u0"}"#);
        assert!(matches!(&r.messages[0], ServerMsg::Error { code: ErrorCode::NothingToUndo, .. }), "{:?}", r.messages);
        assert_eq!((solo.core.version, r.events.len()), (before, 0));
        for n in 0..3 {
            let bet = first_legal(&client.doc);
            let a = solo.command_text(&format!(r#"{{"type":"act","id":"b{n}","action":"{bet}"}}"#));
            client.take(&a);
            while let Some(o) = solo.bot_turn() {
                client.take(&o);
            }
        }
        let played: Vec<Event> = solo.log.clone();
        let version = solo.core.version;
        // Undo: the log is cut before the person's last decision, the person is to move again.
        let u = solo.command_text(r#"{"type":"undo","id":"u1"}"#);
        assert!(u.reset);
        assert!(matches!(&u.messages[0], ServerMsg::Ack(_)));
        client.take(&u);
        assert!(solo.core.version < version);
        assert!(solo.core.game.as_ref().unwrap().to_move().contains(YOU));
        assert_eq!(solo.log[..], played[..solo.log.len()]);
        // The same decision again: the bots decide as they did.
        let again = first_legal(&client.doc);
        let a = solo.command_text(&format!(r#"{{"type":"act","id":"b9","action":"{again}"}}"#));
        client.take(&a);
        while let Some(o) = solo.bot_turn() {
            client.take(&o);
        }
        let strip = |e: &Event| match e {
            Event::Act { seat, action, by_bot, .. } => {
                Event::Act { seat: *seat, action: action.clone(), id: None, by_bot: *by_bot }
            }
            e => e.clone(),
        };
        assert_eq!(solo.log.iter().map(strip).collect::<Vec<_>>(), played.iter().map(strip).collect::<Vec<_>>());
    }

    #[test]
    fn bad_commands_change_nothing() {
        let (mut solo, _) = Solo::new(setup(Some("en"), "oh7", 4, "heuristic"), 3).unwrap();
        while solo.bot_turn().is_some() {}
        let (version, log) = (solo.core.version, solo.log.len());
        for (cmd, code) in [
            ("{", ErrorCode::Malformed),
            (r#"{"type":"act","id":"x","action":"play 2H","extra":1}"#, ErrorCode::Malformed),
            (r#"{"type":"act","id":"x","action":"dance"}"#, ErrorCode::Illegal),
            (r#"{"type":"rematch","id":"r","seed":1}"#, ErrorCode::NotOver),
            (r#"{"type":"act","id":"","action":"x"}"#, ErrorCode::Malformed),
        ] {
            let out = solo.command_text(cmd);
            assert!(out.events.is_empty(), "{cmd}");
            match &out.messages[..] {
                [ServerMsg::Error { code: c, .. }] => assert_eq!(*c, code, "{cmd}"),
                other => panic!("{cmd}: {other:?}"),
            }
            assert_eq!((solo.core.version, solo.log.len()), (version, log));
        }
        assert!(Solo::new(setup(Some("en"), "oh7", 9, "heuristic"), 1).is_err());
        assert!(Solo::new(setup(Some("en"), "oh7", 4, "grandmaster"), 1).is_err());
    }

    #[test]
    fn a_repeated_command_is_answered_not_applied_twice() {
        let (mut solo, out) = Solo::new(setup(Some("en"), "oh7", 4, "heuristic"), 5).unwrap();
        let mut client = Client::new();
        client.take(&out);
        while let Some(o) = solo.bot_turn() {
            client.take(&o);
        }
        let cmd = format!(r#"{{"type":"act","id":"same","action":"{}"}}"#, first_legal(&client.doc));
        let first = solo.command_text(&cmd);
        assert_eq!(first.events.len(), 1);
        let again = solo.command_text(&cmd);
        assert!(again.events.is_empty());
        match &again.messages[..] {
            [ServerMsg::Ack(a)] => assert_eq!(a.repeated, Some(true)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_rematch_deals_a_new_game_from_the_given_seed() {
        let (mut solo, out) = Solo::new(setup(Some("en"), "oh7", 3, "random"), 9).unwrap();
        let mut client = Client::new();
        client.take(&out);
        let mut n = 0;
        play_out(&mut solo, &mut client, &mut n);
        let out = solo.command_text(r#"{"type":"rematch","id":"again","seed":42}"#);
        client.take(&out);
        assert_eq!(solo.core.game_number, 2);
        assert_eq!(client.doc["t"]["state"], "playing");
        play_out(&mut solo, &mut client, &mut n);
        assert_eq!(solo.records().len(), 2);
    }
}
