package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"golfsolitaire/golf"
)

func runSolveArgs(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"solve"}, args...), env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	return out.String(), err
}

func TestSolveOne(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--number", "1"},
		{"--number", "2", "--kings", "wrap"},
		{"--game", "black-hole", "--number", "3"},
		{"--game", "all-in-a-row"},
		{"--game", "pyramid-golf", "--number", "4"},
		{"--seed", zeroSeed, "--redeals", "1", "--nodes", "100000"},
	} {
		out, err := runSolveArgs(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var got struct {
			Best    int         `json:"best"`
			Cleared bool        `json:"cleared"`
			Exact   bool        `json:"exact"`
			Moves   []string    `json:"moves"`
			Record  golf.Record `json:"record"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		st, err := got.Record.Replay()
		if err != nil {
			t.Fatalf("%v: record does not replay: %v", args, err)
		}
		if st.Score() != got.Best || st.Cleared() != got.Cleared || len(got.Moves) != len(got.Record.Moves) {
			t.Fatalf("%v: replay scores %d (cleared %v), output says %d (%v)", args, st.Score(), st.Cleared(), got.Best, got.Cleared)
		}
	}
}

func TestSolveOneMatchesLibrary(t *testing.T) {
	t.Parallel()
	out, err := runSolveArgs(t, "--number", "5")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Best  int  `json:"best"`
		Exact bool `json:"exact"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(5))
	sol := golf.Solve(&d, nil)
	if got.Best != sol.Best || !got.Exact {
		t.Fatalf("command says %d (exact %v), library %d", got.Best, got.Exact, sol.Best)
	}
}

func TestSolveCount(t *testing.T) {
	t.Parallel()
	out, err := runSolveArgs(t, "--count", "12", "--number", "7", "--kings", "wrap", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	var st solveStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if st.Deals != 12 || st.First != 7 {
		t.Fatalf("deals %d from %d", st.Deals, st.First)
	}
	cleared, total := 0, 0
	v, _ := golf.NewVariant("golf", map[string]any{"kings": "wrap"})
	for n := 7; n < 19; n++ {
		d := golf.NewDeal(v, golf.NumberedSeed(n))
		if golf.Solve(&d, nil).Cleared {
			cleared++
		}
	}
	for _, c := range st.Scores {
		total += c
	}
	if st.Cleared != cleared || total != 12 {
		t.Fatalf("cleared %d (library %d), score counts %d", st.Cleared, cleared, total)
	}
	if st.CI95[0] > st.Winnability || st.CI95[1] < st.Winnability {
		t.Fatalf("interval %v misses %v", st.CI95, st.Winnability)
	}
	if st.TimeMs.Median > st.TimeMs.Max || st.TimeMs.P99 > st.TimeMs.Max {
		t.Fatalf("time stats %+v", st.TimeMs)
	}
}

func TestSolveUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--game", "poker"},
		{"--count", "3", "--seed", zeroSeed},
		{"--nodes", "-1"},
		{"extra"},
		{"--game", "black-hole", "--kings", "wrap"},
	} {
		_, err := runSolveArgs(t, args...)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Fatalf("%v: want exit 2, got %v", args, err)
		}
	}
}

func TestWilson(t *testing.T) {
	t.Parallel()
	ci := wilson(272, 1000, 1.959964)
	if math.Abs(ci[0]-0.245) > 0.002 || math.Abs(ci[1]-0.3) > 0.002 {
		t.Fatalf("wilson(272/1000) = %v", ci)
	}
	if ci := wilson(0, 0, 1.96); ci != [2]float64{0, 1} {
		t.Fatalf("wilson(0/0) = %v", ci)
	}
}
