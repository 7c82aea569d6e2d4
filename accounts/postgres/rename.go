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
	if err := nameInUse(err, a.Name); err != nil {
		return accounts.Account{}, err
	}
	if err != nil {
		return accounts.Account{}, fmt.Errorf("postgres: rename: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return accounts.Account{}, accounts.ErrNotFound
	}
	return s.ByID(ctx, id)
}

// nameInUse is the error of an insert or update that another account's
// name took first: its key (ErrNameTaken) or its look-alike skeleton
// (ErrNameConfusable); nil for any other error.
func nameInUse(err error, name string) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
		return nil
	}
	if pgErr.ConstraintName == "accounts_name_skeleton" {
		return fmt.Errorf("%w: %q", accounts.ErrNameConfusable, name)
	}
	return fmt.Errorf("%w: %q", accounts.ErrNameTaken, name)
}
