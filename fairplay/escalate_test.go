package fairplay_test

import (
	"math"
	"reflect"
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
