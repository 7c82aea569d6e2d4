package fairplay_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"golfsolitaire/fairplay"
)

// seg is an informative segment of K+1 orders whose regrets are 2 on
// every order but the real one (the last), whose regret is real.
func seg(k, real int) fairplay.Segment {
	r := make([]int, k+1)
	for i := range k {
		r[i] = 2
	}
	r[k] = real
	return asReal(r, k)
}

// TestCombinationTable: hand-made runs of holes scored with a
// combination: the flag's hole, the peak and the segments.
func TestCombinationTable(t *testing.T) {
	t.Parallel()
	best, worst := seg(3, 0), seg(3, 4) // E about 3.6 and about 0.05
	rule := fairplay.Rule{Alpha: 0.001, MinSegments: 2}
	one := fairplay.Combination{Lambda: 2, Slip: 0.05, Shares: []float64{1}}
	lb, lw := one.LogLR([]fairplay.Segment{best}), one.LogLR([]fairplay.Segment{worst})
	for _, tc := range []struct {
		name  string
		c     fairplay.Combination
		holes [][]fairplay.Segment
		want  fairplay.RoundScore
	}{
		{"no holes", one, nil, fairplay.RoundScore{}},
		{"too few segments", one, [][]fairplay.Segment{{best}}, fairplay.RoundScore{Segments: 1}},
		{"share 1: the sum of log E", one, [][]fairplay.Segment{{best, best}, {best, best}, {best, best}},
			fairplay.RoundScore{FlaggedAt: 3, Peak: 6 * lb, Segments: 6}},
		{"a miss", one, [][]fairplay.Segment{{best, best}, {worst}, {best, best}, {best, best}},
			fairplay.RoundScore{FlaggedAt: 0, Peak: 6*lb + lw, Segments: 7}},
		{"an empty hole counts as a hole", one, [][]fairplay.Segment{{best, best}, {}, {best, best, best, best}},
			fairplay.RoundScore{FlaggedAt: 3, Peak: 6 * lb, Segments: 6}},
		{"share 0.5", fairplay.Combination{Lambda: 2, Slip: 0.05, Shares: []float64{0.5}}, [][]fairplay.Segment{{best, best}},
			fairplay.RoundScore{Peak: math.Log(0.5*math.Exp(2*lb) + 0.5), Segments: 2}},
		{"two shares, the mean of the wealths", fairplay.Combination{Lambda: 2, Slip: 0.05, Shares: []float64{1, 0.5}}, [][]fairplay.Segment{{best, best}},
			fairplay.RoundScore{Peak: math.Log((math.Exp(2*lb) + 0.5*math.Exp(2*lb) + 0.5) / 2), Segments: 2}},
		// The adaptive bettor bets Start (0.5, nearest of the grid) on the
		// first hole, then the leader after it: 1 after a strong hole.
		{"adaptive", fairplay.Combination{Lambda: 2, Slip: 0.05, Grid: []float64{0.1, 0.5, 1}, Start: 0.4}, [][]fairplay.Segment{{best, best}, {best}},
			fairplay.RoundScore{Peak: math.Log(0.5*math.Exp(2*lb)+0.5) + lb, Segments: 3}},
		// After a weak hole the smallest share leads.
		{"adaptive after a miss", fairplay.Combination{Lambda: 2, Slip: 0.05, Grid: []float64{0.1, 0.5, 1}, Start: 1}, [][]fairplay.Segment{{worst}, {best}},
			fairplay.RoundScore{Peak: lw + math.Log(0.1*math.Exp(lb)+0.9), Segments: 2}},
		{"lambda and slip", fairplay.Combination{Lambda: 1, Slip: 0.2, Shares: []float64{1}}, [][]fairplay.Segment{{best, best}},
			fairplay.RoundScore{Peak: 2 * math.Log(0.8*4/(1+3*math.Exp(-2))+0.2), Segments: 2}},
	} {
		got := tc.c.ScoreHoles(tc.holes, rule)
		if got.FlaggedAt != tc.want.FlaggedAt || got.Segments != tc.want.Segments || math.Abs(got.Peak-max(0, tc.want.Peak)) > 1e-9 {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestDefaultCombination: the evidence scores as DefaultCombination
// does, hole by hole, and Segment.E is its SegmentE.
func TestDefaultCombination(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	c := fairplay.DefaultCombination()
	var ev fairplay.Evidence
	var w fairplay.Wealth
	for range 50 {
		h := randomHole(rng)
		ev.Add(h)
		c.Add(&w, c.LogLR(h.Segments))
		if math.Abs(ev.Score()-c.Score(w)) > 1e-9 {
			t.Fatalf("evidence scores %.6f, the combination %.6f", ev.Score(), c.Score(w))
		}
		for _, g := range h.Segments {
			if g.E() != c.SegmentE(g) {
				t.Fatalf("%+v: E %g, SegmentE %g", g, g.E(), c.SegmentE(g))
			}
		}
	}
}

// randomHole is a hole of up to three segments whose real order is any
// of the K+1 with equal chance (honest).
func randomHole(rng *rand.Rand) fairplay.Hole {
	var h fairplay.Hole
	for range rng.IntN(4) {
		r := make([]int, []int{4, 9, 25}[rng.IntN(3)])
		for i := range r {
			r[i] = rng.IntN(4)
		}
		h.Segments = append(h.Segments, asReal(r, rng.IntN(len(r))))
	}
	return h
}

// TestCombinationUndo: undoing the latest holes, the latest first,
// gives the wealth of the holes before them, with an adaptive bettor
// too, whose shares depend on the order.
func TestCombinationUndo(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	c := fairplay.Combination{Lambda: 2, Slip: 0.05, Shares: []float64{0.3}, Grid: []float64{0.05, 0.1, 0.3, 1}, Start: 0.3}
	for range 200 {
		n := 1 + rng.IntN(12)
		ls := make([]float64, n)
		var all fairplay.Wealth
		for i := range ls {
			ls[i] = c.LogLR(randomHole(rng).Segments)
			if rng.IntN(4) == 0 {
				ls[i] += 3 // a strong hole now and then, so the leader changes
			}
			c.Add(&all, ls[i])
		}
		cut := rng.IntN(n + 1)
		for i := n - 1; i >= cut; i-- {
			c.Undo(&all, ls[i])
		}
		var want fairplay.Wealth
		for _, l := range ls[:cut] {
			c.Add(&want, l)
		}
		if math.Abs(all.LogAdaptive-want.LogAdaptive) > 1e-9 || math.Abs(c.Score(all)-c.Score(want)) > 1e-9 {
			t.Fatalf("%d holes less %d: %+v, want %+v", n, n-cut, all, want)
		}
	}
}

// TestCombinationCheck: a combination that is not one is refused in
// words.
func TestCombinationCheck(t *testing.T) {
	t.Parallel()
	if err := fairplay.DefaultCombination().Check(); err != nil {
		t.Fatalf("the default: %v", err)
	}
	for _, c := range []fairplay.Combination{
		{Lambda: -1, Shares: []float64{0.3}},
		{Lambda: math.NaN(), Shares: []float64{0.3}},
		{Lambda: 2, Slip: 1, Shares: []float64{0.3}},
		{Lambda: 2, Shares: []float64{0}},
		{Lambda: 2, Shares: []float64{1.5}},
		{Lambda: 2, Grid: []float64{0.1}},
		{Lambda: 2},
	} {
		if c.Check() == nil {
			t.Errorf("%+v passes", c)
		}
	}
}

// honestAdaptiveRate plays players holes of honest segments (the real
// order any of the K+1 with equal chance) and scores them with the
// combination: the share of players the rule flags at some point.
func honestAdaptiveRate(c fairplay.Combination, rule fairplay.Rule, players, holes int, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, 11))
	flagged := 0
	for range players {
		hs := make([][]fairplay.Segment, holes)
		for i := range hs {
			hs[i] = randomHole(rng).Segments
		}
		if c.ScoreHoles(hs, rule).FlaggedAt > 0 {
			flagged++
		}
	}
	return float64(flagged) / float64(players)
}

// TestHonestFlagRateAdaptive: with an adaptive bettor (its share read
// from the holes before each), honest players are flagged at most Alpha
// of the time, and at a bar of 20 (Alpha 0.05) at most 5%, alone or
// beside a fixed share; a player who is alone best on a tenth of their
// holes is flagged.
func TestHonestFlagRateAdaptive(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	const players, holes = 20000, 60
	loose := fairplay.Rule{Alpha: 0.05, MinSegments: fairplay.MinSegments}
	grid := []float64{0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1}
	for _, c := range []fairplay.Combination{
		fairplay.DefaultCombination(),
		{Lambda: 2, Slip: 0.05, Grid: grid, Start: 0.3},
		{Lambda: 2, Slip: 0.05, Shares: []float64{0.3}, Grid: grid, Start: 0.3},
	} {
		strict, lax := honestAdaptiveRate(c, fairplay.DefaultRule, players, holes, 1), honestAdaptiveRate(c, loose, players, holes, 2)
		if strict > fairplay.Alpha || lax > loose.Alpha {
			t.Errorf("%+v: honest flag rate %.5f (bar %g), %.4f (bar %g)", c, strict, fairplay.Alpha, lax, loose.Alpha)
		}
		t.Logf("%+v: honest flag rate %.5f (Alpha %g), %.4f (0.05)", c, strict, fairplay.Alpha, lax)
	}
	c := fairplay.Combination{Lambda: 2, Slip: 0.05, Grid: grid, Start: 0.3}
	rng := rand.New(rand.NewPCG(12, 13))
	hs := make([][]fairplay.Segment, 300)
	for i := range hs {
		hs[i] = randomHole(rng).Segments
		if i%10 == 0 {
			hs[i] = []fairplay.Segment{seg(24, 0), seg(24, 0)}
		}
	}
	if got := c.ScoreHoles(hs, fairplay.DefaultRule); got.FlaggedAt == 0 {
		t.Errorf("alone best on a tenth of the holes: not flagged (%+v)", got)
	}
}

// TestEvidenceStoredEarlier: evidence stored before the combination
// changed (a product for the one share 0.3 with Lambda 2 and Slip 0.05,
// no adaptive bettor) still loads, scores its product, and goes on
// counting: each later hole multiplies it by the current combination's
// factor (a bettor whose share and e-values changed between two holes:
// each factor still has honest expectation 1). Its JSON keeps the
// fields it had.
func TestEvidenceStoredEarlier(t *testing.T) {
	t.Parallel()
	old := []byte(`{"holes":3,"decisions":12,"segments":5,"least":2,"expected":1.5,"discriminating":1,"clairvoyant":1,"visible":0,"logProducts":[2.5]}`)
	var ev fairplay.Evidence
	if err := json.Unmarshal(old, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Holes != 3 || ev.Segments != 5 || math.Abs(ev.Score()-2.5) > 1e-12 {
		t.Fatalf("old evidence %+v scores %.4f, want 2.5", ev, ev.Score())
	}
	h := fairplay.Hole{Segments: []fairplay.Segment{seg(24, 0)}}
	ev.Add(h)
	c := fairplay.DefaultCombination()
	want := 2.5
	if len(c.Shares) == 1 && len(c.Grid) == 0 {
		want += math.Log(c.Shares[0]*math.Exp(h.LogLR()) + 1 - c.Shares[0])
	} else {
		t.Fatalf("the default %+v is not one share: say here what old evidence becomes", c)
	}
	if ev.Holes != 4 || math.Abs(ev.Score()-want) > 1e-9 {
		t.Fatalf("after a hole: %+v scores %.4f, want %.4f", ev, ev.Score(), want)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"holes", "segments", "logProducts"} {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: no %q", b, k)
		}
	}
	if _, ok := m["logShadows"]; ok {
		t.Errorf("%s: shadows without an adaptive bettor", b)
	}
}
