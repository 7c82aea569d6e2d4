package golf

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRunReach times runReach alone on a fixed set of positions:
// every position of 100 random playouts of each of strict Golf deals
// 1-20 (so that changes to runReach compare without a search's noise).
func BenchmarkRunReach(b *testing.B) {
	v, _ := NewVariant("golf", nil)
	type pos struct {
		present uint64
		top     uint8
		next    int
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var deals []Deal
	var sets [][]pos
	for n := 1; n <= 20; n++ {
		d := NewDeal(v, NumberedSeed(n))
		st := NewState(&d)
		var ps []pos
		var legal []Move
		for k := 0; k < 100; k++ {
			st.reset(&d)
			for !st.over() {
				ps = append(ps, pos{st.present, rankIdx(st.WasteTop()), int(st.next)})
				legal = st.AppendLegal(legal[:0])
				st.apply(legal[rng.IntN(len(legal))])
			}
		}
		deals = append(deals, d)
		sets = append(sets, ps)
	}
	var s Solver
	var sink uint64
	calls := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(deals)
		d := &deals[k]
		s.setup(position{v: v, lay: d.layout, cards: &d.tableau, present: d.layout.all, waste: []Card{d.start}, stock: d.stock[:d.nStock]})
		for _, p := range sets[k] {
			sink += s.runReach(p.present, p.top, p.next, len(s.cur))
		}
		calls += len(sets[k])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/call")
	_ = sink
}
