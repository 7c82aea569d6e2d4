-- +goose Up
-- Fair-play evidence (fairplay/postgres). Its own goose table:
-- fairplay_goose_db_version.
CREATE TABLE fairplay_evidence (
    player   text PRIMARY KEY,
    evidence jsonb NOT NULL
);

CREATE TABLE fairplay_holes (
    id     bigserial PRIMARY KEY,
    player text NOT NULL REFERENCES fairplay_evidence (player) ON DELETE CASCADE,
    report jsonb NOT NULL
);
CREATE INDEX fairplay_holes_player ON fairplay_holes (player, id);

CREATE TABLE fairplay_flags (
    player     text PRIMARY KEY,
    flagged_at timestamptz NOT NULL,
    status     text NOT NULL CHECK (status IN ('held', 'cleared', 'confirmed')),
    flag       jsonb NOT NULL
);

CREATE TABLE fairplay_held (
    key     text PRIMARY KEY,
    seq     bigserial,
    players text[] NOT NULL,
    held_at timestamptz NOT NULL,
    payload bytea NOT NULL
);
CREATE INDEX fairplay_held_players ON fairplay_held USING gin (players);

-- +goose Down
DROP TABLE fairplay_held;
DROP TABLE fairplay_flags;
DROP TABLE fairplay_holes;
DROP TABLE fairplay_evidence;
