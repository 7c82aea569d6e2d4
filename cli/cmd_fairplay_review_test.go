package cli

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/fairplay"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

// TestFairplayReviewLinks: the review command shows a flagged account's
// name note, its linked accounts and its scouted holes (begun after a
// linked account had finished the same deal).
func TestFairplayReviewLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	acct := inmem.New()
	mk := func(name, note string) accounts.Account {
		display, key, skel, err := accounts.CheckNew(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := acct.Create(ctx, accounts.Account{Name: display, Key: key, Skeleton: skel, PasswordHash: "x", NameNote: note})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	ana, bo := mk("Ana", ""), mk("Bo", accounts.NoteLookAlike+" Bob")
	t0 := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	for _, a := range []accounts.Account{ana, bo} {
		if err := acct.Seen(ctx, a.ID, accounts.SeenDevice, "same-browser", t0); err != nil {
			t.Fatal(err)
		}
	}
	for h := 1; h <= 3; h++ {
		deal := "deal" + strconv.Itoa(h)
		off := time.Duration(h) * time.Minute
		for _, p := range []accounts.Play{
			{Account: ana.ID, Deal: deal, Room: "AAAA", Hole: h, Counts: true, Begun: t0.Add(off), Finished: t0.Add(off + 30*time.Second)},
			{Account: bo.ID, Deal: deal, Room: "BBBB", Hole: h, Counts: true, Begun: t0.Add(time.Hour + off), Finished: t0.Add(time.Hour + off + 20*time.Second)},
		} {
			if err := acct.AddPlay(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	fp := fairplay.NewMemoryStore()
	player := "account:" + strconv.FormatInt(int64(bo.ID), 10)
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: player, Name: "Bo", FlaggedAt: t0.Add(2 * time.Hour), Held: true}); err != nil {
		t.Fatal(err)
	}
	st := memstore.New(memstore.Options{})
	defer st.Close()
	srv, err := server.New(server.Options{Store: st, Accounts: acct, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Fairplay:       &server.Fairplay{Store: fp, ModeratorToken: "mod"},
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer func() { srv.Close(); ts.Close() }()
	out, err := runFairplayArgs(t, nil, "review", "--url", ts.URL, "--moderator-token", "mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"name kept from before the name rules: look-alike of Bob",
		"linked account: Ana (same device, last seen together 2026-12-05T09:00:00Z)",
		"scouted holes: 3 (3 flag an account)",
		"room BBBB hole 3 begun 2026-12-05T10:03:00Z: Ana had finished it in room AAAA hole 3 at 2026-12-05T09:03:30Z",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("review output lacks %q:\n%s", want, out)
		}
	}
}
