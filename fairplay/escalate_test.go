package fairplay_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"golfsolitaire/fairplay"
)

// strongHole is a hole of one segment on which the real order alone lost
// nothing (24 sampled orders lost 2 strokes): its factor lifts a score
// from 0 to about 2.05 nats.
func strongHole() fairplay.Hole {
	regrets := make([]int, 25)
	for i := range 24 {
		regrets[i] = 2
	}
	return fairplay.Hole{Decisions: 3, Segments: []fairplay.Segment{{Decisions: 3, Least: true, P: 1.0 / 25, Regrets: regrets}}}
}

// weakHole is a hole of one segment on which the real order lost a
// stroke more than every sampled one: its factor lowers the score.
func weakHole() fairplay.Hole {
	return fairplay.Hole{Decisions: 2, Segments: []fairplay.Segment{{Decisions: 2, Regret: 1, P: 0.75, Regrets: []int{0, 0, 0, 1}}}}
}

func evidenceOf(hs ...fairplay.Hole) fairplay.Evidence {
	var ev fairplay.Evidence
	for _, h := range hs {
		ev.Add(h)
	}
	return ev
}

// TestEscalationChoose: the setting is the base below the level and Deep
// (with the base's key) at or above it; the zero Escalation never
// escalates; a batch takes Deep if any of its seats does.
func TestEscalationChoose(t *testing.T) {
	t.Parallel()
	base := fairplay.DefaultConfig
	base.Key[0] = 7
	deep := fairplay.DeepConfig
	deep.Key = base.Key
	high := evidenceOf(strongHole())
	if s := high.Score(); s < 1.5 || s > 2.5 {
		t.Fatalf("strong hole's score %.3f, want about 2", s)
	}
	low := evidenceOf(weakHole(), weakHole())
	tests := []struct {
		name string
		esc  fairplay.Escalation
		ev   fairplay.Evidence
		want fairplay.Config
		deep bool
	}{
		{"no evidence: the base", fairplay.DefaultEscalation, fairplay.Evidence{}, base, false},
		{"score below 0: the base", fairplay.DefaultEscalation, low, base, false},
		{"score above the level: deep", fairplay.DefaultEscalation, high, deep, true},
		{"score just under the level: the base", fairplay.Escalation{Level: high.Score() + 1e-9, Deep: fairplay.DeepConfig}, high, base, false},
		{"score at the level: deep", fairplay.Escalation{Level: high.Score(), Deep: fairplay.DeepConfig}, high, deep, true},
		{"level 0 with no evidence: deep", fairplay.Escalation{Deep: fairplay.DeepConfig}, fairplay.Evidence{}, deep, true},
		{"no escalation: the base", fairplay.Escalation{}, high, base, false},
		{"no escalation at level 0: the base", fairplay.Escalation{Level: 0}, fairplay.Evidence{}, base, false},
	}
	for _, tt := range tests {
		got, d := tt.esc.Choose(base, tt.ev)
		if d != tt.deep || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Choose = %+v, %v; want %+v, %v", tt.name, got, d, tt.want, tt.deep)
		}
	}
	if got, n := fairplay.DefaultEscalation.ChooseAll(base, []fairplay.Evidence{low, {}, high}); n != 1 || !reflect.DeepEqual(got, deep) {
		t.Errorf("a batch with one seat above the level: %+v, %d seats; want Deep, 1", got, n)
	}
	if got, n := fairplay.DefaultEscalation.ChooseAll(base, []fairplay.Evidence{low, {}}); n != 0 || !reflect.DeepEqual(got, base) {
		t.Errorf("a batch with every seat below the level: %+v, %d seats; want the base, 0", got, n)
	}
}

// TestEscalationNamed: the operators' names for the escalation, and a
// clear refusal of any other.
func TestEscalationNamed(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]fairplay.Escalation{
		"default": fairplay.DefaultEscalation, "": fairplay.DefaultEscalation, "off": {},
		"2.5": {Level: 2.5, Deep: fairplay.DeepConfig}, "0": {Deep: fairplay.DeepConfig},
	} {
		got, err := fairplay.EscalationNamed(name)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("EscalationNamed(%q) = %+v, %v; want %+v", name, got, err, want)
		}
	}
	for _, bad := range []string{"on", "-1", "NaN", "1e9"} {
		if _, err := fairplay.EscalationNamed(bad); err == nil || !strings.Contains(err.Error(), "default, off or a score") {
			t.Errorf("EscalationNamed(%q): %v; want an error naming the choices", bad, err)
		}
	}
}

// TestEvidenceBefore: the evidence the escalation reads leaves out the
// holes that finished at or after the hole to analyse (analysed first
// because the queue ran them first), and only those.
func TestEvidenceBefore(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	hs := []fairplay.Hole{weakHole(), strongHole(), weakHole(), strongHole()}
	var reports []fairplay.HoleReport
	for i, h := range hs {
		reports = append(reports, fairplay.HoleReport{Player: "p", Hole: i + 1, At: t0.Add(time.Duration(i) * time.Minute), Analysis: h})
	}
	all := evidenceOf(hs...)
	for cut := range len(hs) + 1 {
		got := all.Before(reports, t0.Add(time.Duration(cut)*time.Minute))
		want := evidenceOf(hs[:cut]...)
		if got.Holes != want.Holes || got.Segments != want.Segments || got.Least != want.Least || got.Decisions != want.Decisions ||
			math.Abs(got.Expected-want.Expected) > 1e-9 || math.Abs(got.Score()-want.Score()) > 1e-9 {
			t.Errorf("before hole %d: %+v (score %.4f); want %+v (score %.4f)", cut+1, got, got.Score(), want, want.Score())
		}
	}
	if all.Holes != len(hs) {
		t.Errorf("Before changed the evidence it was given: %d holes", all.Holes)
	}
}

// honestFlagRate plays players holes of 3 stretches each under the
// honest model (the real order any of the orders with equal chance). A
// hole is scored on 24 sampled orders (deep) or on the first 3 of them
// (cheap), with the same real order, as one hole analysed with either
// setting; choose picks the deep one from the evidence before the hole
// and the hole's outcomes (which a valid policy must not read). It
// returns the share of players the rule flags at some point.
func honestFlagRate(rule fairplay.Rule, players, holes int, seed uint64, choose func(before fairplay.Evidence, cheap, deep fairplay.Hole) bool) float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	hole := func() (cheap, deep fairplay.Hole) {
		for range 3 {
			r := make([]int, 25)
			for i := range r {
				r[i] = rng.IntN(4)
			}
			s := asReal(r, rng.IntN(len(r))) // the real order last
			deep.Segments = append(deep.Segments, s)
			cheap.Segments = append(cheap.Segments, asReal(append(slices.Clone(s.Regrets[:3]), s.Regrets[24]), 3))
		}
		return cheap, deep
	}
	flagged := 0
	for range players {
		var ev fairplay.Evidence
		for range holes {
			h, deep := hole()
			if choose(ev, h, deep) {
				h = deep
			}
			ev.Add(h)
			if ev.FlaggedBy(rule) {
				flagged++
				break
			}
		}
	}
	return float64(flagged) / float64(players)
}

// TestHonestFlagRateEscalated: with the deeper setting chosen from the
// evidence before each hole (DefaultEscalation's level), honest players
// are flagged at most Alpha of the time, as with one setting, and at a
// bar of 20 (Alpha 0.05) at most 5% of the time. Choosing it from the
// hole's own analysis instead (analysing each hole both ways and keeping
// the more suspicious) is not a valid design: at the bar of 20 the same
// check catches it.
func TestHonestFlagRateEscalated(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	const players, holes = 20000, 40
	loose := fairplay.Rule{Alpha: 0.05, MinSegments: fairplay.MinSegments}
	past := func(before fairplay.Evidence, _, _ fairplay.Hole) bool {
		return fairplay.DefaultEscalation.Escalates(before)
	}
	peek := func(_ fairplay.Evidence, cheap, deep fairplay.Hole) bool { return deep.LogLR() > cheap.LogLR() }
	valid, validLoose := honestFlagRate(fairplay.DefaultRule, players, holes, 5, past), honestFlagRate(loose, players, holes, 5, past)
	if valid > fairplay.Alpha || validLoose > loose.Alpha {
		t.Errorf("escalated from the evidence before the hole: honest flag rate %.5f (bar %g), %.4f (bar %g)", valid, fairplay.Alpha, validLoose, loose.Alpha)
	}
	peeking := honestFlagRate(loose, players, holes, 5, peek)
	if peeking <= loose.Alpha {
		t.Errorf("escalated from the hole's own cheap analysis: honest flag rate %.4f at the bar of %g, want it above (the check would not catch a broken design)", peeking, loose.Alpha)
	}
	t.Logf("honest flag rate escalated from the past: %.5f (Alpha %g), %.4f (0.05); from the hole itself: %.4f (0.05)", valid, fairplay.Alpha, validLoose, peeking)
}
