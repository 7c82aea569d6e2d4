package results_test

import (
	"context"
	"fmt"
	"reflect"
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
// The seats are analysed together: each gets the analysis it gets alone,
// and a seat that made the same moves as another costs no solve.
func TestAnalyseBatch(t *testing.T) {
	t.Parallel()
	st := fairplay.NewMemoryStore()
	holds := testHolds(st, func(o *review.Options) {})
	a := results.NewAnalyser(holds, nil, quietLog())
	v := golf.DefaultVariant()
	d := golf.NewDeal(v, golf.NumberedSeed(5))
	var js []jobs.Job
	lines := map[int][]golf.Move{}
	for seat := range 4 {
		st := golf.NewState(&d)
		for !st.Over() {
			legal := st.Legal()
			_ = st.Apply(legal[(seat%3)%len(legal)]) // seat 3 plays as seat 0
		}
		lines[seat] = st.Moves()
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
	cfg := fairplay.Config{Samples: 2, Nodes: 300}
	for seat := range 4 {
		ev, reports, err := st.Player(context.Background(), fmt.Sprintf("p%d", seat))
		if err != nil || ev.Holes != 1 || len(reports) != 1 {
			t.Fatalf("seat %d: %d holes of evidence, %d reports, %v; want 1", seat, ev.Holes, len(reports), err)
		}
		got := reports[0].Analysis
		alone, err := fairplay.AnalyseHole(&d, lines[seat], cfg)
		if err != nil {
			t.Fatal(err)
		}
		if seat == 3 && alone.Solves > 0 && got.Solves != 0 {
			t.Errorf("seat 3 made seat 0's moves but its analysis made %d solves, want them shared", got.Solves)
		}
		got.Solves, got.Nodes, alone.Solves, alone.Nodes = 0, 0, 0, 0
		if !reflect.DeepEqual(got, alone) {
			t.Errorf("seat %d analysed with its deal's seats:\n%+v\nalone:\n%+v", seat, got, alone)
		}
	}
}

// TestAnalyserBudget: each analysis waits for the budget and spends what
// its measure says it took: with a quarter of a core and analyses of
// 100 ms of CPU, the second waits 400 ms (counted on a clock that moves
// only when the analyser sleeps), and the first not at all.
func TestAnalyserBudget(t *testing.T) {
	t.Parallel()
	st := fairplay.NewMemoryStore()
	holds := testHolds(st, func(o *review.Options) {})
	now := time.Unix(1_700_000_000, 0)
	var slept []time.Duration
	budget := jobs.NewBudget(0.25, jobs.BudgetOptions{
		Now: func() time.Time { return now },
		Sleep: func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			now = now.Add(d)
			return nil
		},
	})
	a := results.NewAnalyser(holds, nil, quietLog()).
		WithMeasure(func(run func()) time.Duration { run(); return 100 * time.Millisecond }).
		WithBudget(budget)
	v := golf.DefaultVariant()
	for n := range 2 {
		d := golf.NewDeal(v, golf.NumberedSeed(7+n))
		st := golf.NewState(&d)
		for !st.Over() {
			_ = st.Apply(st.Legal()[0])
		}
		j, err := results.HoleJob(results.Hole{Hole: review.Hole{Variant: v, Seed: d.Seed, Moves: st.Moves(),
			Report: fairplay.HoleReport{Player: "p", Name: "P", Room: "ROOM", Round: 1, Hole: n + 1, At: time.Now()}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Work(context.Background(), j); err != nil {
			t.Fatal(err)
		}
	}
	var total time.Duration
	for _, d := range slept {
		total += d
	}
	if want := 400 * time.Millisecond; total < want || total > want+time.Millisecond {
		t.Errorf("the analyses rested %v (%v), want %v: 100 ms of CPU at a quarter of a core, once", total, slept, want)
	}
}

// testHolds is the Holds the analyser tests file evidence with: st, a
// cheap analysis, counters nobody reads; mod changes the options.
func testHolds(st fairplay.Store, mod func(*review.Options)) *review.Holds {
	c := func() prometheus.Counter { return prometheus.NewCounter(prometheus.CounterOpts{Name: "c"}) }
	o := review.Options{Store: st, Accounts: inmem.New(), Logger: quietLog(), Now: time.Now,
		Config: fairplay.Config{Samples: 2, Nodes: 300}, Rule: fairplay.DefaultRule,
		Held: c(), Voided: c(), Analysed: c(), Flagged: c(), Failed: c()}
	mod(&o)
	return review.New(o)
}
