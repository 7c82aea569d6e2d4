package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/fold"
	"golfsolitaire/internal/contract"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/tourney"
)

// frameLog records what non-players are shown of a tournament (pushes and
// API answers), with the time each was received.
type frameLog struct {
	mu     sync.Mutex
	frames []timedFrame
}

type timedFrame struct {
	at   time.Time
	what string
	data []byte
}

func (l *frameLog) add(what string, b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frames = append(l.frames, timedFrame{time.Now(), what, append([]byte(nil), b...)})
}

func (l *frameLog) all() []timedFrame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]timedFrame(nil), l.frames...)
}

// record keeps every raw frame of a watcher.
func (l *frameLog) record(w *client.Watcher, what string) {
	go func() {
		for b := range w.Raw {
			l.add(what, b)
		}
	}()
}

// waitFrame waits until a frame recorded as what holds text.
func (l *frameLog) waitFrame(t *testing.T, what, text string) {
	t.Helper()
	waitFor(t, time.Minute, what+" to be shown "+text, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, f := range l.frames {
			if f.what == what && strings.Contains(string(f.data), text) {
				return true
			}
		}
		return false
	})
}

// get calls the API and records the answer.
func (l *frameLog) get(t *testing.T, ctx context.Context, api *client.API, path string, out any) {
	t.Helper()
	var raw json.RawMessage
	if _, err := api.Call(ctx, http.MethodGet, path, nil, &raw); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	l.add("GET "+path, raw)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatal(err)
		}
	}
}

func loadTournament(t *testing.T, st store.Store, id string) *tourney.Tournament {
	t.Helper()
	snap, err := st.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tourney.Decode(snap.Data)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// playEntrantHole has an entrant play hole h in their tournament room.
func playEntrantHole(t *testing.T, ctx context.Context, base string, api *client.API, id, token string, h int) (room string, last time.Time) {
	t.Helper()
	return playEntrantHoleStyle(t, ctx, base, api, id, token, h, playFirst)
}

// playEntrantHoleStyle is playEntrantHole playing in the style.
func playEntrantHoleStyle(t *testing.T, ctx context.Context, base string, api *client.API, id, token string, h int, style playStyle) (room string, last time.Time) {
	t.Helper()
	g, err := api.PlayTournament(ctx, id, token)
	if err != nil {
		t.Fatalf("play: %v", err)
	}
	c := dial(t, ctx, base, g.Room, token)
	defer c.CloseNow()
	go func() {
		for range c.Updates() {
		}
	}()
	playHoleStyle(t, ctx, c, h, style)
	return g.Room, time.Now()
}

func waitPush(t *testing.T, ctx context.Context, w *client.Watcher, what string, ok func(protocol.TournamentMessage) bool) protocol.TournamentMessage {
	t.Helper()
	for {
		select {
		case m, open := <-w.C:
			if !open {
				t.Fatalf("watcher closed while waiting for %s", what)
			}
			if ok(m) {
				return m
			}
		case <-ctx.Done():
			t.Fatalf("no push with %s", what)
		}
	}
}

func rowOf(lb *protocol.Leaderboard, name string) *tourney.Row {
	if lb == nil {
		return nil
	}
	for i := range lb.Rows {
		if lb.Rows[i].Name == name {
			return &lb.Rows[i]
		}
	}
	return nil
}

// TestTournamentStrokePlay runs a stroke-play tournament through the API
// and real sockets: entry rules, the host's start, each entrant's own
// room on the shared deals, leaderboard pushes, results after closing
// refused, the seed revealed at the end and every record checkable. It
// checks the hidden-information rule over everything a watcher was shown.
func TestTournamentStrokePlay(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	ts, api := newTestServer(t, st)
	var log frameLog

	set := map[string]any{"name": "Autumn Open", "holes": 9, "options": map[string]any{"kings": "wrap"}}
	host, err := api.CreateTournament(ctx, set, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	id := host.ID
	if !strings.HasSuffix(host.Link, "/t/"+id) || host.HostToken == "" || host.Token == "" {
		t.Fatalf("grant %+v", host)
	}
	bo, err := api.JoinTournament(ctx, id, protocol.JoinTournamentRequest{Name: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	cy, err := api.JoinTournament(ctx, id, protocol.JoinTournamentRequest{Name: "Cy", Token: "cy-own-token-0123456789"})
	if err != nil {
		t.Fatal(err)
	}
	// One seat per entrant: the same token, or the same name, again.
	_, err = api.JoinTournament(ctx, id, protocol.JoinTournamentRequest{Name: "Cy again", Token: "cy-own-token-0123456789"})
	wantCode(t, err, protocol.ErrCodeAlreadyEntered)
	_, err = api.JoinTournament(ctx, id, protocol.JoinTournamentRequest{Name: "bo"})
	wantCode(t, err, protocol.ErrCodeNameTaken)
	_, err = api.PlayTournament(ctx, id, bo.Token)
	wantCode(t, err, protocol.ErrCodeNotStarted)
	wantCode(t, api.HostTournament(ctx, id, "start", bo.Token), protocol.ErrCodeNotHost)

	watcher, err := client.DialTournament(ctx, ts.URL, id, "", 1, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watcher.Close() })
	log.record(watcher, "watcher")
	first := waitPush(t, ctx, watcher, "the first push", func(protocol.TournamentMessage) bool { return true })
	if first.View == nil || first.View.Status != tourney.Upcoming || first.View.Entrants != 3 || len(first.View.Commitments) != 1 {
		t.Fatalf("first push %+v", first.View)
	}

	if err := api.HostTournament(ctx, id, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	_, err = api.JoinTournament(ctx, id, protocol.JoinTournamentRequest{Name: "Late"})
	wantCode(t, err, protocol.ErrCodeEntryClosed)

	tr := loadTournament(t, st, id)
	roundSeed := tr.Seeds[0]
	holeSeed := func(h int) string {
		s, _ := match.HoleDealSeed(tr.Settings.RoomSettings(), roundSeed, h)
		return s.String()
	}
	safeAt := map[int]time.Time{}

	// Ana and Bo play hole 1; Cy has not: hole 1 is not safe.
	roomAna, _ := playEntrantHole(t, ctx, ts.URL, api, id, host.Token, 1)
	roomBo, _ := playEntrantHole(t, ctx, ts.URL, api, id, bo.Token, 1)
	if roomAna == roomBo {
		t.Fatal("two entrants share a room")
	}
	// Nobody may watch an entrant's room.
	if _, err := client.Dial(ctx, ts.URL, &client.Options{Room: roomAna}); !client.IsCode(err, protocol.ErrCodeNoSpectators) {
		t.Fatalf("spectating an entrant's room: %v", err)
	}
	m := waitPush(t, ctx, watcher, "Ana and Bo thru 1", func(m protocol.TournamentMessage) bool {
		a, b := rowOf(m.Board, "Ana"), rowOf(m.Board, "Bo")
		return a != nil && b != nil && a.Thru == 1 && b.Thru == 1
	})
	// Cy, who has not played, is listed too: last, not started.
	if cyRow := rowOf(m.Board, "Cy"); len(m.View.Safe) != 0 || m.Board.Total != 3 || cyRow == nil || !cyRow.NotStarted || m.Board.Rows[2].Name != "Cy" {
		t.Fatalf("safe %v total %d rows %+v, want none and 3, Cy last and not started", m.View.Safe, m.Board.Total, m.Board.Rows)
	}
	var recs tourney.Records
	log.get(t, ctx, api, "/api/tournaments/"+id+"/records", &recs)
	if len(recs.Holes) != 0 || recs.Seeds != nil {
		t.Fatalf("records before any hole is safe: %+v", recs)
	}
	var watch protocol.EntrantWatch
	log.get(t, ctx, api, "/api/tournaments/"+id+"/entrants/2", &watch)
	if watch.Row.Name != "Cy" || watch.Row.Thru != 0 {
		t.Fatalf("watching Cy: %+v", watch)
	}

	// Cy plays hole 1: now it is safe, and its records are public.
	_, safeAt[1] = playEntrantHole(t, ctx, ts.URL, api, id, cy.Token, 1)
	waitPush(t, ctx, watcher, "hole 1 safe", func(m protocol.TournamentMessage) bool { return len(m.View.Safe) == 1 })
	log.get(t, ctx, api, "/api/tournaments/"+id+"/records", &recs)
	if len(recs.Holes) != 1 || len(recs.Holes[0].Records) != 3 || recs.Holes[0].Seed != holeSeed(1) {
		t.Fatalf("records after hole 1: %+v", recs.Holes)
	}
	for _, g := range recs.Holes[0].Records {
		st, err := g.Record.Replay()
		if err != nil || st.Score() != g.Score {
			t.Fatalf("record of entrant %d does not replay to %d: %v", g.Entrant, g.Score, err)
		}
	}

	// The leaderboard page and the viewer's rows around them.
	lb, err := api.Leaderboard(ctx, id, 1, 2, bo.Token)
	if err != nil {
		t.Fatal(err)
	}
	if lb.Total != 3 || len(lb.Rows) != 2 || lb.You == nil || lb.You.Name != "Bo" || len(lb.Around) != 3 {
		t.Fatalf("leaderboard %+v", lb)
	}
	lb2, _ := api.Leaderboard(ctx, id, 2, 2, "")
	if len(lb2.Rows) != 1 {
		t.Fatalf("page 2: %+v", lb2.Rows)
	}
	// The same result again (a reconnecting entrant, a second instance)
	// is applied once.
	before := loadTournament(t, st, id).Version
	if _, err := api.PlayTournament(ctx, id, bo.Token); err != nil {
		t.Fatal(err)
	}
	if after := loadTournament(t, st, id).Version; after != before {
		t.Fatalf("version %d -> %d: a result was applied twice", before, after)
	}

	// Ana plays hole 2; the host closes; Bo's hole 2 comes too late.
	playEntrantHole(t, ctx, ts.URL, api, id, host.Token, 2)
	closedAt := time.Now()
	if err := api.HostTournament(ctx, id, "close", host.HostToken); err != nil {
		t.Fatal(err)
	}
	// Bo's room is still open to him, but his result no longer counts.
	cBo := dial(t, ctx, ts.URL, roomBo, bo.Token)
	playHole(t, ctx, cBo, 2)
	cBo.CloseNow()
	final := loadTournament(t, st, id)
	if final.Status != tourney.Closed || final.Thru(1) != 1 || final.Thru(0) != 2 {
		t.Fatalf("after closing: status %s, Bo thru %d, Ana thru %d", final.Status, final.Thru(1), final.Thru(0))
	}
	_, err = api.PlayTournament(ctx, id, bo.Token)
	wantCode(t, err, protocol.ErrCodeTournamentClosed)

	// Closed: the seed is revealed, matches its commitment, and every
	// record is there and replays.
	var view tourney.View
	log.get(t, ctx, api, "/api/tournaments/"+id, &view)
	if len(view.Seeds) != 1 || view.Seeds[0] != roundSeed.String() || !roundSeed.Verify(view.Commitments[0]) {
		t.Fatalf("closed view seeds %v commitments %v", view.Seeds, view.Commitments)
	}
	log.get(t, ctx, api, "/api/tournaments/"+id+"/records", &recs)
	if len(recs.Holes) != 2 || len(recs.Holes[1].Records) != 1 {
		t.Fatalf("records after closing: %+v", recs.Holes)
	}
	// The watcher's last push (closed) is checked with the others.
	log.waitFrame(t, "watcher", `"status":"closed"`)

	// The invariant over every frame a watcher was shown: no hole's deal
	// seed before the hole was safe, never the round seed before closing,
	// never a board.
	safeAt[2] = closedAt
	secrets := []secret{{"the round seed", roundSeed.String(), closedAt}}
	for h := 1; h <= 9; h++ {
		secrets = append(secrets, secret{fmt.Sprint("hole ", h, "'s seed"), holeSeed(h), safeAt[h]})
	}
	checkHidden(t, log.all(), secrets)
}

// secret is a text nobody but the players may be shown before safe (never,
// when safe is zero).
type secret struct {
	what, text string
	safe       time.Time
}

// checkHidden is the hidden-information invariant over the frames and API
// answers non-players received: no secret before it was safe, and never a
// board (boards are shown only in the players' rooms).
func checkHidden(t *testing.T, frames []timedFrame, secrets []secret) {
	t.Helper()
	if len(frames) == 0 {
		t.Fatal("no frames recorded")
	}
	for _, f := range frames {
		s := string(f.data)
		for _, sec := range secrets {
			if strings.Contains(s, sec.text) && (sec.safe.IsZero() || f.at.Before(sec.safe)) {
				t.Errorf("%s at %v shows %s before it was safe (%v): %.300s", f.what, f.at.Format(time.StampMicro), sec.what, sec.safe.Format(time.StampMicro), s)
			}
		}
		if strings.Contains(s, `"piles"`) || strings.Contains(s, `"stock"`) {
			t.Errorf("%s shows a board: %.300s", f.what, s)
		}
	}
}

// getRaw calls the API and records the answer, whatever its status.
func (l *frameLog) getRaw(ctx context.Context, base, path string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	l.add("GET "+path, b)
	return resp.StatusCode
}

// pushEveryTest is a little more than the push interval.
const pushEveryTest = 600 * time.Millisecond

// TestTournamentPushesCoalesced checks that a burst of results reaches a
// watcher as at most two pushes a second.
func TestTournamentPushesCoalesced(t *testing.T) {
	ctx := testCtx(t)
	ts, api := newTestServer(t, memstore.New(memstore.Options{}))
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Burst", "holes": 9}, "")
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for i := range 6 {
		g, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: fmt.Sprint("P", i)})
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, g.Token)
	}
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	w, err := client.DialTournament(ctx, ts.URL, host.ID, tokens[0], 1, 20, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	waitPush(t, ctx, w, "a first push", func(protocol.TournamentMessage) bool { return true })
	start := time.Now()
	var wg sync.WaitGroup
	for _, tok := range tokens {
		wg.Go(func() {
			for h := 1; h <= 3; h++ {
				playEntrantHole(t, ctx, ts.URL, api, host.ID, tok, h)
			}
		})
	}
	wg.Wait()
	var pushes []time.Time
	m := waitPush(t, ctx, w, "everyone thru 3", func(m protocol.TournamentMessage) bool {
		pushes = append(pushes, time.Now())
		if m.Board == nil || m.Board.Total != 6 {
			return false
		}
		for _, r := range m.Board.Rows {
			if r.Thru != 3 {
				return false
			}
		}
		return true
	})
	if m.Board.You == nil || m.Board.You.Name != "P0" {
		t.Fatalf("the watcher's own row: %+v", m.Board.You)
	}
	elapsed := time.Since(start)
	if limit := int(elapsed/(500*time.Millisecond)) + 2; len(pushes) > limit {
		t.Fatalf("%d pushes in %v: more than two a second", len(pushes), elapsed)
	}
}

// TestTournamentRestart runs a tournament on two server instances over one
// Redis (a watcher on one sees results played on the other), stops both in
// the middle of it and starts a new one: nothing is lost, and play goes on.
func TestTournamentRestart(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	// The Redis at REDIS_URL under a prefix of the test's own, deleted
	// when the test ends; or a miniredis.
	r := newTestRedis(t)
	instance := func() (*server.Server, string, func()) {
		rc, _, err := redisstore.NewClient(context.Background(), r.cfg)
		if err != nil {
			t.Fatal(err)
		}
		st := redisstore.New(rc, redisstore.Options{Prefix: r.prefix, Replay: fold.Replay})
		s, err := server.New(server.Options{SolveNodes: testSolveNodes, RateNodes: testRateNodes, PasswordParams: cheapPasswords, Store: st, ResyncEvery: 200 * time.Millisecond, PlayerRate: limit.Rate{PerSecond: 2000, Burst: 2000}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: limit.NoLimits()})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(contract.Tap(t, s))
		return s, hs.URL, func() { s.Close(); hs.Close(); st.Close(); rc.Close() }
	}
	_, url1, stop1 := instance()
	api := &client.API{BaseURL: url1}
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Restart Cup", "holes": 9}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	bo, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	// A second instance: its watcher sees what is played on the first.
	_, urlB, stopB := instance()
	w, err := client.DialTournament(ctx, urlB, host.ID, "", 1, 10, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	playEntrantHole(t, ctx, url1, api, host.ID, host.Token, 1)
	playEntrantHole(t, ctx, url1, api, host.ID, bo.Token, 1)
	playEntrantHole(t, ctx, urlB, api, host.ID, host.Token, 2)
	waitPush(t, ctx, w, "both results on the other instance", func(m protocol.TournamentMessage) bool {
		a, b := rowOf(m.Board, "Ana"), rowOf(m.Board, "Bo")
		return a != nil && b != nil && a.Thru == 2 && b.Thru == 1 && len(m.View.Safe) == 1
	})
	lb1, err := api.Leaderboard(ctx, host.ID, 1, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	// Every instance stops.
	w.Close()
	stop1()
	stopB()

	_, url2, stop2 := instance()
	defer stop2()
	api2 := &client.API{BaseURL: url2}
	lb2, err := api2.Leaderboard(ctx, host.ID, 1, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := json.Marshal(lb1.Rows)
	j2, _ := json.Marshal(lb2.Rows)
	if string(j1) != string(j2) || lb2.Total != 2 {
		t.Fatalf("leaderboard before the restart\n%+v\nafter\n%+v", lb1.Rows, lb2.Rows)
	}
	// Play goes on in the same rooms, with the same tokens.
	playEntrantHole(t, ctx, url2, api2, host.ID, bo.Token, 2)
	playEntrantHole(t, ctx, url2, api2, host.ID, host.Token, 3)
	var v tourney.View
	if _, err := api2.CallToken(ctx, http.MethodGet, "/api/tournaments/"+host.ID, bo.Token, nil, &v); err != nil {
		t.Fatal(err)
	}
	if v.You == nil || v.You.Row.Thru != 2 || v.You.Next != 3 || len(v.Safe) != 2 {
		t.Fatalf("after the restart: %+v safe %v", v.You, v.Safe)
	}
	lb3, _ := api2.Leaderboard(ctx, host.ID, 1, 10, "")
	for _, r := range lb3.Rows {
		if (r.Name == "Ana" && r.Thru != 3) || (r.Name == "Bo" && r.Thru != 2) {
			t.Fatalf("leaderboard after more play: %+v", lb3.Rows)
		}
	}
}

// TestTournamentKnockout plays a three-player knockout: a bye for the top
// seed, the first-round match, then the final, each in a match-play room
// on the round's seed, winners advancing by themselves.
func TestTournamentKnockout(t *testing.T) {
	t.Parallel()
	t.Run("join order", func(t *testing.T) {
		t.Parallel()
		testKnockout(t, false)
	})
	t.Run("qualifying round", func(t *testing.T) {
		t.Parallel()
		testKnockout(t, true)
	})
}

func testKnockout(t *testing.T, qualifying bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute) // a bound on a hang, not a timing: generous for a loaded two-core machine
	defer cancel()
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	ts, api := newTestServer(t, st)
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Knock", "holes": 9, "format": "knockout", "limit": 4, "qualifying": qualifying}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	tokens := []string{host.Token}
	for _, n := range []string{"Bo", "Cy"} {
		g, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, g.Token)
	}
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	playKnockout(t, ctx, ts.URL, api, host.ID, tokens, nil)
	tr := loadTournament(t, st, host.ID)
	if tr.Status != tourney.Closed || tr.Champion() < 0 {
		t.Fatalf("status %s champion %d", tr.Status, tr.Champion())
	}
	final := tr.Bracket.Final()
	if final.A != tr.Bracket.Seeds[0] || !final.Decided {
		t.Fatalf("the top seed's bye should take them to the final: %+v", final)
	}
	if qualifying {
		// The bracket follows the qualifying leaderboard, and the
		// qualifying holes' records are public.
		var lead []int
		for _, r := range tr.Leaderboard() {
			lead = append(lead, r.Entrant)
		}
		if fmt.Sprint(lead) != fmt.Sprint(tr.Bracket.Seeds) {
			t.Fatalf("seeds %v, qualifying leaderboard %v", tr.Bracket.Seeds, lead)
		}
		var recs tourney.Records
		if _, err := api.Call(ctx, http.MethodGet, "/api/tournaments/"+host.ID+"/records", nil, &recs); err != nil {
			t.Fatal(err)
		}
		qual := 0
		for _, h := range recs.Holes {
			if h.Round == 0 {
				qual++
				if len(h.Records) != 3 {
					t.Fatalf("qualifying hole %d: %d records", h.Number, len(h.Records))
				}
			}
		}
		if qual != 9 {
			t.Fatalf("%d qualifying holes in the records, want 9", qual)
		}
	}
	var b struct {
		Bracket tourney.BracketView `json:"bracket"`
	}
	if _, err := api.Call(ctx, http.MethodGet, "/api/tournaments/"+host.ID+"/bracket", nil, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Bracket.Rounds) != 2 || b.Bracket.Rounds[1][0].Winner == "" {
		t.Fatalf("bracket %+v", b.Bracket)
	}
	var v tourney.View
	api.Call(ctx, http.MethodGet, "/api/tournaments/"+host.ID, nil, &v)
	if want := map[bool]int{false: 2, true: 3}[qualifying]; len(v.Seeds) != want || v.Champion == "" {
		t.Fatalf("final view: seeds %v champion %q", v.Seeds, v.Champion)
	}
}

// playKnockout has every entrant play their matches (and qualifying
// holes) until they are out or the tournament is over. played, if not
// nil, is told each room an entrant played in.
func playKnockout(t *testing.T, ctx context.Context, base string, api *client.API, id string, tokens []string, roomPlayed func(entrant int, room string)) {
	t.Helper()
	var wg sync.WaitGroup
	for i, tok := range tokens {
		wg.Go(func() {
			played := map[string]bool{}
			for ctx.Err() == nil {
				var v tourney.View
				if _, err := api.CallToken(ctx, http.MethodGet, "/api/tournaments/"+id, tok, nil, &v); err != nil {
					t.Error(err)
					return
				}
				if v.Status == tourney.Closed || v.You.Out {
					return
				}
				g, err := api.PlayTournament(ctx, id, tok)
				if err != nil || played[g.Room] {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				played[g.Room] = true
				if roomPlayed != nil {
					roomPlayed(i, g.Room)
				}
				c, err := client.Dial(ctx, base, &client.Options{Room: g.Room, Token: tok})
				if err != nil {
					t.Error(err)
					return
				}
				go func() {
					for range c.Updates() {
					}
				}()
				for h := 1; ; h++ {
					v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished || v.Hole >= h })
					if err != nil || v.Status == match.Finished {
						break
					}
					// In a match the second seat stands at once
					// and loses every hole (the first seat plays
					// cards), so a match is decided after five
					// holes, one command a hole on its side,
					// instead of going to sudden death (two
					// players of one style halve every hole).
					// Qualifying holes alternate first and last
					// cards among entrants.
					style := map[bool]playStyle{false: playFirst, true: playLast}[i%2 == 1]
					if v.Settings.Format == match.Matchplay {
						style = map[bool]playStyle{false: playFirst, true: playStand}[v.You == 1]
					}
					playHoleStyle(t, ctx, c, h, style)
				}
				c.CloseNow()
			}
		})
	}
	wg.Wait()
}

// TestTournamentKnockoutHidden is the hidden-information invariant of
// knockouts over everything watchers and entrants are shown: five
// entrants (three byes), an anonymous watcher and every entrant watching
// the tournament, and a poller of the API (view, bracket, records,
// entrants, the match rooms): no hole of a round (its deal seed, records
// or boards) is shown to anyone but the match's players before the round
// is safe (every match of it decided), and no round seed before closing.
func TestTournamentKnockoutHidden(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	ts, api := newTestServer(t, st)
	var log frameLog
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Hidden KO", "holes": 9, "format": "knockout", "limit": 8}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	id := host.ID
	tokens := []string{host.Token}
	for _, n := range []string{"Bo", "Cy", "Di", "Ed"} {
		g, err := api.JoinTournament(ctx, id, protocol.JoinTournamentRequest{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, g.Token)
	}
	for i, tok := range append([]string{""}, tokens...) {
		w, err := client.DialTournament(ctx, ts.URL, id, tok, 1, 10, true)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		log.record(w, fmt.Sprint("watcher ", i-1))
	}
	if err := api.HostTournament(ctx, id, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	// The poller: everything the API shows anyone, and the match rooms
	// (which refuse non-players).
	var roomsMu sync.Mutex
	rooms := map[string]bool{}
	pollCtx, stopPoll := context.WithCancel(ctx)
	polled := make(chan struct{})
	go func() {
		defer close(polled)
		for pollCtx.Err() == nil {
			log.getRaw(pollCtx, ts.URL, "/api/tournaments/"+id)
			log.getRaw(pollCtx, ts.URL, "/api/tournaments/"+id+"/bracket")
			log.getRaw(pollCtx, ts.URL, "/api/tournaments/"+id+"/records")
			for n := range 5 {
				log.getRaw(pollCtx, ts.URL, fmt.Sprint("/api/tournaments/", id, "/entrants/", n))
			}
			roomsMu.Lock()
			var codes []string
			for c := range rooms {
				codes = append(codes, c)
			}
			roomsMu.Unlock()
			for _, c := range codes {
				log.getRaw(pollCtx, ts.URL, "/api/rooms/"+c)
				log.getRaw(pollCtx, ts.URL, "/api/rooms/"+c+"/records")
				log.getRaw(pollCtx, ts.URL, "/api/rooms/"+c+"/holes/1/replay?seat=0")
				if code := log.getRaw(pollCtx, ts.URL, "/api/rooms/"+c+"/holes/1/best"); code == http.StatusOK {
					t.Errorf("room %s serves its best line to a non-player", c)
				}
				if code := log.getRaw(pollCtx, ts.URL, "/api/rooms/"+c+"/holes/1/analysis?seat=0"); code == http.StatusOK {
					t.Errorf("room %s serves a hole's analysis in a tournament", c)
				}
				if sc, err := client.Dial(pollCtx, ts.URL, &client.Options{Room: c}); err == nil {
					sc.CloseNow()
					t.Errorf("room %s takes a spectator", c)
				}
			}
			time.Sleep(30 * time.Millisecond)
		}
	}()
	playKnockout(t, ctx, ts.URL, api, id, tokens, func(_ int, room string) {
		roomsMu.Lock()
		rooms[room] = true
		roomsMu.Unlock()
	})
	// Every watcher's last push (closed) is checked with the others.
	for i := range len(tokens) + 1 {
		log.waitFrame(t, fmt.Sprint("watcher ", i-1), `"status":"closed"`)
	}
	stopPoll()
	<-polled

	tr := loadTournament(t, st, id)
	if tr.Status != tourney.Closed || tr.Champion() < 0 || len(tr.Bracket.Rounds) != 3 {
		t.Fatalf("status %s champion %d rounds %d", tr.Status, tr.Champion(), len(tr.Bracket.Rounds))
	}
	// When each round became safe: its last decided event (the view is
	// sent after the event is stored, so after its time).
	entries, err := st.Since(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	safeAt := map[int]time.Time{}
	var closedAt time.Time
	for _, e := range entries {
		var ev tourney.Event
		if err := json.Unmarshal(e.Data, &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Kind {
		case tourney.KindDecided:
			safeAt[ev.Round] = ev.At
		case tourney.KindClose:
			closedAt = ev.At
		}
	}
	if closedAt.IsZero() {
		closedAt = tr.Closed
	}
	var secrets []secret
	for r := 1; r <= len(tr.Bracket.Rounds); r++ {
		at, ok := safeAt[r]
		if !ok { // a round of byes only
			continue
		}
		secrets = append(secrets, secret{fmt.Sprint("round ", r, "'s seed"), tr.Seed(r).String(), closedAt})
		for h := 1; h <= 2*tr.Settings.Holes; h++ {
			hs, _ := match.HoleDealSeed(tr.Settings.RoomSettings(), tr.Seed(r), h)
			secrets = append(secrets, secret{fmt.Sprint("round ", r, " hole ", h, "'s seed"), hs.String(), at})
		}
	}
	checkHidden(t, log.all(), secrets)
	// And the safe rounds' records were shown in the end.
	var recs tourney.Records
	log.get(t, ctx, api, "/api/tournaments/"+id+"/records", &recs)
	if len(recs.Holes) == 0 {
		t.Fatal("no records once closed")
	}
}

// playHoleLast is playHole playing the last playable card instead of the
// first when last is true, so two players of a match do not halve every
// hole.
func playHoleLast(t *testing.T, ctx context.Context, c *client.Conn, h int, last bool) {
	t.Helper()
	playHoleStyle(t, ctx, c, h, map[bool]playStyle{false: playFirst, true: playLast}[last])
}

// playStyle is how playHoleStyle picks its moves.
type playStyle int

const (
	playFirst playStyle = iota // the first playable card (playHole)
	playLast                   // the last playable card
	playStock                  // playStockFirst: few moves, a poor score
	playStand                  // stands at once: one command, the worst score
)

// playHoleStyle plays hole h in the style until it is over.
func playHoleStyle(t *testing.T, ctx context.Context, c *client.Conn, h int, style playStyle) {
	t.Helper()
	switch style {
	case playFirst:
		playHole(t, ctx, c, h)
		return
	case playStock:
		playStockFirst(t, ctx, c, h)
		return
	case playStand:
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Board.Hole >= h })
		if err != nil {
			t.Errorf("waiting for hole %d: %v", h, err)
			return
		}
		if v.Board.Hole > h || v.Board.Done || v.Status != match.Playing {
			return
		}
		if err := c.Stand(ctx, h); err != nil && !client.IsCode(err, protocol.ErrCodeHoleDone) && !client.IsCode(err, protocol.ErrCodeWrongHole) {
			t.Errorf("stand: %v", err)
		}
		return
	}
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
		case len(b.Playable) > 0:
			move = itoa(b.Playable[len(b.Playable)-1])
		case b.CanRedeal && !b.CanTurn:
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

// TestTournamentClock: a tournament with a start and a closing time starts
// and closes by itself; the watcher sees both, and the seed at the end.
func TestTournamentClock(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	ts, api := newTestServer(t, memstore.New(memstore.Options{}))
	starts := time.Now().Add(700 * time.Millisecond).UTC()
	closes := starts.Add(1500 * time.Millisecond)
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Timed", "starts": starts, "closes": closes}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	w, err := client.DialTournament(ctx, ts.URL, host.ID, host.Token, 1, 10, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	waitPush(t, ctx, w, "live", func(m protocol.TournamentMessage) bool { return m.View.Status == tourney.Live })
	if time.Now().Before(starts) {
		t.Fatal("started before its start time")
	}
	_, err = api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: "Late"})
	wantCode(t, err, protocol.ErrCodeEntryClosed)
	m := waitPush(t, ctx, w, "closed", func(m protocol.TournamentMessage) bool { return m.View.Status == tourney.Closed })
	if time.Now().Before(closes) || len(m.View.Seeds) != 1 || m.View.Reason != "closing time" {
		t.Fatalf("closed view %+v", m.View)
	}
	_, err = api.PlayTournament(ctx, host.ID, host.Token)
	wantCode(t, err, protocol.ErrCodeTournamentClosed)
}

// TestTournamentRoomKept: an entrant's room outlives the finished-room time
// to live, so the tournament's records stay downloadable.
func TestTournamentRoomKept(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	st := &expiryStore{Store: memstore.New(memstore.Options{Now: clock})}
	t.Cleanup(func() { st.Close() })
	ts, api := newTestServer(t, st, func(o *server.Options) { o.FinishedTTL = time.Hour })
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Kept", "holes": 9}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	var room string
	for h := 1; h <= 9; h++ {
		room, _ = playEntrantHole(t, ctx, ts.URL, api, host.ID, host.Token, h)
	}
	// The last hole reaches the tournament a moment after its ack (the
	// room posts it): the records have it once it has.
	var recs tourney.Records
	waitFor(t, time.Minute, "the records of 9 holes with their seeds", func() bool {
		recs = tourney.Records{}
		if _, err := api.Call(ctx, http.MethodGet, "/api/tournaments/"+host.ID+"/records", nil, &recs); err != nil {
			t.Fatal(err)
		}
		return len(recs.Holes) == 9 && recs.Seeds != nil
	})
	// The room's hub and the tournament's results both set its time to
	// live when it finishes, in no fixed order: neither may shorten it.
	// The hub handles the finish after sending the last event, and lets a
	// connection in only after that: one let in now makes sure it has.
	c := dial(t, ctx, ts.URL, room, host.Token)
	if _, err := c.WaitView(ctx, func(*match.View) bool { return true }); err != nil {
		t.Fatal(err)
	}
	c.CloseNow()
	for _, ttl := range st.ttls(room) {
		if ttl < 48*time.Hour {
			t.Fatalf("the entrant's room was given %v to live (expiries %v)", ttl, st.ttls(room))
		}
	}
	mu.Lock()
	now = now.Add(48 * time.Hour)
	mu.Unlock()
	if _, err := st.Load(ctx, room); err != nil {
		t.Fatalf("the entrant's room is gone two days after the round: %v", err)
	}
}

// expiryStore records the times to live set on each key.
type expiryStore struct {
	*memstore.Store
	mu      sync.Mutex
	expires map[string][]time.Duration
}

func (e *expiryStore) Expire(ctx context.Context, key string, ttl time.Duration) error {
	e.mu.Lock()
	if e.expires == nil {
		e.expires = map[string][]time.Duration{}
	}
	e.expires[key] = append(e.expires[key], ttl)
	e.mu.Unlock()
	return e.Store.Expire(ctx, key, ttl)
}

func (e *expiryStore) ttls(key string) []time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]time.Duration(nil), e.expires[key]...)
}

// failingStore fails every append to one key while failing is set: a
// result lost between a room's append and its post to the tournament.
type failingStore struct {
	*memstore.Store
	mu      sync.Mutex
	key     string
	failing bool
	// refused counts the appends refused; loads counts loads, by key.
	refused int
	loads   map[string]int
}

func (f *failingStore) Load(ctx context.Context, key string) (store.Snapshot, error) {
	f.mu.Lock()
	if f.loads == nil {
		f.loads = map[string]int{}
	}
	f.loads[key]++
	f.mu.Unlock()
	return f.Store.Load(ctx, key)
}

// count reads a counter.
func (f *failingStore) count(c func() int) func() int {
	return func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		return c()
	}
}

func (f *failingStore) fail(key string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.key, f.failing = key, on
}

func (f *failingStore) Append(ctx context.Context, key string, expect int64, snap []byte, events ...[]byte) (int64, error) {
	f.mu.Lock()
	fail := f.failing && key == f.key
	if fail {
		f.refused++
	}
	f.mu.Unlock()
	if fail {
		return 0, fmt.Errorf("%w: test outage", store.ErrUnavailable)
	}
	return f.Store.Append(ctx, key, expect, snap, events...)
}

// TestTournamentSweep: a result whose post to the tournament is lost is
// posted again by the tournament hub's sweep, once, without the entrant
// opening the tournament again.
func TestTournamentSweep(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := &failingStore{Store: memstore.New(memstore.Options{})}
	t.Cleanup(func() { st.Close() })
	ts, api := newTestServer(t, st)
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Sweep", "holes": 9}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: "Bo"}); err != nil {
		t.Fatal(err)
	}
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	// Someone watches, so the tournament's hub stays loaded.
	w, err := client.DialTournament(ctx, ts.URL, host.ID, "", 1, 10, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	room, _ := playEntrantHole(t, ctx, ts.URL, api, host.ID, host.Token, 1)
	// The result is posted off the room's loop, after the move's ack.
	waitFor(t, time.Minute, "Ana thru 1", func() bool { return loadTournament(t, st, host.ID).Thru(0) == 1 })
	// Hole 2's post is lost: the tournament refuses every append.
	st.fail(host.ID, true)
	c := dial(t, ctx, ts.URL, room, host.Token)
	go func() {
		for range c.Updates() {
		}
	}()
	refused := st.count(func() int { return st.refused })
	before := refused()
	playHole(t, ctx, c, 2)
	c.CloseNow()
	waitFor(t, time.Minute, "the post of hole 2 to be refused", func() bool { return refused() > before })
	if got := loadTournament(t, st, host.ID).Thru(0); got != 1 {
		t.Fatalf("thru %d while the tournament is failing", got)
	}
	// The store is back: the sweep posts hole 2, without Ana asking.
	st.fail(host.ID, false)
	waitFor(t, time.Minute, "the lost result to be posted again", func() bool { return loadTournament(t, st, host.ID).Thru(0) == 2 })
	// Once: later sweeps (each reads the room) change nothing.
	v := loadTournament(t, st, host.ID).Version
	loads := st.count(func() int { return st.loads[room] })
	swept := loads()
	waitFor(t, time.Minute, "two more sweeps", func() bool { return loads() >= swept+2 })
	tr := loadTournament(t, st, host.ID)
	if tr.Version != v || tr.Thru(0) != 2 {
		t.Fatalf("version %d -> %d, thru %d: posted more than once", v, tr.Version, tr.Thru(0))
	}
	waitPush(t, ctx, w, "Ana thru 2", func(m protocol.TournamentMessage) bool {
		a := rowOf(m.Board, "Ana")
		return a != nil && a.Thru == 2
	})
}

// TestTournamentClockUnwatched: a tournament nobody watches or opens still
// starts and closes on time: the server loads the hubs of tournaments
// whose start or closing time is near.
func TestTournamentClockUnwatched(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	_, api := newTestServer(t, st)
	starts := time.Now().Add(800 * time.Millisecond).UTC()
	closes := starts.Add(1200 * time.Millisecond)
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Unwatched", "starts": starts, "closes": closes}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	wait := func(status tourney.Status, by time.Time) *tourney.Tournament {
		for {
			tr := loadTournament(t, st, host.ID)
			if tr.Status == status {
				return tr
			}
			if time.Now().After(by) {
				t.Fatalf("status %s at %v, want %s", tr.Status, time.Now(), status)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// Within a scan (200 ms in tests) and the timer's slack of the times.
	tr := wait(tourney.Live, starts.Add(500*time.Millisecond))
	if tr.Started.Before(starts) {
		t.Fatalf("started at %v, before %v", tr.Started, starts)
	}
	tr = wait(tourney.Closed, closes.Add(tourney.ResultGrace+500*time.Millisecond))
	if tr.Closed.Before(closes) || tr.Reason != "closing time" {
		t.Fatalf("closed at %v (%s), want after %v by the clock", tr.Closed, tr.Reason, closes)
	}
}

// TestTournamentBracketLive: the bracket pushed to watchers shows a
// knockout match's standing after every hole, not only when the match
// starts or is decided.
func TestTournamentBracketLive(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	ts, api := newTestServer(t, memstore.New(memstore.Options{}))
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Live KO", "holes": 9, "format": "knockout"}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	bo, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := client.DialTournament(ctx, ts.URL, host.ID, "", 1, 10, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	var conns []*client.Conn
	for _, tok := range []string{host.Token, bo.Token} {
		var g protocol.PlayGrant
		for {
			if g, err = api.PlayTournament(ctx, host.ID, tok); err == nil {
				break
			}
			if ctx.Err() != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		c := dial(t, ctx, ts.URL, g.Room, tok)
		go func() {
			for range c.Updates() {
			}
		}()
		// The room knows its tournament (the room page links back to it).
		if v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Code != "" }); err != nil || v.Tournament != host.ID {
			t.Fatalf("the match room's view: tournament %q, want %s (%v)", v.Tournament, host.ID, err)
		}
		conns = append(conns, c)
	}
	status := func(m protocol.TournamentMessage) string {
		if m.View == nil || m.View.Bracket == nil {
			return ""
		}
		return m.View.Bracket.Rounds[0][0].Status
	}
	for h := 1; h <= 2; h++ {
		var wg sync.WaitGroup
		for i, c := range conns {
			wg.Go(func() { playHoleLast(t, ctx, c, h, i == 1) })
		}
		wg.Wait()
		m := waitPush(t, ctx, w, fmt.Sprint("the match's status thru ", h), func(m protocol.TournamentMessage) bool {
			return strings.HasSuffix(status(m), fmt.Sprint("thru ", h))
		})
		mv := m.View.Bracket.Rounds[0][0]
		if mv.Decided {
			t.Fatalf("decided after %d holes: %+v", h, mv)
		}
		// The same standing as fields, for the page's own language.
		if mv.Live == nil || mv.Live.Thru != h || mv.Live.Text != mv.Status {
			t.Fatalf("live standing after %d holes: %+v (status %q)", h, mv.Live, mv.Status)
		}
	}
	var b struct {
		Bracket tourney.BracketView `json:"bracket"`
	}
	if _, err := api.Call(ctx, http.MethodGet, "/api/tournaments/"+host.ID+"/bracket", nil, &b); err != nil {
		t.Fatal(err)
	}
	if mv := b.Bracket.Rounds[0][0]; mv.Live == nil || mv.Live.Thru != 2 {
		t.Fatalf("GET bracket: live standing %+v, want thru 2", mv.Live)
	}
}

// TestTournamentEntrantReplay: watching a player, a safe hole's game is
// served board by board; a hole that is not safe is refused.
func TestTournamentEntrantReplay(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	ts, api := newTestServer(t, st)
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Replays", "holes": 9}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	bo, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	replay := func(n, h int) (match.Replay, error) {
		var rp match.Replay
		_, err := api.Call(ctx, http.MethodGet, fmt.Sprint("/api/tournaments/", host.ID, "/entrants/", n, "/holes/", h, "/replay"), nil, &rp)
		return rp, err
	}
	playEntrantHole(t, ctx, ts.URL, api, host.ID, host.Token, 1)
	playEntrantHole(t, ctx, ts.URL, api, host.ID, host.Token, 2)
	// Bo has not played hole 1: Ana's game of it is not shown.
	_, err = replay(0, 1)
	wantCode(t, err, protocol.ErrCodeNotFinished)
	playEntrantHole(t, ctx, ts.URL, api, host.ID, bo.Token, 1)
	rp, err := replay(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr := loadTournament(t, st, host.ID)
	if rp.Hole != 1 || rp.Name != "Ana" || len(rp.Boards) != len(rp.Moves)+1 || len(rp.Moves) == 0 || rp.Score != *tr.Entrants[0].Scores[0] {
		t.Fatalf("replay %+v", rp)
	}
	// Hole 2: Ana has played it, Bo not: refused.
	_, err = replay(0, 2)
	wantCode(t, err, protocol.ErrCodeNotFinished)
	// Bo's hole 2 does not exist yet either.
	_, err = replay(1, 2)
	wantCode(t, err, protocol.ErrCodeNotFinished)
}
