package golf

import (
	"strings"
	"testing"
)

func pilesString(piles [][]Card) string {
	var parts []string
	for _, p := range piles {
		parts = append(parts, "["+formatCards(p)+"]")
	}
	return strings.Join(parts, " ")
}

// TestDealsVectors checks the three test vectors of deals.md.
func TestDealsVectors(t *testing.T) {
	seed := NumberedSeed(1)
	if got, want := seed.String(), "0ef4f979765bfbbd2276aa81d75248f014c981de62dbd2e79a1bfca4f94b5f4e"; got != want {
		t.Fatalf("NumberedSeed(1) = %s, want %s", got, want)
	}
	tests := []struct {
		name    string
		variant Variant
		seed    Seed
		tableau string
		start   string
		stock   string
	}{
		{
			name: "numbered deal 1, strict golf", variant: DefaultVariant(), seed: seed,
			tableau: "[6C 3H 7S 7H 6H] [QC 5C 9D TH 2S] [JC JS KS 5H 6S] [4H 5D 9H 4S 3S] [2H 8H 7D TD 4C] [4D 2D JH 6D 8S] [KH AC 9C QS 2C]",
			start:   "QH", stock: "QD TS 3D TC 8D KC AD KD 9S 5S 7C JD AH AS 8C 3C",
		},
		{
			name: "numbered deal 1, black hole", variant: Variant{BlackHole, BlackHole.Defaults()}, seed: seed,
			tableau: "[6C 9H 2C] [QC 7D QH] [JC JH QD] [4H 9C TS] [2H 7H 3D] [4D TH TC] [KH 5H 8D] [3H 4S KC] [5C TD AD] [JS 6D KD] [5D QS 9S] [8H 6H 5S] [2D 2S 7C] [AC 6S JD] [7S 3S AH] [9D 4C 8C] [KS 8S 3C]",
			start:   "AS", stock: "",
		},
		{
			name: "all-zero seed, strict golf", variant: DefaultVariant(), seed: Seed{},
			tableau: "[AC 5H 3S KH 5C] [AH 2D 8H 7S 2C] [4C JS 7D 4D 3D] [6D 8C 3C QD 6H] [3H TD 9D 8D KC] [5S 8S QC JD 9H] [6C 7C 6S 4H QH]",
			start:   "9C", stock: "TH KS 4S 7H 2H JC TS 2S QS AS 5D AD KD 9S JH TC",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDeal(tt.variant, tt.seed)
			if got := pilesString(d.Tableau()); got != tt.tableau {
				t.Errorf("tableau = %s\nwant      %s", got, tt.tableau)
			}
			if got := d.Start().String(); got != tt.start {
				t.Errorf("start = %s, want %s", got, tt.start)
			}
			if got := formatCards(d.Stock()); got != tt.stock {
				t.Errorf("stock = %s, want %s", got, tt.stock)
			}
		})
	}
}
