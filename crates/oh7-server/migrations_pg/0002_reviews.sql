CREATE TABLE reviews (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    game      INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    level     TEXT NOT NULL,
    share     TEXT NOT NULL UNIQUE,
    body      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (table_id, game, seat, level)
);
