package fairplay_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"golfsolitaire/fairplay"
	"golfsolitaire/golf"
)

var testCfg = fairplay.Config{Samples: 6, Nodes: 3000}

// clairvoyantLine is the solver's line for the real deal: the play of
// someone who knows the stock.
func clairvoyantLine(t *testing.T, d *golf.Deal) []golf.Move {
	t.Helper()
	sol := golf.Solve(d, &golf.SolveOptions{MaxNodes: 500_000})
	st := golf.NewState(d)
	for _, m := range sol.Moves {
		if err := st.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	for !st.Over() {
		_ = st.Apply(st.Legal()[0])
	}
	return append([]golf.Move(nil), st.Moves()...)
}

// firstDiscriminating finds a numbered deal whose clairvoyant line meets
// a discriminating decision, and returns the deal, the line and the
// analysis.
func firstDiscriminating(t *testing.T) (golf.Deal, []golf.Move, fairplay.Hole) {
	t.Helper()
	for n := 1; n <= 40; n++ {
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(n))
		line := clairvoyantLine(t, &d)
		a, err := fairplay.AnalyseHole(&d, line, testCfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Discriminating) > 0 {
			return d, line, a
		}
	}
	t.Fatal("no deal of 40 has a discriminating decision")
	panic("unreachable")
}

// TestDecisionWalk: at a discriminating decision, the move that is best
// with the real stock is recorded as a clairvoyant pick, and the move that
// is best from what can be seen as a visible pick; the hole's likelihood
// ratio favours clairvoyance only for the first.
func TestDecisionWalk(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	d, line, a := firstDiscriminating(t)
	dec := a.Discriminating[0]
	i := dec.Move
	if !reflect.DeepEqual(line[i], dec.Chosen) {
		t.Fatalf("decision at move %d chose %s, the line played %s", i+1, dec.Chosen, line[i])
	}
	// The honest record: the same up to the decision, the visible-best
	// move there, and the same line of thought (best with the real stock
	// from there on, so only this decision differs in kind).
	st := golf.NewState(&d)
	for _, m := range line[:i] {
		_ = st.Apply(m)
	}
	_ = st.Apply(dec.Visible)
	var sv golf.Solver
	rest := sv.SolveState(st, &golf.SolveOptions{MaxNodes: 500_000}).Moves
	for _, m := range rest {
		_ = st.Apply(m)
	}
	for !st.Over() {
		_ = st.Apply(st.Legal()[0])
	}
	honest := st.Moves()

	for _, tc := range []struct {
		name  string
		moves []golf.Move
		want  fairplay.Pick
	}{
		{"clairvoyant", line, fairplay.PickClairvoyant},
		{"visible", honest, fairplay.PickVisible},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := fairplay.AnalyseHole(&d, tc.moves, testCfg)
			if err != nil {
				t.Fatal(err)
			}
			var got *fairplay.Decision
			for k := range h.Discriminating {
				if h.Discriminating[k].Move == i {
					got = &h.Discriminating[k]
				}
			}
			if got == nil {
				t.Fatalf("decision at move %d not recorded: %+v", i+1, h.Discriminating)
			}
			if got.Pick != tc.want || got.Visible != dec.Visible || !reflect.DeepEqual(got.Clairvoyant, dec.Clairvoyant) {
				t.Fatalf("decision %+v, want pick %s", got, tc.want)
			}
			if got.RealMargin <= 0 || len(got.Mean) != len(got.Legal) || len(got.Real) != len(got.Legal) {
				t.Fatalf("margins: %+v", got)
			}
		})
	}
	// The clairvoyant line never loses a stroke with the real stock.
	for _, s := range a.Segments {
		if s.Regret != 0 || !s.Least {
			t.Fatalf("clairvoyant segment %+v", s)
		}
	}
	if a.LogLR() <= 0 {
		t.Fatalf("clairvoyant hole log LR %.3f, want > 0", a.LogLR())
	}
}

func TestAnalyseHoleDeterministic(t *testing.T) {
	t.Parallel()
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(3))
	line := clairvoyantLine(t, &d)
	a1, err1 := fairplay.AnalyseHole(&d, line, testCfg)
	a2, err2 := fairplay.AnalyseHole(&d, line, testCfg)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(a1, a2) {
		t.Fatalf("two analyses differ: %v %v", err1, err2)
	}
}

func TestAnalyseHoleBudget(t *testing.T) {
	t.Parallel()
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(5))
	line := clairvoyantLine(t, &d)
	for _, max := range []int{1, 50, 200} {
		cfg := testCfg
		cfg.MaxSolves = max
		a, err := fairplay.AnalyseHole(&d, line, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if a.Solves > max || !a.Truncated {
			t.Fatalf("MaxSolves %d: %d solves, truncated %v", max, a.Solves, a.Truncated)
		}
	}
}

func TestAnalyseHoleBadRecord(t *testing.T) {
	t.Parallel()
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(1))
	for _, moves := range [][]golf.Move{
		{golf.PlayPile(9)},
		{golf.UndoMove},
		{golf.RedealMove},
	} {
		if _, err := fairplay.AnalyseHole(&d, moves, testCfg); !errors.Is(err, fairplay.ErrBadRecord) {
			t.Errorf("%v: %v, want ErrBadRecord", moves, err)
		}
	}
}

// TestSegmentLR: the table of a segment's likelihood ratio, and that its
// expectation under honest play is 1 (what makes the score a martingale).
func TestSegmentLR(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seg  fairplay.Segment
		want float64
	}{
		{fairplay.Segment{Least: true, P: 0.25}, math.Log((1 - fairplay.Slip) / 0.25)},
		{fairplay.Segment{Least: false, P: 0.25}, math.Log(fairplay.Slip / 0.75)},
		{fairplay.Segment{Least: true, P: 1}, 0},
		{fairplay.Segment{Least: false, P: 0}, 0},
		{fairplay.Segment{Least: true, P: 1.0 / 9}, math.Log((1 - fairplay.Slip) * 9)},
	} {
		got := fairplay.Hole{Segments: []fairplay.Segment{tc.seg}}.LogLR()
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%+v: log LR %g, want %g", tc.seg, got, tc.want)
		}
	}
	for _, p := range []float64{1.0 / 9, 0.25, 0.5, 8.0 / 9} {
		yes := math.Exp(fairplay.Hole{Segments: []fairplay.Segment{{Least: true, P: p}}}.LogLR())
		no := math.Exp(fairplay.Hole{Segments: []fairplay.Segment{{Least: false, P: p}}}.LogLR())
		if e := p*yes + (1-p)*no; math.Abs(e-1) > 1e-12 {
			t.Errorf("P=%g: E[LR] = %g, want 1", p, e)
		}
	}
}

// TestScore: the score is the log of the mean, over the shares, of the
// products of share*LR + 1 - share.
func TestScore(t *testing.T) {
	t.Parallel()
	holes := []fairplay.Hole{
		{Segments: []fairplay.Segment{{Least: true, P: 0.25}, {Least: true, P: 0.5}}},
		{Segments: []fairplay.Segment{{Least: false, P: 0.5}}},
		{Segments: []fairplay.Segment{{Least: true, P: 1.0 / 3}}},
	}
	var e fairplay.Evidence
	for _, h := range holes {
		e.Add(h)
	}
	want := 0.0
	for _, eps := range fairplay.Shares {
		prod := 1.0
		for _, h := range holes {
			prod *= eps*math.Exp(h.LogLR()) + 1 - eps
		}
		want += prod / float64(len(fairplay.Shares))
	}
	if got := e.Score(); math.Abs(got-math.Log(want)) > 1e-9 {
		t.Fatalf("score %g, want %g", got, math.Log(want))
	}
	if e.Holes != 3 || e.Segments != 4 || e.Least != 3 || math.Abs(e.Expected-(0.25+0.5+0.5+1.0/3)) > 1e-12 {
		t.Fatalf("evidence %+v", e)
	}
	if (fairplay.Evidence{}).Score() != 0 {
		t.Fatal("empty evidence scores")
	}
}

func TestFlaggedBy(t *testing.T) {
	t.Parallel()
	strong := fairplay.Hole{Segments: []fairplay.Segment{{Least: true, P: 0.1}, {Least: true, P: 0.1}, {Least: true, P: 0.1}, {Least: true, P: 0.1}}}
	var e fairplay.Evidence
	e.Add(strong)
	for _, tc := range []struct {
		rule fairplay.Rule
		want bool
	}{
		{fairplay.Rule{Alpha: 0.001, MinSegments: 1}, true},  // score about 7.6 > 6.9
		{fairplay.Rule{Alpha: 0.001, MinSegments: 5}, false}, // too few segments
		{fairplay.Rule{Alpha: 1e-6, MinSegments: 1}, false},  // below 13.8
	} {
		if got := e.FlaggedBy(tc.rule); got != tc.want {
			t.Errorf("%+v: flagged %v (score %.2f), want %v", tc.rule, got, e.Score(), tc.want)
		}
	}
}

// TestHonestFlagRate: players whose segments follow the honest model
// exactly (Least with probability P) are flagged at most Alpha of the
// time, however long they play (Ville's inequality), and players who
// always do best are flagged.
func TestHonestFlagRate(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	rng := rand.New(rand.NewPCG(1, 2))
	const players, holes = 20000, 30
	ps := []float64{1.0 / 9, 2.0 / 9, 4.0 / 9, 6.0 / 9, 8.0 / 9}
	flagged, cheats := 0, 0
	for range players {
		var honest, cheat fairplay.Evidence
		hf, cf := false, false
		for range holes {
			var h, c fairplay.Hole
			for range 3 {
				p := ps[rng.IntN(len(ps))]
				h.Segments = append(h.Segments, fairplay.Segment{Least: rng.Float64() < p, P: p})
				c.Segments = append(c.Segments, fairplay.Segment{Least: true, P: p})
			}
			honest.Add(h)
			cheat.Add(c)
			hf = hf || honest.Flagged()
			cf = cf || cheat.Flagged()
		}
		if hf {
			flagged++
		}
		if cf {
			cheats++
		}
	}
	if rate := float64(flagged) / players; rate > fairplay.Alpha {
		t.Errorf("honest flag rate %.5f > %g", rate, fairplay.Alpha)
	}
	if cheats != players {
		t.Errorf("%d of %d always-best players flagged", cheats, players)
	}
}

// propertyCheck skips, under -race, a property check of pure code at full
// size (the package runs on the test's goroutine: no I/O, no goroutines).
// The race detector makes it many times slower and finds nothing in it.
// `go test -race ./...` skips it, loudly; .ci/run runs it in its own step,
// without -race (README, "The two commands").
func propertyCheck(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("PROPERTY CHECK SKIPPED under -race: run it with go test ./fairplay/ ./fairplay/sim/ (without -race; .ci/run does, in its own step)")
	}
}

// TestOpeningSamples: the segments played with more than OpeningStock
// cards in the stock (the first ones) are scored on OpeningSamples
// orders and the later ones on Samples, or on every order of the stock
// when it has fewer: each informative segment's P is a share of its
// orders.
func TestOpeningSamples(t *testing.T) {
	t.Parallel()
	cfg := fairplay.Config{Samples: 10, OpeningSamples: 2, OpeningStock: 8, Nodes: 3000, MaxCards: 28}
	var early, late, every int
	for n := 1; n <= 6; n++ {
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(n))
		h, err := fairplay.AnalyseHole(&d, clairvoyantLine(t, &d), cfg)
		if err != nil {
			t.Fatal(err)
		}
		opening := true
		for i, s := range h.Segments {
			if !s.Informative() {
				continue
			}
			x := s.P * float64(len(s.Regrets))
			if math.Abs(x-math.Round(x)) > 1e-9 {
				t.Errorf("deal %d segment %d: P %.4f is not a share of its %d orders", n, i, s.P, len(s.Regrets))
			}
			switch len(s.Regrets) {
			case cfg.OpeningSamples + 1:
				if !opening {
					t.Errorf("deal %d segment %d: %d orders after the opening", n, i, len(s.Regrets))
				}
				early++
			case cfg.Samples + 1:
				opening = false
				late++
			case 2, 6: // 2 or 3 cards left: each of their orders once
				opening = false
				every++
			default:
				t.Errorf("deal %d segment %d: %d orders, want %d (%d in the opening, or every order of 2 or 3 cards)", n, i, len(s.Regrets), cfg.Samples+1, cfg.OpeningSamples+1)
			}
		}
	}
	if early == 0 || late == 0 || every == 0 {
		t.Errorf("%d informative segments in the opening, %d after, %d on every order", early, late, every)
	}
}

// TestConfigNamed: the operators' names for the analysis settings, and a
// clear refusal of any other.
func TestConfigNamed(t *testing.T) {
	for name, want := range map[string]fairplay.Config{"default": fairplay.DefaultConfig, "": fairplay.DefaultConfig, "full": fairplay.FullConfig} {
		got, err := fairplay.ConfigNamed(name)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ConfigNamed(%q) = %+v, %v; want %+v", name, got, err, want)
		}
	}
	if _, err := fairplay.ConfigNamed("fast"); err == nil || !strings.Contains(err.Error(), "default or full") {
		t.Errorf("ConfigNamed(fast): %v; want an error naming the settings", err)
	}
}
