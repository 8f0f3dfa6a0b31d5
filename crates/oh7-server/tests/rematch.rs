//! A rematch that asks: the host's "Play again" asks the other people, who answer in or not
//! this time; the game starts when all have answered or at the deadline, with a bot for each
//! person who is not in, until they take their seat back. Nobody waits with no notice.

mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::{fast, start, temp_db};
use oh7_server::Settings;
use oh7_server::client::{Client, create_table};
use serde_json::{Value, json};

/// A 3-person `en` table of one round (host, B, C), played to its end; the clients and the
/// invite code and tokens.
async fn finished(addr: std::net::SocketAddr) -> (Vec<Client>, String, Vec<String>) {
    let req = json!({"ruleset": "preset = \"en\"\nrounds = 1", "players": 3, "name": "Host"});
    let created = create_table(addr, &req).await.unwrap();
    let invite = created["invite"].as_str().unwrap().to_string();
    let mut tokens = vec![created["token"].as_str().unwrap().to_string()];
    let mut cs = vec![Client::connect(addr).await.unwrap()];
    cs[0].hello(&invite, Some(&tokens[0])).await.unwrap();
    for name in ["B", "C"] {
        let mut c = Client::connect(addr).await.unwrap();
        c.hello(&invite, None).await.unwrap();
        let ack = c.command(json!({"type": "sit", "name": name})).await.unwrap();
        tokens.push(ack["token"].as_str().unwrap().to_string());
        cs.push(c);
    }
    let ack = cs[0].command(json!({"type": "start"})).await.unwrap();
    let mut v = ack["version"].as_u64().unwrap();
    play_until_over(&mut cs, &mut v).await;
    (cs, invite, tokens)
}

/// Everyone acts (the middle legal action) until the game is over.
async fn play_until_over(cs: &mut [Client], v: &mut u64) {
    loop {
        settle(cs, *v).await;
        if cs[0].table["state"] == "over" {
            return;
        }
        let s = (0..cs.len()).find(|&s| !cs[s].legal.is_empty()).expect("someone owes a decision");
        let action = cs[s].legal[cs[s].legal.len() / 2].clone();
        let ack = cs[s].command(json!({"type": "act", "action": action})).await.unwrap();
        assert_eq!(ack["type"], "ack", "{ack}");
        *v = ack["version"].as_u64().unwrap();
    }
}

async fn settle(cs: &mut [Client], v: u64) {
    for c in cs.iter_mut() {
        while c.version < v {
            c.recv().await.unwrap();
        }
    }
}

fn status(c: &Client, seat: usize) -> Value {
    c.table["seats"][seat]["status"].clone()
}

/// The host asks; B says yes, C says not this time: the game starts at C's answer with a bot
/// playing for C, who takes the seat back with `back`. Wrong answers change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_others_answer_and_the_game_starts_when_all_have() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (mut cs, _, _) = finished(server.addr).await;
    // Nobody asked yet: an answer is refused and changes nothing.
    let before = cs[1].version;
    let r = cs[1].command(json!({"type": "answer", "yes": true})).await.unwrap();
    assert_eq!(r["code"], "not_asked", "{r}");
    assert_eq!(cs[1].version, before);
    // The host asks: everyone is told, with the deadline and who has answered.
    let ack = cs[0].command(json!({"type": "rematch"})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    let v = ack["version"].as_u64().unwrap();
    settle(&mut cs, v).await;
    for c in &cs {
        assert_eq!(c.table["state"], "over", "nothing starts before the answers");
        let r = &c.table["rematch"];
        assert_eq!(r["answers"], json!(["yes", "waiting", "waiting"]), "{r}");
        assert_eq!(r["wait_s"], 30);
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64;
        let deadline = r["deadline_ms"].as_u64().unwrap();
        assert!(deadline > now && deadline <= now + 30_000, "{deadline} vs {now}");
    }
    // The host does not answer its own question; a malformed answer is malformed.
    let r = cs[0].command(json!({"type": "answer", "yes": true})).await.unwrap();
    assert_eq!(r["code"], "not_asked", "{r}");
    cs[1].send(&json!({"type": "answer", "id": "no-yes"})).await.unwrap();
    let r = cs[1].until(|m| m["type"] == "error").await.unwrap();
    assert_eq!(r["code"], "malformed", "{r}");
    assert_eq!(cs[1].version, v, "refusals change nothing");
    // B is in, with one id sent twice: applied once.
    cs[1].send(&json!({"type": "answer", "id": "b-yes", "yes": true})).await.unwrap();
    let first = cs[1].until(|m| m["id"] == "b-yes").await.unwrap();
    cs[1].send(&json!({"type": "answer", "id": "b-yes", "yes": true})).await.unwrap();
    let again = cs[1].until(|m| m["id"] == "b-yes").await.unwrap();
    assert_eq!((first["version"].clone(), again["repeated"].clone()), (json!(v + 1), json!(true)));
    settle(&mut cs, v + 1).await;
    assert_eq!(cs[2].table["rematch"]["answers"], json!(["yes", "yes", "waiting"]));
    assert_eq!(cs[2].table["state"], "over");
    // C declines: that completes the answers, and the game starts with a bot for C.
    let r = cs[2].command(json!({"type": "answer", "yes": false})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    let m = cs[0].until(|m| m["event"]["kind"] == "start").await.unwrap();
    assert_eq!(m["event"]["game"], 2);
    settle(&mut cs, v + 3).await;
    for c in &cs {
        assert_eq!(c.table["state"], "playing");
        assert_eq!(c.table["rematch"], Value::Null);
        assert_eq!((status(c, 1), status(c, 2)), (json!("here"), json!("bot_for_away")));
    }
    // A bot decides for C when C owes a decision (the others act when they owe one).
    let mut v = v + 3;
    loop {
        settle(&mut cs, v).await;
        if let Some(s) = (0..2).find(|&s| !cs[s].legal.is_empty()) {
            let action = cs[s].legal[0].clone();
            let ack = cs[s].command(json!({"type": "act", "action": action})).await.unwrap();
            v = ack["version"].as_u64().unwrap();
            continue;
        }
        let m = cs[2].recv().await.unwrap();
        v = v.max(cs[2].version);
        if m["event"]["kind"] == "act" && m["event"]["seat"] == 2 {
            assert_eq!(m["event"]["by_bot"], true, "{m}");
            break;
        }
    }
    // C takes the seat back.
    let r = cs[2].command(json!({"type": "back"})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    cs[0].until(|m| m["type"] == "presence").await.unwrap();
    assert_eq!(status(&cs[0], 2), json!("here"));
    // Once the game runs, an answer is refused.
    let r = cs[1].command(json!({"type": "answer", "yes": true})).await.unwrap();
    assert_eq!(r["code"], "not_asked", "{r}");
    server.stop().await;
}

/// A person who left (the review in the same tab, a closed tab) does not answer: at the deadline
/// the game starts with a bot in that seat, and everyone saw the deadline. The host may also
/// start before it. Coming back takes the seat back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_gone_is_played_by_a_bot_from_the_deadline() {
    let db = temp_db();
    let settings = Settings { rematch_wait: Duration::from_millis(1500), ..fast() };
    let server = start(&db, settings).await;
    let (mut cs, invite, tokens) = finished(server.addr).await;
    // C leaves.
    let c = cs.pop().unwrap();
    c.close().await;
    cs[0].until(|m| m["type"] == "presence" && m["patch"].to_string().contains("away")).await.unwrap();
    let asked = std::time::Instant::now();
    let ack = cs[0].command(json!({"type": "rematch"})).await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    let r = cs[1].command(json!({"type": "answer", "yes": true})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    // Nobody answers for C: the game starts at the deadline, not before.
    let m = cs[1].until(|m| m["event"]["kind"] == "start").await.unwrap();
    let waited = asked.elapsed();
    assert!(waited >= Duration::from_millis(1400), "started after {waited:?}, before the deadline");
    assert!(waited < Duration::from_secs(10), "started after {waited:?}");
    assert_eq!(m["event"]["game"], 2);
    settle(&mut cs, m["version"].as_u64().unwrap()).await;
    assert_eq!(status(&cs[1], 2), json!("bot_for_away"));
    // C comes back and has the seat again.
    let mut c = Client::connect(server.addr).await.unwrap();
    let snap = c.hello(&invite, Some(&tokens[2])).await.unwrap();
    assert_eq!(snap["you"], 2);
    assert_eq!(snap["table"]["seats"][2]["status"], "here");
    server.stop().await;
}

/// The host's second "Play again" while the others answer starts the game at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_may_start_without_waiting() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (mut cs, _, _) = finished(server.addr).await;
    let ack = cs[0].command(json!({"type": "rematch"})).await.unwrap();
    let v = ack["version"].as_u64().unwrap();
    cs[0].send(&json!({"type": "rematch", "id": "now"})).await.unwrap();
    let ack = cs[0].until(|m| m["id"] == "now").await.unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(ack["version"], v + 1, "the second ask is the start");
    // Sent again, the same id is answered with the same ack, not applied.
    cs[0].send(&json!({"type": "rematch", "id": "now"})).await.unwrap();
    let again = cs[0].until(|m| m["id"] == "now").await.unwrap();
    assert_eq!((again["version"].clone(), again["repeated"].clone()), (json!(v + 1), json!(true)), "{again}");
    settle(&mut cs, v + 1).await;
    assert_eq!(cs[1].table["state"], "playing");
    assert_eq!((status(&cs[1], 1), status(&cs[1], 2)), (json!("bot_for_away"), json!("bot_for_away")));
    server.stop().await;
}

/// A rematch being asked survives a restart (the log holds the question and the answers) and the
/// people get the whole wait again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_being_asked_survives_a_restart() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let (mut cs, invite, tokens) = finished(server.addr).await;
    cs[0].command(json!({"type": "rematch"})).await.unwrap();
    let r = cs[1].command(json!({"type": "answer", "yes": true})).await.unwrap();
    let v = r["version"].as_u64().unwrap();
    for c in cs {
        c.close().await;
    }
    server.stop().await;
    let server = start(&db, fast()).await;
    let mut cs = Vec::new();
    for t in &tokens {
        let mut c = Client::connect(server.addr).await.unwrap();
        let snap = c.hello(&invite, Some(t)).await.unwrap();
        assert_eq!(snap["version"], v);
        assert_eq!(snap["table"]["state"], "over");
        assert_eq!(snap["table"]["rematch"]["answers"], json!(["yes", "yes", "waiting"]));
        cs.push(c);
    }
    let r = cs[2].command(json!({"type": "answer", "yes": true})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    settle(&mut cs, v + 2).await;
    assert_eq!(cs[0].table["state"], "playing");
    assert!((0..3).all(|s| status(&cs[0], s) == "here"), "{}", cs[0].table["seats"]);
    server.stop().await;
}
