package golf

import "testing"

// TestPooledRoundSeedVector locks the pooled round seed (deals.md "Pooled
// rounds" and "Test vectors"): SHA-256("pool:" ‖ numbered deal 1's seed ‖
// numbered deal 2's seed), computed independently of this code.
func TestPooledRoundSeedVector(t *testing.T) {
	t.Parallel()
	got := PooledRoundSeed([]Seed{NumberedSeed(1), NumberedSeed(2)}).String()
	if want := "951877f2151c2d64440fcfb757b608a2c282faf2e4c0431b789bec4334fbe1cc"; got != want {
		t.Fatalf("pooled round seed %s, want %s", got, want)
	}
	if PooledRoundSeed([]Seed{NumberedSeed(2), NumberedSeed(1)}).String() == got {
		t.Fatal("the order of the deals does not matter")
	}
}
