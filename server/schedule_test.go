package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/tourney"
)

// listedTournament is what GET /api/tournaments shows of one.
type listedTournament struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	Settings struct {
		Schedule string    `json:"schedule"`
		Starts   time.Time `json:"starts"`
		Holes    int       `json:"holes"`
		Format   string    `json:"format"`
	} `json:"settings"`
}

func listTournaments(t *testing.T, ctx context.Context, base string) []listedTournament {
	t.Helper()
	var out struct {
		Tournaments []listedTournament `json:"tournaments"`
	}
	getJSONInto(t, ctx, base+"/api/tournaments", &out)
	return out.Tournaments
}

func getJSONInto(t *testing.T, ctx context.Context, url string, v any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// scheduled returns the listed scheduled tournaments by slot key
// (cadence/start), with how many tournaments each slot has.
func scheduled(ls []listedTournament) map[string][]listedTournament {
	out := map[string][]listedTournament{}
	for _, l := range ls {
		if l.Settings.Schedule != "" {
			k := l.Settings.Schedule + "/" + l.Settings.Starts.UTC().Format("2006-01-02T15:04Z")
			out[k] = append(out[k], l)
		}
	}
	return out
}

// waitScheduled waits until every slot of the schedule due at start is
// listed on base.
func waitScheduled(t *testing.T, ctx context.Context, base string, sc tourney.Schedule, start time.Time) map[string][]listedTournament {
	t.Helper()
	for {
		got := scheduled(listTournaments(t, ctx, base))
		all := true
		for _, slot := range sc.Upcoming(start) {
			if len(got[slot.Key()]) == 0 {
				all = false
			}
		}
		if all {
			return got
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the schedule's tournaments are not listed: %v", got)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestScheduleFreshServer: a fresh server on the memory store lists the
// next hourly tournament (and the rest of the schedule) at once, with its
// start time, open for entries.
func TestScheduleFreshServer(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	sc, err := tourney.ParseSchedule(tourney.DefaultSchedule)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now().UTC()
	e := newEnv(t, func(o *server.Options) { o.Schedule = sc })
	got := waitScheduled(t, ctx, e.ts, sc, start)
	next := start.Truncate(time.Hour).Add(time.Hour)
	hourly := got["hourly/"+next.Format("2006-01-02T15:04Z")]
	if len(hourly) != 1 {
		// The hour turned while the server started: the next is the one after.
		next = next.Add(time.Hour)
		hourly = got["hourly/"+next.Format("2006-01-02T15:04Z")]
	}
	if len(hourly) != 1 {
		t.Fatalf("no hourly tournament starting at %s listed: %v", next, got)
	}
	h := hourly[0]
	if h.Status != "upcoming" || h.Settings.Holes != 9 || h.Settings.Format != "stroke" || !h.Settings.Starts.Equal(next) {
		t.Errorf("hourly listing: %+v", h)
	}
	for k, ls := range got {
		if strings.HasPrefix(k, "weekly/") && ls[0].Settings.Format != "knockout" {
			t.Errorf("weekly: %+v", ls[0])
		}
		if strings.HasPrefix(k, "daily/") && ls[0].Settings.Holes != 18 {
			t.Errorf("daily: %+v", ls[0])
		}
	}
	// Entries are open before the start.
	g, err := e.api.JoinTournament(ctx, h.ID, protocol.JoinTournamentRequest{Name: "Ana"})
	if err != nil {
		t.Fatalf("entering the hourly tournament: %v", err)
	}
	if g.Entrant != 0 {
		t.Errorf("entrant %d", g.Entrant)
	}
}

// TestScheduleOnce: two instances sharing a store, started together with
// the same schedule, create each slot's tournament once.
func TestScheduleOnce(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		sc, err := tourney.ParseSchedule(tourney.DefaultSchedule)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now().UTC()
		var wg sync.WaitGroup
		ins := make([]*instance, 2)
		for i := range ins {
			wg.Go(func() { ins[i] = startInstance(t, cl.store(t), cl.own, func(o *server.Options) { o.Schedule = sc }) })
		}
		wg.Wait()
		for _, in := range ins {
			got := waitScheduled(t, ctx, in.url, sc, start)
			for k, ls := range got {
				if len(ls) != 1 {
					t.Errorf("%s: slot %s has %d tournaments: %v", in.url, k, len(ls), ls)
				}
			}
		}
	})
}

// TestScheduleNotSettable: a player cannot make a tournament pass for a
// scheduled one.
func TestScheduleNotSettable(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	starts := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	body := fmt.Sprintf(`{"name":"Ana","settings":{"name":"Hourly","schedule":"hourly","starts":%q}}`, starts)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.ts+"/api/tournaments", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out protocol.APIError
	json.NewDecoder(res.Body).Decode(&out)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(out.Message, "schedule") {
		t.Errorf("got %s %+v, want 400 naming the schedule", res.Status, out)
	}
	if ls := listTournaments(t, ctx, e.ts); len(ls) != 0 {
		t.Errorf("listed: %v", ls)
	}
}
