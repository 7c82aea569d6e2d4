package postgres_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/accountstest"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/accounts/postgres/pgtest"
)

func open(t *testing.T) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), migrated.Database(t, "accounts"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestContract(t *testing.T) {
	accountstest.Run(t, func(t *testing.T) accounts.Store { return open(t) })
}

// TestMigrations: the embedded files, in order, and applying them twice
// (a restart) changes nothing.
func TestMigrations(t *testing.T) {
	t.Parallel()
	got, err := postgres.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"00001_accounts.sql", "00002_sessions.sql", "00003_archive.sql", "00004_leaderboard.sql", "00005_passkeys.sql", "00006_round_stats.sql", "00020_name_skeletons.sql", "00021_account_links.sql", "00022_account_plays.sql", "00023_name_notes.sql"}
	if !slices.Equal(got, want) {
		t.Errorf("Migrations() = %v, want %v", got, want)
	}
	s := open(t)
	if err := postgres.Migrate(context.Background(), s.Pool(), nil); err != nil {
		t.Errorf("second Migrate: %v", err)
	}
	var n int
	if err := s.Pool().QueryRow(context.Background(), `SELECT max(version_id) FROM goose_db_version`).Scan(&n); err != nil || n != 23 {
		t.Errorf("goose version = %d, %v; want 23", n, err)
	}
}

func TestDeleteExpiredSessions(t *testing.T) {
	t.Parallel()
	s := open(t)
	ctx := context.Background()
	if _, err := s.Pool().Exec(ctx, `INSERT INTO sessions (token, data, expiry) VALUES
		('old', '\x00', now() - interval '1 hour'), ('live', '\x00', now() + interval '1 hour')`); err != nil {
		t.Fatal(err)
	}
	if n, err := s.DeleteExpiredSessions(ctx); err != nil || n != 1 {
		t.Errorf("DeleteExpiredSessions = %d, %v; want 1", n, err)
	}
	var left string
	if err := s.Pool().QueryRow(ctx, `SELECT string_agg(token, ',') FROM sessions`).Scan(&left); err != nil || left != "live" {
		t.Errorf("sessions left = %q, %v; want live", left, err)
	}
}

// TestRoundStatsBackfill: migration 00006 fills each archived player's
// total, to par, holes and clears in from the standings of games archived
// before it.
func TestRoundStatsBackfill(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, pgtest.Database(t, "backfill"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := postgres.MigrateTo(ctx, pool, 5, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO accounts (name, name_key, password_hash) VALUES ('Ana', 'ana', 'x'), ('Bo', 'bo', 'x')`,
		`INSERT INTO games (id, family, format, settings, commitment, seed, holes, standings, finished_at) VALUES
			('OLD-1', 'golf', 'stroke', '{}', 'c', 's', '[]',
			 '{"rows":[{"seat":1,"total":12,"toPar":2,"scores":[7,5,null]},{"seat":0,"total":3,"toPar":-7,"scores":[0,-2,5]}]}', now()),
			('ODD-1', 'golf', 'match', '{}', 'c', 's', '[]', '{"leader":0}', now())`,
		`INSERT INTO game_players (game_id, seat, account_id, name, place, rating_before, rd_before, volatility_before, rating_after, rd_after, volatility_after) VALUES
			('OLD-1', 0, 1, 'Ana', 1, 1500, 350, 0.06, 1600, 300, 0.06), ('OLD-1', 1, 2, 'Bo', 2, 1500, 350, 0.06, 1400, 300, 0.06),
			('ODD-1', 0, 1, 'Ana', 1, 1500, 350, 0.06, 1600, 300, 0.06)`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := postgres.Migrate(ctx, pool, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, `SELECT game_id, seat, total, to_par, holes, clears FROM game_players ORDER BY game_id DESC, seat`)
	if err != nil {
		t.Fatal(err)
	}
	type r struct {
		game                              string
		seat, total, toPar, holes, clears int
	}
	var got []r
	var x r
	if _, err := pgx.ForEachRow(rows, []any{&x.game, &x.seat, &x.total, &x.toPar, &x.holes, &x.clears}, func() error {
		got = append(got, x)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []r{{"OLD-1", 0, 3, -7, 3, 2}, {"OLD-1", 1, 12, 2, 2, 0}, {"ODD-1", 0, 0, 0, 0, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("backfilled %+v, want %+v", got, want)
	}
}

// TestSkeletonBackfill: accounts created before skeletons were kept get
// theirs at start, the oldest first; a younger look-alike keeps none, and
// new look-alikes of either are refused.
func TestSkeletonBackfill(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Database(t, "skeletons")
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := postgres.MigrateTo(ctx, pool, 6, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO accounts (name, name_key, password_hash) VALUES ('victim1', 'victim1', 'x'), ('v`+"\u0456"+`ctim1', 'v`+"\u0456"+`ctim1', 'x'), ('Bo', 'bo', 'x')`); err != nil {
		t.Fatal(err)
	}
	s, err := postgres.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	for key, want := range map[string]string{"victim1": accounts.Skeleton("victim1"), "v\u0456ctim1": "", "bo": accounts.Skeleton("bo")} {
		a, err := s.ByKey(ctx, key)
		if err != nil || a.Skeleton != want {
			t.Errorf("%s: skeleton %q, %v; want %q", key, a.Skeleton, err, want)
		}
	}
	_, err = s.Create(ctx, accounts.Account{Name: "b0", Key: "b0", Skeleton: accounts.Skeleton("b0"), PasswordHash: "x"})
	if !errors.Is(err, accounts.ErrNameConfusable) {
		t.Errorf("Create(b0) err = %v, want ErrNameConfusable", err)
	}
}

// TestLegacyNames: accounts created before the name rules, with names
// now reserved or confusable with an older account's, are checked once
// at start: they keep their names and log in as before, with a note
// (reserved, look-alike of the older name); the older one has none.
func TestLegacyNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Database(t, "accounts")
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := postgres.MigrateTo(ctx, pool, 21, nil); err != nil { // before the notes
		t.Fatal(err)
	}
	// As the server before the name rules created them: no skeleton.
	for _, n := range []struct{ name, key string }{{"victim1", "victim1"}, {"vіctim1", "vіctim1"}, {"GreedyBot", "greedybot"}, {"Ana", "ana"}} {
		if _, err := pool.Exec(ctx, `INSERT INTO accounts (name, name_key, password_hash) VALUES ($1, $2, 'x')`, n.name, n.key); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 { // a restart checks nothing again
		s, err := postgres.Open(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		for key, want := range map[string]string{"victim1": "", "vіctim1": "look-alike of victim1", "greedybot": "reserved", "ana": ""} {
			a, err := s.ByKey(ctx, key)
			if err != nil || a.NameNote != want {
				t.Errorf("%s: note %q, %v; want %q", key, a.NameNote, err, want)
			}
		}
		s.Close()
	}
}
