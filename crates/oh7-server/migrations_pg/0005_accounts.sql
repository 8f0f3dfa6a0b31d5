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
