package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/client"
	"golfsolitaire/fairplay"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// playRated plays a one-hole rated match between two signed-up browsers
// to its end and returns the room's code.
func playRated(t *testing.T, ctx context.Context, e *env, a, b *browser) string {
	t.Helper()
	return playRoom(t, ctx, e, a, b, ratedMatch())
}

// playRatedAt is playRated on the server at base; started, when set, runs
// once the round has started, before any move.
func playRatedAt(t *testing.T, ctx context.Context, base string, a, b *browser, started func()) string {
	t.Helper()
	return playRoomAt(t, ctx, base, a, b, ratedMatch(), started)
}

// playRoom plays a room of the settings between two browsers to its end
// (casual rooms seat them as "A" and "B") and returns the room's code.
func playRoom(t *testing.T, ctx context.Context, e *env, a, b *browser, set map[string]any) string {
	t.Helper()
	return playRoomAt(t, ctx, e.ts, a, b, set, nil)
}

// playRoomAt is playRoom on the server at base; started, when set, runs
// once the round has started, before any move.
func playRoomAt(t *testing.T, ctx context.Context, base string, a, b *browser, set map[string]any, started func()) string {
	t.Helper()
	var g1, g2 protocol.SeatGrant
	create, join := map[string]any{"settings": set}, map[string]any{}
	if set["rated"] != true {
		create["name"], join["name"] = "A", "B"
	}
	a.wantStatus(a.do("POST", "/api/rooms", create, &g1), http.StatusCreated)
	b.wantStatus(b.do("POST", "/api/rooms/"+g1.Code+"/join", join, &g2), http.StatusOK)
	c1 := dial(t, ctx, base, g1.Code, g1.Token)
	c2 := dial(t, ctx, base, g2.Code, g2.Token)
	for _, c := range []*client.Conn{c1, c2} {
		if err := c.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := c1.Start(ctx); err != nil && !client.IsCode(err, protocol.ErrCodeNotWaiting) {
		t.Fatal(err)
	}
	if _, err := c1.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Playing }); err != nil {
		t.Fatal(err)
	}
	if started != nil {
		started()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for h := 1; ; h++ {
			playStockFirst(t, ctx, c2, h)
			if v, _ := c2.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished || v.Board != nil && v.Board.Hole > h }); v == nil || v.Status == match.Finished {
				return
			}
		}
	}()
	for h := 1; ; h++ {
		playHole(t, ctx, c1, h)
		if v, _ := c1.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished || v.Board != nil && v.Board.Hole > h }); v == nil || v.Status == match.Finished {
			break
		}
	}
	<-done
	return g1.Code
}

// ratedGames is the number of rated golf rounds the API shows for name.
func ratedGames(t *testing.T, b *browser, name string) int {
	t.Helper()
	var p protocol.Player
	b.wantStatus(b.do("GET", "/api/players/"+name, nil, &p), http.StatusOK)
	return p.Rating["golf"].Games
}

// page fetches or posts to the moderator page without following
// redirects and returns the status, the Location and the body.
func page(t *testing.T, c *http.Client, method, u string, form url.Values) (int, string, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// TestFairplayHeldRatedRounds: evidence is kept under the account id of a
// logged-in player (not the name); a rated round with a flagged player in
// it moves no rating while the flag is held; a moderator signs in to the
// review page with the token, sees the flag with its evidence, and clears
// it, which records the held round in the ratings; confirming another
// player's flag voids the round held for them.
func TestFairplayHeldRatedRounds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fx := newHeldFixture(t, ctx)
	fp, e, ana, bo := fx.fp, fx.e, fx.ana, fx.bo
	anaID, boID := fx.id("Ana"), fx.id("Bo")
	t0 := fx.flagged

	code := playRated(t, ctx, e, ana, bo)
	waitFor(t, time.Minute, "the rated round held for Ana", func() bool {
		rs, _ := fp.Results(ctx, anaID)
		return len(rs) == 1 && rs[0].Key == "rated:"+code+"-1"
	})
	if a, b := ratedGames(t, ana, "Ana"), ratedGames(t, ana, "Bo"); a != 0 || b != 0 {
		t.Fatalf("a held round moved ratings: Ana %d games, Bo %d", a, b)
	}
	// The holes are analysed under the account ids, not the seat names.
	waitFor(t, 2*time.Minute, "both holes analysed", func() bool {
		a, _, err1 := fp.Player(ctx, anaID)
		b, _, err2 := fp.Player(ctx, boID)
		return err1 == nil && err2 == nil && a.Holes == 1 && b.Holes == 1
	})
	if _, _, err := fp.Player(ctx, "seat:"+code+":Ana"); err == nil {
		t.Fatal("evidence kept under the seat name too")
	}

	// The page: no flag without the token; a wrong token is refused.
	jar, _ := cookiejar.New(nil)
	mod := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	st, _, body := page(t, mod, "GET", e.ts+"/moderator", nil)
	if st != http.StatusOK || !strings.Contains(body, `data-testid="mod-login"`) || strings.Contains(body, anaID) {
		t.Fatalf("signed out: %d %s", st, body)
	}
	if st, _, _ := page(t, mod, "POST", e.ts+"/moderator/flags/"+anaID+"/clear", url.Values{}); st != http.StatusUnauthorized {
		t.Fatalf("review without signing in: %d, want 401", st)
	}
	if st, _, body := page(t, mod, "POST", e.ts+"/moderator/login", url.Values{"token": {"wrong"}}); st != http.StatusUnauthorized || !strings.Contains(body, "mod-error") {
		t.Fatalf("wrong token: %d %s", st, body)
	}
	if rs, _ := fp.Results(ctx, anaID); len(rs) != 1 {
		t.Fatalf("refused requests changed the held results: %+v", rs)
	}
	if st, loc, _ := page(t, mod, "POST", e.ts+"/moderator/login", url.Values{"token": {"mod-secret"}}); st != http.StatusSeeOther || loc != "/moderator" {
		t.Fatalf("sign in: %d %q", st, loc)
	}
	st, _, body = page(t, mod, "GET", e.ts+"/moderator", nil)
	if st != http.StatusOK || !strings.Contains(body, `data-player="`+anaID+`"`) || !strings.Contains(body, `data-status="held"`) || !strings.Contains(body, "mod-clear") {
		t.Fatalf("signed in: %d %s", st, body)
	}
	if st, _, _ := page(t, mod, "POST", e.ts+"/moderator/flags/"+anaID+"/maybe", url.Values{}); st != http.StatusNotFound {
		t.Fatalf("unknown action: %d, want 404", st)
	}
	if st, loc, _ := page(t, mod, "POST", e.ts+"/moderator/flags/"+anaID+"/clear", url.Values{}); st != http.StatusSeeOther || loc != "/moderator?done=clear" {
		t.Fatalf("clear: %d %q", st, loc)
	}
	if a, b := ratedGames(t, ana, "Ana"), ratedGames(t, ana, "Bo"); a != 1 || b != 1 {
		t.Fatalf("cleared round not recorded: Ana %d games, Bo %d", a, b)
	}
	if rs, _ := fp.Results(ctx, anaID); len(rs) != 0 {
		t.Fatalf("released result still held: %+v", rs)
	}
	if st, held, _ := fp.Held(ctx, anaID); held || st != fairplay.StatusCleared {
		t.Fatalf("Ana after clearing: %q held %v", st, held)
	}

	// Bo flagged, a second round held, confirmed through the API: voided.
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: boID, Name: "Bo", FlaggedAt: t0, Held: true, Score: 9}); err != nil {
		t.Fatal(err)
	}
	code2 := playRated(t, ctx, e, ana, bo)
	waitFor(t, time.Minute, "the second round held for Bo", func() bool {
		rs, _ := fp.Results(ctx, boID)
		return len(rs) == 1 && rs[0].Key == "rated:"+code2+"-1"
	})
	api := newBrowser(t, e.ts)
	var apiErr protocol.APIError
	api.wantStatus(api.do("POST", "/api/fairplay/flags/"+boID+"/confirm", nil, &apiErr), http.StatusUnauthorized)
	api.wantStatus(api.do("POST", "/api/fairplay/flags/nobody/confirm", nil, &apiErr, "Authorization", "Bearer mod-secret"), http.StatusNotFound)
	var out struct {
		Flag             fairplay.Flag `json:"flag"`
		Released, Voided int
	}
	api.wantStatus(api.do("POST", "/api/fairplay/flags/"+boID+"/confirm", nil, &out, "Authorization", "Bearer mod-secret"), http.StatusOK)
	if out.Voided != 1 || out.Released != 0 || out.Flag.Status != fairplay.StatusConfirmed || !out.Flag.Held {
		t.Fatalf("confirm: %+v", out)
	}
	if a, b := ratedGames(t, ana, "Ana"), ratedGames(t, ana, "Bo"); a != 1 || b != 1 {
		t.Fatalf("a voided round moved ratings: Ana %d games, Bo %d", a, b)
	}
	if rs, _ := fp.Results(ctx, boID); len(rs) != 0 {
		t.Fatalf("voided result still held: %+v", rs)
	}
}

// TestRatedTournamentHeld: a rated tournament with an entrant whose
// results are held for review moves nobody's rating and is not archived
// when it closes; it waits, held, until a moderator clears the player.
func TestRatedTournamentHeld(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fx := newHeldFixture(t, ctx)
	acct, fp, e, ana, bo := fx.acct, fx.fp, fx.e, fx.ana, fx.bo
	anaID := fx.id("Ana")
	var host, gb protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"name": "x", "settings": map[string]any{"name": "Held Open", "holes": 9, "accounts": true, "rated": true}}, &host), http.StatusCreated)
	bo.wantStatus(bo.do("POST", "/api/tournaments/"+host.ID+"/join", map[string]any{"name": "Bo"}, &gb), http.StatusOK)
	if err := e.api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	// Quick holes (what is played does not matter here): Ana stands at
	// once, Bo turns his stock first.
	for h := 1; h <= 9; h++ {
		playEntrantHoleStyle(t, ctx, e.ts, e.api, host.ID, host.Token, h, playStand)
		playEntrantHoleStyle(t, ctx, e.ts, e.api, host.ID, gb.Token, h, playStock)
	}
	// Closed by the last hole of the last entrant, or by the host.
	if err := e.api.HostTournament(ctx, host.ID, "close", host.HostToken); err != nil && !strings.Contains(err.Error(), "no_change") {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "the rated tournament held for Ana", func() bool {
		rs, _ := fp.Results(ctx, anaID)
		return len(rs) == 1 && rs[0].Key == "rated:t-"+host.ID
	})
	if _, err := acct.Game(ctx, "t-"+host.ID); err == nil {
		t.Fatal("a held tournament was archived")
	}
	if a, b := ratedGames(t, ana, "Ana"), ratedGames(t, ana, "Bo"); a != 0 || b != 0 {
		t.Fatalf("a held tournament moved ratings: Ana %d games, Bo %d", a, b)
	}
	// Cleared: the tournament is recorded as it would have been.
	req, _ := http.NewRequestWithContext(ctx, "POST", e.ts+"/api/fairplay/flags/"+anaID+"/clear", nil)
	req.Header.Set("Authorization", "Bearer mod-secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("clear: %d", resp.StatusCode)
	}
	waitFor(t, 20*time.Second, "the tournament archived once cleared", func() bool {
		_, err := acct.Game(context.Background(), "t-"+host.ID)
		return err == nil
	})
	if a, b := ratedGames(t, ana, "Ana"), ratedGames(t, ana, "Bo"); a != 1 || b != 1 {
		t.Fatalf("after the clear: Ana %d rated games, Bo %d, want 1 each", a, b)
	}
}

// heldFixture is a server with accounts and fair play (moderator token
// "mod-secret"), Ana and Bo signed up, and Ana's results held for review.
type heldFixture struct {
	acct    *inmem.Store
	fp      *fairplay.MemoryStore
	e       *env
	ana, bo *browser
	flagged time.Time
	id      func(name string) string
}

func newHeldFixture(t *testing.T, ctx context.Context) heldFixture {
	t.Helper()
	fx := heldFixture{acct: inmem.New(), fp: fairplay.NewMemoryStore(), flagged: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	fx.e = newEnv(t, withAccounts(fx.acct), func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fx.fp, ModeratorToken: "mod-secret",
			// The holds come from flags the tests set: the analysis
			// only has to run and count each hole (a rated tournament
			// analyses eighteen). MaxSolves truncates it early: less
			// evidence, never a flag of its own.
			Config: &fairplay.Config{Samples: 4, Nodes: 1000, MaxSolves: 100}}
	})
	fx.ana, fx.bo = signedUpPair(t, fx.e.ts)
	fx.id = func(name string) string {
		key, _ := accounts.Key(name)
		a, err := fx.acct.ByKey(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return "account:" + strconv.FormatInt(int64(a.ID), 10)
	}
	if err := fx.fp.SetFlag(ctx, fairplay.Flag{Player: fx.id("Ana"), Name: "Ana", FlaggedAt: fx.flagged, Held: true, Score: 9, Threshold: 6.9}); err != nil {
		t.Fatal(err)
	}
	return fx
}
