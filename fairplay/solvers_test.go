package fairplay_test

import (
	"reflect"
	"testing"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/sim"
	"golfsolitaire/golf"
)

func keptSolvers(cfg fairplay.Config) fairplay.Config {
	cfg.Solvers = fairplay.NewSolvers()
	return cfg
}

// TestSolversKept: analyses that reuse kept solvers (Config.Solvers), one
// after another and across settings of different sizes, give exactly the
// analyses fresh solvers give: a table left from another deal changes
// nothing.
func TestSolversKept(t *testing.T) {
	t.Parallel()
	kept := fairplay.NewSolvers()
	for i := range 6 {
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(200+i%3))
		moves, err := sim.PlayHole(sim.Player{Kind: "search"}, &d, 1, false, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		cfg := fairplay.DefaultConfig
		if i%2 == 1 {
			cfg = fairplay.CheapConfig
		}
		want, err := fairplay.AnalyseHole(&d, moves, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Solvers = kept
		// Twice: the second time the kept tables hold this very deal.
		for range 2 {
			got, err := fairplay.AnalyseHole(&d, moves, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("hole %d: with kept solvers %d solves, %d nodes, log LR %v; fresh %d, %d, %v", i, got.Solves, got.Nodes, got.LogLR(), want.Solves, want.Nodes, want.LogLR())
			}
		}
	}
}
