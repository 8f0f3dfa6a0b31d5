//! Backups of a live server, restored (issue 41): a backup taken while games are played holds
//! every action acknowledged before it began, and a server started on it goes on with every game.
//!
//! - SQLite: `oh7 backup --db DB OUT` while the real `oh7 serve` runs on DB.
//! - PostgreSQL (`OH7_PG_URL`, set by `.ci/run`; skipped without it): `pg_dump -Fc` during play,
//!   `pg_restore` into a new database, as docs/server.md says.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::tables::{Tab, check_record, new_table, play};
use oh7_server::client::Client;

/// Start `oh7 serve` on `db` with the limits a load test needs.
fn serve(db: &str) -> (common::Guard, SocketAddr) {
    common::serve_with(
        db,
        &[
            "--grace-s",
            "600",
            "--max-conns-per-ip",
            "10000",
            "--max-tables-per-ip",
            "10000",
            "--commands-per-s",
            "10000",
        ],
    )
}

/// Each table's version as the server has it now (every action acknowledged so far is in it):
/// a spectator's snapshot.
async fn versions(addr: SocketAddr, watch: &[String]) -> Vec<u64> {
    let mut out = Vec::new();
    for w in watch {
        let mut c = Client::connect(addr).await.unwrap();
        c.hello(w, None).await.unwrap();
        out.push(c.version);
    }
    out
}

/// Play 12 tables on a server at `db`; mid-play, `backup` makes a backup (returns the database
/// to restore from); the server is killed and a new one started on the restored database; the
/// games go on to their end. Checks every acknowledged action before the backup is kept and
/// prints the figures.
async fn backup_during_play(db: &str, what: &str, backup: impl FnOnce() -> String + Send + 'static) {
    let (mut server, addr) = serve(db);
    let live = Arc::new(Mutex::new(vec![addr]));
    let presets = ["en", "fr", "kod7", "bga", "fr-advanced", "en"];
    let mut tabs: Vec<Tab> = Vec::new();
    for i in 0..12 {
        tabs.push(new_table(addr, presets[i % presets.len()]).await);
    }
    let watch: Vec<String> = tabs.iter().map(|t| t.watch.clone()).collect();
    let tasks: Vec<_> =
        tabs.into_iter().map(|t| tokio::spawn(play(t, live.clone(), Duration::from_millis(30)))).collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let before = versions(addr, &watch).await;
    let restored = tokio::task::spawn_blocking(backup).await.unwrap();
    let after = versions(addr, &watch).await;
    assert!(after.iter().zip(&before).any(|(a, b)| a > b), "the games went on during the backup");
    // The disk dies: the server goes, a new one starts on the backup.
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let (_restored_server, addr2) = serve(&restored);
    *live.lock().unwrap() = vec![addr2];
    let at_restore = versions(addr2, &watch).await;
    let mut kept = 0;
    for (i, ((b, r), a)) in before.iter().zip(&at_restore).zip(&after).enumerate() {
        assert!(r >= b, "table {i}: the backup has version {r}, but {b} was acknowledged before it began");
        assert!(r <= a, "table {i}: the backup has version {r}, newer than the server had after it ({a})");
        kept += r - b;
    }
    let mut acts = 0;
    for t in tasks {
        let tab = t.await.unwrap();
        assert_eq!(tab.at, addr2, "the clients end up on the restored server");
        acts += check_record(&tab).await;
    }
    let acked_before: u64 = before.iter().sum();
    println!(
        "{what}: backup during play of 12 tables: {acked_before} versions acknowledged before it began, all in it \
         (lost 0), {kept} more committed while it ran; restored and every game finished whole ({acts} acts)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_backup_taken_during_play_restores_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("oh7.db");
    let out = dir.path().join("backup.db");
    let (db_s, out_s) = (db.to_str().unwrap().to_string(), out.to_str().unwrap().to_string());
    let (db_c, out_c) = (db_s.clone(), out_s.clone());
    backup_during_play(&db_s, "SQLite", move || {
        let run = Command::new(env!("CARGO_BIN_EXE_oh7")).args(["backup", "--db", &db_c, &out_c]).output().unwrap();
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "{said}{}", String::from_utf8_lossy(&run.stderr));
        assert!(said.starts_with("backed up") && said.contains("oh7 serve --db"), "{said}");
        out_c
    })
    .await;
    // A second backup under the same name is refused, and the first is left as it was.
    let size = std::fs::metadata(&out).unwrap().len();
    let again = Command::new(env!("CARGO_BIN_EXE_oh7"))
        .args(["backup", "--db", db.to_str().unwrap(), out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("exists: give a new file for the backup"), "{err}");
    assert_eq!(std::fs::metadata(&out).unwrap().len(), size);
    assert!(!Path::new(&format!("{}.part", out.display())).exists());
}

#[test]
fn a_backup_of_a_missing_database_or_of_postgresql_is_refused_in_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.db");
    let run = |db: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_oh7"))
            .args(["backup", "--db", db, out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!o.status.success());
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    let missing = dir.path().join("none.db");
    assert!(run(missing.to_str().unwrap()).contains("no database at"));
    let pg = run("postgres://oh7:s3cret@db/oh7");
    assert!(pg.contains("pg_dump") && !pg.contains("s3cret"), "{pg}");
    assert!(!out.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_dump_taken_during_play_restores_every_acknowledged_move() {
    let Ok(base) = std::env::var("OH7_PG_URL") else {
        eprintln!("OH7_PG_URL is not set: the PostgreSQL backup test is skipped");
        return;
    };
    use sqlx::Connection;
    let tag = &oh7_server::secrets::new_code()[..12];
    let (live_db, restored_db) = (format!("oh7_b_{tag}"), format!("oh7_r_{tag}"));
    let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
    for name in [&live_db, &restored_db] {
        sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.unwrap();
    }
    let cut = base.rfind('/').unwrap();
    let url = |name: &str| format!("{}/{name}", &base[..cut]);
    let dump = tempfile::NamedTempFile::new().unwrap();
    let dump_path = dump.path().to_str().unwrap().to_string();
    let (live_url, restored_url) = (url(&live_db), url(&restored_db));
    let restored_for = restored_url.clone();
    backup_during_play(&live_url.clone(), "PostgreSQL", move || {
        let d = Command::new("pg_dump").args(["-Fc", "-f", &dump_path, "-d", &live_url]).output().unwrap();
        assert!(d.status.success(), "pg_dump: {}", String::from_utf8_lossy(&d.stderr));
        let r = Command::new("pg_restore").args(["--no-owner", "-d", &restored_for, &dump_path]).output().unwrap();
        assert!(r.status.success(), "pg_restore: {}", String::from_utf8_lossy(&r.stderr));
        // No instance of the dump is alive: its leases go, so the new instances take every
        // table at once (docs/server.md).
        let forget = "DELETE FROM leases; DELETE FROM address_conns; DELETE FROM instances;";
        let f = Command::new("psql")
            .args(["-q", "-v", "ON_ERROR_STOP=1", "-d", &restored_for, "-c", forget])
            .output()
            .unwrap();
        assert!(f.status.success(), "psql: {}", String::from_utf8_lossy(&f.stderr));
        restored_for
    })
    .await;
    for name in [&live_db, &restored_db] {
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut admin).await;
    }
}
