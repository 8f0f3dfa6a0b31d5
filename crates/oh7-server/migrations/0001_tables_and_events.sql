-- One row per table: its codes and settings. The seed of each game is in the `start` event.
CREATE TABLE tables (
    id          TEXT PRIMARY KEY,
    join_code   TEXT NOT NULL UNIQUE,
    watch_code  TEXT NOT NULL UNIQUE,
    config      TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    -- 1 once the table's last game is over and no rematch is running (not restored at start).
    finished    INTEGER NOT NULL DEFAULT 0
);

-- The append-only log: every committed change of a table, numbered by the table's version.
CREATE TABLE events (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    version   INTEGER NOT NULL,
    body      TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
