package golf

import (
	"math/rand/v2"
	"testing"
)

// TestHintIgnoresStockOrder: two deals alike in everything the player
// sees but with the stock in different orders get the same hint from the
// same rng seed, and the hint is legal.
func TestHintIgnoresStockOrder(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	variants := []Variant{DefaultVariant()}
	if v, err := NewVariant("golf", map[string]any{"kings": "wrap", "redeals": 1}); err == nil {
		variants = append(variants, v)
	}
	if v, err := NewVariant("tripeaks", nil); err == nil {
		variants = append(variants, v)
	}
	for _, v := range variants {
		for n := 1; n <= heavy(8); n++ {
			d1 := NewDeal(v, NumberedSeed(n))
			stock := d1.Stock()
			r := rand.New(rand.NewPCG(uint64(n), 9))
			r.Shuffle(len(stock), func(i, j int) { stock[i], stock[j] = stock[j], stock[i] })
			d2, err := DealFromCards(v, d1.Tableau(), stock, d1.Start())
			if err != nil {
				t.Fatal(err)
			}
			s1, s2 := NewState(&d1), NewState(&d2)
			// Play the same tableau cards on both while any fits, so the
			// positions stay alike to the player.
			for k := 0; k < 3; k++ {
				h1 := Hint(s1, 3, rand.NewChaCha8([32]byte{byte(n), byte(k)}))
				h2 := Hint(s2, 3, rand.NewChaCha8([32]byte{byte(n), byte(k)}))
				if h1 != h2 {
					t.Fatalf("%s deal %d step %d: hints %s and %s differ with only the stock order changed", v, n, k, h1, h2)
				}
				if err := s1.Check(h1); err != nil {
					t.Fatalf("%s deal %d: hint %s is illegal: %v", v, n, h1, err)
				}
				if h1.Action != Play {
					break
				}
				if err := s1.Apply(h1); err != nil {
					t.Fatal(err)
				}
				if err := s2.Apply(h1); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestHintGameOver(t *testing.T) {
	propertyCheck(t)
	d := NewDeal(DefaultVariant(), NumberedSeed(1))
	sol := Solve(&d, nil)
	st, err := sol.Record(&d).Replay()
	if err != nil {
		t.Fatal(err)
	}
	if m := Hint(st, 2, rand.NewChaCha8([32]byte{})); m != (Move{}) {
		t.Fatalf("hint after the game is over: %s", m)
	}
}

// TestHintPlaysWell: following hints from the start scores better on
// average than naive play (a random fitting card, the stock only when
// none fits) over a few wrap deals.
func TestHintPlaysWell(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	v, _ := NewVariant("golf", map[string]any{"kings": "wrap"})
	hinted, naive := 0, 0
	const deals, playouts = 6, 20
	for n := 1; n <= deals; n++ {
		d := NewDeal(v, NumberedSeed(n))
		st := NewState(&d)
		rng := rand.NewChaCha8([32]byte{byte(n)})
		for !st.Over() {
			if err := st.Apply(Hint(st, 2, rng)); err != nil {
				t.Fatal(err)
			}
		}
		hinted += st.Score() * playouts
		for k := 0; k < playouts; k++ {
			st.reset(&d)
			for !st.Over() {
				legal := st.Legal()
				plays := 0
				for _, m := range legal {
					if m.Action == Play {
						plays++
					}
				}
				m := legal[len(legal)-1]
				if plays > 0 {
					m = legal[uniform(rng, uint64(plays))]
				}
				st.apply(m)
			}
			naive += st.Score()
		}
	}
	if hinted >= naive {
		t.Fatalf("hinted play scores %.2f a deal, naive play %.2f", float64(hinted)/deals/playouts, float64(naive)/deals/playouts)
	}
	t.Logf("hinted play scores %.2f a deal, naive play %.2f", float64(hinted)/deals/playouts, float64(naive)/deals/playouts)
}

func TestRate(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	counts := map[Difficulty]int{}
	total := 0
	var reused Solver // rates every deal: its tables carry over
	for _, game := range []string{"golf", "black-hole"} {
		v, _ := NewVariant(game, nil)
		for n := 1; n <= heavy(15); n++ {
			total++
			d := NewDeal(v, NumberedSeed(n))
			r := Rate(&d, &SolveOptions{MaxNodes: 2_000_000})
			if r < Easy || r > Unclearable {
				t.Fatalf("%s deal %d: rating %d", game, n, r)
			}
			if r2 := Rate(&d, &SolveOptions{MaxNodes: 2_000_000}); r2 != r {
				t.Fatalf("%s deal %d: rated %v then %v", game, n, r, r2)
			}
			if r3 := reused.Rate(&d, &SolveOptions{MaxNodes: 2_000_000}); r3 != r {
				t.Fatalf("%s deal %d: rated %v, by a reused solver %v", game, n, r, r3)
			}
			sol := Solve(&d, &SolveOptions{MaxNodes: 2_000_000})
			if (r == Unclearable) != !sol.Cleared {
				t.Fatalf("%s deal %d: rated %v, solver cleared=%v", game, n, r, sol.Cleared)
			}
			counts[r]++
		}
	}
	if counts[Unclearable] == 0 || counts[Unclearable] == total {
		t.Fatalf("ratings %v: want some unclearable and some not", counts)
	}
}

// TestHintYield: HintYield's solves give way through the yield passed
// (every few thousand nodes, counted across a hint's solves), and its
// move is Hint's from the same rng state.
func TestHintYield(t *testing.T) {
	t.Parallel()
	v, _ := NewVariant("golf", nil)
	yields := 0
	for n := 1; n <= 12; n++ {
		d := NewDeal(v, NumberedSeed(n))
		st := NewState(&d)
		seed := [32]byte{byte(n)}
		want := Hint(st, 6, rand.NewChaCha8(seed))
		got := HintYield(st, 6, rand.NewChaCha8(seed), func() { yields++ })
		if got != want {
			t.Errorf("deal %d: HintYield %v, Hint %v", n, got, want)
		}
	}
	if yields == 0 {
		t.Error("twelve hints' solves never called the yield passed")
	}
	t.Logf("%d yields", yields)
}
