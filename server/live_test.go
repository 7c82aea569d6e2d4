package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"golfsolitaire/server"
	"golfsolitaire/tourney"
)

type liveAnswer struct {
	Players    int `json:"players"`
	Games      int `json:"games"`
	Spectators int `json:"spectators"`
	Featured   *struct {
		Code       string   `json:"code"`
		Link       string   `json:"link"`
		Seats      []string `json:"seats"`
		Spectators int      `json:"spectators"`
	} `json:"featured"`
	Scheduled []struct {
		ID       string    `json:"id"`
		Name     string    `json:"name"`
		StartsAt time.Time `json:"startsAt"`
		Schedule string    `json:"schedule"`
		Link     string    `json:"link"`
	} `json:"scheduled"`
}

// waitLive polls GET /api/live until ok holds.
func waitLive(t *testing.T, ctx context.Context, base string, ok func(liveAnswer) bool) liveAnswer {
	t.Helper()
	for {
		var l liveAnswer
		getJSONInto(t, ctx, base+"/api/live", &l)
		if ok(l) {
			return l
		}
		select {
		case <-ctx.Done():
			t.Fatalf("GET /api/live never showed what was expected; last %+v", l)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestLive: GET /api/live counts this instance's players, spectators and
// games in play, features the public game being watched and lists the
// next scheduled tournaments, soonest first.
func TestLive(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	// The weekly one three days on, at half past: never the soonest, nor
	// tied with an hourly one, whatever the clock says.
	later := time.Now().UTC().Add(72 * time.Hour)
	sc, err := tourney.ParseSchedule(fmt.Sprintf("hourly,weekly@%s-%02d:30", strings.ToLower(later.Weekday().String()[:3]), later.Hour()))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(o *server.Options) { o.Schedule = sc })
	first := waitLive(t, ctx, e.ts, func(l liveAnswer) bool { return len(l.Scheduled) == 3 })
	if first.Players != 0 || first.Games != 0 || first.Spectators != 0 || first.Featured != nil {
		t.Errorf("an empty server: %+v", first)
	}
	for i, s := range first.Scheduled {
		if i > 0 && s.StartsAt.Before(first.Scheduled[i-1].StartsAt) {
			t.Errorf("scheduled not soonest first: %+v", first.Scheduled)
		}
		if !s.StartsAt.After(time.Now()) || s.Link != "/t/"+s.ID || s.Name == "" {
			t.Errorf("scheduled %+v", s)
		}
	}
	if first.Scheduled[0].Schedule != "hourly" {
		t.Errorf("the next one is %+v, want the hourly one", first.Scheduled[0])
	}

	// A private game in play, and a public one with a spectator.
	private := e.create(t, ctx, map[string]any{"format": "match", "holes": 3, "seats": 2}, "Cy", "Di")
	e.startRoom(t, ctx, private)
	public := e.create(t, ctx, map[string]any{"format": "match", "holes": 3, "seats": 2, "public": true, "spectators": true}, "Ana", "Bo")
	e.startRoom(t, ctx, public)
	dial(t, ctx, e.ts, public[0].Code, "")
	l := waitLive(t, ctx, e.ts, func(l liveAnswer) bool { return l.Spectators == 1 && l.Featured != nil })
	if l.Players != 4 || l.Games != 2 {
		t.Errorf("players %d, games %d; want 4 and 2", l.Players, l.Games)
	}
	f := l.Featured
	if f.Code != public[0].Code || f.Link != "/watch/"+f.Code || f.Spectators != 1 || len(f.Seats) != 2 || f.Seats[0] != "Ana" {
		t.Errorf("featured %+v, want %s", f, public[0].Code)
	}
}
