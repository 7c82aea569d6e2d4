package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"golfsolitaire/golf"
)

const zeroSeed = "0000000000000000000000000000000000000000000000000000000000000000"

func TestDeal(t *testing.T) {
	t.Parallel()
	round := strings.Repeat("ab", 32)
	tests := []struct {
		name string
		args []string
		code int
		// want is the deal the output must be, for exit 0.
		variant golf.Variant
		seed    golf.Seed
	}{
		{name: "default", args: []string{"deal"}, variant: golf.DefaultVariant(), seed: golf.NumberedSeed(1)},
		{name: "zero-seed", args: []string{"deal", "--seed", zeroSeed}, variant: golf.DefaultVariant()},
		{name: "number-2-six-columns-free-start", args: []string{"deal", "--number", "2", "--columns", "6", "--free-start"}, variant: variant(t, "golf", map[string]any{"columns": 6, "freeStart": true}), seed: golf.NumberedSeed(2)},
		{name: "round-hole-7-wrap", args: []string{"deal", "--round", round, "--hole", "7", "--kings", "wrap"}, variant: variant(t, "golf", map[string]any{"kings": "wrap"}), seed: mustParseSeed(t, round).HoleSeed(7)},
		{name: "double-golf-jokers", args: []string{"deal", "--game", "double-golf", "--jokers", "2"}, variant: variant(t, "double-golf", map[string]any{"jokers": 2}), seed: golf.NumberedSeed(1)},
		{name: "black-hole", args: []string{"deal", "--game", "black-hole"}, variant: variant(t, "black-hole", nil), seed: golf.NumberedSeed(1)},
		{name: "all-in-a-row", args: []string{"deal", "--game", "all-in-a-row", "--number", "3"}, variant: variant(t, "all-in-a-row", nil), seed: golf.NumberedSeed(3)},
		{name: "tripeaks-joker", args: []string{"deal", "--game", "tripeaks", "--jokers", "1"}, variant: variant(t, "tripeaks", map[string]any{"jokers": 1}), seed: golf.NumberedSeed(1)},
		{name: "pyramid-golf", args: []string{"deal", "--game", "pyramid-golf", "--number", "0"}, variant: variant(t, "pyramid-golf", nil), seed: golf.NumberedSeed(0)},
		{name: "columns-for-tripeaks", args: []string{"deal", "--game", "tripeaks", "--columns", "6"}, code: 2},
		{name: "kings-for-black-hole", args: []string{"deal", "--game", "black-hole", "--kings", "wrap"}, code: 2},
		{name: "unknown-game", args: []string{"deal", "--game", "poker"}, code: 2},
		{name: "three-jokers", args: []string{"deal", "--jokers", "3"}, code: 2},
		{name: "two-seeds", args: []string{"deal", "--number", "1", "--seed", zeroSeed}, code: 2},
		{name: "hole-without-round", args: []string{"deal", "--hole", "3"}, code: 2},
		{name: "hole-19", args: []string{"deal", "--round", round, "--hole", "19"}, code: 2},
		{name: "bad-seed", args: []string{"deal", "--seed", "xyz"}, code: 2},
		{name: "negative-number", args: []string{"deal", "--number", "-1"}, code: 2},
		{name: "extra-argument", args: []string{"deal", "now"}, code: 2},
		{name: "unknown-flag", args: []string{"deal", "--speed", "3"}, code: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runCmd(t, "", tt.args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d: %+v", r.code, tt.code, r)
			}
			golden(t, "deal-"+tt.name, r)
			if tt.code != 0 {
				if r.err == "" && r.stderr == "" {
					t.Error("no message for the failure")
				}
				return
			}
			// The output is valid JSON and is exactly the engine's deal.
			if !json.Valid([]byte(r.stdout)) {
				t.Fatalf("output is not JSON:\n%s", r.stdout)
			}
			want, err := json.Marshal(golf.NewDeal(tt.variant, tt.seed))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Compact(&got, []byte(r.stdout)); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("output is not the deal:\n got %s\nwant %s", got.String(), want)
			}
			// Each pile is on a line of its own.
			d := golf.NewDeal(tt.variant, tt.seed)
			for i, p := range d.Tableau() {
				codes := make([]string, len(p))
				for j, c := range p {
					codes[j] = `"` + c.String() + `"`
				}
				if line := "\n    [" + strings.Join(codes, ", ") + "]"; !strings.Contains(r.stdout, line) {
					t.Errorf("pile %d is not on a line of its own (%s)", i+1, line)
				}
			}
		})
	}
}

func TestIndentFlat(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`1`, `1`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`[1,2]`, `[1, 2]`},
		{`{"a":[1,[2,3]],"b":{}}`, "{\n  \"a\": [\n    1,\n    [2, 3]\n  ],\n  \"b\": {}\n}"},
		{`{"s":"\u003c\"é"}`, `{"s": "\u003c\"é"}`},
		{`[1.50, -0, 1e3, null, true]`, `[1.50, -0, 1e3, null, true]`},
	}
	for _, tt := range tests {
		got, err := indentFlat([]byte(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("indentFlat(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
		if !json.Valid(got) {
			t.Errorf("indentFlat(%s) is not JSON", tt.in)
		}
	}
}

func variant(t *testing.T, game string, opts map[string]any) golf.Variant {
	t.Helper()
	v, err := golf.NewVariant(game, opts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustParseSeed(t *testing.T, s string) golf.Seed {
	t.Helper()
	seed, err := golf.ParseSeed(s)
	if err != nil {
		t.Fatal(err)
	}
	return seed
}
