package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/client"
	"golfsolitaire/fairplay"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/ratings"
	"golfsolitaire/server"
)

// featuredAnswer is GET /api/live's featured game, with its rating.
type featuredAnswer struct {
	Featured *struct {
		Code       string   `json:"code"`
		Rated      bool     `json:"rated"`
		Rating     *float64 `json:"rating"`
		Spectators int      `json:"spectators"`
	} `json:"featured"`
}

// waitFeatured polls GET /api/live until the featured game is code.
func waitFeatured(t *testing.T, ctx context.Context, base, code string) featuredAnswer {
	t.Helper()
	for {
		var l featuredAnswer
		getJSONInto(t, ctx, base+"/api/live", &l)
		if l.Featured != nil && l.Featured.Code == code {
			return l
		}
		select {
		case <-ctx.Done():
			t.Fatalf("GET /api/live never featured %s; last %+v", code, l.Featured)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestLiveFeatured: with real sockets, the featured game is the most
// watched public game while none is rated, and a rated one (its players'
// mean rating in featured.rating) as soon as one is in play, however
// watched the others are.
func TestLiveFeatured(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, withAccounts(inmem.New()))
	public := map[string]any{"format": "match", "holes": 3, "seats": 2, "public": true, "spectators": true}
	one := e.create(t, ctx, public, "Cy", "Di")
	e.startRoom(t, ctx, one)
	two := e.create(t, ctx, public, "Ed", "Flo")
	e.startRoom(t, ctx, two)
	dial(t, ctx, e.ts, one[0].Code, "")
	dial(t, ctx, e.ts, two[0].Code, "")
	dial(t, ctx, e.ts, two[0].Code, "")
	l := waitFeatured(t, ctx, e.ts, two[0].Code)
	if f := l.Featured; f.Spectators != 2 || f.Rated || f.Rating != nil {
		t.Errorf("featured %+v, want the unrated game watched twice", *f)
	}

	ana, bo := newBrowser(t, e.ts), newBrowser(t, e.ts)
	ana.signup("Ana", "correct horse")
	bo.signup("Bo", "battery staple")
	rated := map[string]any{"format": "match", "holes": 1, "seats": 2, "public": true, "spectators": true, "rated": true}
	var g1, g2 protocol.SeatGrant
	ana.wantStatus(ana.do("POST", "/api/rooms", map[string]any{"settings": rated, "name": "Ana"}, &g1), http.StatusCreated)
	bo.wantStatus(bo.do("POST", "/api/rooms/"+g1.Code+"/join", map[string]any{"name": "Bo"}, &g2), http.StatusOK)
	c1, c2 := dial(t, ctx, e.ts, g1.Code, g1.Token), dial(t, ctx, e.ts, g2.Code, g2.Token)
	for _, c := range []*client.Conn{c1, c2} {
		if err := c.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := c1.Start(ctx); err != nil && !client.IsCode(err, protocol.ErrCodeNotWaiting) {
		t.Fatal(err)
	}
	l = waitFeatured(t, ctx, e.ts, g1.Code)
	if f := l.Featured; !f.Rated || f.Rating == nil || *f.Rating != 1500 || f.Spectators != 0 {
		t.Errorf("featured %+v, want the rated game at the new players' 1500", *f)
	}
}

// TestLivePreviewNotCounted: the home page's preview of a room (hello's
// preview) sees it as a spectator but is not counted among its watchers:
// three previews of one game do not make it the most watched, nor count
// in the site's spectators.
func TestLivePreviewNotCounted(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	public := map[string]any{"format": "match", "holes": 3, "seats": 2, "public": true, "spectators": true}
	one := e.create(t, ctx, public, "Cy", "Di")
	e.startRoom(t, ctx, one)
	two := e.create(t, ctx, public, "Ed", "Flo")
	e.startRoom(t, ctx, two)
	dial(t, ctx, e.ts, one[0].Code, "")
	for range 3 {
		ws := rawDial(t, ctx, e.ts, nil)
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","protocol":2,"room":"`+one[0].Code+`","preview":true}`)); err != nil {
			t.Fatal(err)
		}
		if m := rawRead(t, ctx, ws); m.Type != protocol.TypeWelcome || m.Seat == nil || *m.Seat != match.SpectatorSeat {
			t.Fatalf("a preview's hello: %+v, want a spectator's welcome", m)
		}
		go func() { // kept open, reading what any spectator is sent
			for {
				if _, _, err := ws.Read(ctx); err != nil {
					return
				}
			}
		}()
	}
	dial(t, ctx, e.ts, two[0].Code, "")
	dial(t, ctx, e.ts, two[0].Code, "")
	l := waitFeatured(t, ctx, e.ts, two[0].Code)
	if f := l.Featured; f.Spectators != 2 {
		t.Errorf("featured %+v, want the game watched twice", *f)
	}
	var live struct {
		Spectators int `json:"spectators"`
	}
	getJSONInto(t, ctx, e.ts+"/api/live", &live)
	if live.Spectators != 3 {
		t.Errorf("spectators = %d, want 3 (previews left out)", live.Spectators)
	}
}

// TestTVSettled: the TV watches the featured game as any spectator: a
// stock card one player turned is not on their board until the slowest
// player has turned as many (docs/fairplay.md).
func TestTVSettled(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	g := e.create(t, ctx, map[string]any{"format": "match", "holes": 1, "seats": 2, "public": true, "spectators": true}, "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	l := waitFeatured(t, ctx, e.ts, g[0].Code)
	tv := dial(t, ctx, e.ts, l.Featured.Code, "")
	board0 := func(v *match.View) *match.Board {
		i := slices.IndexFunc(v.Boards, func(b *match.Board) bool { return b.Seat == 0 })
		if i < 0 {
			return nil
		}
		return v.Boards[i]
	}
	v, err := tv.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Playing && board0(v) != nil })
	if err != nil {
		t.Fatal(err)
	}
	stock := board0(v).StockLeft

	// Ana turns a stock card; Bo has turned none.
	if _, err := cs[0].Move(ctx, 1, "s"); err != nil {
		t.Fatal(err)
	}
	mine, err := cs[0].WaitView(ctx, func(v *match.View) bool { return v.Board.StockLeft == stock-1 })
	if err != nil {
		t.Fatal(err)
	}
	card := mine.Board.Waste[len(mine.Board.Waste)-1]
	at := cs[0].Version()
	v, err = tv.WaitView(ctx, func(v *match.View) bool { return v.V >= at })
	if err != nil {
		t.Fatal(err)
	}
	if b := board0(v); b.StockLeft != stock || slices.Contains(b.Waste, card) {
		t.Errorf("the TV shows Ana's board with %d stock cards and waste %v: her turned %s before Bo turned one", b.StockLeft, b.Waste, card)
	}
	// Bo turns one: Ana's card is settled.
	if _, err := cs[1].Move(ctx, 1, "s"); err != nil {
		t.Fatal(err)
	}
	if _, err := tv.WaitView(ctx, func(v *match.View) bool {
		b := board0(v)
		return b != nil && b.StockLeft == stock-1 && len(b.Waste) > 0 && b.Waste[len(b.Waste)-1] == card
	}); err != nil {
		t.Fatalf("the TV never showed Ana's %s once Bo turned: %v", card, err)
	}
}

// TestLivePlayer: GET /api/live/players/{name} is the public game a
// player is in (any case of the name), 404 player_not_found when they are
// in none, or only in a private one; within 2 s of the game's start.
func TestLivePlayer(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	notFound := func(name string) {
		t.Helper()
		res, err := http.Get(e.ts + "/api/live/players/" + name)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %s, want 404", name, res.Status)
		}
	}
	notFound("Ana")
	private := e.create(t, ctx, map[string]any{"format": "match", "holes": 3, "seats": 2, "public": false, "spectators": true}, "Ana", "Bo")
	e.startRoom(t, ctx, private)
	notFound("Ana")
	public := e.create(t, ctx, map[string]any{"format": "match", "holes": 3, "seats": 2, "public": true, "spectators": true}, "Cy", "Ana")
	e.startRoom(t, ctx, public)
	var p struct {
		Name, Code, Link, Status string
	}
	// The seats are read again at most every 2 s: the first answer after
	// the start may be the one before it.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		res, err := http.Get(e.ts + "/api/live/players/ana")
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(res.Body).Decode(&p)
		res.Body.Close()
		if res.StatusCode == http.StatusOK && err == nil {
			break
		}
		if res.StatusCode != http.StatusNotFound || time.Now().After(deadline) {
			t.Fatalf("Ana's game: %s (%v)", res.Status, err)
		}
	}
	if p.Name != "Ana" || p.Code != public[0].Code || p.Link != "/watch/"+p.Code || p.Status != "playing" {
		t.Errorf("Ana's game %+v, want %s", p, public[0].Code)
	}
	notFound("Bo") // seated in the private room only, read after it started
}

// TestLiveCountsTwoInstances: GET /api/live counts the players, games and
// spectators of every instance, whichever answers: a match on the first
// instance with one player on each, watched from the second.
func TestLiveCountsTwoInstances(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		i1 := startInstance(t, cl.store(t), cl.own)
		i2 := startInstance(t, cl.store(t), cl.own)
		ga, gb := matchRoom(t, ctx, i1, i2, map[string]any{"format": "match", "holes": 3, "seats": 2, "public": true, "spectators": true})
		a := newSeatPlayer("Ana", dial(t, ctx, i1.url, ga.Code, ga.Token))
		b := newSeatPlayer("Bo", dial(t, ctx, i2.url, gb.Code, gb.Token))
		dial(t, ctx, i2.url, ga.Code, "")
		readyAll(t, ctx, a, b)
		for _, in := range []*instance{i1, i2} {
			l := waitLive(t, ctx, in.url, func(l liveAnswer) bool {
				return l.Players == 2 && l.Spectators == 1 && l.Featured != nil && l.Featured.Spectators == 1
			})
			if l.Games != 1 || l.Featured.Code != ga.Code {
				t.Errorf("%s: %d games, featured %+v; want 1 game, %s", in.url, l.Games, l.Featured, ga.Code)
			}
		}
	})
}

// TestLiveLeadersAndTopRated: GET /api/live lists today's daily
// challenge's leaders (null before anyone opened it; its entrants who
// have finished a hole, held ones left out) and the top rated players of
// the default game, held ones left out.
func TestLiveLeadersAndTopRated(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st, fp := inmem.New(), fairplay.NewMemoryStore()
	e := newEnv(t, withAccounts(st), func(o *server.Options) { o.Fairplay = &server.Fairplay{Store: fp} })
	type answer struct {
		Leaders *struct {
			ID, Link string
			Rows     []struct{ Name string }
		} `json:"leaders"`
		TopRated struct {
			Game    string
			Leaders []struct{ Name string }
		} `json:"topRated"`
	}
	var l answer
	getJSONInto(t, ctx, e.ts+"/api/live", &l)
	if l.Leaders != nil || l.TopRated.Game != "golf" || len(l.TopRated.Leaders) != 0 {
		t.Errorf("a fresh server: %+v", l)
	}

	users := map[string]*browser{}
	ids := map[string]accounts.ID{}
	var players []accounts.GamePlayer
	for i, name := range []string{"Ana", "Bo", "Cy"} {
		users[name] = newBrowser(t, e.ts)
		users[name].signup(name, "correct horse")
		a, err := st.ByKey(ctx, strings.ToLower(name))
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = a.ID
		players = append(players, accounts.GamePlayer{Account: a.ID, Name: name, Place: i + 1})
	}
	// Ana 1700, Cy 1650, Bo 1600; Ana is held for review.
	after := []float64{1700, 1600, 1650}
	g := accounts.Game{ID: "G1", Family: "golf", Format: "stroke", Settings: json.RawMessage(`{}`), Holes: json.RawMessage(`[]`),
		Standings: json.RawMessage(`{}`), Players: players, Finished: time.Now()}
	if _, err := st.RecordGame(ctx, g, func(before []ratings.Rating) ([]ratings.Rating, error) {
		out := slices.Clone(before)
		for i := range out {
			out[i].Rating = after[i]
		}
		return out, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: "account:" + strconv.FormatInt(int64(ids["Ana"]), 10), Name: "Ana", FlaggedAt: time.Now(), Held: true, Score: 9}); err != nil {
		t.Fatal(err)
	}

	// Today's challenge: Ana and Bo finish hole 1, Cy enters only.
	var d protocol.Daily
	users["Bo"].wantStatus(users["Bo"].do("GET", "/api/daily", nil, &d), http.StatusOK)
	for _, name := range []string{"Ana", "Bo", "Cy"} {
		var tg protocol.TournamentGrant
		users[name].wantStatus(users[name].do("POST", "/api/tournaments/"+d.ID+"/join", map[string]any{"name": name}, &tg), http.StatusOK)
		if name == "Cy" {
			continue
		}
		pg, err := e.api.PlayTournament(ctx, d.ID, tg.Token)
		if err != nil {
			t.Fatal(err)
		}
		c := dial(t, ctx, e.ts, pg.Room, tg.Token)
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Status == match.Playing }); err != nil {
			t.Fatal(err)
		}
		if err := c.Stand(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && (v.Board.Done || v.Board.Hole > 1) }); err != nil {
			t.Fatal(err)
		}
	}
	names := func(rows []struct{ Name string }) []string {
		var out []string
		for _, r := range rows {
			out = append(out, r.Name)
		}
		return out
	}
	for {
		getJSONInto(t, ctx, e.ts+"/api/live", &l)
		if l.Leaders != nil && slices.Equal(names(l.Leaders.Rows), []string{"Bo"}) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("leaders never Bo alone: %+v", l.Leaders)
		case <-time.After(200 * time.Millisecond):
		}
	}
	if l.Leaders.ID != d.ID || l.Leaders.Link != "/t/"+d.ID {
		t.Errorf("leaders of %s (%s), want %s", l.Leaders.ID, l.Leaders.Link, d.ID)
	}
	if got := names(l.TopRated.Leaders); !slices.Equal(got, []string{"Cy", "Bo"}) {
		t.Errorf("top rated %v, want Cy and Bo (Ana held)", got)
	}
}
