// Package postgres keeps fair-play evidence, flags and held results in
// PostgreSQL (github.com/jackc/pgx/v5). Its schema is the SQL files in
// migrations/ (versions 00010-00019), embedded and applied at start by
// goose with a version table of its own (fairplay_goose_db_version), so
// it shares a database with accounts/postgres without either seeing the
// other's migrations.
package postgres

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"golfsolitaire/fairplay"
	"golfsolitaire/internal/dbwait"
)

//go:embed migrations/*.sql
var migrations embed.FS

// VersionTable is goose's version table for these migrations.
const VersionTable = "fairplay_goose_db_version"

var _ fairplay.Store = (*Store)(nil)

// Store is the PostgreSQL fairplay.Store.
type Store struct {
	pool *pgxpool.Pool
	own  bool
}

// Open connects to the database at url, applies the migrations it has
// not seen and returns the store. Every call waits at most
// dbwait.DefaultTimeout. Close it when done.
func Open(ctx context.Context, url string, log *slog.Logger) (*Store, error) {
	pool, err := dbwait.NewPool(ctx, url, dbwait.DefaultTimeout)
	if err != nil {
		return nil, fmt.Errorf("fairplay postgres: %w", err)
	}
	s, err := New(ctx, pool, log)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.own = true
	return s, nil
}

// New applies the migrations on a pool the caller owns (the accounts'
// pool, say) and returns the store; Close leaves the pool open.
func New(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) (*Store, error) {
	if err := Migrate(ctx, pool, log); err != nil {
		return nil, err
	}
	return &Store{pool: pool}, nil
}

// Migrate applies the embedded migrations, under a PostgreSQL advisory
// lock so instances starting together migrate once.
func Migrate(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) error {
	ctx = dbwait.Unbounded(ctx) // a migration may take longer than a request's call
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("fairplay postgres: migrations: %w", err)
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return fmt.Errorf("fairplay postgres: migration lock: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys, goose.WithSessionLocker(locker), goose.WithTableName(VersionTable))
	if err != nil {
		return fmt.Errorf("fairplay postgres: migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("fairplay postgres: migrate: %w", err)
	}
	for _, r := range results {
		if log != nil {
			log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
		}
	}
	return nil
}

// Close closes the pool if Open made it.
func (s *Store) Close() {
	if s.own {
		s.pool.Close()
	}
}

// AddHole folds a hole report into its player's evidence, keeps the
// report and trims the player's reports to fairplay.MaxReports, in one
// transaction (the evidence row is locked, so concurrent holes of one
// player fold one after the other).
func (s *Store) AddHole(ctx context.Context, r fairplay.HoleReport) (fairplay.Evidence, error) {
	if r.Player == "" {
		return fairplay.Evidence{}, errors.New("fairplay: a hole report needs a player id")
	}
	report, err := json.Marshal(r)
	if err != nil {
		return fairplay.Evidence{}, fmt.Errorf("fairplay postgres: %w", err)
	}
	var ev fairplay.Evidence
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO fairplay_evidence (player, evidence) VALUES ($1, '{}') ON CONFLICT DO NOTHING`, r.Player); err != nil {
			return err
		}
		var raw []byte
		if err := tx.QueryRow(ctx, `SELECT evidence FROM fairplay_evidence WHERE player = $1 FOR UPDATE`, r.Player).Scan(&raw); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			return err
		}
		ev.Add(r.Analysis)
		next, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE fairplay_evidence SET evidence = $2 WHERE player = $1`, r.Player, next); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO fairplay_holes (player, report) VALUES ($1, $2)`, r.Player, report); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM fairplay_holes WHERE player = $1 AND id < (
			SELECT min(id) FROM (SELECT id FROM fairplay_holes WHERE player = $1 ORDER BY id DESC LIMIT $2) AS kept)`,
			r.Player, fairplay.MaxReports)
		return err
	})
	if err != nil {
		return fairplay.Evidence{}, fmt.Errorf("fairplay postgres: add hole: %w", err)
	}
	return ev, nil
}

// Player returns a player's evidence and kept reports, oldest first.
func (s *Store) Player(ctx context.Context, id string) (fairplay.Evidence, []fairplay.HoleReport, error) {
	var ev fairplay.Evidence
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT evidence FROM fairplay_evidence WHERE player = $1`, id).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return ev, nil, fairplay.ErrNotFound
	}
	if err != nil {
		return ev, nil, fmt.Errorf("fairplay postgres: player: %w", err)
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		return ev, nil, fmt.Errorf("fairplay postgres: player: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT report FROM fairplay_holes WHERE player = $1 ORDER BY id`, id)
	if err != nil {
		return ev, nil, fmt.Errorf("fairplay postgres: reports: %w", err)
	}
	reports, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (fairplay.HoleReport, error) {
		var b []byte
		var r fairplay.HoleReport
		if err := row.Scan(&b); err != nil {
			return r, err
		}
		return r, json.Unmarshal(b, &r)
	})
	if err != nil {
		return ev, nil, fmt.Errorf("fairplay postgres: reports: %w", err)
	}
	return ev, reports, nil
}

// SetFlag records a flag, keeping the first flag's time and any review.
func (s *Store) SetFlag(ctx context.Context, f fairplay.Flag) error {
	if f.Player == "" {
		return errors.New("fairplay: a flag needs a player id")
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		old, err := flagTx(ctx, tx, f.Player, true)
		if err != nil && !errors.Is(err, fairplay.ErrNotFound) {
			return err
		}
		return putFlag(ctx, tx, f.Merge(old))
	})
	if err != nil {
		return fmt.Errorf("fairplay postgres: set flag: %w", err)
	}
	return nil
}

func flagTx(ctx context.Context, q pgx.Tx, player string, lock bool) (fairplay.Flag, error) {
	var f fairplay.Flag
	var raw []byte
	sql := `SELECT flag FROM fairplay_flags WHERE player = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	err := q.QueryRow(ctx, sql, player).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return f, fairplay.ErrNotFound
	}
	if err != nil {
		return f, err
	}
	return f, json.Unmarshal(raw, &f)
}

func putFlag(ctx context.Context, tx pgx.Tx, f fairplay.Flag) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO fairplay_flags (player, flagged_at, status, flag) VALUES ($1, $2, $3, $4)
		ON CONFLICT (player) DO UPDATE SET flagged_at = $2, status = $3, flag = $4`, f.Player, f.FlaggedAt, string(f.Status), b)
	return err
}

// Flags lists the flags, earliest first.
func (s *Store) Flags(ctx context.Context) ([]fairplay.Flag, error) {
	rows, err := s.pool.Query(ctx, `SELECT flag FROM fairplay_flags ORDER BY flagged_at, player`)
	if err != nil {
		return nil, fmt.Errorf("fairplay postgres: flags: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (fairplay.Flag, error) {
		var b []byte
		var f fairplay.Flag
		if err := row.Scan(&b); err != nil {
			return f, err
		}
		return f, json.Unmarshal(b, &f)
	})
	if err != nil {
		return nil, fmt.Errorf("fairplay postgres: flags: %w", err)
	}
	fairplay.SortFlags(out)
	return out, nil
}

// Review records a moderator's decision on a flag.
func (s *Store) Review(ctx context.Context, player string, st fairplay.Status, at time.Time) (fairplay.Flag, error) {
	if err := fairplay.CheckReview(player, st); err != nil {
		return fairplay.Flag{}, err
	}
	var f fairplay.Flag
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		old, err := flagTx(ctx, tx, player, true)
		if err != nil {
			return err
		}
		f = old.Reviewed(st, at)
		return putFlag(ctx, tx, f)
	})
	if errors.Is(err, fairplay.ErrNotFound) {
		return fairplay.Flag{}, err
	}
	if err != nil {
		return fairplay.Flag{}, fmt.Errorf("fairplay postgres: review: %w", err)
	}
	return f, nil
}

// Held reports a player's flag status and whether their results are held.
func (s *Store) Held(ctx context.Context, player string) (fairplay.Status, bool, error) {
	var st string
	err := s.pool.QueryRow(ctx, `SELECT status FROM fairplay_flags WHERE player = $1`, player).Scan(&st)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("fairplay postgres: held: %w", err)
	}
	return fairplay.Status(st), fairplay.Status(st) != fairplay.StatusCleared, nil
}

// HoldResult keeps a result back; a second one with the same key is
// ignored.
func (s *Store) HoldResult(ctx context.Context, r fairplay.HeldResult) error {
	if err := fairplay.CheckHeldResult(r); err != nil {
		return err
	}
	payload := r.Payload
	if payload == nil {
		payload = []byte{}
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO fairplay_held (key, players, held_at, payload) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO NOTHING`,
		r.Key, r.Players, r.At.UTC(), payload)
	if err != nil {
		return fmt.Errorf("fairplay postgres: hold result: %w", err)
	}
	return nil
}

// Results lists the held results naming the player, oldest first.
func (s *Store) Results(ctx context.Context, player string) ([]fairplay.HeldResult, error) {
	rows, err := s.pool.Query(ctx, `SELECT key, players, held_at, payload FROM fairplay_held WHERE players @> ARRAY[$1::text] ORDER BY seq`, player)
	if err != nil {
		return nil, fmt.Errorf("fairplay postgres: results: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (fairplay.HeldResult, error) {
		var r fairplay.HeldResult
		err := row.Scan(&r.Key, &r.Players, &r.At, &r.Payload)
		r.At = r.At.UTC()
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("fairplay postgres: results: %w", err)
	}
	return out, nil
}

// DropResult forgets a held result; an unknown key is not an error.
func (s *Store) DropResult(ctx context.Context, key string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM fairplay_held WHERE key = $1`, key); err != nil {
		return fmt.Errorf("fairplay postgres: drop result: %w", err)
	}
	return nil
}
