-- Turn notices by email: an account's address (optional), and one row per notice sent, keyed
-- by the deadline it tells of (a seat owes a decision at a table since a version): the key is
-- claimed before the mail goes, so each turn is told once, whichever instance sweeps first.
ALTER TABLE accounts ADD COLUMN email TEXT;

CREATE TABLE notices (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat BIGINT NOT NULL,
    since BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat, since)
);
