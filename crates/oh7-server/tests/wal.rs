//! The store's WAL is checkpointed beside the writer (no automatic checkpoint on the committing
//! connection), so it stays bounded however many commits come, and everything committed is in the
//! database after a restart.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use oh7_server::store::{Row, SqliteStore, Store};

fn size(p: &Path) -> u64 {
    std::fs::metadata(p).map_or(0, |m| m.len())
}

fn event(table: &str, version: u64) -> Row {
    // About 300 bytes, like an action with its id.
    let body = format!(r#"{{"kind":"chat","seat":0,"id":"c-{version}","text":"{}"}}"#, "x".repeat(250));
    Row::Event { table_id: table.to_string(), version, body }
}

fn table(id: &str) -> Row {
    Row::Table {
        id: id.to_string(),
        join_code: format!("J{id}"),
        watch_code: format!("W{id}"),
        config: "{}".to_string(),
        created_at: 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wal_stays_bounded_and_the_log_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wal.db");
    let wal = dir.path().join("wal.db-wal");
    let every = Duration::from_millis(20);
    let tables = 8;
    let per_table: u64 = 1000;
    {
        let store = SqliteStore::open_with(&db, every).await.unwrap();
        for t in 0..tables {
            store.append(vec![table(&format!("t{t}"))]).await.unwrap();
        }
        // Eight tables appending one event at a time: 8,000 commits, each at least one 4 KiB page
        // in the WAL (about 2.5 here; some share a transaction): over 32 MiB if the WAL were never
        // started again (32 MiB measured for 3,200 of them with the checkpointer off).
        let peak = Arc::new(AtomicU64::new(0));
        let watch = {
            let (wal, peak) = (wal.clone(), peak.clone());
            tokio::spawn(async move {
                loop {
                    peak.fetch_max(size(&wal), Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            })
        };
        let mut tasks = Vec::new();
        for t in 0..tables {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                for v in 1..=per_table {
                    store.append(vec![event(&format!("t{t}"), v)]).await.unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        // A few checkpoints more, and one commit (it starts the WAL again from the beginning).
        tokio::time::sleep(every * 10).await;
        store.append(vec![table("last")]).await.unwrap();
        tokio::time::sleep(every * 10).await;
        watch.abort();
        let peak = peak.load(Ordering::Relaxed).max(size(&wal));
        // The rows were copied into the database file itself, not only kept in the WAL.
        let in_db = size(&db);
        assert!(
            in_db > tables as u64 * per_table * 250,
            "the database file holds {in_db} bytes: the WAL was not checkpointed"
        );
        // Bounded: a few checkpoint periods of commits (about 3 MiB here), far below what was
        // written.
        assert!(peak < 8 << 20, "the WAL reached {peak} bytes");
        store.close().await;
    }
    // A restart: every committed event is there, in order.
    let store = SqliteStore::open(&db).await.unwrap();
    for t in 0..tables {
        let loaded = store.load(&format!("t{t}")).await.unwrap();
        let versions: Vec<u64> = loaded.events.iter().map(|(v, _)| *v).collect();
        assert_eq!(versions, (1..=per_table).collect::<Vec<_>>(), "table t{t}");
        assert_eq!(loaded.events[0].1["id"], "c-1");
    }
    assert!(store.find_code("Jlast").await.unwrap().is_some());
    store.close().await;
}

/// Moves committed together (one statement for a group of events) are each answered alone: a
/// version already logged is that batch's conflict, and the other batches of its group commit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_already_logged_is_a_conflict_and_sinks_nothing_else() {
    use oh7_server::store::StoreError;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(&dir.path().join("c.db")).await.unwrap());
    store.append(vec![table("a"), event("a", 1)]).await.unwrap();
    store.append(vec![table("b"), event("b", 1)]).await.unwrap();
    assert!(matches!(store.append(vec![event("a", 1)]).await, Err(StoreError::Conflict { version: 1, .. })));
    // Many batches at once, so that the writer groups them; one of them repeats a version.
    let mut tasks = Vec::new();
    for v in 2..=40u64 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move { s.append(vec![event("b", v)]).await }));
    }
    let s = store.clone();
    let bad = tokio::spawn(async move { s.append(vec![event("a", 1)]).await });
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert!(matches!(bad.await.unwrap(), Err(StoreError::Conflict { version: 1, .. })));
    let log = store.load("b").await.unwrap();
    assert_eq!(log.events.iter().map(|e| e.0).collect::<Vec<_>>(), (1..=40).collect::<Vec<u64>>());
    assert_eq!(store.load("a").await.unwrap().events.len(), 1);
}

/// Rows in the two journals and in `events`, read beside the store.
async fn where_rows_are(db: &Path) -> (i64, i64) {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display())).await.unwrap();
    let (journals,): (i64,) =
        sqlx::query_as("SELECT (SELECT COUNT(*) FROM journal_a) + (SELECT COUNT(*) FROM journal_b)")
            .fetch_one(&pool)
            .await
            .unwrap();
    let (events,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM events").fetch_one(&pool).await.unwrap();
    pool.close().await;
    (journals, events)
}

/// Moves land in the journal in the order they arrive and are folded into `events` by table a
/// little later; a table read at any moment, folds under way included, has its whole log once
/// and in order; and a version already logged is refused whether it is still in a journal or
/// already folded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_journal_folds_into_the_log_and_reads_stay_whole() {
    use oh7_server::store::StoreError;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("j.db");
    let store = SqliteStore::open_tuned(&db, Duration::from_millis(20), Duration::from_millis(30)).await.unwrap();
    let tables = 24;
    let per_table: u64 = 60;
    for t in 0..tables {
        store.append(vec![table(&format!("t{t}"))]).await.unwrap();
    }
    let mut tasks = Vec::new();
    for t in 0..tables {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("t{t}");
            for v in 1..=per_table {
                store.append(vec![event(&id, v)]).await.unwrap();
                // Read back now and then, wherever the rows are (journal, mid-fold, folded).
                if v % 7 == 0 {
                    let seen: Vec<u64> = store.load(&id).await.unwrap().events.iter().map(|e| e.0).collect();
                    assert_eq!(seen, (1..=v).collect::<Vec<_>>(), "{id} read at v{v}");
                }
                if v % 13 == 0 {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    // Still in a journal or folded: a repeat is refused, and nothing of it is written.
    assert!(matches!(store.append(vec![event("t0", per_table)]).await, Err(StoreError::Conflict { .. })));
    // Folded within a few periods with nothing more coming.
    let all = tables as i64 * per_table as i64;
    let until = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (journals, events) = where_rows_are(&db).await;
        if journals == 0 {
            assert_eq!(events, all);
            break;
        }
        assert!(std::time::Instant::now() < until, "the journal was never folded: {journals} rows left");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Folded: the writer asks `events` for the table's last version.
    assert!(matches!(store.append(vec![event("t1", 3)]).await, Err(StoreError::Conflict { version: 3, .. })));
    store.append(vec![event("t1", per_table + 1)]).await.unwrap();
    for t in 0..tables {
        let want = if t == 1 { per_table + 1 } else { per_table };
        let seen: Vec<u64> = store.load(&format!("t{t}")).await.unwrap().events.iter().map(|e| e.0).collect();
        assert_eq!(seen, (1..=want).collect::<Vec<_>>(), "t{t}");
    }
    store.close().await;
}

/// A server killed with moves still in the journal (its tasks dropped mid-work, nothing closed)
/// loses none of the acknowledged ones: the next start folds them into `events` before serving.
#[test]
fn journaled_moves_survive_a_kill_and_are_folded_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k.db");
    let acked = Arc::new(AtomicU64::new(0));
    {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let acked = acked.clone();
        let db = db.clone();
        rt.block_on(async move {
            // A fold period far longer than the run: nothing is folded before the kill.
            let store =
                SqliteStore::open_tuned(&db, Duration::from_millis(50), Duration::from_secs(3600)).await.unwrap();
            store.append(vec![table("k")]).await.unwrap();
            for v in 1..=200 {
                store.append(vec![event("k", v)]).await.unwrap();
                acked.store(v, Ordering::SeqCst);
            }
            let (journals, _) = where_rows_are(&db).await;
            assert_eq!(journals, 200, "the moves wait in the journal");
        });
        // The kill: the runtime goes with the writer and its connections, nothing closed.
        rt.shutdown_background();
    }
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let store = SqliteStore::open(&db).await.unwrap();
        let (journals, events) = where_rows_are(&db).await;
        assert_eq!((journals, events), (0, 200), "folded at start");
        let seen: Vec<u64> = store.load("k").await.unwrap().events.iter().map(|e| e.0).collect();
        assert_eq!(seen, (1..=acked.load(Ordering::SeqCst)).collect::<Vec<_>>());
        store.append(vec![event("k", 201)]).await.unwrap();
        assert!(store.append(vec![event("k", 200)]).await.is_err());
        store.close().await;
    });
}
