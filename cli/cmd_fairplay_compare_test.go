package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golfsolitaire/fairplay"
)

// writeRecords writes rounds as `fairplay simulate --record` does, to a
// file of the test's.
func writeRecords(t *testing.T, name string, recs ...simRecord) string {
	t.Helper()
	var b []byte
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, line...), '\n')
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFairplayCompare: two records of the same holes, analysed two ways,
// compared hole by hole: each side's mean log LR, the paired
// differences and their standard error, the share's factor and the
// growth a hole, with the holes of one record alone counted apart.
func TestFairplayCompare(t *testing.T) {
	t.Parallel()
	s, w := strongSegment(), weakSegment()
	hole := func(knew bool, segs ...fairplay.Segment) simRecordHole {
		return simRecordHole{Knew: knew, Segments: append([]fairplay.Segment{}, segs...)}
	}
	const bot, knows = "clairvoyant", 0.5
	a := writeRecords(t, "a.jsonl",
		simRecord{Bot: bot, KnowsStock: knows, Round: 0, Holes: []simRecordHole{hole(true, s, s), hole(false, w), hole(true, s)}},
		simRecord{Bot: bot, KnowsStock: knows, Round: 1, Holes: []simRecordHole{hole(false, w, w)}},
		simRecord{Bot: "random", Round: 0, Holes: []simRecordHole{hole(false, w)}})
	b := writeRecords(t, "b.jsonl",
		simRecord{Bot: bot, KnowsStock: knows, Round: 0, Holes: []simRecordHole{hole(true, s), hole(false), hole(true, s, s, s)}},
		simRecord{Bot: bot, KnowsStock: knows, Round: 1, Holes: []simRecordHole{hole(false, w)}},
		simRecord{Bot: bot, KnowsStock: knows, Round: 2, Holes: []simRecordHole{hole(true, s)}})
	out, err := runFairplayArgs(t, nil, "compare", "--json", "--lambda", "2", "--slip", "0.05", "--share", "0.3", a, b)
	if err != nil {
		t.Fatal(err)
	}
	var got compareOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	c := fairplay.Combination{Lambda: 2, Slip: 0.05, Shares: []float64{0.3}}
	ls, lw := c.LogLR([]fairplay.Segment{s}), c.LogLR([]fairplay.Segment{w})
	f := func(l float64) float64 { return math.Log(0.3*math.Exp(l) + 0.7) }
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	if len(got.Groups) != 2 || got.Groups[0].Bot != bot || got.Groups[1].Bot != "random" {
		t.Fatalf("groups %+v, want the clairvoyant's then random's, in the order first seen", got.Groups)
	}
	g := got.Groups[0]
	if g.Holes != 4 || g.OnlyA != 0 || g.OnlyB != 1 {
		t.Errorf("holes %d in both, %d in A alone, %d in B alone: want 4, 0, 1", g.Holes, g.OnlyA, g.OnlyB)
	}
	// Known: A 2s and s, B s and 3s: differences s and -2s (mean -s/2,
	// standard error 1.5s). Unknown: A w and 2w, B none and w:
	// differences w and w.
	k, u := g.Known, g.Unknown
	for _, ch := range []struct {
		name      string
		got, want float64
	}{
		{"known holes", float64(k.Holes), 2},
		{"known log LR A", k.LogLR[0], 1.5 * ls},
		{"known log LR B", k.LogLR[1], 2 * ls},
		{"known diff", k.Diff, -0.5 * ls},
		{"known diff's s.e.", k.DiffSE, 1.5 * ls},
		{"known factor A", k.ShareFactor[0], (f(2*ls) + f(ls)) / 2},
		{"known segments B", k.Segments[1], 2},
		{"unknown holes", float64(u.Holes), 2},
		{"unknown log LR A", u.LogLR[0], 1.5 * lw},
		{"unknown diff", u.Diff, lw},
		{"unknown diff's s.e.", u.DiffSE, 0},
		{"unknown factor B", u.ShareFactor[1], (f(0) + f(lw)) / 2},
		{"growth A", g.Growth[0], (f(2*ls) + f(lw) + f(ls) + f(2*lw)) / 4},
		{"growth B", g.Growth[1], (f(ls) + f(0) + f(3*ls) + f(lw)) / 4},
	} {
		if !near(ch.got, ch.want) {
			t.Errorf("%s: %g, want %g", ch.name, ch.got, ch.want)
		}
	}
	// Where the evidence is: the strong stretches were scored on 25
	// orders, the weak ones on 4.
	if len(k.ByOrders) != 1 || k.ByOrders[0].Orders != 25 || !near(k.ByOrders[0].PerHole[0], 1.5) || !near(k.ByOrders[0].PerHole[1], 2) || !near(k.ByOrders[0].MeanLogE[1], ls) {
		t.Errorf("known holes by orders %+v, want 1.5 and 2 stretches of 25 orders a hole, of log e-value %g", k.ByOrders, ls)
	}
	if len(u.ByOrders) != 1 || u.ByOrders[0].Orders != 4 || !near(u.ByOrders[0].PerHole[1], 0.5) || !near(u.ByOrders[0].MeanLogE[0], lw) {
		t.Errorf("unknown holes by orders %+v, want 1.5 and 0.5 stretches of 4 orders a hole, of log e-value %g", u.ByOrders, lw)
	}
	if r := got.Groups[1]; r.Holes != 0 || r.OnlyA != 1 {
		t.Errorf("random: %d holes in both, %d in A alone: want 0 and 1", r.Holes, r.OnlyA)
	}
	// A record compared with itself differs by nothing, and the table
	// says so.
	text, err := runFairplayArgs(t, nil, "compare", a, a)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "+0.000") || !strings.Contains(text, "4 holes in both") {
		t.Errorf("a record against itself:\n%s", text)
	}
}

// TestFairplayCompareErrors: what compare refuses, in words.
func TestFairplayCompareErrors(t *testing.T) {
	t.Parallel()
	s := strongSegment()
	a := writeRecords(t, "a.jsonl", simRecord{Bot: "clairvoyant", KnowsStock: 0.5, Holes: []simRecordHole{{Knew: true, Segments: []fairplay.Segment{s}}}})
	other := writeRecords(t, "b.jsonl", simRecord{Bot: "clairvoyant", KnowsStock: 0.5, Holes: []simRecordHole{{Knew: false, Segments: []fairplay.Segment{s}}}})
	named := writeRecords(t, "c.jsonl", simRecord{Bot: "clairvoyant", KnowsStock: 0.5, Holes: []simRecordHole{{Knew: true, Play: "00aa", Segments: []fairplay.Segment{s}}}})
	otherPlay := writeRecords(t, "d.jsonl", simRecord{Bot: "clairvoyant", KnowsStock: 0.5, Holes: []simRecordHole{{Knew: true, Play: "00ab", Segments: []fairplay.Segment{s}}}})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", a}, "want two files"},
		{[]string{"compare", a, a, a}, "want two files"},
		{[]string{"compare", "--share", "0", a, a}, "share 0 is not in (0, 1]"},
		{[]string{"compare", a, other}, "round 0 hole 1 is not the same play in the two records"},
		{[]string{"compare", named, otherPlay}, "round 0 hole 1 is not the same play in the two records"},
		{[]string{"compare", a, a + ".missing"}, "no such file"},
	} {
		_, err := runFairplayArgs(t, nil, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}
