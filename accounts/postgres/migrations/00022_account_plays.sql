-- Plays: the holes each account played, one per deal (the earliest
-- begun), so fair play can tell a hole begun after a linked account had
-- finished the same deal (scouting). A deal is named by a hash of its
-- variant and seed, never the seed.

-- +goose Up
CREATE TABLE account_plays (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    deal       TEXT NOT NULL,
    room       TEXT NOT NULL,
    hole       INTEGER NOT NULL,
    counts     BOOLEAN NOT NULL,
    begun      TIMESTAMPTZ NOT NULL,
    finished   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, deal)
);
CREATE INDEX account_plays_begun ON account_plays (account_id, begun DESC);
CREATE INDEX account_plays_deal ON account_plays (deal, finished);

-- +goose Down
DROP TABLE account_plays;
