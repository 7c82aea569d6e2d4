package main

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
