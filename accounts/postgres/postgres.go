// Package postgres keeps accounts, ratings, their history, sessions and the
// archive of rated rooms in PostgreSQL (github.com/jackc/pgx/v5). Its
// schema is the SQL files in migrations/, embedded in the binary and
// applied at start by goose.
package postgres

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"golfsolitaire/accounts"
	"golfsolitaire/internal/dbwait"
	"golfsolitaire/ratings"
)

//go:embed migrations/*.sql
var migrations embed.FS

var _ accounts.Store = (*Store)(nil)

// Store is the PostgreSQL accounts.Store.
type Store struct {
	pool *pgxpool.Pool
}

// Open connects to the database at url, applies the migrations it has not
// seen (under a PostgreSQL advisory lock, so instances starting together
// migrate once) and returns the store. Every call of the store (and of
// whatever shares its Pool) waits at most dbwait.DefaultTimeout. Close it
// when done.
func Open(ctx context.Context, url string, log *slog.Logger) (*Store, error) {
	return OpenTimeout(ctx, url, dbwait.DefaultTimeout, log)
}

// OpenTimeout is Open with calls that wait at most timeout (negative: no
// bound) before failing with an error dbwait.Unavailable recognises.
// Migrations are not bounded by it.
func OpenTimeout(ctx context.Context, url string, timeout time.Duration, log *slog.Logger) (*Store, error) {
	pool, err := dbwait.NewPool(ctx, url, timeout)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := Migrate(ctx, pool, log); err != nil {
		pool.Close()
		return nil, err
	}
	st := &Store{pool: pool}
	if err := st.fillSkeletons(ctx, log); err != nil {
		pool.Close()
		return nil, err
	}
	return st, nil
}

// fillSkeletons checks, once, the names of the accounts created before
// the name rules (oldest first): each gets its skeleton, unless an older
// account has it already (then it keeps none and is noted a look-alike of
// that account's name), and a note when it holds a reserved word. Both
// keep their names and log in as before; new look-alikes of either are
// refused.
func (s *Store) fillSkeletons(ctx context.Context, log *slog.Logger) error {
	rows, err := s.pool.Query(ctx, `SELECT id, name, name_skeleton IS NULL FROM accounts WHERE name_skeleton IS NULL OR name_note IS NULL ORDER BY id`)
	if err != nil {
		return fmt.Errorf("postgres: name skeletons: %w", err)
	}
	type acct struct {
		id     int64
		name   string
		noSkel bool
	}
	todo, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (acct, error) {
		var a acct
		return a, row.Scan(&a.id, &a.name, &a.noSkel)
	})
	if err != nil {
		return fmt.Errorf("postgres: name skeletons: %w", err)
	}
	for _, a := range todo {
		note := accounts.LegacyNote(a.name)
		if a.noSkel {
			skel := accounts.Skeleton(a.name)
			_, err := s.pool.Exec(ctx, `UPDATE accounts SET name_skeleton = $2 WHERE id = $1 AND name_skeleton IS NULL`, a.id, skel)
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "23505" {
				var older string
				if err := s.pool.QueryRow(ctx, `SELECT name FROM accounts WHERE name_skeleton = $1`, skel).Scan(&older); err != nil {
					return fmt.Errorf("postgres: name skeletons: %w", err)
				}
				note = accounts.NoteLookAlike + " " + older
			} else if err != nil {
				return fmt.Errorf("postgres: name skeletons: %w", err)
			}
		}
		if _, err := s.pool.Exec(ctx, `UPDATE accounts SET name_note = $2 WHERE id = $1`, a.id, note); err != nil {
			return fmt.Errorf("postgres: name notes: %w", err)
		}
		if note != "" && log != nil {
			log.Warn("account name from before the name rules: it plays rated games once renamed", "name", a.name, "note", note)
		}
	}
	return nil
}

// Migrate applies the embedded migrations.
func Migrate(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) error {
	return MigrateTo(ctx, pool, 0, log)
}

// MigrateTo applies the embedded migrations up to version (0: all of
// them); tests of a migration's data changes start from the one before.
func MigrateTo(ctx context.Context, pool *pgxpool.Pool, version int64, log *slog.Logger) error {
	ctx = dbwait.Unbounded(ctx) // a migration may take longer than a request's call
	fsys, err := fsSub()
	if err != nil {
		return err
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return fmt.Errorf("postgres: migration lock: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys, goose.WithSessionLocker(locker))
	if err != nil {
		return fmt.Errorf("postgres: migrations: %w", err)
	}
	var results []*goose.MigrationResult
	if version > 0 {
		results, err = p.UpTo(ctx, version)
	} else {
		results, err = p.Up(ctx)
	}
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	for _, r := range results {
		if log != nil {
			log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
		}
	}
	return nil
}

// Migrations lists the embedded migration files in order.
func Migrations() ([]string, error) {
	fsys, err := fsSub()
	if err != nil {
		return nil, err
	}
	entries, err := fsReadDir(fsys)
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// Pool is the connection pool, shared with the session store.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// Ping checks that the database answers (the server's /readyz).
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

func (s *Store) Create(ctx context.Context, a accounts.Account) (accounts.Account, error) {
	err := s.pool.QueryRow(ctx,
		`INSERT INTO accounts (name, name_key, name_skeleton, password_hash, name_note) VALUES ($1, $2, NULLIF($3, ''), $4, $5) RETURNING id, created_at`,
		a.Name, a.Key, a.Skeleton, a.PasswordHash, a.NameNote).Scan(&a.ID, &a.Created)
	if err := nameInUse(err, a.Name); err != nil {
		return accounts.Account{}, err
	}
	if err != nil {
		return accounts.Account{}, fmt.Errorf("postgres: create account: %w", err)
	}
	a.Created = a.Created.UTC()
	return a, nil
}

func (s *Store) one(ctx context.Context, where string, arg any) (accounts.Account, error) {
	var a accounts.Account
	err := s.pool.QueryRow(ctx, `SELECT id, name, name_key, coalesce(name_skeleton, ''), password_hash, created_at, casual_rounds, coalesce(name_note, '') FROM accounts WHERE `+where, arg).
		Scan(&a.ID, &a.Name, &a.Key, &a.Skeleton, &a.PasswordHash, &a.Created, &a.CasualRounds, &a.NameNote)
	if errors.Is(err, pgx.ErrNoRows) {
		return accounts.Account{}, accounts.ErrNotFound
	}
	if err != nil {
		return accounts.Account{}, fmt.Errorf("postgres: account: %w", err)
	}
	a.Created = a.Created.UTC()
	return a, nil
}

func (s *Store) ByKey(ctx context.Context, key string) (accounts.Account, error) {
	return s.one(ctx, "name_key = $1", key)
}

func (s *Store) ByID(ctx context.Context, id accounts.ID) (accounts.Account, error) {
	return s.one(ctx, "id = $1", id)
}

func (s *Store) Delete(ctx context.Context, id accounts.ID) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("postgres: delete account: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return accounts.ErrNotFound
	}
	return nil
}

func (s *Store) Ratings(ctx context.Context, id accounts.ID) ([]accounts.FamilyRating, error) {
	rows, err := s.pool.Query(ctx,
		`SELECT family, rating, rd, volatility, games, updated_at FROM ratings WHERE account_id = $1 ORDER BY family`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: ratings: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.FamilyRating, error) {
		var r accounts.FamilyRating
		err := row.Scan(&r.Family, &r.Rating.Rating, &r.RD, &r.Volatility, &r.Games, &r.Updated)
		r.Updated = r.Updated.UTC()
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: ratings: %w", err)
	}
	return out, nil
}

func (s *Store) RecordGame(ctx context.Context, g accounts.Game, rate accounts.RateFunc) (accounts.Game, error) {
	if g.Finished.IsZero() {
		g.Finished = time.Now()
	}
	g.Finished = g.Finished.UTC().Truncate(time.Microsecond)
	g.Players = slices.Clone(g.Players)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO games (id, family, format, settings, commitment, seed, holes, standings, finished_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
			g.ID, g.Family, g.Format, rawText(g.Settings), g.Commitment, g.Seed, rawText(g.Holes), rawText(g.Standings), g.Finished)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("%w: %s", accounts.ErrDuplicate, g.ID)
		}
		// Lock the players' accounts in id order (no deadlock between two
		// games of the same players), so their ratings cannot change under
		// us even when they have no ratings row yet.
		ids := make([]int64, 0, len(g.Players))
		for _, p := range g.Players {
			ids = append(ids, int64(p.Account))
		}
		rows, err := tx.Query(ctx, `SELECT id FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`, ids)
		if err != nil {
			return err
		}
		locked, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		for _, p := range g.Players {
			if !slices.Contains(locked, int64(p.Account)) {
				return fmt.Errorf("%w: account of player %q", accounts.ErrNotFound, p.Name)
			}
		}
		current := map[accounts.ID]accounts.FamilyRating{}
		rows, err = tx.Query(ctx, `SELECT account_id, rating, rd, volatility, games FROM ratings WHERE account_id = ANY($1) AND family = $2`, ids, g.Family)
		if err != nil {
			return err
		}
		var (
			id accounts.ID
			fr accounts.FamilyRating
		)
		if _, err := pgx.ForEachRow(rows, []any{&id, &fr.Rating.Rating, &fr.RD, &fr.Volatility, &fr.Games}, func() error {
			current[id] = fr
			return nil
		}); err != nil {
			return err
		}
		before := make([]ratings.Rating, len(g.Players))
		for i, p := range g.Players {
			before[i] = ratings.New()
			if r, ok := current[p.Account]; ok {
				before[i] = r.Rating
			}
		}
		after, err := rate(slices.Clone(before))
		if err != nil {
			return err
		}
		if len(after) != len(before) {
			return fmt.Errorf("accounts: %d ratings for %d players", len(after), len(before))
		}
		batch := &pgx.Batch{}
		for i := range g.Players {
			p := &g.Players[i]
			p.Before, p.After = before[i], after[i]
			a := after[i]
			batch.Queue(`INSERT INTO ratings (account_id, family, rating, rd, volatility, games, updated_at) VALUES ($1, $2, $3, $4, $5, 1, $6)
				ON CONFLICT (account_id, family) DO UPDATE SET rating = $3, rd = $4, volatility = $5, games = ratings.games + 1, updated_at = $6`,
				p.Account, g.Family, a.Rating, a.RD, a.Volatility, g.Finished)
			batch.Queue(`INSERT INTO rating_history (account_id, family, game_id, rating, rd, volatility, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				p.Account, g.Family, g.ID, a.Rating, a.RD, a.Volatility, g.Finished)
			batch.Queue(`INSERT INTO game_players (game_id, seat, account_id, name, place, rating_before, rd_before, volatility_before, rating_after, rd_after, volatility_after, total, to_par, holes, clears)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
				g.ID, i, p.Account, p.Name, p.Place, p.Before.Rating, p.Before.RD, p.Before.Volatility, a.Rating, a.RD, a.Volatility, p.Total, p.ToPar, p.Holes, p.Clears)
		}
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		if errors.Is(err, accounts.ErrDuplicate) || errors.Is(err, accounts.ErrNotFound) {
			return accounts.Game{}, err
		}
		return accounts.Game{}, fmt.Errorf("postgres: record game: %w", err)
	}
	return g, nil
}

// rawText stores empty JSON as null (the column is NOT NULL JSON).
func rawText(m json.RawMessage) string {
	if len(m) == 0 {
		return "null"
	}
	return string(m)
}

func (s *Store) History(ctx context.Context, id accounts.ID, family ratings.Family) ([]accounts.HistoryEntry, error) {
	rows, err := s.pool.Query(ctx,
		`SELECT family, rating, rd, volatility, game_id, at FROM rating_history WHERE account_id = $1 AND family = $2 ORDER BY id`, id, family)
	if err != nil {
		return nil, fmt.Errorf("postgres: history: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.HistoryEntry, error) {
		var h accounts.HistoryEntry
		err := row.Scan(&h.Family, &h.Rating.Rating, &h.RD, &h.Volatility, &h.GameID, &h.At)
		h.At = h.At.UTC()
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: history: %w", err)
	}
	return out, nil
}

const gameColumns = `id, family, format, settings::text, commitment, seed, holes::text, standings::text, finished_at`

func (s *Store) Games(ctx context.Context, id accounts.ID, limit int) ([]accounts.Game, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+gameColumns+` FROM games
		WHERE id IN (SELECT game_id FROM game_players WHERE account_id = $1)
		ORDER BY finished_at DESC, id DESC LIMIT $2`, id, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: games: %w", err)
	}
	return s.collectGames(ctx, rows)
}

func (s *Store) Game(ctx context.Context, gameID string) (accounts.Game, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1`, gameID)
	if err != nil {
		return accounts.Game{}, fmt.Errorf("postgres: game: %w", err)
	}
	gs, err := s.collectGames(ctx, rows)
	if err != nil {
		return accounts.Game{}, err
	}
	if len(gs) == 0 {
		return accounts.Game{}, accounts.ErrNotFound
	}
	return gs[0], nil
}

func (s *Store) collectGames(ctx context.Context, rows pgx.Rows) ([]accounts.Game, error) {
	gs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.Game, error) {
		var g accounts.Game
		var settings, holes, standings string
		err := row.Scan(&g.ID, &g.Family, &g.Format, &settings, &g.Commitment, &g.Seed, &holes, &standings, &g.Finished)
		g.Settings, g.Holes, g.Standings = json.RawMessage(settings), json.RawMessage(holes), json.RawMessage(standings)
		g.Finished = g.Finished.UTC()
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: games: %w", err)
	}
	if len(gs) == 0 {
		return gs, nil
	}
	ids := make([]string, len(gs))
	index := map[string]int{}
	for i, g := range gs {
		ids[i] = g.ID
		index[g.ID] = i
	}
	prow, err := s.pool.Query(ctx, `SELECT game_id, COALESCE(account_id, 0), name, place, rating_before, rd_before, volatility_before, rating_after, rd_after, volatility_after, total, to_par, holes, clears
		FROM game_players WHERE game_id = ANY($1) ORDER BY game_id, seat`, ids)
	if err != nil {
		return nil, fmt.Errorf("postgres: game players: %w", err)
	}
	var (
		gid string
		p   accounts.GamePlayer
	)
	if _, err := pgx.ForEachRow(prow, []any{&gid, &p.Account, &p.Name, &p.Place, &p.Before.Rating, &p.Before.RD, &p.Before.Volatility, &p.After.Rating, &p.After.RD, &p.After.Volatility, &p.Total, &p.ToPar, &p.Holes, &p.Clears}, func() error {
		i := index[gid]
		gs[i].Players = append(gs[i].Players, p)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("postgres: game players: %w", err)
	}
	return gs, nil
}

// DeleteExpiredSessions removes the sessions (the scs pgxstore table) past
// their expiry. The server runs it periodically itself rather than through
// pgxstore's own cleanup goroutine, whose StopCleanup races with its start.
func (s *Store) DeleteExpiredSessions(ctx context.Context) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE expiry < current_timestamp`)
	if err != nil {
		return 0, fmt.Errorf("postgres: delete expired sessions: %w", err)
	}
	return tag.RowsAffected(), nil
}

func (s *Store) Leaderboard(ctx context.Context, family ratings.Family, limit int) ([]accounts.Leader, error) {
	rows, err := s.pool.Query(ctx, `SELECT a.name, r.family, r.rating, r.rd, r.volatility, r.games, r.updated_at
		FROM ratings r JOIN accounts a ON a.id = r.account_id
		WHERE r.family = $1 ORDER BY r.rating DESC, a.name_key LIMIT $2`, family, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: leaderboard: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.Leader, error) {
		var l accounts.Leader
		err := row.Scan(&l.Name, &l.Family, &l.Rating.Rating, &l.RD, &l.Volatility, &l.Games, &l.Updated)
		l.Updated = l.Updated.UTC()
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: leaderboard: %w", err)
	}
	return out, nil
}

func (s *Store) AddPasskey(ctx context.Context, p accounts.Passkey) (accounts.Passkey, error) {
	err := s.pool.QueryRow(ctx, `INSERT INTO passkeys (id, account_id, credential) VALUES ($1, $2, $3) RETURNING created_at`,
		p.ID, p.Account, string(p.Credential)).Scan(&p.Created)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505":
			return accounts.Passkey{}, accounts.ErrPasskeyTaken
		case "23503":
			return accounts.Passkey{}, fmt.Errorf("%w: account %d", accounts.ErrNotFound, p.Account)
		}
	}
	if err != nil {
		return accounts.Passkey{}, fmt.Errorf("postgres: add passkey: %w", err)
	}
	p.Created = p.Created.UTC()
	p.LastUsed = time.Time{}
	return p, nil
}

const passkeyColumns = `id, account_id, credential::text, created_at, last_used`

func scanPasskey(row pgx.CollectableRow) (accounts.Passkey, error) {
	var (
		p    accounts.Passkey
		cred string
		used *time.Time
	)
	err := row.Scan(&p.ID, &p.Account, &cred, &p.Created, &used)
	p.Credential = json.RawMessage(cred)
	p.Created = p.Created.UTC()
	if used != nil {
		p.LastUsed = used.UTC()
	}
	return p, err
}

func (s *Store) Passkeys(ctx context.Context, id accounts.ID) ([]accounts.Passkey, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE account_id = $1 ORDER BY created_at, id`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: passkeys: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanPasskey)
	if err != nil {
		return nil, fmt.Errorf("postgres: passkeys: %w", err)
	}
	return out, nil
}

func (s *Store) PasskeyByID(ctx context.Context, credential []byte) (accounts.Passkey, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE id = $1`, credential)
	if err != nil {
		return accounts.Passkey{}, fmt.Errorf("postgres: passkey: %w", err)
	}
	p, err := pgx.CollectExactlyOneRow(rows, scanPasskey)
	if errors.Is(err, pgx.ErrNoRows) {
		return accounts.Passkey{}, accounts.ErrNotFound
	}
	if err != nil {
		return accounts.Passkey{}, fmt.Errorf("postgres: passkey: %w", err)
	}
	return p, nil
}

func (s *Store) UsePasskey(ctx context.Context, credential, data []byte, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE passkeys SET credential = $2, last_used = $3 WHERE id = $1`,
		credential, string(data), at.UTC().Truncate(time.Microsecond))
	if err != nil {
		return fmt.Errorf("postgres: use passkey: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return accounts.ErrNotFound
	}
	return nil
}

func (s *Store) DeletePasskey(ctx context.Context, id accounts.ID, credential []byte) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM passkeys WHERE id = $1 AND account_id = $2`, credential, id)
	if err != nil {
		return fmt.Errorf("postgres: delete passkey: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return accounts.ErrNotFound
	}
	return nil
}

func (s *Store) Stats(ctx context.Context, id accounts.ID) ([]accounts.FamilyStats, error) {
	// Won: first, and nobody else of the game first.
	rows, err := s.pool.Query(ctx, `
		WITH mine AS (
			SELECT g.family, g.id, g.finished_at, gp.to_par, gp.holes, gp.clears,
				(gp.place = 1 AND NOT EXISTS (SELECT 1 FROM game_players o WHERE o.game_id = gp.game_id AND o.seat <> gp.seat AND o.place = 1)) AS won
			FROM game_players gp JOIN games g ON g.id = gp.game_id
			WHERE gp.account_id = $1
		), best AS (
			SELECT DISTINCT ON (family) family, to_par, id FROM mine ORDER BY family, to_par, finished_at, id
		)
		SELECT m.family, count(*), count(*) FILTER (WHERE m.won), sum(m.holes), sum(m.clears), sum(m.to_par), b.to_par, b.id
		FROM mine m JOIN best b ON b.family = m.family
		GROUP BY m.family, b.to_par, b.id ORDER BY m.family`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: stats: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.FamilyStats, error) {
		var st accounts.FamilyStats
		err := row.Scan(&st.Family, &st.Games, &st.Won, &st.Holes, &st.Clears, &st.SumToPar, &st.BestToPar, &st.BestGame)
		return st, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: stats: %w", err)
	}
	if out == nil {
		out = []accounts.FamilyStats{}
	}
	return out, nil
}

func (s *Store) Seen(ctx context.Context, id accounts.ID, kind, value string, at time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO account_sightings (account_id, kind, value, first_seen, last_seen) VALUES ($1, $2, $3, $4, $4)
		ON CONFLICT (account_id, kind, value) DO UPDATE SET last_seen = greatest(account_sightings.last_seen, excluded.last_seen)`,
		id, kind, value, at.UTC())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" {
		return accounts.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("postgres: sighting: %w", err)
	}
	return nil
}

func (s *Store) Links(ctx context.Context, id accounts.ID, since time.Time) ([]accounts.Link, error) {
	rows, err := s.pool.Query(ctx, `SELECT o.account_id, a.name, o.kind, max(least(o.last_seen, m.last_seen))
		FROM account_sightings m
		JOIN account_sightings o ON o.kind = m.kind AND o.value = m.value AND o.account_id <> m.account_id
		JOIN accounts a ON a.id = o.account_id
		WHERE m.account_id = $1 AND m.last_seen >= $2 AND o.last_seen >= $2
		GROUP BY o.account_id, a.name, o.kind
		ORDER BY o.account_id, o.kind`, id, since.UTC())
	if err != nil {
		return nil, fmt.Errorf("postgres: links: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (accounts.Link, error) {
		var l accounts.Link
		err := row.Scan(&l.Account, &l.Name, &l.Kind, &l.At)
		l.At = l.At.UTC()
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: links: %w", err)
	}
	if out == nil {
		out = []accounts.Link{}
	}
	return out, nil
}

func (s *Store) AddCasualRound(ctx context.Context, ids []accounts.ID) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := s.pool.Exec(ctx, `UPDATE accounts SET casual_rounds = casual_rounds + 1 WHERE id = ANY($1)`, ids); err != nil {
		return fmt.Errorf("postgres: casual rounds: %w", err)
	}
	return nil
}
