package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
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
	out, err := runSolveArgs(t, "--count", "6", "--number", "7", "--kings", "wrap", "--workers", "2")
	if err != nil {
		t.Fatal(err)
	}
	var st solveStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if st.Deals != 6 || st.First != 7 {
		t.Fatalf("deals %d from %d", st.Deals, st.First)
	}
	cleared, total := 0, 0
	v, _ := golf.NewVariant("golf", map[string]any{"kings": "wrap"})
	for n := 7; n < 13; n++ {
		d := golf.NewDeal(v, golf.NumberedSeed(n))
		if golf.Solve(&d, nil).Cleared {
			cleared++
		}
	}
	for _, c := range st.Scores {
		total += c
	}
	if st.Cleared != cleared || total != 6 {
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
		{"--count", "3", "--reorder", "-1"},
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

// TestSolveUnclearableCheck runs --count over ranges holding deals that
// Deal.Unclearable rejects (strict Golf 640, six columns 1423, Black Hole
// 63, 71) and checks the soundness report: every rejected deal and
// reordering solved, none cleared, the counts agreeing with the library.
func TestSolveUnclearableCheck(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		args    []string
		reorder int // reorderings per rejected deal expected
	}{
		{"strict golf", []string{"--count", "30", "--number", "625"}, 3},
		{"six columns", []string{"--count", "8", "--number", "1420", "--columns", "6", "--reorder", "2"}, 2},
		{"no reorderings", []string{"--count", "5", "--number", "638", "--reorder", "0"}, 0},
		{"black hole has no stock", []string{"--count", "12", "--number", "62", "--game", "black-hole", "--nodes", "300000"}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := runSolveArgs(t, append(tt.args, "--workers", "2")...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var raw struct {
				Unknown *int                       `json:"unknown"`
				Check   map[string]json.RawMessage `json:"unclearableCheck"`
			}
			if err := json.Unmarshal([]byte(out), &raw); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, k := range []string{"reorderPerDeal", "rejected", "rejectedCleared", "rejectedClearedDeals", "rejectedUnknown",
				"reorderings", "reorderedCleared", "reorderedClearedDeals", "reorderedUnknown"} {
				if _, ok := raw.Check[k]; !ok {
					t.Errorf("unclearableCheck has no %q:\n%s", k, out)
				}
			}
			if raw.Unknown == nil {
				t.Errorf("no \"unknown\" (budget-hit deals):\n%s", out)
			}
			var st solveStats
			if err := json.Unmarshal([]byte(out), &st); err != nil {
				t.Fatal(err)
			}
			uc := st.Unclearable
			rejected := 0
			for n := st.First; n < st.First+st.Deals; n++ {
				d := golf.NewDeal(st.Variant, golf.NumberedSeed(n))
				if d.Unclearable() {
					rejected++
				}
			}
			if uc.Rejected == 0 || uc.Rejected != rejected {
				t.Fatalf("rejected %d, library %d (want some)", uc.Rejected, rejected)
			}
			if uc.RejectedCleared != 0 || len(uc.RejectedClearedDeals) != 0 || uc.ReorderedCleared != 0 || len(uc.ReorderedClearedDeals) != 0 {
				t.Fatalf("the solver cleared rejected deals: %+v", uc)
			}
			if uc.ReorderPerDeal != tt.reorder || uc.Reorderings != uc.Rejected*tt.reorder || uc.ReorderedUnknown > uc.Reorderings || uc.RejectedUnknown > uc.Rejected || uc.RejectedUnknown > st.Unknown {
				t.Fatalf("counts disagree (want %d reorderings per rejected deal): %+v, unknown %d", tt.reorder, uc, st.Unknown)
			}
		})
	}
}

// TestSolveUnclearableUnsound feeds solveManyCheck a check that rejects
// every deal, so each cleared deal and reordering must be reported, and
// the command must fail.
func TestSolveUnclearableUnsound(t *testing.T) {
	t.Parallel()
	v, err := golf.NewVariant("golf", map[string]any{"kings": "wrap"})
	if err != nil {
		t.Fatal(err)
	}
	budget := func() *golf.SolveOptions { return &golf.SolveOptions{MaxNodes: 200_000} }
	st, err := solveManyCheck(context.Background(), v, 7, 5, 2, 1, budget, func(*golf.Deal) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	uc := st.Unclearable
	if uc.Rejected != 5 || uc.Reorderings != 5 || st.Cleared == 0 || uc.RejectedCleared != st.Cleared || len(uc.RejectedClearedDeals) != st.Cleared ||
		uc.ReorderedCleared == 0 || len(uc.ReorderedClearedDeals) != uc.ReorderedCleared {
		t.Fatalf("%d of 5 deals cleared, check %+v", st.Cleared, uc)
	}
	for i, n := range uc.RejectedClearedDeals {
		if n < 7 || n > 11 || i > 0 && n <= uc.RejectedClearedDeals[i-1] {
			t.Fatalf("rejectedClearedDeals %v", uc.RejectedClearedDeals)
		}
	}
	for _, r := range uc.ReorderedClearedDeals {
		if r.Deal < 7 || r.Deal > 11 || r.Reordering != 1 {
			t.Fatalf("reorderedClearedDeals %v", uc.ReorderedClearedDeals)
		}
	}
	err = uc.unsound()
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "unsound") {
		t.Fatalf("unsound() = %v, want exit 1", err)
	}
	if err := (&unclearableCheck{Rejected: 3, Reorderings: 9}).unsound(); err != nil {
		t.Fatalf("a clean check: %v", err)
	}
}

// TestReorderStock checks that a reordering keeps the tableau and the
// cards, follows its seed, and keeps the start rule of the variant.
func TestReorderStock(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		game string
		opts map[string]any
	}{
		{"golf", nil},
		{"golf", map[string]any{"columns": 6, "jokers": 2}},
		{"golf", map[string]any{"freeStart": true}},
		{"double-golf", nil},
		{"tripeaks", nil},
		{"pyramid-golf", nil},
	} {
		v, err := golf.NewVariant(tt.game, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		d := golf.NewDeal(v, golf.NumberedSeed(9))
		a, err := reorderStock(&d, reorderSeed(9, 1))
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		b, _ := reorderStock(&d, reorderSeed(9, 1))
		c, _ := reorderStock(&d, reorderSeed(9, 2))
		if fmt.Sprint(a.Tableau()) != fmt.Sprint(d.Tableau()) {
			t.Errorf("%v: tableau changed", v)
		}
		if fmt.Sprint(a.Stock(), a.Start()) != fmt.Sprint(b.Stock(), b.Start()) {
			t.Errorf("%v: one seed, two orders", v)
		}
		if fmt.Sprint(a.Stock(), a.Start()) == fmt.Sprint(c.Stock(), c.Start()) {
			t.Errorf("%v: two seeds, one order", v)
		}
		if (a.Start() == golf.NoCard) != (d.Start() == golf.NoCard) || len(a.Stock()) != len(d.Stock()) {
			t.Errorf("%v: start %v, %d stock cards; was %v, %d", v, a.Start(), len(a.Stock()), d.Start(), len(d.Stock()))
		}
		if a.Unclearable() != d.Unclearable() {
			t.Errorf("%v: the check's answer changed", v)
		}
	}
}
