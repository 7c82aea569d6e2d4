package match

import (
	"math/rand/v2"
	"testing"

	"golfsolitaire/golf"
)

// TestLastWasteOrigin checks lastWasteOrigin against the last of
// wasteOrigins, for every game with its defaults and with a redeal, at
// every step of random games.
func TestLastWasteOrigin(t *testing.T) {
	t.Parallel()
	for _, g := range golf.Games {
		for _, redeals := range []int{0, 1} {
			o := g.Defaults()
			o.Redeals = redeals
			v := golf.Variant{Game: g, Options: o}
			rng := rand.New(rand.NewPCG(3, uint64(redeals)))
			for n := 1; n <= 20; n++ {
				d := golf.NewDeal(v, golf.NumberedSeed(n))
				st := golf.NewState(&d)
				var moves []golf.Move
				for step := 0; ; step++ {
					want := -1
					if o := wasteOrigins(&d, moves); len(o) > 0 {
						want = o[len(o)-1]
					}
					if got := lastWasteOrigin(&d, moves); got != want {
						t.Fatalf("%s, %d redeals, deal %d, step %d: %d, want %d", g, redeals, n, step, got, want)
					}
					legal := st.Legal()
					if len(legal) == 0 {
						break
					}
					m := legal[rng.IntN(len(legal))]
					if err := st.Apply(m); err != nil {
						t.Fatal(err)
					}
					moves = append(moves, m)
				}
			}
		}
	}
}
