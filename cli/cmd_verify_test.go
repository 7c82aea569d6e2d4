package cli

import (
	"strings"
	"testing"

	"golfsolitaire/golf"
)

func TestVerify(t *testing.T) {
	t.Parallel()
	seed := golf.NumberedSeed(1)
	commit := seed.Commitment()
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"match", []string{"--commitment", commit, "--seed", seed.String()}, 0},
		{"match-upper-case", []string{"--commitment", strings.ToUpper(commit), "--seed", seed.String()}, 0},
		{"mismatch", []string{"--commitment", golf.NumberedSeed(2).Commitment(), "--seed", seed.String()}, 1},
		{"commitment-not-hex", []string{"--commitment", "zz", "--seed", seed.String()}, 1},
		{"bad-seed", []string{"--commitment", commit, "--seed", "12"}, 2},
		{"missing-seed", []string{"--commitment", commit}, 2},
		{"missing-commitment", []string{"--seed", seed.String()}, 2},
		{"extra-argument", []string{"--commitment", commit, "--seed", seed.String(), "now"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runCmd(t, "", append([]string{"verify"}, tt.args...)...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d: %+v", r.code, tt.code, r)
			}
			golden(t, "verify-"+tt.name, r)
		})
	}
}

// TestVerifyDeals: --deals also checks that a pooled round's seed is the
// pooled round seed of its revealed deals (docs/deals.md "Pooled rounds").
func TestVerifyDeals(t *testing.T) {
	t.Parallel()
	deals := []golf.Seed{golf.NumberedSeed(10), golf.NumberedSeed(11), golf.NumberedSeed(12)}
	round := golf.PooledRoundSeed(deals)
	list := func(ds ...golf.Seed) string {
		var out []string
		for _, d := range ds {
			out = append(out, d.String())
		}
		return strings.Join(out, ",")
	}
	tests := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"match", []string{"--deals", list(deals...)}, 0, "pooled round seed of its 3 deals"},
		{"swapped", []string{"--deals", list(deals[1], deals[0], deals[2])}, 1, "MISMATCH"},
		{"missing-deal", []string{"--deals", list(deals[:2]...)}, 1, "MISMATCH"},
		{"bad-deal", []string{"--deals", "12," + deals[0].String()}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"verify", "--commitment", round.Commitment(), "--seed", round.String()}, tt.args...)
			r := runCmd(t, "", args...)
			if r.code != tt.code || !strings.Contains(r.stdout, tt.out) {
				t.Fatalf("exit %d, want %d, output %q: %+v", r.code, tt.code, tt.out, r)
			}
		})
	}
}
