-- Sightings: the addresses and devices (hashed by the server) each
-- account was seen with, and when last. Two accounts seen with the same
-- one are linked (Store.Links): one person may not take two seats of a
-- rated game. And each account's finished casual rounds, for the rated
-- probation of new accounts.

-- +goose Up
CREATE TABLE account_sightings (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL, -- address or device
    value      TEXT NOT NULL,
    first_seen TIMESTAMPTZ NOT NULL,
    last_seen  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, kind, value)
);
CREATE INDEX account_sightings_value ON account_sightings (kind, value, last_seen);

ALTER TABLE accounts ADD COLUMN casual_rounds INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE accounts DROP COLUMN casual_rounds;
DROP TABLE account_sightings;
