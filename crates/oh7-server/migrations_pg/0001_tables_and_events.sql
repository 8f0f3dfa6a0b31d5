-- The same schema as SQLite's (migrations/), for PostgreSQL.
CREATE TABLE tables (
    id          TEXT PRIMARY KEY,
    join_code   TEXT NOT NULL UNIQUE,
    watch_code  TEXT NOT NULL UNIQUE,
    config      TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE events (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    version   BIGINT NOT NULL,
    body      TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
);
