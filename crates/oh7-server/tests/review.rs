//! After a game, a player asks for the review of their decisions: queued, running with
//! progress, done with the code of its link; the page behind the link holds the review and the
//! record; asked again it is answered at once from the store; spectators and unfinished games
//! are refused with codes.

mod common;

use common::{fast, start, temp_db};
use oh7_server::Settings;
use oh7_server::client::{Client, create_table, http};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_reviews_their_game_and_shares_it() {
    let db = temp_db();
    let server = start(&db, Settings { review_level: oh7_review::ReviewLevel::Easy, ..fast() }).await;
    let created = create_table(
        server.addr,
        &json!({"players": 3, "preset": "en", "name": "Host", "seats": ["human", "random", "heuristic"]}),
    )
    .await
    .unwrap();
    let (invite, watch, token) =
        (created["invite"].as_str().unwrap(), created["watch"].as_str().unwrap(), created["token"].as_str().unwrap());
    let mut c = Client::connect(server.addr).await.unwrap();
    c.hello(invite, Some(token)).await.unwrap();
    let mut s = Client::connect(server.addr).await.unwrap();
    s.hello(watch, None).await.unwrap();
    assert_eq!(c.command(json!({"type": "start"})).await.unwrap()["type"], "ack");
    // Not over yet.
    let r = c.command(json!({"type": "review"})).await.unwrap();
    assert_eq!(r["code"], "not_over", "{r}");
    let mut acted = 0;
    while c.table["state"] != "over" {
        if !c.legal.is_empty() && c.version > acted {
            acted = c.version;
            let a = c.legal[c.version as usize % c.legal.len()].clone();
            let id = c.id();
            c.send(&json!({"type": "act", "id": id, "action": a})).await.unwrap();
        } else {
            c.recv().await.unwrap();
        }
    }
    // A spectator cannot ask for anyone's review.
    let r = s.command(json!({"type": "review"})).await.unwrap();
    assert_eq!(r["code"], "spectator", "{r}");
    let r = c.command(json!({"type": "review", "game": 2})).await.unwrap();
    assert_eq!((&r["code"], &r["params"]["finished"]), (&json!("not_over"), &json!(1)), "{r}");
    // The review: acked, queued, running with progress, done.
    let version = c.version;
    let r = c.command(json!({"type": "review"})).await.unwrap();
    assert_eq!(r["type"], "ack", "{r}");
    let queued = c.until(|m| m["type"] == "review").await.unwrap();
    assert_eq!(
        (&queued["state"], &queued["position"], &queued["game"], &queued["seat"]),
        (&json!("queued"), &json!(1), &json!(1), &json!(0)),
        "{queued}"
    );
    let mut progress = 0;
    let done = loop {
        let m = c.until(|m| m["type"] == "review").await.unwrap();
        assert_eq!(m["version"], version, "a review does not change the version");
        match m["state"].as_str() {
            Some("running") => progress += 1,
            Some("done") => break m,
            _ => panic!("{m}"),
        }
    };
    assert!(progress >= 2, "progress is shown");
    let share = done["share"].as_str().unwrap().to_string();
    assert_eq!(share.len(), 32);
    // The page: the review of seat 0, the record, the table.
    let (status, page) = http(server.addr, "GET", &format!("/api/reviews/{share}"), None).await.unwrap();
    assert_eq!(status, 200);
    let page: serde_json::Value = serde_json::from_str(&page).unwrap();
    assert_eq!(page["review"]["seat"], 0);
    assert!(!page["review"]["decisions"].as_array().unwrap().is_empty());
    assert_eq!(page["record"]["game"], "oh7");
    assert_eq!(page["table"]["names"][0], "Host");
    // Asked again: at once, the same link, nothing computed.
    c.command(json!({"type": "review"})).await.unwrap();
    let again = c.until(|m| m["type"] == "review").await.unwrap();
    assert_eq!((&again["state"], &again["share"]), (&json!("done"), &json!(share)), "{again}");
    // A link nobody was given: 404 with its code; the page itself is the app's.
    let (status, body) = http(server.addr, "GET", &format!("/api/reviews/{}", "ab".repeat(16)), None).await.unwrap();
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!((status, &body["code"]), (404, &json!("unknown_review")));
    let (status, _) = http(server.addr, "GET", "/api/reviews/not-a-code", None).await.unwrap();
    assert_eq!(status, 404);
    server.stop().await;
    // Stored: after a restart the link still works.
    let server = start(&db, fast()).await;
    let (status, page) = http(server.addr, "GET", &format!("/api/reviews/{share}"), None).await.unwrap();
    let page: serde_json::Value = serde_json::from_str(&page).unwrap();
    assert_eq!((status, &page["review"]["seat"]), (200, &json!(0)));
    server.stop().await;
}
