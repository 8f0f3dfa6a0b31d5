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

use std::collections::BTreeMap;

use oh7_bots::{GameBots, GameSpec};
use oh7_core::game::Seat;
use oh7_core::registry::{GameRequest, OptionValue, SpecError, request_options};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::{Core, TableConfig};
use crate::event::{Event, LOG_FORMAT};
use crate::machine::{self, Access, BotJob, ConnId, Effect, Entropy, Machine, Settings};
use crate::protocol::{Ack, ClientMsg, ErrorCode, MAX_ID_LEN, Refusal, ServerMsg};
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
    /// Knobs laid over the preset or the ruleset (`{"target": 21}`), as the server takes them.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
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

/// One person's table against bots, with no I/O: a [`Machine`] with one connection (the
/// person's, at seat 0), bots at every other seat, and the log kept here.
pub struct Solo {
    machine: Machine,
    log: Vec<Event>,
    /// The bots' decisions asked for, not made yet (the driver makes them at its pace).
    jobs: Vec<BotJob>,
}

/// The person's connection.
const CONN: ConnId = 0;

/// The account that holds the person's seat (a solo table has one person and no accounts).
const PERSON: &str = "you";

fn bad(message: &str) -> Refusal {
    Refusal::new(ErrorCode::BadRequest, message)
}

/// A solo table's seeds: the one the command gave (a rematch's), or none needed.
struct Seed(u64);

impl Entropy for Seed {
    fn seed(&mut self) -> u64 {
        self.0
    }
    fn secret(&mut self) -> String {
        String::new()
    }
}

fn settings() -> Settings {
    // No other people: no grace period, chat or rematch wait matters; bots are paced by the
    // driver and made anew for each decision, so an undo's replay decides alike.
    Settings { rematch_wait_ms: 0, bot_pause_ms: 0, keep_bots: false, ..Settings::default() }
}

impl Solo {
    /// A new solo table, its first game dealt from `seed`; the output holds its first events
    /// and the person's snapshot.
    pub fn new(setup: SoloSetup, seed: u64) -> Result<(Solo, Output), Refusal> {
        let request = GameRequest {
            game: setup.game.as_deref(),
            preset: setup.preset.as_deref(),
            ruleset: setup.ruleset.as_deref(),
            options: &request_options(&setup.options),
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
        let Some(level) = spec.level(&setup.level) else {
            return Err(Refusal::unknown_level(&spec, &setup.level, None));
        };
        if setup.lang != "en" && setup.lang != "fr" {
            return Err(Refusal::new(ErrorCode::BadLang, "Choose English (`en`) or French (`fr`).")
                .param("lang", setup.lang.chars().take(8).collect::<String>())
                .param("langs", vec!["en", "fr"]));
        }
        let name = match setup.name.trim() {
            "" if setup.lang == "fr" => "Joueur".to_string(),
            "" => "Player".to_string(),
            n => crate::machine::check_name(n)?,
        };
        let seats = (0..setup.players).map(|s| (s != YOU).then_some(level)).collect();
        let config = TableConfig {
            spec,
            players: setup.players,
            seats,
            lang: setup.lang,
            turn_clock_s: None,
            log: LOG_FORMAT,
            rated: false,
            move_deadline_s: None,
            open: false,
        };
        // The person's seat has no token: nobody else can come to take it.
        let events = vec![
            Event::Join { seat: YOU, name, token_hash: TokenHash([0; 32]) },
            Event::Start { seat: None, id: None, seed, fill: None },
        ];
        let (solo, out) = Solo::rebuild(config, events).map_err(|e| bad(&e))?;
        let out = Output { events: solo.log.clone(), ..out };
        Ok((solo, out))
    }

    /// The table a log makes, its person connected; the output holds the person's snapshot.
    fn rebuild(config: TableConfig, events: Vec<Event>) -> Result<(Solo, Output), String> {
        let mut core = Core::new(&config);
        for (i, ev) in events.iter().enumerate() {
            core.apply(&config, ev).map_err(|e| format!("event {}: {e}", i + 1))?;
            core.version += 1;
        }
        if events.is_empty() {
            return Err("a solo table's log starts with its person and its first game".into());
        }
        let links = vec![(YOU, PERSON.to_string())];
        let (machine, first) = Machine::new(config, core, settings(), (String::new(), String::new()), links, vec![], 0);
        let mut solo = Solo { machine, log: events, jobs: Vec::new() };
        let mut out = Output::default();
        solo.drive(first, &mut Seed(0), &mut out);
        let attached =
            solo.machine.attach(CONN, Access::Invite, None, Some(PERSON.to_string())).map_err(|r| r.message)?;
        solo.drive(attached, &mut Seed(0), &mut out);
        Ok((solo, out))
    }

    /// Do what the machine asks: the person's messages into `out`, bots' decisions kept for
    /// [`Solo::bot_turn`], hints worked out at once, and each change written to the log.
    fn drive(&mut self, mut step: machine::Output, entropy: &mut dyn Entropy, out: &mut Output) {
        loop {
            for effect in step.effects {
                match effect {
                    Effect::Send { to, msg } if to.contains(&CONN) => out.messages.push(msg),
                    Effect::Bot(job) => self.jobs.push(job),
                    Effect::Hint(job) => out.messages.push(job.run()),
                    // No other people, no clocks, nothing to record beyond the log.
                    _ => {}
                }
            }
            let Some(p) = step.write else { break };
            if let Some(ev) = p.event() {
                self.log.push(ev.clone());
                out.events.push(ev.clone());
            }
            step = self.machine.written(p, entropy);
        }
    }

    /// The table its stored settings and events make (every event checked as it applies).
    pub fn restore(saved: Saved) -> Result<Solo, String> {
        Solo::rebuild(saved.config, saved.events).map(|(solo, _)| solo)
    }

    /// What to store: the settings and every event.
    pub fn saved(&self) -> Saved {
        Saved { config: self.machine.config().clone(), events: self.log.clone() }
    }

    /// Every event of the table, first to last.
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// The table's settings.
    pub fn config(&self) -> &TableConfig {
        self.machine.config()
    }

    /// The table's state (its game, seats, finished games).
    pub fn core(&self) -> &Core {
        self.machine.core()
    }

    /// The records of the finished games, first to last.
    pub fn records(&self) -> Vec<Value> {
        self.core().finished.iter().map(|f| f.record_value()).collect()
    }

    /// The person's whole document, sent as a `snapshot`.
    pub fn snapshot(&mut self) -> ServerMsg {
        let mut out = Output::default();
        let step = self.machine.command(CONN, ClientMsg::Sync {}, &mut Seed(0));
        self.drive(step, &mut Seed(0), &mut out);
        out.messages.pop().expect("a sync is answered with a snapshot")
    }

    /// One command of the person (a JSON text, as a WebSocket would carry it): its answer (an
    /// `ack` or an `error`, which changes nothing) and what it changed.
    pub fn command_text(&mut self, text: &str) -> Output {
        match serde_json::from_str::<SoloMsg>(text) {
            Ok(msg) => self.command(msg),
            Err(e) => {
                let r = Refusal::new(ErrorCode::Malformed, format!("Not a command of this table: {e}."));
                Output { messages: vec![r.to_msg(None, Some(self.core().version))], ..Output::default() }
            }
        }
    }

    /// One command of the person: its answer (an `ack` or an `error`, which changes nothing)
    /// and what it changed.
    pub fn command(&mut self, msg: SoloMsg) -> Output {
        let mut out = Output::default();
        let (msg, seed) = match msg {
            SoloMsg::Act { id, action } => (ClientMsg::Act { id, action }, 0),
            SoloMsg::Hint { id } => (ClientMsg::Hint { id }, 0),
            SoloMsg::Rematch { id, seed } => (ClientMsg::Rematch { id }, seed),
            SoloMsg::Sync {} => (ClientMsg::Sync {}, 0),
            SoloMsg::Ping {} => (ClientMsg::Ping {}, 0),
            SoloMsg::Undo { id } => {
                if let Some(r) = bad_id(&id) {
                    out.messages.push(r.to_msg(None, Some(self.core().version)));
                } else if let Err(r) = self.undo(&id, &mut out) {
                    out.messages = vec![r.to_msg(Some(&id), Some(self.core().version))];
                }
                return out;
            }
        };
        if let Some(r) = msg.id().and_then(bad_id) {
            out.messages.push(r.to_msg(None, Some(self.core().version)));
            return out;
        }
        let step = self.machine.command(CONN, msg, &mut Seed(seed));
        self.drive(step, &mut Seed(seed), &mut out);
        out
    }

    /// Whether a bot owes a decision now (the driver then calls [`Solo::bot_turn`], after the
    /// pause it likes).
    pub fn bot_owes(&self) -> bool {
        !self.jobs.is_empty()
    }

    /// The decision of the lowest bot seat that owes one, committed (`None`: no bot owes one).
    /// The bot is made for this decision with a seed from when its seat began to owe it, so the
    /// same log always decides the same.
    pub fn bot_turn(&mut self) -> Option<Output> {
        let i = (0..self.jobs.len()).min_by_key(|&i| self.jobs[i].seat)?;
        let done = self.jobs.remove(i).run();
        let mut out = Output::default();
        let step = self.machine.bot_done(done);
        self.drive(step, &mut Seed(0), &mut out);
        Some(out)
    }

    /// Take back the person's last decision of the game being played: the log is cut before it
    /// and replayed, and the person gets a snapshot.
    fn undo(&mut self, id: &str, out: &mut Output) -> Result<(), Refusal> {
        let start = self.log.iter().rposition(|e| matches!(e, Event::Start { .. })).unwrap_or(0);
        let Some(cut) = self.log.iter().rposition(|e| matches!(e, Event::Act { seat: YOU, .. })) else {
            return Err(nothing_to_undo());
        };
        if cut < start || self.core().game.as_ref().is_some_and(|g| g.is_over()) {
            return Err(nothing_to_undo());
        }
        let mut events = self.log.clone();
        events.truncate(cut);
        let (rebuilt, _) = Solo::rebuild(self.config().clone(), events).map_err(|e| bad(&e))?;
        *self = rebuilt;
        out.reset = true;
        let version = self.core().version;
        out.messages.push(ServerMsg::Ack(Ack { id: id.to_string(), version, ..Ack::default() }));
        out.messages.push(self.snapshot());
        Ok(())
    }
}

fn bad_id(id: &str) -> Option<Refusal> {
    (id.is_empty() || id.len() > MAX_ID_LEN)
        .then(|| Refusal::new(ErrorCode::Malformed, format!("A command id has 1 to {MAX_ID_LEN} characters.")))
}

fn nothing_to_undo() -> Refusal {
    Refusal::new(ErrorCode::NothingToUndo, "You have made no decision in this game to take back.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(preset: Option<&str>, game: &str, players: usize, level: &str) -> SoloSetup {
        SoloSetup {
            game: Some(game.into()),
            preset: preset.map(str::to_string),
            ruleset: None,
            options: BTreeMap::new(),
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
            if solo.core().game.as_ref().unwrap().is_over() {
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
        let before = solo.core().version;
        let r = solo.command_text(r#"{"type":"undo","id":"u0"}"#);
        assert!(matches!(&r.messages[0], ServerMsg::Error { code: ErrorCode::NothingToUndo, .. }), "{:?}", r.messages);
        assert_eq!((solo.core().version, r.events.len()), (before, 0));
        for n in 0..3 {
            let bet = first_legal(&client.doc);
            let a = solo.command_text(&format!(r#"{{"type":"act","id":"b{n}","action":"{bet}"}}"#));
            client.take(&a);
            while let Some(o) = solo.bot_turn() {
                client.take(&o);
            }
        }
        let played: Vec<Event> = solo.log.clone();
        let version = solo.core().version;
        // Undo: the log is cut before the person's last decision, the person is to move again.
        let u = solo.command_text(r#"{"type":"undo","id":"u1"}"#);
        assert!(u.reset);
        assert!(matches!(&u.messages[0], ServerMsg::Ack(_)));
        client.take(&u);
        assert!(solo.core().version < version);
        assert!(solo.core().game.as_ref().unwrap().to_move().contains(YOU));
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
        let (version, log) = (solo.core().version, solo.log.len());
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
            assert_eq!((solo.core().version, solo.log.len()), (version, log));
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
        assert_eq!(solo.core().game_number, 2);
        assert_eq!(client.doc["t"]["state"], "playing");
        play_out(&mut solo, &mut client, &mut n);
        assert_eq!(solo.records().len(), 2);
    }
}
