-- The rating leaderboard of a game family reads ratings by family, best
-- first.

-- +goose Up
CREATE INDEX ratings_family_rating ON ratings (family, rating DESC);

-- +goose Down
DROP INDEX ratings_family_rating;
