package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golfsolitaire/fairplay"
)

// rescoreRun runs `fairplay rescore --json` and decodes its output.
func rescoreRun(t *testing.T, args ...string) rescoreOutput {
	t.Helper()
	out, err := runFairplayArgs(t, nil, append([]string{"rescore", "--json"}, args...)...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	var got rescoreOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return got
}

// strongSegment: the real order alone lost nothing where 24 sampled
// orders lost 2 strokes (E about 16.5); weakSegment: it lost 2 where
// the others lost nothing (E about 0.05).
func strongSegment() fairplay.Segment {
	r := make([]int, 25)
	for i := range 24 {
		r[i] = 2
	}
	return fairplay.Segment{Decisions: 1, Least: true, P: 1.0 / 25, Regrets: r}
}

func weakSegment() fairplay.Segment {
	return fairplay.Segment{Decisions: 1, Regret: 2, P: 0.75, Regrets: []int{0, 0, 0, 2}}
}

// TestFairplayRescoreTable: hand-made records scored with Lambda 2,
// Slip 0.05 and a share of 0.3, and with other combinations: the flags, the median hole flagged, the
// peaks, per bot and share known, in the order first seen; a last line
// still being written is left out.
func TestFairplayRescoreTable(t *testing.T) {
	t.Parallel()
	s, w := strongSegment(), weakSegment()
	hole := func(knew bool, segs ...fairplay.Segment) simRecordHole {
		return simRecordHole{Knew: knew, Segments: append([]fairplay.Segment{}, segs...)}
	}
	recs := []simRecord{
		{Bot: "clairvoyant", KnowsStock: 1, Round: 0, Holes: []simRecordHole{hole(true, s, s, s, s), hole(true, s, s, s, s), hole(true, s, s, s, s)}},
		{Bot: "clairvoyant", KnowsStock: 1, Round: 1, Holes: []simRecordHole{hole(true, s, s, s, s, s, s, s, s)}},
		{Bot: "random", Round: 0, Holes: []simRecordHole{hole(false, w, w, w, w), hole(false), hole(false, w, w, w, w, s)}},
		{Bot: "clairvoyant", KnowsStock: 0.1, Round: 0, Holes: []simRecordHole{hole(false, w, w), hole(true, s, s, s), hole(false, w), hole(true, s, s, s)}},
	}
	path := writeRecords(t, "rounds.jsonl", recs...)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"bot":"random","holes":[`); err != nil { // a line still being written
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	type want struct {
		flagged []int     // per result
		median  []float64 // 0: none
	}
	for _, tc := range []struct {
		args []string
		want want
	}{
		// Share 0.3: four strong segments (E about 16.5), log(0.3*16.5^4+0.7)
		// = 10, pass the bar but with too few segments until the second
		// hole; the weak holes of the tenth-knower cost 0.36 each.
		{nil, want{[]int{2, 0, 1}, []float64{1.5, 0, 4}}},
		{[]string{"--min-segments", "9"}, want{[]int{1, 0, 1}, []float64{3, 0, 4}}},
		{[]string{"--shares", "0.001"}, want{[]int{2, 0, 0}, []float64{1.5, 0, 0}}},
		{[]string{"--shares", "none", "--grid", "0.01,1", "--start", "0.01"}, want{[]int{2, 0, 1}, []float64{1.5, 0, 4}}},
		{[]string{"--alpha", "1e-9"}, want{[]int{2, 0, 0}, []float64{2, 0, 0}}},
	} {
		base := []string{"--lambda", "2", "--slip", "0.05", "--shares", "0.3"} // the figures below, whatever the default
		got := rescoreRun(t, append(append(base, tc.args...), path)...)
		if len(got.Results) != 3 || got.Results[0].KnowsStock != 1 || got.Results[1].Bot != "random" || got.Results[2].KnowsStock != 0.1 {
			t.Fatalf("%v: results %+v", tc.args, got.Results)
		}
		for i, r := range got.Results {
			m := 0.0
			if r.MedianHolesToFlag != nil {
				m = *r.MedianHolesToFlag
			}
			if r.Flagged != tc.want.flagged[i] || m != tc.want.median[i] || len(r.Peaks) != r.Rounds {
				t.Errorf("%v: %s %g: flagged %d (median %g), want %d (%g); peaks %v", tc.args, r.Bot, r.KnowsStock, r.Flagged, m, tc.want.flagged[i], tc.want.median[i], r.Peaks)
			}
		}
		if rand := got.Results[1]; rand.Rounds != 1 || rand.Segments != 9 || rand.Peaks[0] != 0 {
			t.Errorf("%v: random %+v", tc.args, rand)
		}
	}
}

// TestFairplayRescoreDefault: rounds recorded by simulate and rescored
// with the default combination flag the same players at the same holes,
// with the same peaks and segments, as simulate reported.
func TestFairplayRescoreDefault(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rounds.jsonl")
	out, err := runFairplayArgs(t, nil, "simulate", "--rounds", "3", "--holes", "10", "--bots", "random,clairvoyant", "--shares", "1,0.5",
		"--samples", "24", "--nodes", "2000", "--workers", "2", "--json", "--record", path)
	if err != nil {
		t.Fatal(err)
	}
	var sim simOutput
	if err := json.Unmarshal([]byte(out), &sim); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	re := rescoreRun(t, path)
	flagged := 0
	for _, s := range sim.Results {
		i := slices.IndexFunc(re.Results, func(r simResult) bool { return r.Bot == s.Bot && r.KnowsStock == s.KnowsStock })
		if i < 0 {
			t.Fatalf("%s %g not rescored: %+v", s.Bot, s.KnowsStock, re.Results)
		}
		r := re.Results[i]
		sp, rp := slices.Sorted(slices.Values(s.Peaks)), slices.Sorted(slices.Values(r.Peaks))
		if r.Rounds != s.Rounds || r.Flagged != s.Flagged || r.Segments != s.Segments || !slices.Equal(sp, rp) ||
			(s.MedianHolesToFlag == nil) != (r.MedianHolesToFlag == nil) || (s.MedianHolesToFlag != nil && *s.MedianHolesToFlag != *r.MedianHolesToFlag) {
			t.Errorf("%s %g: simulate %+v, rescore %+v", s.Bot, s.KnowsStock, s, r)
		}
		flagged += s.Flagged
	}
	if flagged == 0 {
		t.Errorf("no round flagged: the comparison checks no flag's hole (%+v)", sim.Results)
	}
}

// TestFairplayRescoreErrors: bad flags and files are refused in words.
func TestFairplayRescoreErrors(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"rescore"}, "want one or more files"},
		{[]string{"rescore", "--slip", "1", bad}, "slip"},
		{[]string{"rescore", "--shares", "0.3,x", bad}, `"x" is not a number`},
		{[]string{"rescore", "--shares", "2", bad}, "share 2 is not in (0, 1]"},
		{[]string{"rescore", "--shares", "none", bad}, "needs a share or a grid"},
		{[]string{"rescore", "--alpha", "0", bad}, "--alpha"},
		{[]string{"rescore", bad}, "line 1 is not a recorded round"},
		{[]string{"rescore", bad + ".missing"}, "no such file"},
	} {
		_, err := runFairplayArgs(t, nil, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}
