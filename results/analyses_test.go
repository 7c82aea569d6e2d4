package results_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/accounts/inmem"
	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/golf"
	"golfsolitaire/jobs"
	"golfsolitaire/results"
)

// TestAnalyseBatch: the seats of a deal reach the analyser in one batch
// job; each hole is analysed and its evidence stored once, and the batch
// worked again (a retry, or a relay that batched it twice) adds nothing.
func TestAnalyseBatch(t *testing.T) {
	t.Parallel()
	st := fairplay.NewMemoryStore()
	c := func() prometheus.Counter { return prometheus.NewCounter(prometheus.CounterOpts{Name: "c"}) }
	holds := review.New(review.Options{Store: st, Accounts: inmem.New(), Logger: quietLog(), Now: time.Now,
		Config: fairplay.Config{Samples: 2, Nodes: 300}, Rule: fairplay.DefaultRule,
		Held: c(), Voided: c(), Analysed: c(), Flagged: c(), Failed: c()})
	a := results.NewAnalyser(holds, nil, quietLog())
	v := golf.DefaultVariant()
	d := golf.NewDeal(v, golf.NumberedSeed(5))
	var js []jobs.Job
	for seat := range 3 {
		st := golf.NewState(&d)
		for !st.Over() {
			legal := st.Legal()
			_ = st.Apply(legal[seat%len(legal)])
		}
		j, err := results.HoleJob(results.Hole{Hole: review.Hole{Variant: v, Seed: d.Seed, Moves: st.Moves(),
			Report: fairplay.HoleReport{Player: fmt.Sprintf("p%d", seat), Name: fmt.Sprintf("P%d", seat), Room: "ROOM", Round: 1, Hole: 1, At: time.Now()}}})
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, j)
	}
	batch := jobs.Batch(js, 16)
	if len(batch) != 1 || !jobs.Batched(batch[0]) {
		t.Fatalf("the seats of one deal made %d jobs, want one batch", len(batch))
	}
	for range 2 {
		if err := a.Work(context.Background(), batch[0]); err != nil {
			t.Fatal(err)
		}
	}
	for seat := range 3 {
		ev, reports, err := st.Player(context.Background(), fmt.Sprintf("p%d", seat))
		if err != nil || ev.Holes != 1 || len(reports) != 1 {
			t.Errorf("seat %d: %d holes of evidence, %d reports, %v; want 1", seat, ev.Holes, len(reports), err)
		}
	}
}
