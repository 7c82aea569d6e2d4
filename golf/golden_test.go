package golf

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// dealingVariants are the game and option combinations that change how a
// seed is dealt: the options that only change play (kings, redeals, undo,
// negativeScore) deal the same cards.
func dealingVariants(t testing.TB) map[string]Variant {
	t.Helper()
	out := map[string]Variant{}
	add := func(name string, g Game, opts map[string]any) {
		out[name] = mustVariant(t, g, opts)
	}
	for _, cols := range []int{7, 6} {
		for j := 0; j <= 2; j++ {
			for _, fs := range []bool{false, true} {
				name := fmt.Sprintf("golf-columns%d-jokers%d", cols, j)
				if fs {
					name += "-freestart"
				}
				add(name, GolfGame, map[string]any{"columns": cols, "jokers": j, "freeStart": fs})
			}
		}
	}
	for j := 0; j <= 2; j++ {
		add(fmt.Sprintf("double-golf-jokers%d", j), DoubleGolf, map[string]any{"jokers": j})
		add(fmt.Sprintf("double-golf-jokers%d-freestart", j), DoubleGolf, map[string]any{"jokers": j, "freeStart": true})
		add(fmt.Sprintf("tripeaks-jokers%d", j), TriPeaks, map[string]any{"jokers": j})
		add(fmt.Sprintf("pyramid-golf-jokers%d", j), PyramidGolf, map[string]any{"jokers": j})
	}
	add("black-hole", BlackHole, nil)
	add("all-in-a-row", AllInARow, nil)
	return out
}

// goldenSeeds are the seeds of every golden file: numbered deals 1 to 3 and
// the all-zero seed.
var goldenSeeds = []Seed{NumberedSeed(1), NumberedSeed(2), NumberedSeed(3), {}}

// printDeals is a golden file's content: a JSON array of the printed deals,
// one deal a line.
func printDeals(t testing.TB, v Variant) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, seed := range goldenSeeds {
		d := NewDeal(v, seed)
		j, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		if i < len(goldenSeeds)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.Bytes()
}

// TestGoldenDeals locks the seed-to-cards contract of deals.md for every
// combination that deals differently. Run with -update to rewrite the files
// after a deliberate change (which breaks every published deal: don't).
func TestGoldenDeals(t *testing.T) {
	t.Parallel()
	for name, v := range dealingVariants(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := printDeals(t, v)
			if !json.Valid(got) {
				t.Fatalf("not valid JSON:\n%s", got)
			}
			path := filepath.Join("testdata", "deals", name+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the deals printed now:\n got %s\nwant %s", path, got, want)
			}
		})
	}
}

// TestGoldenDealsNoStrays checks that every golden file is still produced.
func TestGoldenDealsNoStrays(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "deals", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	vs := dealingVariants(t)
	for _, f := range files {
		name := filepath.Base(f)
		if _, ok := vs[name[:len(name)-len(".json")]]; !ok {
			t.Errorf("stray golden file %s", f)
		}
	}
	if len(files) != len(vs) && !*update {
		t.Errorf("%d golden files for %d variants", len(files), len(vs))
	}
}

// TestPlayOnlyOptionsDealAlike checks the claim behind dealingVariants: the
// options that change only play deal the same cards.
func TestPlayOnlyOptionsDealAlike(t *testing.T) {
	t.Parallel()
	for _, v := range allVariants() {
		base := v
		o := base.Options
		def := v.Game.Defaults()
		o.Kings, o.Redeals, o.Undo, o.NegativeScore = def.Kings, def.Redeals, def.Undo, def.NegativeScore
		base.Options = o
		for n := range 3 {
			a, b := NewDeal(v, NumberedSeed(n)), NewDeal(base, NumberedSeed(n))
			if !samePiles(a.Tableau(), b.Tableau()) || formatCards(a.Stock()) != formatCards(b.Stock()) || a.Start() != b.Start() {
				t.Fatalf("%v and %v deal differently", v, base)
			}
		}
	}
}

func samePiles(a, b [][]Card) bool { return pilesString(a) == pilesString(b) }
