//! Several real `oh7 serve` instances on one PostgreSQL database (`OH7_PG_URL`, set by
//! `.ci/run`; skipped without it).
//!
//! - Failover: two instances, 100 tables in play spread over both, `kill -9` of one: every
//!   table of the dead one continues on the other within the lease plus a few seconds, no
//!   acknowledged action is lost, none is applied twice, and every final record is the one a
//!   run without the kill makes (the same seed, the same moves: the clients' choice is a
//!   function of what they see, so the whole game is replayed offline from its seed).
//! - Split brain: an instance paused (SIGSTOP) past its lease and then resumed cannot write to
//!   the tables it lost, and its clients end up on the new owner.
//!
//! `OH7_FAILOVER_LEASE_S` sets the lease (default 3 s, so the test is quick; `oh7 serve`'s
//! default is 15 s). Each table prints its failover time; the test prints the median and max.

mod common;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::tables::{PLAYERS, Tab, check_record, choose, new_table, play, quantiles, reconnect, sync};
use common::{Guard, sample};
use oh7_server::client::{Client, http};
use serde_json::{Value, json};
use sqlx::Connection;

/// A database made for one test, dropped at its end.
struct Db {
    url: String,
    name: String,
    admin: String,
}

impl Drop for Db {
    fn drop(&mut self) {
        let (name, admin) = (self.name.clone(), self.admin.clone());
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                if let Ok(mut c) = sqlx::PgConnection::connect(&admin).await {
                    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut c).await;
                }
            });
        })
        .join();
    }
}

/// A new empty database on the server of `OH7_PG_URL` (`None`: no PostgreSQL, skip).
async fn fresh_db() -> Option<Db> {
    let Ok(base) = std::env::var("OH7_PG_URL") else {
        eprintln!("OH7_PG_URL is not set: the several-instance tests are skipped");
        return None;
    };
    let name = format!("oh7_f_{}", &oh7_server::secrets::new_code()[..12]);
    let mut admin = sqlx::PgConnection::connect(&base).await.expect("OH7_PG_URL answers");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.unwrap();
    let cut = base.rfind('/').expect("a database in the URL");
    Some(Db { url: format!("{}/{name}", &base[..cut]), name, admin: base })
}

fn lease_s() -> u64 {
    std::env::var("OH7_FAILOVER_LEASE_S").ok().and_then(|s| s.parse().ok()).unwrap_or(3)
}

/// Start `oh7 serve` on `db` (PostgreSQL) on an ephemeral loopback port.
fn serve(db: &str) -> (Guard, SocketAddr) {
    let lease = lease_s().to_string();
    common::serve_with(
        db,
        &[
            "--grace-s",
            "600",
            "--max-conns-per-ip",
            "100000",
            "--max-tables-per-ip",
            "100000",
            "--commands-per-s",
            "10000",
            "--lease-s",
            &lease,
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_one_instance_moves_its_tables_to_the_other() {
    let Some(db) = fresh_db().await else { return };
    let (mut a, addr_a) = serve(&db.url);
    let (b, addr_b) = serve(&db.url);
    let live = Arc::new(Mutex::new(vec![addr_a, addr_b]));
    let presets = ["en", "fr", "kod7", "bga", "fr-advanced"];
    let mut tabs = Vec::new();
    for i in 0..100 {
        let at = if i % 2 == 0 { addr_a } else { addr_b };
        tabs.push(new_table(at, presets[i % presets.len()]).await);
    }
    let on_a: Vec<bool> = tabs.iter().map(|t| t.at == addr_a).collect();
    let pace = Duration::from_millis(40);
    let tasks: Vec<_> = tabs.into_iter().map(|t| tokio::spawn(play(t, live.clone(), pace))).collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    // SIGKILL: no clean stop, no lease given back.
    a.0.kill().unwrap();
    a.0.wait().unwrap();
    let killed = Instant::now();
    live.lock().unwrap().retain(|x| *x != addr_a);
    let mut times = Vec::new();
    let mut acts = 0;
    for (i, t) in tasks.into_iter().enumerate() {
        let tab = t.await.unwrap();
        assert_eq!(tab.at, addr_b, "table {i} ends on the live instance");
        acts += check_record(&tab).await;
        if on_a[i] {
            // The dead instance's tables moved; the survivor's were not disturbed.
            assert!(tab.moves >= 1, "table {i} was on the killed instance");
            let resumed = tab.broke_at.map(|b| b + tab.resumed.unwrap() - killed).expect("table {i} resumed");
            times.push(resumed);
        } else {
            assert_eq!(tab.moves, 0, "table {i} stayed on its instance");
        }
    }
    let (median, max) = quantiles(times.clone());
    println!(
        "failover over {} tables (lease {} s): median {:.2} s, max {:.2} s; {acts} acts in 100 games",
        times.len(),
        lease_s(),
        median.as_secs_f64(),
        max.as_secs_f64()
    );
    assert!(max < Duration::from_secs(lease_s() + 5), "every table continues within the lease plus 5 s: {max:?}");
    drop(b);
    drop(db);
}

/// Stop `guard`'s process cleanly (SIGTERM, as an orchestrator does) and wait for it to exit.
fn terminate(guard: &mut Guard) {
    unsafe { libc::kill(guard.0.id() as i32, libc::SIGTERM) };
    let status = guard.0.wait().unwrap();
    assert!(status.success(), "a clean stop exits 0: {status}");
}

/// An upgrade without stopping games: two instances under load, each stopped cleanly (SIGTERM)
/// in turn and replaced by a new process of the binary; every table continues, no acknowledged
/// act is lost or applied twice, and the test prints the longest pause a player saw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_two_instances_keeps_every_game() {
    let Some(db) = fresh_db().await else { return };
    let (mut a, addr_a) = serve(&db.url);
    let (mut b, addr_b) = serve(&db.url);
    let live = Arc::new(Mutex::new(vec![addr_a, addr_b]));
    let presets = ["en", "fr", "kod7", "bga", "fr-advanced"];
    let mut tabs = Vec::new();
    for i in 0..40 {
        tabs.push(new_table(if i % 2 == 0 { addr_a } else { addr_b }, presets[i % presets.len()]).await);
    }
    let pace = Duration::from_millis(100);
    let tasks: Vec<_> = tabs.into_iter().map(|t| tokio::spawn(play(t, live.clone(), pace))).collect();
    let began = Instant::now();
    tokio::time::sleep(Duration::from_secs(2)).await;
    // A first: its tables go to B; a new A' takes its place.
    live.lock().unwrap().retain(|x| *x != addr_a);
    terminate(&mut a);
    let a_stopped = Instant::now();
    let (_a2, addr_a2) = serve(&db.url);
    live.lock().unwrap().push(addr_a2);
    tokio::time::sleep(Duration::from_secs(3)).await;
    // Then B: every table it holds (its own and A's) goes to A'; a new B' joins.
    live.lock().unwrap().retain(|x| *x != addr_b);
    terminate(&mut b);
    let b_stopped = Instant::now();
    let (_b2, addr_b2) = serve(&db.url);
    live.lock().unwrap().push(addr_b2);
    let (mut acts, mut acked, mut longest, mut moved, mut early) = (0, 0, Duration::ZERO, 0, 0);
    for (i, t) in tasks.into_iter().enumerate() {
        let mut tab = t.await.unwrap();
        // A game may end on the instance it was on before that one stopped (the games' lengths
        // vary with their deals, and a loaded machine starts A' late): its last act was answered
        // before the stop (a second's slack for the client to read it). Every other table ends
        // on a new instance, having moved.
        let stopped = [(addr_a, a_stopped), (addr_b, b_stopped)].into_iter().find(|(at, _)| *at == tab.at);
        if let Some((_, when)) = stopped {
            let last = tab.last_ack.expect("a game that ended had acts");
            assert!(last < when + Duration::from_secs(1), "table {i} ended on an instance after it stopped");
            early += 1;
            // Its instance is stopped now: the record is read from a new one, whichever serves
            // the table (the other may send it there).
            let path = format!("/api/tables/{}/record", tab.watch);
            let mut serves = None;
            for at in [addr_a2, addr_b2] {
                if matches!(http(at, "GET", &path, None).await, Ok((200, _))) {
                    serves = Some(at);
                    break;
                }
            }
            tab.at = serves.unwrap_or_else(|| panic!("table {i}: no new instance serves its record"));
        } else {
            assert!([addr_a2, addr_b2].contains(&tab.at), "table {i} ends on a new instance");
            assert!(tab.moves >= 1, "table {i} moved at least once");
        }
        assert_eq!(tab.fenced, 0, "table {i}: a clean stop leaves no act to refuse");
        moved += tab.moves;
        acts += check_record(&tab).await;
        acked += tab.acked.len();
        longest = longest.max(tab.longest);
    }
    println!(
        "rolling restart over 40 tables in {:.1} s: {acked} acts acknowledged of {acts} in the games, lost 0, \
         doubled 0; {moved} moves of a table's clients; longest pause a player saw {:.2} s; {early} games \
         ended before their instance stopped",
        began.elapsed().as_secs_f64(),
        longest.as_secs_f64()
    );
    assert!(longest < Duration::from_secs(lease_s() + 2), "no table waits past a heartbeat or two: {longest:?}");
    assert!(early <= 10, "most games span the restarts: {early} of 40 ended before");
    drop(db);
}

/// Two instances on `db` (A, its address, B, its address, both live) and ten tables on A.
async fn ten_tables_on_a(db: &Db) -> (Guard, SocketAddr, Guard, SocketAddr, Arc<Mutex<Vec<SocketAddr>>>, Vec<Tab>) {
    let (a, addr_a) = serve(&db.url);
    let (b, addr_b) = serve(&db.url);
    let live = Arc::new(Mutex::new(vec![addr_a, addr_b]));
    let mut tabs = Vec::new();
    for _ in 0..10 {
        tabs.push(new_table(addr_a, "en").await);
    }
    (a, addr_a, b, addr_b, live, tabs)
}

/// Stop process `pid` (`SIGSTOP`) and wait until every one of its threads is stopped: from
/// then on it reads nothing more from its sockets.
async fn stop(pid: i32) {
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    let all_stopped = || {
        std::fs::read_dir(format!("/proc/{pid}/task")).unwrap().all(|t| {
            let stat = std::fs::read_to_string(t.unwrap().path().join("stat")).unwrap_or_default();
            // The state follows the command's closing parenthesis.
            stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with(['T', 't']))
        })
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while !all_stopped() {
        assert!(Instant::now() < deadline, "process {pid} did not stop");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_stopped_inside_a_transaction_holds_no_table_up() {
    let Some(db) = fresh_db().await else { return };
    let (a, addr_a, b, addr_b, live, tabs) = ten_tables_on_a(&db).await;
    // Every table played as fast as it goes, so that A is inside a commit most of the time.
    let tasks: Vec<_> = tabs.into_iter().map(|t| tokio::spawn(play(t, live.clone(), Duration::ZERO))).collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = a.0.id() as i32;
    let mut admin = sqlx::PgConnection::connect(&db.url).await.unwrap();
    // Stop A until one of its sessions is caught inside a transaction (its statements done,
    // its commit not sent), holding the lease rows it renewed.
    let mut tries = 0;
    let stopped_at = loop {
        tries += 1;
        assert!(tries <= 500, "A was never caught inside a transaction");
        stop(pid).await;
        let at = Instant::now();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let inside: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle in transaction'",
        )
        .bind(format!("oh7 serve {pid}"))
        .fetch_one(&mut admin)
        .await
        .unwrap();
        if inside > 0 {
            break at;
        }
        unsafe { libc::kill(pid, libc::SIGCONT) };
        tokio::time::sleep(Duration::from_millis(5 + tries % 13)).await;
    };
    let a_id: String = sqlx::query_scalar("SELECT id FROM instances WHERE url = $1")
        .bind(format!("http://{addr_a}"))
        .fetch_one(&mut admin)
        .await
        .unwrap();
    // B serves every table A held within the lease plus a heartbeat: the server ended A's open
    // transaction (its locks with it), the leases ran out, B's heartbeat claimed them.
    let limit = Duration::from_millis(lease_s() * 1000 + lease_s() * 1000 / 3 + 1000);
    let moved = loop {
        let left: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM leases l JOIN tables t ON t.id = l.table_id WHERE l.owner = $1 AND t.finished = 0",
        )
        .bind(&a_id)
        .fetch_one(&mut admin)
        .await
        .unwrap();
        if left == 0 {
            break stopped_at.elapsed();
        }
        assert!(stopped_at.elapsed() < limit, "{left} tables still A's after {:?}", stopped_at.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    println!("A stopped inside a transaction (after {tries} tries): every table B's in {:.2} s", moved.as_secs_f64());
    // A wakes: whatever it had queued is refused, its clients go to B, every game ends whole.
    unsafe { libc::kill(pid, libc::SIGCONT) };
    for t in tasks {
        let tab = t.await.unwrap();
        check_record(&tab).await;
        assert_eq!(tab.at, addr_b, "the clients end up on the new owner");
    }
    drop((a, b));
    drop(db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_instance_cannot_write_the_tables_it_lost() {
    let Some(db) = fresh_db().await else { return };
    let (a, _, b, addr_b, live, mut tabs) = ten_tables_on_a(&db).await;
    // A few acts on A, then A is paused past its lease with one act on its way to each table.
    for tab in tabs.iter_mut() {
        for _ in 0..3 {
            let s = (0..PLAYERS).find(|&s| !tab.clients[s].legal.is_empty()).unwrap();
            let c = &mut tab.clients[s];
            let action = choose(c.version, &c.legal);
            let ack = c.command(json!({"type": "act", "action": action})).await.unwrap();
            let v = ack["version"].as_u64().unwrap();
            tab.acked.push((v, s, action));
            sync(tab, v).await.unwrap();
        }
    }
    let pid = a.0.id() as i32;
    stop(pid).await;
    let mut pending = Vec::new();
    for tab in tabs.iter_mut() {
        let s = (0..PLAYERS).find(|&s| !tab.clients[s].legal.is_empty()).unwrap();
        let c = &mut tab.clients[s];
        let action = choose(c.version, &c.legal);
        let id = c.id();
        c.send(&json!({"type": "act", "id": id, "action": action})).await.unwrap();
        pending.push((s, id));
    }
    // B takes the tables over once A's leases ran out (its heartbeat claims them).
    tokio::time::sleep(Duration::from_secs(lease_s() + 2 * lease_s().div_ceil(3) + 1)).await;
    let (status, body) = http(addr_b, "GET", "/api/lobby", None).await.unwrap();
    assert_eq!(status, 200, "{body}");
    let mut claimed = 0;
    for tab in &tabs {
        let (status, _) = http(addr_b, "GET", &format!("/api/tables/{}", tab.watch), None).await.unwrap();
        if status == 200 {
            claimed += 1;
        }
    }
    assert_eq!(claimed, tabs.len(), "B plays every table A lost: {body}");
    let mut admin = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let held_by_a: i64 =
        sqlx::query_scalar("SELECT count(*) FROM leases WHERE owner <> ALL(SELECT id FROM instances WHERE url = $1)")
            .bind(format!("http://{addr_b}"))
            .fetch_one(&mut admin)
            .await
            .unwrap();
    assert_eq!(held_by_a, 0, "every lease is B's before A wakes");
    // A wakes up: the acts it had received are refused (`moved`: its writes are fenced off),
    // never acknowledged, and its clients are sent to B.
    unsafe { libc::kill(pid, libc::SIGCONT) };
    let (mut refused, mut closed) = (0, 0);
    for (tab, (s, id)) in tabs.iter_mut().zip(pending) {
        let answer = loop {
            match tab.clients[s].recv().await {
                Ok(m) if m["id"] == id.as_str() => break Some(m),
                Ok(m) if m["type"] == "redirect" || m["type"] == "closing" => {}
                Ok(_) => {}
                Err(_) => break None,
            }
        };
        match &answer {
            Some(m) => {
                assert_eq!(m["type"], "error", "a paused instance's act is not acknowledged: {m}");
                assert_eq!(m["code"], "moved", "{m}");
                refused += 1;
            }
            None => closed += 1,
        }
    }
    println!("after the pause: {refused} acts refused as moved, {closed} connections closed before answering");
    let tasks: Vec<_> = tabs
        .into_iter()
        .map(|mut t| {
            let live = live.clone();
            tokio::spawn(async move {
                // The connections A still has are closed or sent to B.
                reconnect(&mut t, &live).await;
                play(t, live, Duration::ZERO).await
            })
        })
        .collect();
    for t in tasks {
        let tab = t.await.unwrap();
        assert_eq!(tab.at, addr_b, "the clients end up on the new owner");
        let n = check_record(&tab).await;
        println!("table {}: {n} acts, {} acked, {} reconnections", &tab.invite[..6], tab.acked.len(), tab.moves);
    }
    drop((a, b));
    drop(db);
}

/// Read `c`'s messages until it has seen version `v`.
async fn catch_up(c: &mut Client, v: u64) {
    while c.version < v {
        c.recv().await.unwrap();
    }
}

/// Issue 39 across instances: a rated turn-based table in play on A; A is killed (`kill -9`);
/// B takes the table over, and when a simulated day has passed (both instances read one clock
/// file) the deadline fires once, on B, its owner now: one bot decision per seat that owed.
/// The game then ends on B and each person is rated once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_based_rated_table_fails_over_with_its_deadline_and_rating() {
    let Some(db) = fresh_db().await else { return };
    let scratch = tempfile::Builder::new().prefix("oh7-failover-clock-").tempdir().unwrap();
    let clock = scratch.path().join("ahead");
    let lease = lease_s().to_string();
    let more = [
        "--grace-s",
        "1",
        "--commands-per-s",
        "10000",
        "--lease-s",
        &lease,
        "--test-clock-file",
        clock.to_str().unwrap(),
        "--deadline-sweep-ms",
        "200",
    ];
    let (mut a, addr_a) = common::serve_with(&db.url, &more);
    let (_b, addr_b) = common::serve_with(&db.url, &more);
    let people = [common::sign_up(addr_a, "Ann").await, common::sign_up(addr_a, "Bob").await];
    let req = json!({"players": 2, "preset": "kod7", "name": "Ann", "rated": true, "move_hours": 24});
    let made = common::create_signed(addr_a, &people[0], &req).await;
    let (invite, watch) = (made["invite"].as_str().unwrap().to_string(), made["watch"].as_str().unwrap().to_string());
    let mut seats = Vec::new();
    for (i, cookie) in people.iter().enumerate() {
        let mut c = common::signed_client(addr_a, cookie).await;
        c.hello(&invite, None).await.unwrap();
        if i == 1 {
            assert_eq!(c.command(json!({"type": "sit", "name": "Bob"})).await.unwrap()["seat"], 1);
        }
        seats.push(c);
    }
    let mut v = seats[0].command(json!({"type": "start"})).await.unwrap()["version"].as_u64().unwrap();
    for _ in 0..6 {
        for c in seats.iter_mut() {
            catch_up(c, v).await;
        }
        let s = (0..2).find(|&s| !seats[s].legal.is_empty()).expect("a seat owes");
        let action = seats[s].legal[0].clone();
        let ack = seats[s].command(json!({"type": "act", "action": action})).await.unwrap();
        assert_eq!(ack["type"], "ack", "{ack}");
        v = ack["version"].as_u64().unwrap();
    }
    for c in seats.iter_mut() {
        catch_up(c, v).await;
    }
    let owing = seats.iter().filter(|c| !c.legal.is_empty()).count();
    assert!(owing > 0);
    drop(seats);
    a.0.kill().unwrap();
    a.0.wait().unwrap();
    // B holds the table once A's lease has run out: a spectator on B gets its snapshot.
    let until = Instant::now() + Duration::from_secs(lease_s() + 20);
    let mut spectator = loop {
        let mut s = Client::connect(addr_b).await.unwrap();
        if let Ok(m) = s.hello(&watch, None).await
            && m["type"] == "snapshot"
        {
            break s;
        }
        assert!(Instant::now() < until, "B never took the table over");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(spectator.version, v, "B continues at the last acknowledged version");
    // A day passes: the deadline fires on B, once per seat that owed.
    std::fs::write(&clock, "90000").unwrap();
    let mut by_bot = 0;
    let quiet = Instant::now() + Duration::from_secs(4);
    while Instant::now() < quiet {
        match spectator.recv_within(Duration::from_millis(200)).await {
            Ok(m) if m["type"] == "event" && m["event"]["by_bot"] == true => by_bot += 1,
            _ => {}
        }
    }
    assert_eq!(by_bot, owing, "one bot decision per seat that owed, made once");
    // The two come back on B and finish; each is rated once.
    let mut seats = Vec::new();
    for cookie in &people {
        let mut c = common::signed_client(addr_b, cookie).await;
        c.hello(&invite, None).await.unwrap();
        seats.push(c);
    }
    let end = Instant::now() + Duration::from_secs(120);
    while seats[0].table["state"] != "over" {
        assert!(Instant::now() < end, "the game did not end on B");
        let Some(s) = (0..2).find(|&s| !seats[s].legal.is_empty()) else {
            let _ = seats[0].recv_within(Duration::from_millis(100)).await;
            let _ = seats[1].recv_within(Duration::from_millis(10)).await;
            continue;
        };
        let action = seats[s].legal[0].clone();
        let ack = seats[s].command(json!({"type": "act", "action": action})).await.unwrap();
        assert_eq!(ack["type"], "ack", "{ack}");
        let v = ack["version"].as_u64().unwrap();
        for c in seats.iter_mut() {
            catch_up(c, v).await;
        }
    }
    for name in ["Ann", "Bob"] {
        let mut tries = 0;
        loop {
            let (status, body) = http(addr_b, "GET", &format!("/api/players/{name}"), None).await.unwrap();
            assert_eq!(status, 200, "{body}");
            let p: Value = serde_json::from_str(&body).unwrap();
            let r = &p["ratings"];
            if r.as_array().is_some_and(|r| !r.is_empty()) {
                assert_eq!(
                    (r[0]["family"].as_str(), r[0]["games"].as_i64()),
                    (Some("oh7:kod7"), Some(1)),
                    "{name}: {p}"
                );
                assert_eq!(r[0]["history"].as_array().unwrap().len(), 1, "{name}: {p}");
                break;
            }
            tries += 1;
            assert!(tries < 100, "{name} not rated: {p}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// `oh7 serve` on `db` with its metrics page: the guard, the game's address, the page's.
fn serve_metrics(db: &str) -> (Guard, SocketAddr, SocketAddr) {
    let lease = lease_s().to_string();
    common::serve_metrics(db, &["--grace-s", "600", "--lease-s", &lease], std::process::Stdio::null())
}

/// The metrics of an instance that took over a dead one's tables are true (issue 55): it counts
/// the tables it claimed, holds, and plays as the database and the lobby say, and nothing is
/// negative.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_true_after_a_failover() {
    let Some(db) = fresh_db().await else { return };
    let (mut a, addr_a, _) = serve_metrics(&db.url);
    let (b, addr_b, metrics_b) = serve_metrics(&db.url);
    // Three games under way on A, one on B; nobody acts.
    let mut tabs = Vec::new();
    for i in 0..4 {
        tabs.push(new_table(if i < 3 { addr_a } else { addr_b }, "en").await);
    }
    a.0.kill().unwrap();
    a.0.wait().unwrap();
    let mut conn = sqlx::PgConnection::connect(&db.url).await.unwrap();
    let until = Instant::now() + Duration::from_secs(lease_s() * 3 + 10);
    let page = loop {
        let (_, page) = http(metrics_b, "GET", "/metrics", None).await.unwrap();
        let live: i64 = sqlx::query_scalar("SELECT count(*) FROM leases WHERE expires_at > now()")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        if live == 4 && sample(&page, "oh7_leases_claimed_total") == 3.0 && sample(&page, "oh7_leases_held") == 4.0 {
            break page;
        }
        assert!(Instant::now() < until, "B holds the four tables ({live} leases live):\n{page}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(sample(&page, "oh7_tables{state=\"playing\"}"), 4.0, "{page}");
    let (_, lobby) = http(addr_b, "GET", "/api/lobby", None).await.unwrap();
    let lobby: Value = serde_json::from_str(&lobby).unwrap();
    assert_eq!(lobby["tables_running"], 4, "{lobby}");
    for line in page.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let v: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(v >= 0.0, "{line}");
    }
    drop(tabs);
    drop(b);
    drop(db);
}

/// `--db-password-file` (issue 55): the URL carries no password, a mounted file does; the server
/// starts, is ready (it can commit), and prints no password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_password_comes_from_a_file() {
    use std::io::Read;
    let Some(db) = fresh_db().await else { return };
    let (head, rest) = db.url.split_once("://").unwrap();
    let (creds, host) = rest.split_once('@').unwrap();
    let (user, password) = creds.split_once(':').unwrap();
    let bare = format!("{head}://{user}@{host}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("password");
    std::fs::write(&file, format!("{password}\n")).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &bare, "--db-password-file"])
        .arg(&file)
        .env_remove("PGPASSWORD")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    let addr: SocketAddr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("the server started: {line}"))
        .parse()
        .unwrap();
    let (status, body) = http(addr, "GET", "/readyz", None).await.unwrap();
    assert_eq!((status, body.as_str()), (200, "ready\n"));
    let mut guard = Guard(child);
    terminate(&mut guard);
    let mut err = String::new();
    guard.0.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    // (The test role's password is a common word: look for it as a URL would carry it.)
    let carried = format!(":{password}@");
    assert!(!line.contains(&carried) && !err.contains(&carried), "the password was printed: {line}{err}");
    drop(db);
}
