//! oh7 in the page: the solo table ([`oh7_table::solo`]), its bots (every level, the expert with
//! its learned hand model), the review and a table's statistics, behind **one function** that
//! takes a JSON request and gives a JSON answer ([`call`]). Built for `wasm32-unknown-unknown`
//! it is the module `web/worker.js` runs in a Web Worker, so a bot thinking never freezes the
//! page; built natively it is the same calls, which the determinism test compares byte for byte.
//!
//! The boundary is three exported functions and JSON text (no generated glue, so nothing but
//! cargo is needed to build it): the page asks [`oh7_alloc`] for room, writes the request's
//! UTF-8 bytes there, calls [`oh7_call`], and reads the answer's [`oh7_out_len`] bytes at the
//! pointer it returned. The answer stays valid until the next call.
//!
//! Requests (`op` and its fields) and answers:
//! - `presets`: the games, presets and levels (the body of `GET /api/presets`).
//! - `new` `{setup, seed}`: a solo table ([`oh7_table::solo::SoloSetup`]) is made the current one;
//!   `{messages, config, events, reset: true}` (store the settings and the log, then show).
//! - `restore` `{saved}`: the stored table made current again; `{messages: [snapshot]}`.
//! - `command` `{text}`: one command of the person (`act`, `hint`, `undo`, `rematch`, `sync`,
//!   `ping`); `{messages, events, reset?}`: the new events to append to the stored log (with
//!   `reset`, an undo's: the whole log, to store instead), before the messages are shown.
//! - `bot`: the next bot decision, as `command` answers, or `{idle: true}` when no bot owes one.
//! - `stats`: the current table's statistics (the body of `GET /api/tables/{code}/stats`).
//! - `rules`: the current table's rules summary in both languages (the body of
//!   `GET /api/tables/{code}/rules`).
//! - `records`: the current table's finished games' records.
//! - `review` `{record, seat, names}`: the expert's review of `seat` in a record, as the review
//!   page reads it (`{review, record, table}`).
//! - `selfplay` `{setup, seed}`: a whole solo game with the person playing each first legal
//!   action; its record as text (the determinism test's).
//!
//! An error is `{error: "…"}`; a refused command is an `error` message of the protocol.

use std::cell::RefCell;

use oh7_core::glossary::Lang;
use oh7_table::bodies::{presets, table_stats};
use oh7_table::core::TableConfig;
use oh7_table::event::Event;
use oh7_table::protocol::{RulesBody, ServerMsg};
use oh7_table::solo::{Output, Saved, Solo, SoloSetup};
use serde::{Deserialize, Serialize};
use serde_json::Value;

thread_local! {
    static TABLE: RefCell<Option<Solo>> = const { RefCell::new(None) };
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    Presets {},
    New { setup: SoloSetup, seed: u64 },
    Restore { saved: Saved },
    Command { text: String },
    Bot {},
    Stats {},
    Rules {},
    Records {},
    Review { record: Value, seat: usize, names: Vec<String> },
    Selfplay { setup: SoloSetup, seed: u64 },
}

/// What a step gives the page: the events to store (appended to the stored log, or, with
/// `reset`, the whole log instead of it), then the messages.
#[derive(Serialize)]
struct Step<'a> {
    messages: &'a [ServerMsg],
    events: &'a [Event],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    reset: bool,
    /// A new table's settings (stored once).
    #[serde(skip_serializing_if = "Option::is_none")]
    config: Option<&'a TableConfig>,
}

fn step(solo: &Solo, out: &Output, new: bool) -> Value {
    let events = if out.reset { solo.events() } else { &out.events[..] };
    let body = Step { messages: &out.messages, events, reset: out.reset || new, config: new.then(|| solo.config()) };
    serde_json::to_value(body).expect("a step serializes")
}

fn error(message: impl Into<String>) -> Value {
    serde_json::json!({ "error": message.into() })
}

fn with_table(f: impl FnOnce(&mut Solo) -> Value) -> Value {
    TABLE.with_borrow_mut(|t| match t {
        Some(solo) => f(solo),
        None => error("no table: make one (`new`) or restore one (`restore`) first"),
    })
}

/// The page of a review, as the server stores it (`{review, record, table}`).
#[derive(Serialize)]
struct ReviewPage<'a> {
    review: oh7_review::Review,
    record: &'a Value,
    table: ReviewTable,
}

#[derive(Serialize)]
struct ReviewTable {
    preset: String,
    lang: String,
    players: usize,
    names: Vec<String>,
}

fn review(record: &Value, seat: usize, names: Vec<String>) -> Value {
    let replayed = match oh7_core::registry::replay_record(record) {
        Ok(g) => g,
        Err(e) => return error(e.to_string()),
    };
    let players = replayed.totals().len();
    let preset = record["preset"].as_str().or(record["game"].as_str()).unwrap_or("").to_string();
    let lang = record["lang"].as_str().unwrap_or("en").to_string();
    let opts = oh7_review::ReviewOptions::default();
    match oh7_review::review_record(record, seat, &opts, &|_, _| {}) {
        Ok(review) => {
            serde_json::to_value(ReviewPage { review, record, table: ReviewTable { preset, lang, players, names } })
                .expect("a review serializes")
        }
        Err(e) => error(e.to_string()),
    }
}

/// A whole solo game from `seed`, the person playing its first legal action each time: the
/// record's text.
fn selfplay(setup: SoloSetup, seed: u64) -> Value {
    let (mut solo, _) = match Solo::new(setup, seed) {
        Ok(s) => s,
        Err(r) => return error(r.message),
    };
    let mut n = 0u64;
    loop {
        while solo.bot_turn().is_some() {}
        let Some(g) = solo.core().game.as_ref() else { return error("no game") };
        if g.is_over() {
            break;
        }
        let Some(first) = g.legal_text(oh7_table::solo::YOU).into_iter().next() else {
            return error("the person owes no decision and no bot decides");
        };
        n += 1;
        let cmd = serde_json::json!({"type": "act", "id": format!("s{n}"), "action": first}).to_string();
        let out = solo.command_text(&cmd);
        if out.events.is_empty() {
            return error(format!("the first legal action was refused: {cmd}"));
        }
    }
    Value::String(solo.records().first().map(Value::to_string).unwrap_or_default())
}

/// Answer one request (JSON text) with JSON text.
pub fn call(request: &str) -> String {
    let answer = match serde_json::from_str::<Request>(request) {
        Err(e) => error(format!("not a request: {e}")),
        Ok(Request::Presets {}) => serde_json::to_value(presets()).expect("presets serialize"),
        Ok(Request::New { setup, seed }) => match Solo::new(setup, seed) {
            Ok((solo, out)) => {
                let body = step(&solo, &out, true);
                TABLE.with_borrow_mut(|t| *t = Some(solo));
                body
            }
            Err(r) => serde_json::json!({ "messages": [r.to_msg(None, None)] }),
        },
        Ok(Request::Restore { saved }) => match Solo::restore(saved) {
            Ok(mut solo) => {
                let snap = solo.snapshot();
                TABLE.with_borrow_mut(|t| *t = Some(solo));
                serde_json::json!({ "messages": [snap] })
            }
            Err(e) => error(e),
        },
        Ok(Request::Command { text }) => with_table(|solo| {
            let out = solo.command_text(&text);
            step(solo, &out, false)
        }),
        Ok(Request::Bot {}) => with_table(|solo| match solo.bot_turn() {
            Some(out) => step(solo, &out, false),
            None => serde_json::json!({ "idle": true }),
        }),
        Ok(Request::Stats {}) => {
            with_table(|solo| serde_json::to_value(table_stats(&solo.core().finished)).expect("statistics serialize"))
        }
        Ok(Request::Rules {}) => with_table(|solo| {
            let c = solo.config();
            let summary = |lang| c.spec.summary(Some(c.players), lang);
            let body = RulesBody { en: summary(Lang::En), fr: summary(Lang::Fr) };
            serde_json::to_value(body).expect("a rules summary serializes")
        }),
        Ok(Request::Records {}) => with_table(|solo| Value::Array(solo.records())),
        Ok(Request::Review { record, seat, names }) => review(&record, seat, names),
        Ok(Request::Selfplay { setup, seed }) => selfplay(setup, seed),
    };
    answer.to_string()
}

/// Room for a request of `len` bytes (the page writes it there, then calls [`oh7_call`]).
#[unsafe(no_mangle)]
pub extern "C" fn oh7_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Answer the request of `len` bytes at `ptr` (room from [`oh7_alloc`], given back here): the
/// answer's first byte; its length is [`oh7_out_len`].
///
/// # Safety
/// `ptr` must come from `oh7_alloc(len)` with `len` bytes written, and is not used after.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn oh7_call(ptr: *mut u8, len: usize) -> *const u8 {
    // SAFETY: the page wrote `len` bytes into the room `oh7_alloc(len)` gave it.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = match std::str::from_utf8(&bytes) {
        Ok(text) => call(text),
        Err(_) => error("a request is UTF-8 text").to_string(),
    };
    OUT.with_borrow_mut(|out| {
        *out = answer.into_bytes();
        out.as_ptr()
    })
}

/// The length of the last answer of [`oh7_call`].
#[unsafe(no_mangle)]
pub extern "C" fn oh7_out_len() -> usize {
    OUT.with_borrow(Vec::len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_made_played_by_a_bot_and_its_errors_are_answers() {
        let bad =
            r#"{"op":"new","seed":5,"setup":{"game":"oh7","preset":"nope","players":4,"level":"random","lang":"en"}}"#;
        let v: Value = serde_json::from_str(&call(bad)).unwrap();
        // A preset the game does not have is not a table: the answer says why, nothing is made.
        assert_eq!(v["messages"][0]["code"], "unknown_preset", "{v}");
        let none: Value = serde_json::from_str(&call(r#"{"op":"bot"}"#)).unwrap();
        assert!(none["error"].as_str().is_some());
        let new =
            r#"{"op":"new","seed":5,"setup":{"game":"oh7","preset":"en","players":4,"level":"random","lang":"en"}}"#;
        let v: Value = serde_json::from_str(&call(new)).unwrap();
        assert_eq!(v["messages"].as_array().unwrap().last().unwrap()["type"], "snapshot", "{v}");
        assert!(v["events"].as_array().is_some_and(|e| e.len() == 2));
        assert_eq!(v["reset"], true);
        assert_eq!(v["config"]["players"], 4);
        let b: Value = serde_json::from_str(&call(r#"{"op":"bot"}"#)).unwrap();
        assert!(b["messages"][0]["type"] == "event" || b["idle"] == true, "{b}");
        let bad: Value = serde_json::from_str(&call(r#"{"op":"dance"}"#)).unwrap();
        assert!(bad["error"].as_str().is_some());
        let bad: Value = serde_json::from_str(&call(r#"{"op":"command","text":"{"}"#)).unwrap();
        assert_eq!(bad["messages"][0]["code"], "malformed");
        assert_eq!(bad["events"], serde_json::json!([]));
    }
}
