-- The permanent archive of rated rooms: settings, commitment, seed, every
-- hole's records and scores, standings, and each player's rating change.
-- JSON (not JSONB) keeps the room's own text exactly.

-- +goose Up
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    family      TEXT NOT NULL,
    format      TEXT NOT NULL,
    settings    JSON NOT NULL,
    commitment  TEXT NOT NULL,
    seed        TEXT NOT NULL,
    holes       JSON NOT NULL,
    standings   JSON NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE game_players (
    game_id           TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              INTEGER NOT NULL,
    account_id        BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    name              TEXT NOT NULL,
    place             INTEGER NOT NULL,
    rating_before     DOUBLE PRECISION NOT NULL,
    rd_before         DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after      DOUBLE PRECISION NOT NULL,
    rd_after          DOUBLE PRECISION NOT NULL,
    volatility_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_account ON game_players (account_id);

-- +goose Down
DROP TABLE game_players;
DROP TABLE games;
