package golf

import (
	"math/rand/v2"
	"testing"
)

// benchVariants are the default variant of every game.
func benchVariants(b *testing.B) []Variant {
	var out []Variant
	for _, g := range Games {
		out = append(out, mustVariant(b, g, nil))
	}
	return out
}

// benchLine plays a greedy random game to its end and returns its moves.
func benchLine(b *testing.B, d *Deal) []Move {
	s := NewState(d)
	r := rand.New(rand.NewPCG(1, 2))
	for !s.Over() {
		legal := s.Legal()
		m := legal[0]
		if m.Action != Play {
			m = legal[r.IntN(len(legal))]
		}
		applyAll(b, s, []Move{m})
	}
	return s.Record().Moves
}

func BenchmarkDeal(b *testing.B) {
	for _, v := range benchVariants(b) {
		b.Run(string(v.Game), func(b *testing.B) {
			b.ReportAllocs()
			var seed Seed
			for i := 0; b.Loop(); i++ {
				seed[0], seed[1] = byte(i), byte(i>>8)
				d := NewDeal(v, seed)
				if d.layout == nil {
					b.Fatal("no layout")
				}
			}
		})
	}
}

func BenchmarkLegal(b *testing.B) {
	for _, v := range benchVariants(b) {
		b.Run(string(v.Game), func(b *testing.B) {
			d := NewDeal(v, NumberedSeed(1))
			line := benchLine(b, &d)
			s := NewState(&d)
			applyAll(b, s, line[:len(line)/2]) // mid-game
			buf := make([]Move, 0, 128)
			b.ReportAllocs()
			for b.Loop() {
				buf = s.AppendLegal(buf[:0])
			}
		})
	}
}

// BenchmarkApply applies the moves of a whole game one at a time, starting
// again from the deal when the game ends; the time is per move.
func BenchmarkApply(b *testing.B) {
	for _, v := range benchVariants(b) {
		b.Run(string(v.Game), func(b *testing.B) {
			d := NewDeal(v, NumberedSeed(1))
			line := benchLine(b, &d)
			s := NewState(&d)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i == len(line) {
					s.reset(&d)
					i = 0
				}
				if err := s.Apply(line[i]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

func BenchmarkReplay(b *testing.B) {
	for _, v := range benchVariants(b) {
		b.Run(string(v.Game), func(b *testing.B) {
			d := NewDeal(v, NumberedSeed(1))
			rec := Record{Variant: v, Seed: d.Seed, Moves: benchLine(b, &d)}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rec.Replay(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestApplyAllocates nothing: the server applies a move per message.
func TestApplyAllocatesNothing(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	d := NewDeal(DefaultVariant(), NumberedSeed(1))
	s := NewState(&d)
	var legal []Move
	legal = s.AppendLegal(legal)
	allocs := testing.AllocsPerRun(100, func() {
		s.reset(&d)
		for !s.Over() {
			legal = s.AppendLegal(legal[:0])
			if err := s.Apply(legal[0]); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per game", allocs)
	}
	// Dealing allocates only the generator (math/rand/v2's ChaCha8 state
	// escapes through its assembly refill).
	if n := testing.AllocsPerRun(100, func() { _ = NewDeal(DefaultVariant(), NumberedSeed(2)) }); n > 1 {
		t.Errorf("NewDeal: %v allocations, want at most 1", n)
	}
}
