//! What every layer that touches the database shares, at the bottom: the store's error and a
//! turn-based table's deadline (the table store in `store.rs` and `pg.rs`, the accounts' store in
//! `accounts.rs`).

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The schema migration failed.
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The writer has stopped (shutting down).
    #[error("the database writer has stopped")]
    Closed,
    /// The log of `table` already has `version`: another writer got there first. Nothing of
    /// the append was written.
    #[error("table {table}: version {version} is already in the log")]
    Conflict {
        /// The table.
        table: String,
        /// The version taken.
        version: u64,
    },
    /// A write failed in the database; nothing of it was written.
    #[error("database write: {0}")]
    Write(String),
    /// Another instance holds the table (its lease has not expired): this one may not write it.
    #[error("table {table} is held by another instance")]
    Leased {
        /// The table.
        table: String,
    },
    /// A unique name is taken (an account's).
    #[error("the name is taken")]
    Taken,
    /// A stored row does not parse.
    #[error("stored row of table {table}: {why}")]
    Corrupt {
        /// The table.
        table: String,
        /// What is wrong.
        why: String,
    },
}

/// A turn-based table's deadline: `(seat, owed since version, due at Unix seconds)`.
pub type Deadline = (usize, u64, i64);
