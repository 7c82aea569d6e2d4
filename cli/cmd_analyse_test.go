package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"golfsolitaire/golf"
)

// TestAnalyse: `analyse --json -` on finished, stood and solver-played
// records of every game of the family: every lost ≥ 0 and the losses
// sum to score - best; the text form names the costly moves; bad input
// is refused in words and prints nothing.
func TestAnalyse(t *testing.T) {
	t.Parallel()
	for _, g := range golf.Games {
		t.Run(string(g), func(t *testing.T) {
			t.Parallel()
			v := variant(t, string(g), nil)
			for _, limit := range []int{0, 6} { // to the end, and stood after 6 moves
				s := firstLegalGame(t, v, golf.NumberedSeed(2), limit)
				r := runCmd(t, recordJSON(t, s), "analyse", "--json", "--nodes", "20000", "-")
				if r.code != 0 {
					t.Fatalf("exit %d: %+v", r.code, r)
				}
				var got struct {
					Score, Best int
					Decisions   []struct {
						Move string
						Lost int
					}
				}
				if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
					t.Fatalf("%v in %s", err, r.stdout)
				}
				sum := 0
				for _, d := range got.Decisions {
					if d.Lost < 0 {
						t.Errorf("move %s lost %d", d.Move, d.Lost)
					}
					sum += d.Lost
				}
				if got.Score != s.Score() || sum != got.Score-got.Best || got.Best > got.Score {
					t.Errorf("score %d (the record's %d), best %d, losses sum to %d", got.Score, s.Score(), got.Best, sum)
				}
				if stood := !s.Over(); stood != (got.Decisions[len(got.Decisions)-1].Move == "stand") {
					t.Errorf("stood %v, the last decision %+v", stood, got.Decisions[len(got.Decisions)-1])
				}
			}
		})
	}
	deal1 := golf.NumberedSeed(1).String()
	finished := firstLegalGame(t, golf.DefaultVariant(), golf.NumberedSeed(1), 0)
	text := runCmd(t, recordJSON(t, finished), "analyse", "--nodes", "20000", "-")
	if text.code != 0 || !strings.HasPrefix(text.stdout, "score ") || !strings.Contains(text.stdout, "best possible") {
		t.Errorf("the text form: %+v", text)
	}
	for _, tt := range []struct {
		name, stdin string
		args        []string
		code        int
		message     string
	}{
		{"illegal move", `{"game":"golf","seed":"` + deal1 + `","moves":["s","s","1"]}`, []string{"-"}, 1, "position 3"},
		{"not a record", `golf`, []string{"-"}, 2, "bad record"},
		{"no argument", ``, nil, 2, ""},
		{"negative nodes", `{}`, []string{"--nodes", "-1", "-"}, 2, "must not be negative"},
	} {
		r := runCmd(t, tt.stdin, append([]string{"analyse", "--json"}, tt.args...)...)
		if r.code != tt.code || !strings.Contains(r.err, tt.message) || r.stdout != "" {
			t.Errorf("%s: exit %d, error %q, output %q; want exit %d with %q", tt.name, r.code, r.err, r.stdout, tt.code, tt.message)
		}
	}
}
