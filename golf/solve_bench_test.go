package golf

import "testing"

func benchSolve(b *testing.B, game string, opts map[string]any) { benchSolveWith(b, game, opts, false) }

// benchSolveWith solves 200 numbered deals in turn with one solver, or
// with a new solver for each (fresh: what a sync.Pool emptied by every
// garbage collection gave match.Analyzer under load).
func benchSolveWith(b *testing.B, game string, opts map[string]any, fresh bool) {
	v, err := NewVariant(game, opts)
	if err != nil {
		b.Fatal(err)
	}
	const deals = 200
	ds := make([]Deal, deals)
	for i := range ds {
		ds[i] = NewDeal(v, NumberedSeed(i+1))
	}
	var s Solver
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if fresh {
			s = Solver{}
		}
		sol := s.Solve(&ds[i%deals], &SolveOptions{MaxNodes: 50_000_000})
		nodes += sol.Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func BenchmarkSolveGolf(b *testing.B)      { benchSolve(b, "golf", nil) }
func BenchmarkSolveGolfFresh(b *testing.B) { benchSolveWith(b, "golf", nil, true) }
func BenchmarkSolveQueenOnKing(b *testing.B) {
	benchSolve(b, "golf", map[string]any{"kings": "queen-on-king"})
}
func BenchmarkSolveWrap(b *testing.B)       { benchSolve(b, "golf", map[string]any{"kings": "wrap"}) }
func BenchmarkSolveBlackHole(b *testing.B)  { benchSolve(b, "black-hole", nil) }
func BenchmarkSolveAllInARow(b *testing.B)  { benchSolve(b, "all-in-a-row", nil) }
func BenchmarkSolveTriPeaks(b *testing.B)   { benchSolve(b, "tripeaks", nil) }
func BenchmarkSolvePyramid(b *testing.B)    { benchSolve(b, "pyramid-golf", nil) }
func BenchmarkSolveDoubleGolf(b *testing.B) { benchSolve(b, "double-golf", nil) }
