package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"golfsolitaire/accounts"
)

func (s *Store) Rename(ctx context.Context, id accounts.ID, a accounts.Account) (accounts.Account, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE accounts SET name = $2, name_key = $3, name_skeleton = NULLIF($4, ''), name_note = '' WHERE id = $1`,
		id, a.Name, a.Key, a.Skeleton)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		if pgErr.ConstraintName == "accounts_name_skeleton" {
			return accounts.Account{}, fmt.Errorf("%w: %q", accounts.ErrNameConfusable, a.Name)
		}
		return accounts.Account{}, fmt.Errorf("%w: %q", accounts.ErrNameTaken, a.Name)
	}
	if err != nil {
		return accounts.Account{}, fmt.Errorf("postgres: rename: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return accounts.Account{}, accounts.ErrNotFound
	}
	return s.ByID(ctx, id)
}
