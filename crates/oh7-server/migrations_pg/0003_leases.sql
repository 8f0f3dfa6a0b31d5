-- One owner per running table: the instance that holds an unexpired lease is the only one that
-- may append to the table's log (checked in the same transaction as the append).
CREATE TABLE leases (
    table_id   TEXT PRIMARY KEY REFERENCES tables(id),
    owner      TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
