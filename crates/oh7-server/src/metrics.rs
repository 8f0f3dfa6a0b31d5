//! What an operator watches: every metric the server records, named in one place, and the
//! Prometheus page that shows them (`oh7 serve --metrics-addr`, off the public port).
//!
//! The server records through the `metrics` facade where things happen; without a recorder
//! (no `--metrics-addr`, the tests) a record costs next to nothing. The names, kinds and labels
//! are those of docs/server.md ("Metrics") and of the Grafana dashboard in
//! `deploy/grafana-oh7.json`.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use oh7_table::protocol::TableState;

/// Gauge: WebSocket connections open.
pub const CONNECTIONS: &str = "oh7_connections";
/// Gauge, label `state` (`lobby`, `playing`, `over`): tables loaded in memory.
pub const TABLES: &str = "oh7_tables";
/// Counter, label `by` ([`MOVERS`]): game actions committed (its rate: moves per second).
pub const MOVES: &str = "oh7_moves_total";
/// Who made a move: a person, a bot seat, or a bot standing in for a person (away, out of time,
/// past a turn-based deadline, or not in a rematch).
pub const MOVERS: [&str; 3] = ["person", "bot", "stand_in"];
/// Histogram, seconds: a change's write to the database, from asking to durable.
pub const COMMIT: &str = "oh7_commit_seconds";
/// Histogram, seconds: telling every connection of a table what changed (projection, patches).
pub const BROADCAST: &str = "oh7_broadcast_seconds";
/// Gauge: reviews waiting for a free job.
pub const REVIEWS_QUEUED: &str = "oh7_reviews_queued";
/// Gauge: reviews being computed.
pub const REVIEWS_RUNNING: &str = "oh7_reviews_running";
/// Counter, label `code` (the protocol's error code): commands refused.
pub const REFUSALS: &str = "oh7_refusals_total";
/// Gauge: tables this instance holds a lease on (PostgreSQL, several instances).
pub const LEASES_HELD: &str = "oh7_leases_held";
/// Counter: tables this instance lost to another (its lease ran out).
pub const LEASES_LOST: &str = "oh7_leases_lost_total";
/// Counter: tables of a dead or stopped instance this one claimed.
pub const LEASES_CLAIMED: &str = "oh7_leases_claimed_total";
/// Histogram, seconds: waiting for a database connection from the pool (PostgreSQL writes).
pub const POOL_WAIT: &str = "oh7_db_pool_wait_seconds";
/// Gauge, label `state` (`idle`, `busy`): the database pool's connections, at each scrape.
pub const POOL_CONNECTIONS: &str = "oh7_db_pool_connections";

/// Gauge, bytes: what the program's allocations hold now, at each scrape (counted by the `oh7`
/// binary's allocator). Beside [`RESIDENT`] it tells a leak (this rises) from the allocator
/// keeping freed pages for later (only the resident memory rises).
pub const HEAP: &str = "oh7_heap_bytes";
/// Gauge, bytes: the process's resident memory (`VmRSS`, Linux), at each scrape.
pub const RESIDENT: &str = "oh7_resident_bytes";

/// Every metric: name, kind, what it counts (for docs and the test that checks the page).
pub const ALL: &[(&str, &str)] = &[
    (CONNECTIONS, "gauge"),
    (TABLES, "gauge"),
    (MOVES, "counter"),
    (COMMIT, "histogram"),
    (BROADCAST, "histogram"),
    (REVIEWS_QUEUED, "gauge"),
    (REVIEWS_RUNNING, "gauge"),
    (REFUSALS, "counter"),
    (LEASES_HELD, "gauge"),
    (LEASES_LOST, "counter"),
    (LEASES_CLAIMED, "counter"),
    (POOL_WAIT, "histogram"),
    (POOL_CONNECTIONS, "gauge"),
    (HEAP, "gauge"),
    (RESIDENT, "gauge"),
];

/// How the bytes held by allocations are read: set once by the binary whose global allocator
/// counts them (`oh7`); without it the page has no [`HEAP`].
static HEAP_PROBE: OnceLock<fn() -> usize> = OnceLock::new();

/// Say how to read the bytes the program's allocations hold (for [`HEAP`]).
pub fn set_heap_probe(probe: fn() -> usize) {
    let _ = HEAP_PROBE.set(probe);
}

/// The process's resident memory in bytes (`VmRSS` of `/proc/self/status`), where there is one.
pub fn resident_bytes() -> Option<u64> {
    vm_rss(&std::fs::read_to_string("/proc/self/status").ok()?)
}

/// The `VmRSS:` line of a `/proc/<pid>/status` text, in bytes (the kernel writes it in KiB).
fn vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib * 1024)
}

/// The latency buckets, in seconds: from a tenth of a millisecond to ten seconds.
const BUCKETS: &[f64] =
    &[0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The process's recorder (one per process, whatever number of servers a test starts).
static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Install the Prometheus recorder (once per process) and return its handle; `None` if another
/// recorder was installed first.
pub(crate) fn recorder() -> Option<PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), BUCKETS)
                .ok()?
                .install_recorder()
                .ok()?;
            describe();
            // Every gauge and counter on the page from the start, at zero (a dashboard shows 0,
            // not "no data").
            for g in [CONNECTIONS, REVIEWS_QUEUED, REVIEWS_RUNNING, LEASES_HELD] {
                metrics::gauge!(g).increment(0.0);
            }
            for s in ["lobby", "playing", "over"] {
                metrics::gauge!(TABLES, "state" => s).increment(0.0);
            }
            for by in MOVERS {
                metrics::counter!(MOVES, "by" => by).increment(0);
            }
            for code in oh7_table::protocol::ErrorCode::ALL {
                metrics::counter!(REFUSALS, "code" => code.as_str()).increment(0);
            }
            metrics::counter!(LEASES_LOST).increment(0);
            metrics::counter!(LEASES_CLAIMED).increment(0);
            // Histograms too, empty (registered: their count and sum show 0).
            for h in [COMMIT, BROADCAST, POOL_WAIT] {
                let _ = metrics::histogram!(h);
            }
            // Histograms are drained into their buckets by the upkeep.
            let h = handle.clone();
            std::thread::Builder::new()
                .name("oh7-metrics-upkeep".into())
                .spawn(move || {
                    loop {
                        std::thread::sleep(Duration::from_secs(5));
                        h.run_upkeep();
                    }
                })
                .ok()?;
            Some(handle)
        })
        .clone()
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_gauge!(CONNECTIONS, "WebSocket connections open.");
    describe_gauge!(TABLES, "Tables loaded in memory, by state.");
    describe_counter!(MOVES, "Game actions committed, by who made them.");
    describe_histogram!(COMMIT, Unit::Seconds, "A change's write to the database, from asking to durable.");
    describe_histogram!(BROADCAST, Unit::Seconds, "Telling every connection of a table what changed.");
    describe_gauge!(REVIEWS_QUEUED, "Reviews waiting for a free job.");
    describe_gauge!(REVIEWS_RUNNING, "Reviews being computed.");
    describe_counter!(REFUSALS, "Commands refused, by error code.");
    describe_gauge!(LEASES_HELD, "Tables this instance holds a lease on (several instances).");
    describe_counter!(LEASES_LOST, "Tables lost to another instance.");
    describe_counter!(LEASES_CLAIMED, "Tables of a dead or stopped instance claimed.");
    describe_histogram!(POOL_WAIT, Unit::Seconds, "Waiting for a database connection from the pool.");
    describe_gauge!(POOL_CONNECTIONS, "The database pool's connections, idle or busy.");
    describe_gauge!(HEAP, Unit::Bytes, "What the program's allocations hold now.");
    describe_gauge!(RESIDENT, Unit::Bytes, "The process's resident memory.");
}

/// The metrics page, with the pool's and the memory's gauges read now.
pub(crate) fn render(handle: &PrometheusHandle, pool: Option<(u32, usize)>) -> String {
    if let Some(probe) = HEAP_PROBE.get() {
        metrics::gauge!(HEAP).set(probe() as f64);
    }
    if let Some(bytes) = resident_bytes() {
        metrics::gauge!(RESIDENT).set(bytes as f64);
    }
    if let Some((size, idle)) = pool {
        metrics::gauge!(POOL_CONNECTIONS, "state" => "idle").set(idle as f64);
        metrics::gauge!(POOL_CONNECTIONS, "state" => "busy").set(size.saturating_sub(idle as u32) as f64);
    }
    handle.render()
}

fn state_label(s: TableState) -> &'static str {
    match s {
        TableState::Lobby => "lobby",
        TableState::Playing => "playing",
        TableState::Over => "over",
    }
}

/// A table task's place in [`TABLES`]: counted in its state while the task runs.
pub(crate) struct TableGauge(TableState);

impl TableGauge {
    pub(crate) fn new(s: TableState) -> TableGauge {
        metrics::gauge!(TABLES, "state" => state_label(s)).increment(1.0);
        TableGauge(s)
    }

    /// The table is now in state `s`.
    pub(crate) fn set(&mut self, s: TableState) {
        if s != self.0 {
            metrics::gauge!(TABLES, "state" => state_label(self.0)).decrement(1.0);
            metrics::gauge!(TABLES, "state" => state_label(s)).increment(1.0);
            self.0 = s;
        }
    }
}

impl Drop for TableGauge {
    fn drop(&mut self) {
        metrics::gauge!(TABLES, "state" => state_label(self.0)).decrement(1.0);
    }
}

/// Counted in a gauge while alive (a connection, a queued or running review).
pub(crate) struct Held(&'static str);

impl Held {
    pub(crate) fn new(name: &'static str) -> Held {
        metrics::gauge!(name).increment(1.0);
        Held(name)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}

/// Serve the metrics page on `listener` until the server stops.
pub(crate) fn serve(
    listener: tokio::net::TcpListener,
    handle: PrometheusHandle,
    pool_state: Arc<dyn Fn() -> Option<(u32, usize)> + Send + Sync>,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) {
    use axum::routing::get;
    let page = move || {
        let (handle, pool_state) = (handle.clone(), pool_state.clone());
        async move {
            (
                [(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
                render(&handle, pool_state()),
            )
        }
    };
    let app = axum::Router::new().route("/metrics", get(page));
    tokio::spawn(async move {
        let stop = async move {
            let _ = stopping.wait_for(|s| *s).await;
        };
        if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(stop).await {
            tracing::error!(error = %e, "the metrics page stopped");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resident_memory_is_read_from_the_status_text() {
        let status = "Name:\toh7\nVmPeak:\t  200000 kB\nVmRSS:\t   93212 kB\nRssAnon:\t   80000 kB\n";
        assert_eq!(vm_rss(status), Some(93_212 * 1024));
        assert_eq!(vm_rss("Name:\toh7\n"), None, "no VmRSS line");
        assert_eq!(vm_rss("VmRSS:\t many kB\n"), None, "not a number");
        assert_eq!(vm_rss("VmRSS:\t 12 MB\n"), None, "not the unit the kernel writes");
    }

    /// The live reading: a test process holds more than a mebibyte and less than a terabyte.
    /// (Growth is not asserted: tests running beside this one allocate and free meanwhile,
    /// which made such a check flaky.)
    #[cfg(target_os = "linux")]
    #[test]
    fn the_resident_memory_is_read_from_proc() {
        let rss = resident_bytes().expect("VmRSS on Linux");
        assert!(rss > 1 << 20 && rss < 1 << 40, "{rss}");
    }
}
