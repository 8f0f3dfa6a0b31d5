//! The database schemas, embedded in the binary: the SQL files of `migrations/` (SQLite) and
//! `migrations_pg/` (PostgreSQL), applied by sqlx's migrator in order of version. What
//! `sqlx::migrate!` would embed, without its proc macro (which builds a second copy of sqlx's
//! drivers for the compiler: about two minutes of CI). A migration's checksum is its SQL's, as
//! sqlx computes it, so databases migrated before keep validating.

use std::borrow::Cow;

use futures_util::future::BoxFuture;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

/// One schema: `(version, description, SQL)` in order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Embedded(&'static [(i64, &'static str, &'static str)]);

/// SQLite's schema.
pub(crate) const SQLITE: Embedded = Embedded(&[
    (1, "tables and events", include_str!("../migrations/0001_tables_and_events.sql")),
    (2, "reviews", include_str!("../migrations/0002_reviews.sql")),
    (3, "accounts", include_str!("../migrations/0003_accounts.sql")),
    (4, "mail", include_str!("../migrations/0004_mail.sql")),
    (5, "journal", include_str!("../migrations/0005_journal.sql")),
    (6, "room", include_str!("../migrations/0006_room.sql")),
]);

/// PostgreSQL's schema.
pub(crate) const POSTGRES: Embedded = Embedded(&[
    (1, "tables and events", include_str!("../migrations_pg/0001_tables_and_events.sql")),
    (2, "reviews", include_str!("../migrations_pg/0002_reviews.sql")),
    (3, "leases", include_str!("../migrations_pg/0003_leases.sql")),
    (4, "instances", include_str!("../migrations_pg/0004_instances.sql")),
    // A link to SQLite's file: both databases read this SQL alike.
    (5, "accounts", include_str!("../migrations_pg/0005_accounts.sql")),
    (6, "mail", include_str!("../migrations_pg/0006_mail.sql")),
    (7, "room", include_str!("../migrations_pg/0007_room.sql")),
]);

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

impl Embedded {
    /// The migrator of this schema.
    pub(crate) async fn migrator(self) -> Result<Migrator, sqlx::migrate::MigrateError> {
        Migrator::new(self).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every SQL file of the two folders is embedded, under the version and description its
    /// name gives (as sqlx reads a folder), and nothing else.
    #[test]
    fn every_migration_file_is_embedded_as_sqlx_names_it() {
        for (dir, schema) in [("migrations", SQLITE), ("migrations_pg", POSTGRES)] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            let mut files: Vec<(i64, String, String)> = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "sql"))
                .map(|p| {
                    let name = p.file_stem().unwrap().to_str().unwrap().to_string();
                    let (v, d) = name.split_once('_').unwrap();
                    (v.parse().unwrap(), d.replace('_', " "), std::fs::read_to_string(&p).unwrap())
                })
                .collect();
            files.sort();
            let embedded: Vec<(i64, String, String)> =
                schema.0.iter().map(|&(v, d, s)| (v, d.to_string(), s.to_string())).collect();
            assert_eq!(embedded, files, "{dir}");
        }
    }
}
