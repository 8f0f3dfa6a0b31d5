//! Each engine refusal reaches a client as `illegal` with its rule code and figures, and a French
//! client words it in French from the shared wording table (the one the terminal and the browser
//! use): the person at an `en` table and at a Seven table tries, at each of their turns, moves
//! the rules forbid.

mod common;

use std::collections::BTreeMap;

use common::{fast, start, temp_db};
use oh7_core::glossary::Lang;
use oh7_core::refusal::Refused;
use oh7_core::wording::{self, GENERIC};
use oh7_server::client::{Client, create_table};
use serde_json::{Map, Value, json};

/// The illegal tries of this turn, from what the seat holds and may do.
fn tries(c: &Client) -> Vec<String> {
    let hand: Vec<String> = oh7_server::client::strings(&c.view["hand"]);
    let mut out = vec!["play ZZ".to_string()];
    if c.view["game"] == "seven" {
        out.extend(hand.iter().filter(|h| !c.legal.contains(h)).cloned());
        out.push("draw".into());
        out.push("pass".into());
        return out;
    }
    for h in &hand {
        for verb in ["bet", "play"] {
            let a = format!("{verb} {h}");
            if !c.legal.contains(&a) {
                out.push(a);
            }
        }
    }
    out.push("play 7X".into());
    out.push("bet ?".into());
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_refusals_reach_a_french_client_in_french() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let mut seen: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for req in [
        json!({"preset": "en", "players": 4, "name": "Amélie", "lang": "fr", "seats": ["human", "random", "random", "random"]}),
        json!({"game": "seven", "players": 3, "name": "Amélie", "lang": "fr", "seats": ["human", "random", "random"]}),
    ] {
        let created = create_table(server.addr, &req).await.unwrap();
        let mut c = Client::connect(server.addr).await.unwrap();
        c.hello(created["invite"].as_str().unwrap(), created["token"].as_str()).await.unwrap();
        assert_eq!(c.command(json!({"type": "start"})).await.unwrap()["type"], "ack");
        let mut turns = 0;
        while c.table["state"] != "over" && turns < 40 {
            if c.legal.is_empty() {
                c.recv().await.unwrap();
                continue;
            }
            turns += 1;
            let version = c.version;
            let legal = c.legal.clone();
            for t in tries(&c).into_iter().filter(|t| !legal.contains(t)).take(12) {
                let r = c.command(json!({"type": "act", "action": t})).await.unwrap();
                if r["type"] != "error" {
                    continue;
                }
                // (Bots bet at the same time, so the version may move; tests/bad_input.rs checks
                // that a refusal changes nothing.)
                assert!(r["version"].as_u64() >= Some(version), "{r}");
                if r["code"] == "illegal" {
                    let mut params = r["params"].as_object().cloned().unwrap_or_else(|| panic!("{r}"));
                    let rule = params.remove("rule").and_then(|v| v.as_str().map(str::to_string)).expect("a rule code");
                    seen.entry(rule).or_insert(params);
                }
            }
            let Some(a) = c.legal.first().cloned() else { continue };
            // A refusal here is a legal list gone stale while trying (bots move meanwhile).
            c.command(json!({"type": "act", "action": a})).await.unwrap();
        }
    }
    server.stop().await;
    for want in ["unreadable", "not_in_hand", "must_follow", "no_match", "must_play", "no_pass"] {
        assert!(seen.contains_key(want), "no `{want}` refusal seen; saw {:?}", seen.keys().collect::<Vec<_>>());
    }
    for (rule, params) in &seen {
        let r =
            Refused { rule: Box::leak(rule.clone().into_boxed_str()), params: params.clone(), message: String::new() };
        let show = |_: &str, v: &str| v.to_string();
        let fr = wording::word(Lang::Fr, &r, &show);
        let en = wording::word(Lang::En, &r, &show);
        assert!(wording::wording(&r).is_some(), "`{rule}` {params:?} has no wording");
        assert_ne!(fr, GENERIC.1, "`{rule}` falls back to the generic sentence");
        assert_ne!(fr, en, "`{rule}` is not worded in French: {fr}");
        assert!(!fr.contains('{'), "`{rule}`: a placeholder is left: {fr}");
        println!("{rule}: {fr}");
    }
}
