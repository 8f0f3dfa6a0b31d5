-- Several instances on one database: who is alive and at which address (for redirects), the
-- connections each has open per address, and the tables created per address (the limits per
-- address hold across instances).
CREATE TABLE instances (
    id      TEXT PRIMARY KEY,
    url     TEXT NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE address_conns (
    instance TEXT NOT NULL,
    ip       TEXT NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (instance, ip)
);
CREATE TABLE address_tables (
    ip TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX address_tables_ip_at ON address_tables (ip, at);
CREATE INDEX leases_expiry ON leases (expires_at);
