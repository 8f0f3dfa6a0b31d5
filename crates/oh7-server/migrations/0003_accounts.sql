-- Accounts (optional: guests have none) and their sessions. A password is kept as its argon2id
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
