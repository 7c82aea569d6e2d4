package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/ratings"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
	"golfsolitaire/tourney"
)

// TestRatedMatch plays a rated match between two accounts through real
// sockets: both ratings move as Glicko-2 says for the final result, the
// round is archived with its records and seed, and the refusals hold: a
// guest cannot sit down, the same account cannot take a second seat (the
// way one person read every deal before playing it), and no bot can be
// added.
func TestRatedMatch(t *testing.T) {
	t.Parallel()
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		testRatedMatch(t, inmem.New())
	})
	// With PostgreSQL, a new server on a new connection to the same
	// database (a restart) serves the same ratings and archive.
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		url := pgtest.Database(t, "rated")
		open := func() accounts.Store {
			pg, err := postgres.Open(context.Background(), url, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pg.Close)
			return pg
		}
		before := testRatedMatch(t, open())
		e := newEnv(t, withAccounts(open()))
		b := newBrowser(t, e.ts)
		for name, want := range before {
			var p protocol.Player
			b.wantStatus(b.do("GET", "/api/players/"+name, nil, &p), http.StatusOK)
			if got := p.Rating["golf"]; got != want {
				t.Errorf("after the restart %s's rating = %+v, want %+v", name, got, want)
			}
		}
	})
}

// testRatedMatch plays the match and returns the players' ratings as the
// API shows them.
func testRatedMatch(t *testing.T, st accounts.Store) map[string]protocol.PlayerRating {
	out := map[string]protocol.PlayerRating{}
	ctx := testCtx(t)
	e := newEnv(t, withAccounts(st))
	ana, bo := signedUpPair(t, e.ts)

	set := ratedMatch()
	var apiErr protocol.APIError
	guest := newBrowser(t, e.ts)
	guest.wantStatus(guest.do("POST", "/api/rooms", map[string]any{"settings": set, "name": "Guest"}, &apiErr), http.StatusUnauthorized)
	if apiErr.Code != protocol.ErrCodeNotLoggedIn {
		t.Errorf("guest creating a rated room: %+v", apiErr)
	}

	var g1, g2 protocol.SeatGrant
	ana.wantStatus(ana.do("POST", "/api/rooms", map[string]any{"settings": set, "name": "Not my name"}, &g1), http.StatusCreated)
	guest.wantStatus(guest.do("POST", "/api/rooms/"+g1.Code+"/join", map[string]any{"name": "Guest"}, &apiErr), http.StatusUnauthorized)

	// Ana again, from a second browser: refused, the room unchanged.
	ana2 := newBrowser(t, e.ts)
	ana2.wantStatus(ana2.do("POST", "/api/account/login", map[string]any{"name": "ana", "password": "correct horse"}, nil), http.StatusOK)
	e.unchanged(t, g1.Code, func() {
		ana2.wantStatus(ana2.do("POST", "/api/rooms/"+g1.Code+"/join", map[string]any{"name": "Ana's twin"}, &apiErr), http.StatusConflict)
	})
	if apiErr.Code != protocol.ErrCodeAlreadySeated {
		t.Errorf("second seat for Ana: %+v", apiErr)
	}
	bo.wantStatus(bo.do("POST", "/api/rooms/"+g1.Code+"/join", map[string]any{"name": "x"}, &g2), http.StatusOK)
	e.unchanged(t, g1.Code, func() {
		ana.wantStatus(ana.do("POST", "/api/rooms/"+g1.Code+"/bots", map[string]any{"token": g1.Token, "level": "greedy"}, &apiErr), http.StatusBadRequest)
	})

	room := e.room(t, g1.Code)
	if room.Seats[0].Name != "Ana" || room.Seats[1].Name != "Bo" {
		t.Fatalf("seats %q, %q; want the account names", room.Seats[0].Name, room.Seats[1].Name)
	}
	c1 := dial(t, ctx, e.ts, g1.Code, g1.Token)
	c2 := dial(t, ctx, e.ts, g2.Code, g2.Token)
	for _, c := range []*client.Conn{c1, c2} {
		if err := c.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := c1.Start(ctx); err != nil && !client.IsCode(err, protocol.ErrCodeNotWaiting) {
		t.Fatal(err)
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
	end, err := c1.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished })
	if err != nil {
		t.Fatal(err)
	}
	places := []int{1, 1}
	if w := end.Standings.Match.Winner; w >= 0 {
		places[1-w] = 2
	}
	want, err := ratings.Config{}.Round([]ratings.Rating{ratings.New(), ratings.New()}, places)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("result %s: places %v, ratings %v", end.Standings.Match.Result, places, want)

	for i, name := range []string{"Ana", "Bo"} {
		// A worker of the job queue records the round once its last
		// event is stored: wait for it.
		p := waitRated(t, guest, name, 1)
		r, ok := p.Rating["golf"]
		if !ok || r.Games != 1 || math.Abs(r.Rating-want[i].Rating) > 1e-9 || math.Abs(r.RD-want[i].RD) > 1e-9 || r.Display != want[i].String() || !r.Provisional {
			t.Errorf("%s's golf rating = %+v, want %v after one game", name, r, want[i])
		}
		out[name] = r
		// The profile's stats and history, from the end screen's standings.
		var row match.Row
		for _, rw := range end.Standings.Rows {
			if rw.Seat == i {
				row = rw
			}
		}
		holes, clears := 0, 0
		for _, sc := range row.Scores {
			if sc != nil {
				holes++
				if *sc <= 0 {
					clears++
				}
			}
		}
		won := 0
		if places[i] == 1 && places[1-i] == 2 {
			won = 1
		}
		wantStats := protocol.PlayerStats{Games: 1, Won: won, Holes: holes, Clears: clears, AverageToPar: float64(row.ToPar), BestToPar: row.ToPar, BestGame: g1.Code + "-1"}
		if got := p.Stats["golf"]; got != wantStats || holes == 0 {
			t.Errorf("%s's golf stats = %+v, want %+v", name, got, wantStats)
		}
		if h := p.History["golf"]; len(h) != 1 || h[0].GameID != g1.Code+"-1" || math.Abs(h[0].Rating-want[i].Rating) > 1e-9 || h[0].At.IsZero() {
			t.Errorf("%s's golf history = %+v, want one point at %v", name, h, want[i])
		}
	}
	var g accounts.Game
	guest.wantStatus(guest.do("GET", "/api/games/"+g1.Code+"-1", nil, &g), http.StatusOK)
	guest.wantStatus(guest.do("GET", "/api/games/"+g1.Code+"-2", nil, &apiErr), http.StatusNotFound)
	if apiErr.Code != protocol.ErrCodeGameNotFound {
		t.Errorf("unknown game: %+v", apiErr)
	}
	if g.Seed == "" || g.Seed != end.Seed || g.Commitment == "" || len(g.Holes) < 10 || g.Family != "golf" || g.Format != "match" ||
		len(g.Players) != 2 || g.Players[0].Place != places[0] || g.Players[1].After != want[1] {
		t.Errorf("archive = %+v", g)
	}
	return out
}

// playStockFirst plays badly: it turns the whole stock before playing any
// card (so the players' scores differ and the match is decided).
func playStockFirst(t *testing.T, ctx context.Context, c *client.Conn, h int) {
	t.Helper()
	for {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Board.Hole >= h })
		if err != nil {
			t.Errorf("waiting for hole %d: %v", h, err)
			return
		}
		b := v.Board
		if b.Hole > h || b.Done || v.Status != match.Playing {
			return
		}
		move := "s"
		switch {
		case b.CanTurn:
		case len(b.Playable) > 0:
			move = itoa(b.Playable[0])
		case b.CanRedeal:
			move = "r"
		}
		if _, err := c.Move(ctx, h, move); err != nil {
			if client.IsCode(err, protocol.ErrCodeHoleDone) || client.IsCode(err, protocol.ErrCodeWrongHole) {
				return
			}
			t.Errorf("move %s: %v", move, err)
			return
		}
	}
}

// TestRatedQuickMatch: two accounts far apart in rating (1662 and 1338
// after a rated game) are still paired once the window has widened, into
// a rated room seated by their account names; a guest is refused.
func TestRatedQuickMatch(t *testing.T) {
	t.Parallel()
	st := inmem.New()
	e := newEnv(t, withAccounts(st), func(o *server.Options) { o.QuickMatchWait = 2 * time.Second })
	ana, bo := signedUpPair(t, e.ts)
	ctx := context.Background()
	a, _ := st.ByKey(ctx, "ana")
	b, _ := st.ByKey(ctx, "bo")
	g := accounts.Game{ID: "PRIOR-1", Family: "golf", Format: "match",
		Players: []accounts.GamePlayer{{Account: a.ID, Name: "Ana", Place: 1}, {Account: b.ID, Name: "Bo", Place: 2}}}
	if _, err := st.RecordGame(ctx, g, func(r []ratings.Rating) ([]ratings.Rating, error) { return ratings.Config{}.Round(r, []int{1, 2}) }); err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"name": "ignored", "settings": map[string]any{"format": "match", "holes": 1, "seats": 2, "rated": true}}

	var apiErr protocol.APIError
	guest := newBrowser(t, e.ts)
	guest.wantStatus(guest.do("POST", "/api/quickmatch", body, &apiErr), http.StatusUnauthorized)

	type answer struct {
		grant protocol.SeatGrant
		err   error
	}
	poll := func(br *browser) answer {
		// Long polls until paired (204: call again), as the lobby does.
		for range 10 {
			buf, _ := json.Marshal(body)
			resp, err := br.c.Post(e.ts+"/api/quickmatch", "application/json", bytes.NewReader(buf))
			if err != nil {
				return answer{err: err}
			}
			var g protocol.SeatGrant
			err = json.NewDecoder(resp.Body).Decode(&g)
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusOK:
				return answer{grant: g, err: err}
			case http.StatusNoContent:
				continue
			default:
				return answer{err: fmt.Errorf("status %d", resp.StatusCode)}
			}
		}
		return answer{err: errors.New("never paired")}
	}
	ch := make(chan answer, 2)
	go func() { ch <- poll(ana) }()
	go func() { ch <- poll(bo) }()
	x, y := <-ch, <-ch
	if x.err != nil || y.err != nil {
		t.Fatalf("quick match: %v, %v", x.err, y.err)
	}
	if x.grant.Code == "" || x.grant.Code != y.grant.Code || x.grant.Seat == y.grant.Seat {
		t.Fatalf("grants %+v and %+v, want one room, two seats", x.grant, y.grant)
	}
	room := e.room(t, x.grant.Code)
	names := []string{room.Seats[0].Name, room.Seats[1].Name}
	if !room.Settings.Rated || !slices.Contains(names, "Ana") || !slices.Contains(names, "Bo") {
		t.Errorf("room rated %v, seats %v; want a rated room of Ana and Bo", room.Settings.Rated, names)
	}
}

// TestAccountsOnlyTournament: entering needs an account, entrants are
// named by their accounts, and an account enters once (the same person
// entering twice could read every deal before playing it).
func TestAccountsOnlyTournament(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	ana, bo := signedUpPair(t, e.ts)
	guest := newBrowser(t, e.ts)
	set := map[string]any{"name": "Members Cup", "holes": 9, "accounts": true}
	var apiErr protocol.APIError
	guest.wantStatus(guest.do("POST", "/api/tournaments", map[string]any{"settings": set, "name": "Guest"}, &apiErr), http.StatusUnauthorized)
	var host protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"settings": set, "name": "Someone else"}, &host), http.StatusCreated)
	path := "/api/tournaments/" + host.ID
	guest.wantStatus(guest.do("POST", path+"/join", map[string]any{"name": "Guest"}, &apiErr), http.StatusUnauthorized)
	if apiErr.Code != protocol.ErrCodeNotLoggedIn {
		t.Errorf("guest entering: %+v", apiErr)
	}
	ana2 := newBrowser(t, e.ts)
	ana2.wantStatus(ana2.do("POST", "/api/account/login", map[string]any{"name": "ANA", "password": "correct horse"}, nil), http.StatusOK)
	ana2.wantStatus(ana2.do("POST", path+"/join", map[string]any{"name": "Ana's twin"}, &apiErr), http.StatusConflict)
	var g protocol.TournamentGrant
	bo.wantStatus(bo.do("POST", path+"/join", map[string]any{"name": "x"}, &g), http.StatusOK)
	var v struct {
		Entrants int `json:"entrants"`
	}
	guest.wantStatus(guest.do("GET", path, nil, &v), http.StatusOK)
	if v.Entrants != 2 {
		t.Errorf("%d entrants, want Ana and Bo", v.Entrants)
	}
	for _, tc := range []struct{ token, want string }{{host.Token, "Ana"}, {g.Token, "Bo"}} {
		var view struct {
			You *struct {
				Name string `json:"name"`
			} `json:"you"`
		}
		guest.wantStatus(guest.do("GET", path, nil, &view, "X-Token", tc.token), http.StatusOK)
		if view.You == nil || view.You.Name != tc.want {
			t.Errorf("entrant %+v, want %s (the account's name, not the typed one)", view.You, tc.want)
		}
	}
}

// TestTournamentMinRatedGames: an accounts-only tournament can ask for a
// number of rated rounds of its game before entry.
func TestTournamentMinRatedGames(t *testing.T) {
	t.Parallel()
	st := inmem.New()
	e := newEnv(t, withAccounts(st))
	ana, bo := signedUpPair(t, e.ts)
	var apiErr protocol.APIError
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"settings": map[string]any{"name": "Open", "holes": 9, "minRatedGames": 1}}, &apiErr), http.StatusBadRequest)
	var host protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"settings": map[string]any{"name": "Regulars", "holes": 9, "accounts": true, "minRatedGames": 1}}, &host), http.StatusCreated)
	path := "/api/tournaments/" + host.ID + "/join"
	bo.wantStatus(bo.do("POST", path, map[string]any{"name": "Bo"}, &apiErr), http.StatusForbidden)
	if apiErr.Code != protocol.ErrCodeNotEligible {
		t.Errorf("Bo with no rated game: %+v", apiErr)
	}
	ctx := context.Background()
	a, _ := st.ByKey(ctx, "ana")
	b, _ := st.ByKey(ctx, "bo")
	g := accounts.Game{ID: "PRIOR-1", Family: "golf", Format: "match",
		Players: []accounts.GamePlayer{{Account: a.ID, Name: "Ana", Place: 1}, {Account: b.ID, Name: "Bo", Place: 2}}}
	if _, err := st.RecordGame(ctx, g, func(r []ratings.Rating) ([]ratings.Rating, error) { return ratings.Config{}.Round(r, []int{1, 2}) }); err != nil {
		t.Fatal(err)
	}
	bo.wantStatus(bo.do("POST", path, map[string]any{"name": "Bo"}, nil), http.StatusOK)

	// The rating leaderboard of the game.
	var lb protocol.RatingLeaderboard
	bo.wantStatus(bo.do("GET", "/api/ratings/golf", nil, &lb), http.StatusOK)
	if lb.Game != "golf" || len(lb.Leaders) != 2 || lb.Leaders[0].Name != "Ana" || lb.Leaders[0].Display != "1662?" || lb.Leaders[1].Display != "1338?" {
		t.Errorf("leaderboard = %+v", lb)
	}
	bo.wantStatus(bo.do("GET", "/api/ratings/golf?limit=1", nil, &lb), http.StatusOK)
	if len(lb.Leaders) != 1 {
		t.Errorf("limit 1: %+v", lb)
	}
	bo.wantStatus(bo.do("GET", "/api/ratings/tripeaks", nil, &lb), http.StatusOK)
	if len(lb.Leaders) != 0 {
		t.Errorf("tripeaks: %+v", lb)
	}
	bo.wantStatus(bo.do("GET", "/api/ratings/chess", nil, nil), http.StatusBadRequest)
	bo.wantStatus(bo.do("GET", "/api/ratings/golf?limit=0", nil, nil), http.StatusBadRequest)
}

// TestRatedTournament: a rated tournament moves ratings when it closes:
// its entrants who finished every hole are rated by their final places
// among themselves (a stroke-play round, pairwise), the one who did not
// finish is not rated, and the tournament is archived as t-{id} with its
// seed. A rated tournament needs accounts and stroke play.
func TestRatedTournament(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := inmem.New()
	e := newEnv(t, withAccounts(st))
	b := signedUp(t, e.ts, "Ana", "Bo", "Cy")
	ana, bo, cy := b[0], b[1], b[2]
	var apiErr protocol.APIError
	for _, bad := range []map[string]any{
		{"name": "Open", "holes": 9, "rated": true},
		{"name": "Cup", "holes": 9, "rated": true, "accounts": true, "format": "knockout"},
	} {
		ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"settings": bad}, &apiErr), http.StatusBadRequest)
		if !strings.Contains(apiErr.Message, "rated tournament needs accounts") {
			t.Errorf("%v: %+v", bad, apiErr)
		}
	}
	var host protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"name": "x", "settings": map[string]any{"name": "Rated Open", "holes": 9, "accounts": true, "rated": true}}, &host), http.StatusCreated)
	path := "/api/tournaments/" + host.ID
	var gb, gc protocol.TournamentGrant
	bo.wantStatus(bo.do("POST", path+"/join", map[string]any{"name": "Bo"}, &gb), http.StatusOK)
	cy.wantStatus(cy.do("POST", path+"/join", map[string]any{"name": "Cy"}, &gc), http.StatusOK)
	if err := e.api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	// Quick holes: Ana stands at once, Bo turns his stock first (the
	// places and ratings follow whatever the scores are).
	for h := 1; h <= 9; h++ {
		playEntrantHoleStyle(t, ctx, e.ts, e.api, host.ID, host.Token, h, playStand)
		playEntrantHoleStyle(t, ctx, e.ts, e.api, host.ID, gb.Token, h, playStock)
	}
	playEntrantHole(t, ctx, e.ts, e.api, host.ID, gc.Token, 1)
	// Not closed yet (Cy has holes to play): nobody is rated.
	if rs, _ := st.Ratings(ctx, 1); len(rs) != 0 {
		t.Fatalf("ratings before the close: %+v", rs)
	}
	if err := e.api.HostTournament(ctx, host.ID, "close", host.HostToken); err != nil {
		t.Fatal(err)
	}
	var g accounts.Game
	waitFor(t, 20*time.Second, "the tournament's archive", func() bool {
		var err error
		g, err = st.Game(context.Background(), "t-"+host.ID)
		return err == nil
	})
	tr := loadTournament(t, e.st, host.ID)
	lb := tr.Leaderboard()
	rows := map[string]tourney.Row{}
	for _, r := range lb {
		rows[r.Name] = r
	}
	places := []int{1, 1}
	switch a, b := rows["Ana"], rows["Bo"]; {
	case a.Place < b.Place:
		places[1] = 2
	case b.Place < a.Place:
		places[0] = 2
	}
	want, err := ratings.Config{}.Round([]ratings.Rating{ratings.New(), ratings.New()}, places)
	if err != nil {
		t.Fatal(err)
	}
	if g.Format != "stroke" || g.Family != "golf" || g.Seed != tr.StrokeSeed().String() || g.Commitment != tr.Commitments()[0] || len(g.Players) != 2 {
		t.Fatalf("archive %+v", g)
	}
	for i, name := range []string{"Ana", "Bo"} {
		p := g.Players[i]
		if p.Name != name {
			// Players are in leaderboard order.
			p = g.Players[1-i]
		}
		var pl protocol.Player
		ana.wantStatus(ana.do("GET", "/api/players/"+name, nil, &pl), http.StatusOK)
		r := pl.Rating["golf"]
		if r.Games != 1 || math.Abs(r.Rating-want[i].Rating) > 1e-9 || p.Place != places[i] || p.Total != rows[name].Total || p.Holes != 9 {
			t.Errorf("%s: rating %+v place %d total %d, want %v place %d total %d", name, r, p.Place, p.Total, want[i], places[i], rows[name].Total)
		}
	}
	var pl protocol.Player
	ana.wantStatus(ana.do("GET", "/api/players/Cy", nil, &pl), http.StatusOK)
	if len(pl.Rating) != 0 {
		t.Errorf("Cy did not finish and was rated: %+v", pl.Rating)
	}
	// The archive page shows it.
	var arch accounts.Game
	ana.wantStatus(ana.do("GET", "/api/games/t-"+host.ID, nil, &arch), http.StatusOK)
}

// TestChallenge: from a profile, an account challenges another to a rated
// private room; the challenged player finds it in their inbox and joins;
// guests, unknown players and oneself are refused and create nothing.
func TestChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	b := signedUp(t, e.ts, "Ana", "Bo", "Cy")
	ana, bo, cy, guest := b[0], b[1], b[2], newBrowser(t, e.ts)
	var apiErr protocol.APIError
	for _, tc := range []struct {
		who    *browser
		path   string
		status int
		code   string
	}{
		{guest, "/api/players/Bo/challenge", http.StatusUnauthorized, protocol.ErrCodeNotLoggedIn},
		{ana, "/api/players/Nobody/challenge", http.StatusNotFound, protocol.ErrCodePlayerNotFound},
		{ana, "/api/players/ANA/challenge", http.StatusBadRequest, protocol.ErrCodeInvalid},
	} {
		apiErr = protocol.APIError{}
		tc.who.wantStatus(tc.who.do("POST", tc.path, nil, &apiErr), tc.status)
		if apiErr.Code != tc.code || apiErr.Message == "" {
			t.Errorf("%s: %+v, want %s", tc.path, apiErr, tc.code)
		}
	}
	var grant protocol.SeatGrant
	ana.wantStatus(ana.do("POST", "/api/players/bo/challenge", map[string]any{"settings": map[string]any{"holes": 18, "public": true}}, &grant), http.StatusCreated)
	room := e.room(t, grant.Code)
	if !room.Settings.Rated || room.Settings.Public || room.Settings.Seats != 2 || room.Settings.Holes != 18 || len(room.Seats) != 1 || room.Seats[0].Name != "Ana" {
		t.Errorf("challenge room: settings %+v seats %+v; want rated, private, 2 seats, 18 holes, Ana seated", room.Settings, room.Seats)
	}
	var inbox []protocol.Challenge
	bo.wantStatus(bo.do("GET", "/api/account/challenges", nil, &inbox), http.StatusOK)
	if len(inbox) != 1 || inbox[0].From != "Ana" || inbox[0].To != "Bo" || inbox[0].Code != grant.Code || inbox[0].Link == "" || inbox[0].Holes != 18 {
		t.Errorf("Bo's challenges = %+v", inbox)
	}
	cy.wantStatus(cy.do("GET", "/api/account/challenges", nil, &inbox), http.StatusOK)
	if len(inbox) != 0 {
		t.Errorf("Cy's challenges = %+v, want none", inbox)
	}
	guest.wantStatus(guest.do("GET", "/api/account/challenges", nil, nil), http.StatusUnauthorized)
	var seat protocol.SeatGrant
	bo.wantStatus(bo.do("POST", "/api/rooms/"+grant.Code+"/join", map[string]any{"name": "x"}, &seat), http.StatusOK)
	if room := e.room(t, grant.Code); len(room.Seats) != 2 || room.Seats[1].Name != "Bo" {
		t.Errorf("after Bo joined: %+v", room.Seats)
	}
	bo.wantStatus(bo.do("GET", "/api/account/challenges", nil, &inbox), http.StatusOK)
	if len(inbox) != 0 {
		t.Errorf("an accepted challenge is still offered: %+v", inbox)
	}
}

// TestDailyChallenge: the day's challenge is one tournament for accounts,
// 9 holes of stroke play until midnight UTC, whichever instance is asked
// first and however many ask at once; its seed is committed, not shown,
// and guests cannot enter.
func TestDailyChallenge(t *testing.T) {
	t.Parallel()
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	acct := inmem.New()
	a := newEnvStore(t, st, withAccounts(acct))
	b := newEnvStore(t, st, withAccounts(acct))
	ids := make(chan protocol.Daily, 6)
	for i := range 6 {
		base := []string{a.ts, b.ts}[i%2]
		go func() {
			var d protocol.Daily
			resp := newBrowser(t, base).do("GET", "/api/daily", nil, &d)
			if resp.StatusCode != http.StatusOK {
				d.ID = "status " + resp.Status
			}
			ids <- d
		}()
	}
	var first protocol.Daily
	for i := range 6 {
		d := <-ids
		if i == 0 {
			first = d
		}
		if d.ID != first.ID || d.ID == "" {
			t.Fatalf("daily challenges %q and %q, want one", first.ID, d.ID)
		}
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	if first.Date != today.Format("2006-01-02") || !first.Closes.Equal(today.Add(24*time.Hour)) || !strings.HasSuffix(first.Link, "/t/"+first.ID) {
		t.Errorf("daily %+v", first)
	}
	tr := loadTournament(t, st, first.ID)
	if !tr.Settings.Accounts || tr.Settings.Holes != 9 || tr.Settings.Format != tourney.Stroke || len(tr.Commitments()) != 1 {
		t.Errorf("daily settings %+v", tr.Settings)
	}
	var view struct {
		Seeds []string `json:"seeds"`
	}
	guest := newBrowser(t, a.ts)
	guest.wantStatus(guest.do("GET", "/api/tournaments/"+first.ID, nil, &view), http.StatusOK)
	if len(view.Seeds) != 0 {
		t.Errorf("the daily's seed is shown before it closes: %v", view.Seeds)
	}
	guest.wantStatus(guest.do("POST", "/api/tournaments/"+first.ID+"/join", map[string]any{"name": "Guest"}, nil), http.StatusUnauthorized)
	ana := newBrowser(t, b.ts)
	ana.signup("Ana", "correct horse")
	ana.wantStatus(ana.do("POST", "/api/tournaments/"+first.ID+"/join", map[string]any{"name": "x"}, nil), http.StatusOK)
}

// waitRated waits until a player's golf rating counts games rounds (the
// queue's worker records a round after its last event) and returns the
// player's profile.
func waitRated(t *testing.T, u *browser, name string, games int) protocol.Player {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var p protocol.Player
		u.wantStatus(u.do("GET", "/api/players/"+name, nil, &p), http.StatusOK)
		if p.Rating["golf"].Games >= games || time.Now().After(deadline) {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
}
