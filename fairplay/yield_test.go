package fairplay_test

import (
	"testing"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/sim"
	"golfsolitaire/golf"
)

// TestAnalysisYields: an analysis's solves give way through the
// config's Yield (a server's waits for its rooms), about once every
// 8,192 nodes, and the escalation's deeper setting keeps it; the
// outcome is the same with it as without.
func TestAnalysisYields(t *testing.T) {
	t.Parallel()
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(101))
	moves, err := sim.PlayHole(sim.Player{Kind: "search"}, &d, 1, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	yields := 0
	cfg := fairplay.DefaultConfig
	cfg.Yield = func() { yields++ }
	h, err := fairplay.AnalyseHole(&d, moves, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Each order's solver counts its own nodes, so some yields are still
	// owed at the end: at least half of one every 8,192.
	if want := int(h.Nodes / (2 * 8192)); h.Nodes < 4*8192 || yields < want {
		t.Errorf("%d nodes, %d yields through the config's Yield; want at least %d", h.Nodes, yields, want)
	}
	plain, err := fairplay.AnalyseHole(&d, moves, fairplay.DefaultConfig)
	if err != nil {
		t.Fatal(err)
	}
	if plain.LogLR() != h.LogLR() || plain.Nodes != h.Nodes {
		t.Errorf("with Yield: logLR %v in %d nodes; without: %v in %d", h.LogLR(), h.Nodes, plain.LogLR(), plain.Nodes)
	}
	deep, escalated := fairplay.Escalation{Level: 0, Deep: fairplay.DeepConfig}.Choose(cfg, fairplay.Evidence{})
	if !escalated || deep.Yield == nil {
		t.Errorf("the deeper setting (escalated %v) lost the Yield", escalated)
	}
}
