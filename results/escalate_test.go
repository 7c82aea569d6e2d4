package results_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/golf"
	"golfsolitaire/jobs"
	"golfsolitaire/results"
)

// TestAnalyseEscalated: a player whose evidence before a hole is at or
// above the escalation's level has the hole analysed with the deeper
// setting (its stretches scored on 6 orders), one below it with the
// base (3 orders); evidence of a hole that finished later does not
// count; and a batch of one deal's seats takes the deeper setting if any
// of its seats needs it.
func TestAnalyseEscalated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := fairplay.NewMemoryStore()
	deepCount := &countCounter{Counter: prometheus.NewCounter(prometheus.CounterOpts{Name: "c"})}
	base, deep := fairplay.Config{Samples: 2, Nodes: 3000}, fairplay.Config{Samples: 5, Nodes: 3000}
	holds := testHolds(st, func(o *review.Options) {
		o.Config, o.Escalation, o.Deep = base, fairplay.Escalation{Level: 1, Deep: deep}, deepCount
	})
	a := results.NewAnalyser(holds, nil, quietLog())
	t0 := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	// A hole with a likelihood ratio of about 24 (the real order alone
	// lost nothing of 25): a score of about 2 nats.
	regrets := make([]int, 25)
	for i := range 24 {
		regrets[i] = 2
	}
	strong := fairplay.Hole{Decisions: 1, Segments: []fairplay.Segment{{Decisions: 1, Least: true, P: 1.0 / 25, Regrets: regrets}}}
	for _, r := range []fairplay.HoleReport{
		{Player: "high", Room: "OLD", Round: 1, Hole: 1, At: t0, Analysis: strong},
		{Player: "later", Room: "NEW", Round: 1, Hole: 9, At: t0.Add(time.Hour), Analysis: strong},
	} {
		if _, err := st.AddHole(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	v := golf.DefaultVariant()
	job := func(player string, deal int, room string) jobs.Job {
		d := golf.NewDeal(v, golf.NumberedSeed(deal))
		g := golf.NewState(&d)
		for !g.Over() {
			_ = g.Apply(g.Legal()[0])
		}
		j, err := results.HoleJob(results.Hole{Hole: review.Hole{Variant: v, Seed: d.Seed, Moves: g.Moves(),
			Report: fairplay.HoleReport{Player: player, Name: player, Room: room, Round: 1, Hole: 1, At: t0.Add(time.Minute)}}})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	// orders reads the K+1 of the player's hole in room.
	orders := func(player, room string) int {
		_, reports, err := st.Player(ctx, player)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reports {
			if r.Room == room {
				if len(r.Analysis.Segments) == 0 {
					t.Fatalf("%s's hole in %s has no stretch scored", player, room)
				}
				return len(r.Analysis.Segments[0].Regrets)
			}
		}
		t.Fatalf("%s's hole in %s was not analysed", player, room)
		return 0
	}
	for _, j := range []jobs.Job{job("high", 11, "A"), job("low", 11, "B"), job("later", 11, "C")} {
		if err := a.Work(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		player, room string
		want         int
	}{{"high", "A", deep.Samples + 1}, {"low", "B", base.Samples + 1}, {"later", "C", base.Samples + 1}} {
		if got := orders(tt.player, tt.room); got != tt.want {
			t.Errorf("%s's next hole was scored on %d orders, want %d", tt.player, got, tt.want)
		}
	}
	if got := deepCount.n; got != 1 {
		t.Errorf("%d holes counted as escalated, want 1", got)
	}
	// One deal's seats in one batch: the low player's hole is analysed
	// with the high one's deeper setting.
	batch := jobs.Batch([]jobs.Job{job("high", 12, "D"), job("low", 12, "D")}, 16)
	if len(batch) != 1 {
		t.Fatalf("%d jobs, want one batch", len(batch))
	}
	if err := a.Work(ctx, batch[0]); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"high", "low"} {
		if got := orders(p, "D"); got != deep.Samples+1 {
			t.Errorf("%s's hole in a batch with a player above the level was scored on %d orders, want %d", p, got, deep.Samples+1)
		}
	}
}

// countCounter counts its Inc calls.
type countCounter struct {
	prometheus.Counter
	n int
}

func (c *countCounter) Inc() { c.n++; c.Counter.Inc() }
