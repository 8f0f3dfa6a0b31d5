//! The limits per address: connections open (counting those on the other instances of a
//! shared database) and tables created in the last hour.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Instant;

use oh7_table::protocol::{ErrorCode, Refusal};

use super::Lobby;

/// A sliding count of events per address (tables created, connections).
#[derive(Default)]
pub(super) struct PerAddress {
    pub(super) tables: HashMap<IpAddr, Vec<Instant>>,
    pub(super) conns: HashMap<IpAddr, usize>,
    /// Connections per address on the other instances (as of the last heartbeat).
    pub(super) elsewhere: HashMap<IpAddr, usize>,
}

impl Lobby {
    /// Count a connection from `ip`; refused over the limit (on a shared database, counting
    /// those open on the other instances as of their last heartbeat).
    pub(crate) fn connect(&self, ip: IpAddr) -> Result<(), Refusal> {
        let mut p = self.per_address.lock().expect("per-address lock");
        let elsewhere = p.elsewhere.get(&ip).copied().unwrap_or(0);
        let n = p.conns.entry(ip).or_default();
        if *n + elsewhere >= self.settings.max_conns_per_ip {
            // The address counted (the client's, behind a trusted proxy): what an operator needs
            // to see who hits the limit.
            tracing::warn!(%ip, "too many connections from one address");
            return Err(Refusal::new(
                ErrorCode::TooMany,
                format!("Too many connections from your address (at most {}).", self.settings.max_conns_per_ip),
            ));
        }
        *n += 1;
        Ok(())
    }

    /// A connection from `ip` closed.
    pub(crate) fn disconnect(&self, ip: IpAddr) {
        let mut p = self.per_address.lock().expect("per-address lock");
        if let Some(n) = p.conns.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                p.conns.remove(&ip);
            }
        }
    }

    pub(super) async fn count_table(&self, ip: IpAddr) -> Result<(), Refusal> {
        let too_many = || {
            tracing::warn!(%ip, "too many tables from one address this hour");
            Refusal::new(
                ErrorCode::TooMany,
                format!("Too many tables from your address this hour (at most {}).", self.settings.max_tables_per_ip),
            )
        };
        if let Some(c) = self.store.cluster() {
            // Counted in the shared database, whichever instance the address uses.
            return match c.count_created(ip, self.settings.max_tables_per_ip).await {
                Ok(true) => Ok(()),
                Ok(false) => Err(too_many()),
                Err(e) => {
                    tracing::error!(error = %e, "could not count the tables of an address");
                    Err(Refusal::new(ErrorCode::Storage, "The server could not save the table; try again."))
                }
            };
        }
        let mut p = self.per_address.lock().expect("per-address lock");
        let now = Instant::now();
        let list = p.tables.entry(ip).or_default();
        list.retain(|t| now.duration_since(*t).as_secs() < 3600);
        if list.len() >= self.settings.max_tables_per_ip {
            return Err(too_many());
        }
        list.push(now);
        Ok(())
    }
}
