package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"golfsolitaire/accounts"
)

func (s *Store) AddPlay(ctx context.Context, p accounts.Play) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO account_plays (account_id, deal, room, hole, counts, begun, finished) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (account_id, deal) DO UPDATE SET room = excluded.room, hole = excluded.hole, counts = excluded.counts, begun = excluded.begun, finished = excluded.finished
		WHERE excluded.begun < account_plays.begun`,
		p.Account, p.Deal, p.Room, p.Hole, p.Counts, p.Begun.UTC(), p.Finished.UTC())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" {
		return accounts.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("postgres: play: %w", err)
	}
	return nil
}

const playColumns = `account_id, deal, room, hole, counts, begun, finished`

func scanPlays(rows pgx.Rows) ([]accounts.Play, error) {
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.Play, error) {
		var p accounts.Play
		err := row.Scan(&p.Account, &p.Deal, &p.Room, &p.Hole, &p.Counts, &p.Begun, &p.Finished)
		p.Begun, p.Finished = p.Begun.UTC(), p.Finished.UTC()
		return p, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: plays: %w", err)
	}
	if out == nil {
		out = []accounts.Play{}
	}
	return out, nil
}

func (s *Store) AccountPlays(ctx context.Context, id accounts.ID, limit int) ([]accounts.Play, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+playColumns+` FROM account_plays WHERE account_id = $1 ORDER BY begun DESC, deal LIMIT $2`, id, max(limit, 0))
	if err != nil {
		return nil, fmt.Errorf("postgres: plays: %w", err)
	}
	return scanPlays(rows)
}

func (s *Store) DealPlays(ctx context.Context, deals []string, ids []accounts.ID) ([]accounts.Play, error) {
	if len(deals) == 0 || len(ids) == 0 {
		return []accounts.Play{}, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT `+playColumns+` FROM account_plays WHERE deal = ANY($1) AND account_id = ANY($2) ORDER BY deal, finished, account_id`, deals, ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: plays: %w", err)
	}
	return scanPlays(rows)
}
