//! An instance on a shared database: its heartbeat (alive at its address, its leases renewed,
//! the tables it lost stopped, the orphans of a dead instance claimed).

use std::net::IpAddr;
use std::time::Instant;

use crate::table::{TableHandle, TableMsg};

use super::Lobby;

impl Lobby {
    /// One heartbeat on a shared database: say this instance is alive at `url` with its
    /// connections per address, renew its leases, stop the tables it lost (a pause longer than
    /// the lease), and claim those whose instance died.
    pub(crate) async fn heartbeat(&self, url: &str) {
        let Some(cluster) = self.store.cluster() else { return };
        let began = Instant::now();
        let conns: Vec<(IpAddr, usize)> = {
            let p = self.per_address.lock().expect("per-address lock");
            p.conns.iter().map(|(ip, n)| (*ip, *n)).collect()
        };
        let beat = match cluster.heartbeat(url, conns).await {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!(error = %e, "heartbeat failed");
                return;
            }
        };
        self.per_address.lock().expect("per-address lock").elsewhere = beat.conns_elsewhere;
        metrics::gauge!(crate::metrics::LEASES_HELD).set(beat.held.len() as f64);
        let lost: Vec<(String, TableHandle)> = self
            .by_id
            .lock()
            .await
            .iter()
            .filter(|(id, (h, at))| *at < began && !h.tx.is_closed() && !beat.held.contains(*id))
            .map(|(id, (h, _))| (id.clone(), h.clone()))
            .collect();
        for (id, h) in lost {
            tracing::warn!(table = %id, "lost the table's lease: stopping it here");
            metrics::counter!(crate::metrics::LEASES_LOST).increment(1);
            let _ = h.tx.send(TableMsg::Lost).await;
        }
        for id in beat.orphans {
            if self.is_closing() {
                break;
            }
            self.claim(&id).await;
        }
    }
}
