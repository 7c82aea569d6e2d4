package cli

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"golfsolitaire/accounts/inmem"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/fairplay"
	fpostgres "golfsolitaire/fairplay/postgres"
)

// TestServeFairplayInPostgres: with --database the server's fair-play
// evidence lives in PostgreSQL beside the accounts (its migrations with
// their own version table, so neither set of migrations disturbs the
// other), and a flag survives a restart; without it, in memory.
func TestServeFairplayInPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := serveConfig{databaseURL: pgtest.Database(t, "servefp"), moderatorToken: "tok"}
	open := func() fairplay.Store {
		pg, err := postgres.Open(ctx, c.databaseURL, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pg.Close)
		fair, err := openFairplay(ctx, c, pg, log)
		if err != nil {
			t.Fatal(err)
		}
		st, ok := fair.Store.(*fpostgres.Store)
		if !ok || fair.ModeratorToken != "tok" {
			t.Fatalf("fair-play store %T, token %q: want PostgreSQL", fair.Store, fair.ModeratorToken)
		}
		return st
	}
	st := open()
	if err := st.SetFlag(ctx, fairplay.Flag{Player: "account:1", Name: "Ana", FlaggedAt: time.Now(), Held: true}); err != nil {
		t.Fatal(err)
	}
	st2 := open() // a restart: both migrations already applied
	if status, held, err := st2.Held(ctx, "account:1"); err != nil || !held || status != fairplay.StatusHeld {
		t.Fatalf("after restart: %q %v %v", status, held, err)
	}
	pg, _ := postgres.Open(ctx, c.databaseURL, nil)
	defer pg.Close()
	var n int
	if err := pg.Pool().QueryRow(ctx, `SELECT count(*) FROM fairplay_goose_db_version WHERE version_id = 10`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("fair-play version table: %d rows for 10, %v", n, err)
	}
	if err := pg.Pool().QueryRow(ctx, `SELECT count(*) FROM goose_db_version WHERE version_id = 10`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("accounts' version table names the fair-play migration: %d, %v", n, err)
	}

	mem, err := openFairplay(ctx, serveConfig{}, inmem.New(), log)
	if err != nil || mem.Store != nil {
		t.Fatalf("without --database: store %T, %v; want the server's default (memory)", mem.Store, err)
	}
}
