//! The operator's commands (`oh7 admin …`), on the same database as the servers (which may be
//! running): the reports kept, suspending an account (its sessions end at once; its seats are
//! played by bots from the servers' next sweep, within `deadline_sweep`), lifting a suspension,
//! and closing a table (it stops at its server's next sweep and is never loaded again).

use std::sync::Arc;

use crate::store::{Store, StoreError};

/// What an operator's command could not do.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// The database refused or could not be opened.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// No account has this name.
    #[error("no account is named {0:?}")]
    UnknownAccount(String),
    /// No table has this code.
    #[error("no table has the code {0:?}")]
    UnknownTable(String),
}

/// The operator's side of a database.
pub struct Admin {
    store: Arc<dyn Store>,
}

impl Admin {
    /// Open `db` (migrated to this version's schema, as a server would).
    pub async fn open(db: &crate::Database) -> Result<Admin, AdminError> {
        let store: Arc<dyn Store> = match db {
            crate::Database::Postgres(url) => Arc::new(
                crate::pg::PgStore::open(url, &crate::secrets::new_code(), crate::settings::Settings::default().lease)
                    .await?,
            ),
            crate::Database::Sqlite(path) => Arc::new(crate::store::SqliteStore::open(path).await?),
        };
        Ok(Admin { store })
    }

    /// Every report, newest first.
    pub async fn reports(&self) -> Result<Vec<crate::room::Report>, AdminError> {
        Ok(self.store.room().reports().await?)
    }

    async fn account(&self, name: &str) -> Result<crate::accounts::Account, AdminError> {
        let a = self.store.accounts().account_named(name).await?;
        a.map(|s| s.account).ok_or_else(|| AdminError::UnknownAccount(name.to_string()))
    }

    /// Suspend the account `name`: `false` if it was suspended already.
    pub async fn suspend(&self, name: &str, reason: &str) -> Result<bool, AdminError> {
        let a = self.account(name).await?;
        Ok(self.store.room().suspend(&a.id, reason, crate::accounts::now_s()).await?)
    }

    /// Lift the suspension of `name`: `false` if there was none.
    pub async fn unsuspend(&self, name: &str) -> Result<bool, AdminError> {
        let a = self.account(name).await?;
        Ok(self.store.room().unsuspend(&a.id).await?)
    }

    /// Close the table of invite or spectator code `code`.
    pub async fn close_table(&self, code: &str, reason: &str) -> Result<(), AdminError> {
        match self.store.room().close_table(code, reason, crate::accounts::now_s()).await? {
            Some(_) => Ok(()),
            None => Err(AdminError::UnknownTable(code.chars().take(40).collect())),
        }
    }

    /// Close the database.
    pub async fn close(self) {
        self.store.close().await;
    }
}
