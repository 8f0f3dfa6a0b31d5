-- The public room (issue 59): open tables, the quick-match queue, blocks, reports and
-- suspensions. Both databases read this SQL alike.

-- A table whose host chose "anyone may join", while it waits for players: its public facts
-- (JSON, no code) and its spectator code; the table's task writes and removes its row.
CREATE TABLE open_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    watch_code TEXT NOT NULL,
    host_account TEXT,
    family TEXT NOT NULL,
    facts TEXT NOT NULL,
    listed_at BIGINT NOT NULL
);

-- Quick match: one row per signed-in person waiting (or matched, until they have seen their
-- table). `matched` is the invite of the table they were seated at; `promised` the rating range
-- (mu) their wait had reached when they were matched; `seen_ms` when their page last asked (a
-- page silent for 30 s has left the queue).
CREATE TABLE match_queue (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    turn_based BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    bots_after_s BIGINT,
    mu DOUBLE PRECISION NOT NULL,
    joined_ms BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    matched TEXT,
    matched_ms BIGINT,
    promised DOUBLE PRECISION
);

-- A person blocked by another: quick match never seats them together, and the blocker does not
-- see the blocked person's open tables.
CREATE TABLE blocks (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    blocked_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, blocked_id)
);

-- Reports for the operator (`oh7 admin reports`): who reported whom, at which table, with the
-- chat lines they pointed at (JSON) and their words.
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter_id TEXT NOT NULL,
    reported_name TEXT NOT NULL,
    table_id TEXT,
    lines TEXT NOT NULL,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);

-- Suspended accounts: no session opens or lasts; their seats are played by bots.
CREATE TABLE suspensions (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);

-- Tables the operator closed (`oh7 admin close-table`): never loaded again; a running one is
-- stopped by its server's next sweep.
CREATE TABLE closed_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    reason TEXT NOT NULL,
    at BIGINT NOT NULL
);
