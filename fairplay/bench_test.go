package fairplay_test

import (
	"testing"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/sim"
	"golfsolitaire/golf"
)

// benchHoles are holes the search bot played on numbered deals: what an
// honest strong player gives the analysis.
func benchHoles(b *testing.B, n int) ([]golf.Deal, [][]golf.Move) {
	b.Helper()
	ds := make([]golf.Deal, n)
	ms := make([][]golf.Move, n)
	for i := range n {
		ds[i] = golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(100+i))
		m, err := sim.PlayHole(sim.Player{Kind: "search"}, &ds[i], 1, false, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		ms[i] = m
	}
	return ds, ms
}

// BenchmarkAnalyseHole is the analysis of an honest strong player's hole
// (go test -bench AnalyseHole -cpuprofile to see where it goes), with the
// default configuration and the cheap one; nodes/op and solves/op are
// the work.
func BenchmarkAnalyseHole(b *testing.B) {
	ds, ms := benchHoles(b, 12)
	for _, bc := range []struct {
		name string
		cfg  fairplay.Config
	}{
		{"default", fairplay.DefaultConfig},
		{"cheap", fairplay.CheapConfig},
		{"full", fairplay.FullConfig},
		{"default, solvers kept", keptSolvers(fairplay.DefaultConfig)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var nodes, solves int64
			for i := 0; b.Loop(); i++ {
				h, err := fairplay.AnalyseHole(&ds[i%len(ds)], ms[i%len(ms)], bc.cfg)
				if err != nil {
					b.Fatal(err)
				}
				nodes += h.Nodes
				solves += int64(h.Solves)
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(solves)/float64(b.N), "solves/op")
		})
	}
}
