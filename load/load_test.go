package load

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"golfsolitaire/match"
)

func TestPick(t *testing.T) {
	tests := []struct {
		name  string
		board *match.Board
		want  []string // every move pick may choose; none for ok false
	}{
		{"no board", nil, nil},
		{"done", &match.Board{Done: true, Playable: []int{1}}, nil},
		{"stuck", &match.Board{Playable: []int{}}, nil},
		{"plays and turn", &match.Board{Playable: []int{2, 7}, CanTurn: true}, []string{"2", "7", "s"}},
		{"redeal only", &match.Board{Playable: []int{}, CanRedeal: true}, []string{"r"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			seen := map[string]bool{}
			for range 200 {
				m, ok := pick(tt.board, rng)
				if ok != (len(tt.want) > 0) {
					t.Fatalf("pick = %q, %v", m, ok)
				}
				if ok {
					seen[m] = true
				}
			}
			for m := range seen {
				if !slices.Contains(tt.want, m) {
					t.Errorf("picked %q, want one of %q", m, tt.want)
				}
			}
			if len(seen) != len(tt.want) {
				t.Errorf("picked %v, want every one of %q", seen, tt.want)
			}
		})
	}
}

func TestTracker(t *testing.T) {
	base := time.Unix(1000, 0)
	tr := newTracker(2)
	tr.received(5, base.Add(3*time.Millisecond)) // before the ack
	tr.sent(5, base)
	tr.received(5, base.Add(4*time.Millisecond)) // after it
	tr.sent(6, base)
	tr.received(7, base) // a move never acked here
	got := tr.take()
	want := []time.Duration{3 * time.Millisecond, 4 * time.Millisecond}
	if !slices.Equal(got, want) {
		t.Errorf("latencies %v, want %v", got, want)
	}
	if _, ok := tr.moves[5]; ok {
		t.Errorf("version 5 still pending after every opponent saw it")
	}
}

func TestSummarise(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := summarise(ds)
	want := Latency{N: 100, P50: 50, P95: 95, P99: 99, Max: 100}
	if got != want {
		t.Errorf("summarise = %+v, want %+v", got, want)
	}
	if (summarise(nil) != Latency{}) {
		t.Errorf("summarise(nil) is not zero")
	}
}

func TestTimeline(t *testing.T) {
	t0 := time.Now()
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	ms := time.Millisecond
	ds := []time.Duration{3 * ms, 1 * ms, 40 * ms, 2 * ms, 7 * ms}
	ats := []time.Time{at(0.2), at(-0.1), at(2.9), at(0.9), at(2.1)}
	got := timeline(ds, ats, t0, time.Second)
	want := []Slice{
		{From: 0, Latency: Latency{N: 3, P50: 2, P95: 3, P99: 3, Max: 3}},
		{From: 1},
		{From: 2, Latency: Latency{N: 2, P50: 7, P95: 40, P99: 40, Max: 40}},
	}
	if !slices.Equal(got, want) {
		t.Errorf("timeline = %+v, want %+v", got, want)
	}
	if !slices.Equal(ds, []time.Duration{3 * ms, 1 * ms, 40 * ms, 2 * ms, 7 * ms}) {
		t.Errorf("timeline reordered the acks: %v", ds)
	}
	if timeline(ds, ats, t0, 0) != nil || timeline(ds, ats[:2], t0, time.Second) != nil {
		t.Errorf("a timeline without a width, or with times that do not match the acks")
	}
}

func TestBaselineViews(t *testing.T) {
	for _, players := range []int{2, 3, 8} {
		b, err := NewBaseline(players, 9)
		if err != nil {
			t.Fatalf("%d players: %v", players, err)
		}
		if len(b.views) != players || b.hole < 1 {
			t.Errorf("%d players: %d views, hole %d", players, len(b.views), b.hole)
		}
	}
}

// TestThinkPause: a player's first pause in a room is spread over the
// think time, so rooms set up together do not move in step; later pauses
// are spread between half and one and a half times it, so players whose
// moves a stall gathered together do not stay in step either.
func TestThinkPause(t *testing.T) {
	const think = 4 * time.Second
	const players = 1000
	for _, c := range []struct {
		first  bool
		lo, hi time.Duration
	}{{true, 0, think}, {false, think / 2, think * 3 / 2}} {
		var quarters [4]int
		var sum time.Duration
		for range players {
			d := thinkPause(think, c.first)
			if d < c.lo || d >= c.hi {
				t.Fatalf("pause (first %v) %v, want in [%v, %v)", c.first, d, c.lo, c.hi)
			}
			quarters[(d-c.lo)*4/(c.hi-c.lo)]++
			sum += d
		}
		// Each quarter of the range holds about a quarter of the players
		// (250 each; below 150 is some 8 standard deviations off).
		for i, n := range quarters {
			if n < 150 {
				t.Errorf("first %v: %d of %d pauses in quarter %d of [%v, %v): %v", c.first, n, players, i, c.lo, c.hi, quarters)
			}
		}
		// The mean is the middle of the range (its standard error some
		// 37 ms: 200 ms is over 5 of them).
		if mean, mid := sum/players, (c.lo+c.hi)/2; mean < mid-200*time.Millisecond || mean > mid+200*time.Millisecond {
			t.Errorf("first %v: mean pause %v, want about %v", c.first, mean, mid)
		}
	}
	for _, first := range []bool{true, false} {
		if got := thinkPause(0, first); got != 0 {
			t.Errorf("thinkPause(0, %v) = %v, want 0", first, got)
		}
	}
}

func TestSchedLatency(t *testing.T) {
	bounds := []float64{0, .001, .002, .004, math.Inf(1)}
	before := []uint64{5, 5, 5, 5}
	after := []uint64{105, 55, 43, 7}
	got := schedLatency(bounds, before, after)
	want := Latency{N: 190, P50: 1, P95: 4, P99: 4, Max: 4}
	if got != want {
		t.Errorf("schedLatency = %+v, want %+v", got, want)
	}
	if (schedLatency(bounds, before, before) != Latency{}) || (schedLatency(bounds[:3], before, after) != Latency{}) {
		t.Errorf("no waits, or buckets that do not match, gave a summary")
	}
	b, c := schedCounts()
	if len(b) != len(c)+1 || len(c) == 0 {
		t.Errorf("schedCounts: %d bounds for %d counts", len(b), len(c))
	}
}

// TestGate: a player counts once at the window's gate however often it
// arrives (a player may arrive, then end), and a run whose players do not
// all arrive is not left waiting past its setup's deadline.
func TestGate(t *testing.T) {
	var r runner
	ps := []*player{{gated: true}, {gated: true}, {}}
	r.ready.Add(2)
	for _, p := range ps {
		r.arrive(p)
		r.arrive(p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := waitGroup(ctx, &r.ready); err != nil {
		t.Fatalf("every player arrived, yet: %v", err)
	}
	r.ready.Add(1) // one that never arrives
	short, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := waitGroup(short, &r.ready); err == nil {
		t.Fatal("waitGroup returned nil with a player still to arrive")
	}
	r.arrive(&player{gated: true})
	r.open = make(chan struct{})
	close(r.open)
	if err := r.waitOpen(context.Background()); err != nil {
		t.Errorf("waitOpen with the window open: %v", err)
	}
}

// TestQuietCollector: the collector is off, with the limit, until the
// restore; a second hold while it is off changes nothing, and the first's
// restore brings back what was there before either.
func TestQuietCollector(t *testing.T) {
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(limit)
	first := quietCollector(1 << 30)
	if p, l := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); p != -1 || l != 1<<30 {
		t.Errorf("held: GC percent %d, limit %d; want -1 and %d", p, l, 1<<30)
	}
	second := quietCollector(2 << 30)
	if l := debug.SetMemoryLimit(-1); l != 1<<30 {
		t.Errorf("a second hold set the limit to %d", l)
	}
	first()
	second()
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); p != 100 || l != math.MaxInt64 {
		t.Errorf("after both: GC percent %d, limit %d; want 100 and no limit", p, l)
	}
}
