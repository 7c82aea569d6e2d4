-- Each archived player's round (total strokes, strokes to par, holes
-- finished and cleared), for profile stats; filled in from the archived
-- standings for the games archived before.

-- +goose Up
ALTER TABLE game_players
    ADD COLUMN total  INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN to_par INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN holes  INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN clears INTEGER NOT NULL DEFAULT 0;

UPDATE game_players gp SET
    total  = COALESCE((r ->> 'total')::int, 0),
    to_par = COALESCE((r ->> 'toPar')::int, 0),
    holes  = (SELECT count(*) FROM json_array_elements(COALESCE(r -> 'scores', '[]'::json)) s WHERE s::text <> 'null'),
    clears = (SELECT count(*) FROM json_array_elements(COALESCE(r -> 'scores', '[]'::json)) s WHERE s::text <> 'null' AND s::text::int <= 0)
FROM games g, json_array_elements(CASE WHEN json_typeof(g.standings -> 'rows') = 'array' THEN g.standings -> 'rows' ELSE '[]'::json END) r
WHERE g.id = gp.game_id AND (r ->> 'seat')::int = gp.seat;

-- +goose Down
ALTER TABLE game_players DROP COLUMN total, DROP COLUMN to_par, DROP COLUMN holes, DROP COLUMN clears;
