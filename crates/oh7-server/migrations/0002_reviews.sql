-- A finished review of one seat's decisions in one finished game, computed once; `share` is the
-- code of its link (the only way to read it).
CREATE TABLE reviews (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    game      INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    level     TEXT NOT NULL,
    share     TEXT NOT NULL UNIQUE,
    body      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (table_id, game, seat, level)
);
