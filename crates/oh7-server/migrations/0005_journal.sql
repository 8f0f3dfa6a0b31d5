-- Moves are first appended here, in the order they arrive (the rowid), so that a group commit of
-- many tables' moves writes one or two pages at the end of one B-tree instead of one leaf of
-- `events` per table. The writer fills one journal while it folds the other into `events` (by
-- table, where a table's many moves of the last seconds share a leaf), then empties it. A table's
-- log is `events` and both journals (a row may be in `events` and a journal at once, for a
-- moment: the same row). See the store's documentation.
CREATE TABLE journal_a (
    seq       INTEGER PRIMARY KEY,
    table_id  TEXT NOT NULL REFERENCES tables(id),
    version   INTEGER NOT NULL,
    body      TEXT NOT NULL
);

CREATE TABLE journal_b (
    seq       INTEGER PRIMARY KEY,
    table_id  TEXT NOT NULL REFERENCES tables(id),
    version   INTEGER NOT NULL,
    body      TEXT NOT NULL
);
