//! Issue 59, strangers at the table: open tables (listed with public facts only, joined in a
//! click) and quick match under load (each person seated once, at an allowed size, within the
//! range promised at their wait, never with someone they block; leaving the queue seats
//! nobody). On SQLite with one server; with `OH7_TEST_STORE=postgres` on two instances sharing
//! one PostgreSQL database. `OH7_MATCH_PEOPLE` (200) and `OH7_MATCH_SPREAD_S` (4) size the load.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{fast, on_postgres, start, temp_db};
use oh7_server::client::{Answer, Client, create_table, request};
use serde_json::{Value, json};

/// A request as the server's own page sends it, with a session cookie.
async fn call(addr: SocketAddr, method: &str, path: &str, cookie: Option<&str>, body: Option<Value>) -> Answer {
    let origin = format!("http://{addr}");
    let mut headers = vec![("Origin", origin.as_str()), ("Sec-Fetch-Site", "same-origin")];
    let cookie_line = cookie.map(|c| format!("oh7_session={c}"));
    if let Some(c) = &cookie_line {
        headers.push(("Cookie", c.as_str()));
    }
    let body = body.map(|b| b.to_string());
    request(addr, method, path, &headers, body.as_deref()).await.unwrap()
}

fn json_of(a: &Answer) -> Value {
    serde_json::from_str(&a.body).unwrap_or_else(|e| panic!("{e}: {} {}", a.status, a.body))
}

/// Every run of 16 or more hex digits in `text` (codes, ids, tokens, seeds).
fn hex_runs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_hexdigit() {
            run.push(c);
        } else {
            if run.len() >= 16 {
                out.push(run.clone());
            }
            run.clear();
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_table_is_listed_with_public_facts_only_and_joined_in_a_click() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let addr = server.addr;
    let list =
        |addr| async move { json_of(&call(addr, "GET", "/api/open-tables", None, None).await)["tables"].clone() };
    assert_eq!(list(addr).await, json!([]));
    // A table by link only is never listed; an open one is, once its host is there.
    let private = create_table(addr, &json!({"players": 3, "name": "Zoe"})).await.unwrap();
    let open = create_table(
        addr,
        &json!({"players": 3, "name": "Ann", "open": true, "lang": "fr", "seats": ["human", "human", "medium"]}),
    )
    .await
    .unwrap();
    let (invite, watch, token) =
        (open["invite"].as_str().unwrap(), open["watch"].as_str().unwrap(), open["token"].as_str().unwrap());
    let mut ann = Client::connect(addr).await.unwrap();
    ann.hello(invite, Some(token)).await.unwrap();
    let mut zoe = Client::connect(addr).await.unwrap();
    zoe.hello(private["invite"].as_str().unwrap(), private["token"].as_str()).await.unwrap();
    let mut listed = json!([]);
    for _ in 0..100 {
        listed = list(addr).await;
        if listed.as_array().unwrap().len() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        listed,
        json!([{"watch": watch, "game": "oh7", "preset": "en", "players": 3, "seats_free": 1, "people": ["Ann"],
                "bots": 1, "lang": "fr", "rated": false}])
    );
    // The scanner: the list holds no code but the table's public one (no invite, id, token).
    let body = call(addr, "GET", "/api/open-tables", None, None).await.body;
    for run in hex_runs(&body) {
        assert_eq!(run, watch, "a code that is not the table's public one: {body}");
    }
    assert!(!body.contains(invite) && !body.contains(token) && !body.contains(private["watch"].as_str().unwrap()));
    // A stranger joins in a click: the invite comes back, and they sit.
    let joined = call(addr, "POST", &format!("/api/open-tables/{watch}/join"), None, None).await;
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(json_of(&joined)["invite"], invite);
    let mut bob = Client::connect(addr).await.unwrap();
    bob.hello(invite, None).await.unwrap();
    let sat = bob.command(json!({"type": "sit", "name": "Bob"})).await.unwrap();
    assert_eq!(sat["type"], "ack", "{sat}");
    // Full: it leaves the list, and joining is refused with `not_open` (nothing changes).
    for _ in 0..100 {
        if list(addr).await == json!([]) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(list(addr).await, json!([]));
    let late = call(addr, "POST", &format!("/api/open-tables/{watch}/join"), None, None).await;
    assert_eq!((late.status, json_of(&late)["code"].as_str()), (409, Some("not_open")), "{}", late.body);
    let unknown = call(addr, "POST", &format!("/api/open-tables/{}/join", "0".repeat(32)), None, None).await;
    assert_eq!(json_of(&unknown)["code"], "not_open");
    // An open table is one its creator sits at.
    let bots_only = call(
        addr,
        "POST",
        "/api/tables",
        None,
        Some(json!({"players": 3, "seats": ["random", "random", "random"], "open": true})),
    )
    .await;
    assert_eq!(json_of(&bots_only)["code"], "bad_request", "{}", bots_only.body);
    drop((ann, zoe, bob));
    server.stop().await;
}

/// People made straight in the database (signing 1,000 people up would time argon2, not the
/// queue): `(account id, session token)`, each with a rating in `family`.
async fn people(db: &std::path::Path, n: usize, family: &str) -> Vec<(String, String, f64)> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(59);
    let url = db.to_str().unwrap().to_string();
    let made: Vec<(String, String, f64)> = (0..n)
        .map(|i| (format!("acct{i:05}"), oh7_server::secrets::new_secret(), rng.random_range(15.0..35.0)))
        .collect();
    let hash = |t: &str| oh7_server::secrets::TokenHash::of(t).0.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let statements: Vec<(String, Vec<String>)> = made
        .iter()
        .flat_map(|(id, token, mu)| {
            [
                (
                    "INSERT INTO accounts (id, name, name_key, password, created_at) VALUES ($1, $2, $3, 'x', 0)"
                        .to_string(),
                    vec![id.clone(), format!("P{id}"), format!("p{id}")],
                ),
                (
                    "INSERT INTO sessions (token_hash, account_id, created_at) VALUES ($1, $2, 4000000000)".to_string(),
                    vec![hash(token), id.clone()],
                ),
                (
                    format!(
                        "INSERT INTO ratings (account_id, family, mu, sigma, games) VALUES ($1, $2, {mu}, 2.0, 10)"
                    ),
                    vec![id.clone(), family.to_string()],
                ),
            ]
        })
        .collect();
    if on_postgres() {
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        let mut tx = pool.begin().await.unwrap();
        for (sql, binds) in &statements {
            let mut q = sqlx::query(sql);
            for b in binds {
                q = q.bind(b);
            }
            q.execute(&mut *tx).await.unwrap();
        }
        tx.commit().await.unwrap();
    } else {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite:{url}")).await.unwrap();
        let mut tx = pool.begin().await.unwrap();
        for (sql, binds) in &statements {
            let mut q = sqlx::query(sql);
            for b in binds {
                q = q.bind(b);
            }
            q.execute(&mut *tx).await.unwrap();
        }
        tx.commit().await.unwrap();
    }
    made
}

/// The queue's rows and the seats' links, read back from the database.
async fn read_back(db: &std::path::Path) -> (Vec<(String, Option<String>, f64, Option<f64>)>, Vec<(String, String)>) {
    let url = db.to_str().unwrap().to_string();
    let q = "SELECT account_id, matched, mu, promised FROM match_queue";
    let l = "SELECT s.account_id, t.join_code FROM seat_accounts s JOIN tables t ON t.id = s.table_id";
    if on_postgres() {
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        (sqlx::query_as(q).fetch_all(&pool).await.unwrap(), sqlx::query_as(l).fetch_all(&pool).await.unwrap())
    } else {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite:{url}")).await.unwrap();
        (sqlx::query_as(q).fetch_all(&pool).await.unwrap(), sqlx::query_as(l).fetch_all(&pool).await.unwrap())
    }
}

/// A table's public facts from the instance that plays it (another answers with a redirect).
async fn info_anywhere(addrs: &[SocketAddr], invite: &str) -> (SocketAddr, Value) {
    for _ in 0..50 {
        for &addr in addrs {
            let a = call(addr, "GET", &format!("/api/tables/{invite}"), None, None).await;
            if a.status == 200 {
                return (addr, json_of(&a));
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no instance plays {invite}");
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_match_under_load_seats_each_person_once_within_their_promised_range() {
    let n = env_or("OH7_MATCH_PEOPLE", 200);
    let spread = Duration::from_secs(env_or("OH7_MATCH_SPREAD_S", 4) as u64);
    let family = "oh7:en";
    let db = temp_db();
    // Nobody connects to most tables: a long grace keeps bots from playing their games out meanwhile.
    let settings =
        || oh7_server::Settings { match_every: Duration::from_millis(100), grace: Duration::from_secs(600), ..fast() };
    let a = start(&db, settings()).await;
    // Two instances on one PostgreSQL database: half the people reach each.
    let b = if on_postgres() { Some(start(&db, settings()).await) } else { None };
    let addrs: Vec<SocketAddr> = std::iter::once(a.addr).chain(b.as_ref().map(|s| s.addr)).collect();
    let made = people(&db, n, family).await;
    // Every 25th person blocks the next; every 20th leaves the queue at once.
    let mut blocks: Vec<(String, String)> = Vec::new();
    for i in (0..n.saturating_sub(1)).step_by(25) {
        let (me, other) = (&made[i], &made[i + 1]);
        let r = call(
            addrs[i % addrs.len()],
            "POST",
            "/api/account/blocks",
            Some(&me.1),
            Some(json!({"name": format!("P{}", other.0)})),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        blocks.push((me.0.clone(), other.0.clone()));
    }
    let began = Instant::now();
    let mut tasks = Vec::new();
    for (i, (id, token, _)) in made.iter().cloned().enumerate() {
        let addr = addrs[i % addrs.len()];
        let at = spread.mul_f64(i as f64 / n as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until((began + at).into()).await;
            let body = json!({"family": family, "rated": true, "bots_after_s": 3});
            let r = call(addr, "POST", "/api/match", Some(&token), Some(body)).await;
            assert_eq!(r.status, 202, "{}", r.body);
            let joined = Instant::now();
            if i % 20 == 7 {
                let r = json_of(&call(addr, "DELETE", "/api/match", Some(&token), None).await);
                // Unless matched before it could leave (the round runs every 100 ms).
                if r["state"] == "idle" {
                    return (id, r, joined.elapsed(), addr, token);
                }
            }
            loop {
                tokio::time::sleep(Duration::from_millis(250)).await;
                let s = json_of(&call(addr, "GET", "/api/match", Some(&token), None).await);
                if s["state"] != "waiting" {
                    return (id, s, joined.elapsed(), addr, token);
                }
                assert!(joined.elapsed() < Duration::from_secs(120), "{id} waited two minutes");
            }
        }));
    }
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.unwrap());
    }
    let (queue, links) = read_back(&db).await;
    let seat_count: HashMap<&str, usize> = links.iter().fold(HashMap::new(), |mut m, (a, _)| {
        *m.entry(a.as_str()).or_default() += 1;
        m
    });
    let queue: HashMap<&str, (&Option<String>, f64, Option<f64>)> =
        queue.iter().map(|(a, m, mu, p)| (a.as_str(), (m, *mu, *p))).collect();
    let mut by_table: HashMap<String, Vec<&str>> = HashMap::new();
    let mut waits = Vec::new();
    let mut left = 0;
    for (i, (id, state, waited, _, _)) in results.iter().enumerate() {
        if i % 20 == 7 && state["state"] == "idle" {
            // Left before a match: seated nowhere.
            assert_eq!(seat_count.get(id.as_str()), None, "{id} left the queue but was seated");
            left += 1;
            continue;
        }
        assert_eq!(state["state"], "matched", "{id}: {state}");
        let invite = state["invite"].as_str().unwrap().to_string();
        assert_eq!(seat_count.get(id.as_str()), Some(&1), "{id} seated once");
        assert_eq!(queue[id.as_str()].0.as_deref(), Some(invite.as_str()));
        by_table.entry(invite).or_default().push(id);
        waits.push(*waited);
    }
    assert!(left > 0, "someone left before being matched");
    for (invite, members) in &by_table {
        let (_, info) = info_anywhere(&addrs, invite).await;
        let players = info["players"].as_u64().unwrap() as usize;
        assert!((3..=8).contains(&players) && members.len() <= players, "{info}");
        assert_eq!(info["state"], "playing", "dealt at once: {info}");
        assert_eq!(info["rated"], true);
        for x in members {
            let (_, mu, promised) = queue[x];
            for y in members {
                assert!((mu - queue[y].1).abs() <= promised.unwrap() + 1e-9, "{x} and {y} outside {x}'s range");
                assert!(!blocks.contains(&(x.to_string(), y.to_string())), "{x} blocks {y} but they sit together");
            }
        }
    }
    // A matched person's page reaches their seat by their session (a sample).
    for (id, state, _, _, token) in results.iter().filter(|r| r.1["state"] == "matched").take(5) {
        let (addr, _) = info_anywhere(&addrs, state["invite"].as_str().unwrap()).await;
        let cookie = format!("oh7_session={token}");
        let origin = format!("http://{addr}");
        let mut c = Client::connect_with(addr, &[("Cookie", &cookie), ("Origin", &origin)]).await.unwrap();
        let snap = c.hello(state["invite"].as_str().unwrap(), None).await.unwrap();
        assert!(snap["you"].is_u64(), "{id} is seated by their account: {snap}");
    }
    waits.sort();
    let pick = |q: f64| waits[((waits.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "quick match: {} people over {:?} on {} instance(s): {} tables, {} left the queue; join to first deal: median {:?}, p95 {:?}, max {:?}",
        n,
        spread,
        addrs.len(),
        by_table.len(),
        left,
        pick(0.5),
        pick(0.95),
        waits.last().unwrap()
    );
    if let Some(b) = b {
        b.stop().await;
    }
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_reads_reports_suspends_an_account_and_closes_a_table() {
    let db = temp_db();
    let settings = oh7_server::Settings { deadline_sweep: Duration::from_millis(100), ..fast() };
    let server = start(&db, settings).await;
    let addr = server.addr;
    let made = people(&db, 2, "oh7:en").await;
    let ((ann, ann_session, _), (_, bob_session, _)) = (&made[0], &made[1]);
    // Ann's table, her seat held by her account; a bot and a free seat besides.
    let created = call(
        addr,
        "POST",
        "/api/tables",
        Some(ann_session),
        Some(json!({"players": 3, "name": "Ann", "seats": ["human", "human", "random"]})),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let created = json_of(&created);
    let (invite, watch, token) =
        (created["invite"].as_str().unwrap(), created["watch"].as_str().unwrap(), created["token"].as_str().unwrap());
    let mut at_table = Client::connect(addr).await.unwrap();
    at_table.hello(invite, Some(token)).await.unwrap();
    // Bob reports Ann, pointing at a line.
    let report = json!({"name": format!("P{ann}"), "table": watch, "lines": [{"name": "Ann", "text": "rude words"}], "reason": "insults"});
    let r = call(addr, "POST", "/api/reports", Some(bob_session), Some(report)).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let guest = call(addr, "POST", "/api/reports", None, Some(json!({"name": "x"}))).await;
    assert_eq!(json_of(&guest)["code"], "signed_out", "a guest cannot report");
    let admin = oh7_server::admin::Admin::open(&db.to_str().unwrap().parse().unwrap()).await.unwrap();
    let reports = admin.reports().await.unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(
        (reports[0].reporter.as_str(), reports[0].reported.as_str()),
        (format!("P{}", made[1].0).as_str(), format!("P{ann}").as_str())
    );
    assert_eq!(reports[0].table.as_deref(), Some(watch));
    assert_eq!(reports[0].lines, json!([{"name": "Ann", "text": "rude words"}]));
    // Suspended: her session ends at once, her connection is closed and a bot plays her seat
    // by the next sweep; her token no longer takes the seat back.
    assert!(admin.suspend(&format!("P{ann}"), "insults").await.unwrap());
    assert!(!admin.suspend(&format!("P{ann}"), "again").await.unwrap());
    assert!(matches!(admin.suspend("nobody", "").await, Err(oh7_server::admin::AdminError::UnknownAccount(_))));
    assert_eq!(call(addr, "GET", "/api/account", Some(ann_session), None).await.status, 401);
    let mut status = String::new();
    for _ in 0..100 {
        let info = json_of(&call(addr, "GET", &format!("/api/tables/{invite}"), None, None).await);
        status = info["seats"][0]["status"].as_str().unwrap_or("").to_string();
        if status == "bot_for_away" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status, "bot_for_away");
    let mut again = Client::connect(addr).await.unwrap();
    let refused = again.hello(invite, Some(token)).await;
    assert!(format!("{refused:?}").contains("suspended"), "{refused:?}");
    drop(at_table);
    // Closed: the table stops and is never found again.
    assert!(matches!(
        admin.close_table(&"f".repeat(32), "").await,
        Err(oh7_server::admin::AdminError::UnknownTable(_))
    ));
    admin.close_table(watch, "abuse").await.unwrap();
    let mut gone = 0;
    for _ in 0..100 {
        gone = call(addr, "GET", &format!("/api/tables/{invite}"), None, None).await.status;
        if gone == 404 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(gone, 404);
    assert!(admin.unsuspend(&format!("P{ann}")).await.unwrap());
    admin.close().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_person_neither_sees_nor_joins_the_blockers_open_table() {
    let db = temp_db();
    let server = start(&db, fast()).await;
    let addr = server.addr;
    let made = people(&db, 3, "oh7:en").await;
    let (ann, bob, cy) = (&made[0], &made[1], &made[2]);
    let r = call(addr, "POST", "/api/account/blocks", Some(&ann.1), Some(json!({"name": format!("P{}", bob.0)}))).await;
    assert_eq!(json_of(&r)["blocked"], json!([format!("P{}", bob.0)]));
    let created = json_of(
        &call(addr, "POST", "/api/tables", Some(&ann.1), Some(json!({"players": 3, "name": "Ann", "open": true})))
            .await,
    );
    let watch = created["watch"].as_str().unwrap();
    let mut host = Client::connect(addr).await.unwrap();
    host.hello(created["invite"].as_str().unwrap(), created["token"].as_str()).await.unwrap();
    let listed = |token: String| async move {
        json_of(&call(addr, "GET", "/api/open-tables", Some(&token), None).await)["tables"].as_array().unwrap().len()
    };
    for _ in 0..100 {
        if listed(cy.1.clone()).await == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(listed(cy.1.clone()).await, 1, "Cy sees Ann's table");
    assert_eq!(listed(bob.1.clone()).await, 0, "Bob, whom Ann blocks, does not");
    let join = |token: String| async move {
        call(addr, "POST", &format!("/api/open-tables/{watch}/join"), Some(&token), None).await
    };
    assert_eq!(json_of(&join(bob.1.clone()).await)["code"], "not_open");
    assert_eq!(join(cy.1.clone()).await.status, 200);
    // Unblocked, Bob sees it again.
    call(
        addr,
        "POST",
        "/api/account/blocks",
        Some(&ann.1),
        Some(json!({"name": format!("P{}", bob.0), "block": false})),
    )
    .await;
    assert_eq!(listed(bob.1.clone()).await, 1);
    drop(host);
    server.stop().await;
}
