-- Accounts, their current rating per game family, and the rating history.

-- +goose Up
CREATE TABLE accounts (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE, -- PRECIS UsernameCaseMapped
    password_hash TEXT NOT NULL,        -- argon2id, PHC string
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    family     TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, family)
);

CREATE TABLE rating_history (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    family     TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX rating_history_account_family ON rating_history (account_id, family, id);

-- +goose Down
DROP TABLE rating_history;
DROP TABLE ratings;
DROP TABLE accounts;
