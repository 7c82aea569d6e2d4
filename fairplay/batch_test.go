package fairplay_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"golfsolitaire/fairplay"
	"golfsolitaire/golf"
)

// randomLine plays legal moves chosen by rng (a player who cannot see
// the stock: its choices ignore it), preferring plays to turns.
func randomLine(d *golf.Deal, rng *rand.Rand) []golf.Move {
	st := golf.NewState(d)
	for !st.Over() {
		legal := st.Legal()
		m := legal[rng.IntN(len(legal))]
		if len(legal) > 1 && m.Action != golf.Play && rng.IntN(3) > 0 {
			m = legal[0]
		}
		_ = st.Apply(m)
	}
	return append([]golf.Move(nil), st.Moves()...)
}

// sameAnalysis reports whether two analyses of a hole agree in
// everything but the work counted (a shared decision is counted once).
func sameAnalysis(a, b fairplay.Hole) bool {
	a.Solves, a.Nodes, b.Solves, b.Nodes = 0, 0, 0, 0
	return reflect.DeepEqual(a, b)
}

// TestAnalyseHolesShared: the seats of a deal analysed together get
// exactly the analyses they get alone, while the decisions two seats
// meet with the same moves are scored once.
func TestAnalyseHolesShared(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	for _, tc := range []struct {
		name string
		cfg  fairplay.Config
	}{
		{"as many orders in every stretch", testCfg},
		{"fewer in the opening", fairplay.Config{Samples: 10, OpeningSamples: 2, OpeningStock: 8, Nodes: 3000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			analyseHolesShared(t, tc.cfg)
		})
	}
}

func analyseHolesShared(t *testing.T, cfg fairplay.Config) {
	for n := 1; n <= 3; n++ {
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(n))
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		line := clairvoyantLine(t, &d)
		other := randomLine(&d, rng)
		// A seat that plays the clairvoyant line up to its first stock
		// turn, then as it likes: it shares a stretch, then parts.
		st := golf.NewState(&d)
		for _, m := range line {
			_ = st.Apply(m)
			if m.Action != golf.Play {
				break
			}
		}
		for !st.Over() {
			_ = st.Apply(st.Legal()[len(st.Legal())-1])
		}
		parted := append([]golf.Move(nil), st.Moves()...)
		seats := [][]golf.Move{line, other, line, parted}

		together, err := fairplay.AnalyseHoles(&d, seats, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(together) != len(seats) {
			t.Fatalf("%d analyses for %d seats", len(together), len(seats))
		}
		var alone int
		var shared int
		for i, moves := range seats {
			h, err := fairplay.AnalyseHole(&d, moves, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !sameAnalysis(h, together[i]) {
				t.Fatalf("deal %d seat %d: together %+v\nalone %+v", n, i+1, together[i], h)
			}
			alone += h.Solves
			shared += together[i].Solves
		}
		if together[2].Solves != 0 || shared >= alone {
			t.Errorf("deal %d: %d solves together (the repeated seat %d), %d alone", n, shared, together[2].Solves, alone)
		}
	}
}

// TestAnalyseHolesBadSeat: a seat whose moves do not replay is named, and
// nothing is returned.
func TestAnalyseHolesBadSeat(t *testing.T) {
	t.Parallel()
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(1))
	good := randomLine(&d, rand.New(rand.NewPCG(1, 1)))
	hs, err := fairplay.AnalyseHoles(&d, [][]golf.Move{good, {golf.PlayPile(9)}}, testCfg)
	if !errors.Is(err, fairplay.ErrBadRecord) || !strings.Contains(err.Error(), "seat 2") || hs != nil {
		t.Fatalf("analyses %v, error %v; want ErrBadRecord naming seat 2", hs, err)
	}
}

// TestHonestCalibration: for players whose choices ignore the stock, the
// real order does best in a stretch as often as its chance P says (the
// statistic's null hypothesis, which the flag bar rests on): over many
// holes the count of such stretches is within four standard deviations
// of the sum of P. A player who knows the stock does best far more often.
func TestHonestCalibration(t *testing.T) {
	t.Parallel()
	propertyCheck(t)
	for _, tc := range []struct {
		name string
		cfg  fairplay.Config
	}{
		{"eight orders", fairplay.Config{Samples: 8, Nodes: 3000, MaxCards: 29}},
		{"fewer in the opening", fairplay.Config{Samples: 16, OpeningSamples: 3, OpeningStock: 8, Nodes: 3000, MaxCards: 29}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			honestCalibration(t, tc.cfg)
		})
	}
}

// calibrationDeals analyses 60 deals, each played by two seats making
// random moves (their randomness drawn from stream) and, on the first 20,
// a third seat that knows the stock: each deal's holes in seat order.
func calibrationDeals(t *testing.T, cfg fairplay.Config, stream uint64) [][]fairplay.Hole {
	t.Helper()
	var out [][]fairplay.Hole
	for n := 1; n <= 60; n++ {
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(n))
		rng := rand.New(rand.NewPCG(uint64(n), stream))
		seats := [][]golf.Move{randomLine(&d, rng), randomLine(&d, rng)}
		if n <= 20 {
			seats = append(seats, clairvoyantLine(t, &d))
		}
		hs, err := fairplay.AnalyseHoles(&d, seats, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, hs)
	}
	return out
}

func honestCalibration(t *testing.T, cfg fairplay.Config) {
	var segs, least int
	var expected, variance float64
	var cSegs, cLeast int
	var cExpected float64
	for _, hs := range calibrationDeals(t, cfg, 11) {
		for i, h := range hs {
			for _, s := range h.Segments {
				if !s.Informative() {
					continue
				}
				if i == 2 {
					cSegs++
					cExpected += s.P
					if s.Least {
						cLeast++
					}
					continue
				}
				segs++
				expected += s.P
				variance += s.P * (1 - s.P)
				if s.Least {
					least++
				}
			}
		}
	}
	if segs < 100 {
		t.Fatalf("only %d informative stretches", segs)
	}
	if z := (float64(least) - expected) / math.Sqrt(variance); math.Abs(z) > 4 {
		t.Errorf("honest: %d of %d stretches did best on the real order, %.1f expected (z = %.1f)", least, segs, expected, z)
	}
	if cLeast != cSegs || float64(cLeast) < cExpected+3 {
		t.Errorf("clairvoyant: %d of %d stretches did best on the real order, %.1f expected by chance", cLeast, cSegs, cExpected)
	}
}
