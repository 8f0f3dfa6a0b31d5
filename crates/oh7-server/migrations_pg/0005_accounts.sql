-- Accounts (optional: guests have none), their sessions, and the seats they hold. A password is kept as its argon2id
-- hash (a PHC string); a session as its token's SHA-256 (hex). `name_key` is the name trimmed
-- and lower-cased: names are unique whatever their case.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account_id);

-- Which account holds a table's seat: written with the seat's join (or when a guest holding
-- the seat signs in and comes back to it); the first link of a seat stays.
CREATE TABLE seat_accounts (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat BIGINT NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX seat_accounts_by_account ON seat_accounts (account_id);

-- Ratings (Weng-Lin: mu, sigma) per account and family of rules (`oh7:en`, `seven`, ...), with
-- one history row per rated game: a game is rated once (`rated_games`' key), in the same
-- transaction as its ratings' change.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (account_id, family)
);

CREATE TABLE rated_games (
    table_id TEXT NOT NULL REFERENCES tables (id),
    game BIGINT NOT NULL,
    family TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, game)
);

CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    table_id TEXT NOT NULL,
    game BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, table_id, game)
);

-- Turn-based tables: when each seat that owes a decision must have made it (Unix seconds), and
-- since which version it has owed it. Rewritten by the table's task when who owes changes.
CREATE TABLE deadlines (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat BIGINT NOT NULL,
    since BIGINT NOT NULL,
    due_at BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX deadlines_by_due ON deadlines (due_at);
