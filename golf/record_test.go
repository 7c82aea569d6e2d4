package golf

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeRecord(t *testing.T) {
	t.Parallel()
	seed := NumberedSeed(1).String()
	tests := []struct {
		name, in string
		moves    string // the moves decoded, for a good record
		err      string // a fragment of the error, for a bad one
	}{
		{name: "full", in: `{"game":"golf","options":{"kings":"wrap"},"seed":"` + seed + `","moves":["s","3","r","u"]}`, moves: "s 3 r u"},
		{name: "bare pile numbers", in: `{"game":"golf","seed":"` + seed + `","moves":[3, "S"]}`, moves: "3 s"},
		{name: "no moves", in: `{"game":"black-hole","seed":"` + seed + `"}`, moves: ""},
		{name: "missing game", in: `{"seed":"` + seed + `"}`, err: "missing game"},
		{name: "missing seed", in: `{"game":"golf"}`, err: "missing seed"},
		{name: "bad seed", in: `{"game":"golf","seed":"0g"}`, err: "bad seed"},
		{name: "bad move", in: `{"game":"golf","seed":"` + seed + `","moves":["s","0"]}`, err: "move 2"},
		{name: "fractional pile", in: `{"game":"golf","seed":"` + seed + `","moves":[1.5]}`, err: "move 1"},
		{name: "object move", in: `{"game":"golf","seed":"` + seed + `","moves":[{}]}`, err: "is not a move"},
		{name: "unknown field", in: `{"game":"golf","seed":"` + seed + `","score":1}`, err: "unknown field"},
		{name: "option that does not apply", in: `{"game":"tripeaks","options":{"redeals":1},"seed":"` + seed + `"}`, err: "does not apply"},
		{name: "trailing data", in: `{"game":"golf","seed":"` + seed + `"} 1`, err: "bad record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := DecodeRecord([]byte(tt.in))
			if tt.err != "" {
				if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want ErrBadRecord containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := movesString(r.Moves); got != tt.moves {
				t.Errorf("moves %q, want %q", got, tt.moves)
			}
		})
	}
}

// TestRecordUnmarshalTrailing checks the strictness holds when UnmarshalJSON
// is called directly, not only through json.Unmarshal (which checks the
// input first).
func TestRecordUnmarshalTrailing(t *testing.T) {
	t.Parallel()
	seed := NumberedSeed(1).String()
	for _, in := range []string{`{"game":"golf","seed":"` + seed + `"}}`, `{"game":"golf","seed":"` + seed + `"}]`, `{"game":"golf","seed":"` + seed + `"} {}`} {
		var r Record
		if err := r.UnmarshalJSON([]byte(in)); !errors.Is(err, ErrBadRecord) {
			t.Errorf("UnmarshalJSON(%s) = %v, want ErrBadRecord", in, err)
		}
		var v Variant
		if err := v.UnmarshalJSON([]byte(`{"game":"golf"}}`)); err == nil {
			t.Errorf("Variant.UnmarshalJSON accepted trailing data")
		}
	}
}

func TestReplayError(t *testing.T) {
	t.Parallel()
	r := Record{Variant: DefaultVariant(), Seed: NumberedSeed(1), Moves: moves(t, "s s 1 2")}
	s, err := r.Replay()
	var re *ReplayError
	if !errors.As(err, &re) || re.Index != 2 || !errors.Is(err, ErrNotAdjacent) {
		t.Fatalf("Replay error %v, want a *ReplayError at index 2 wrapping ErrNotAdjacent", err)
	}
	if got, want := err.Error(), "move 3 (1): golf: not one rank away (6H onto TS)"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if len(s.Moves()) != 2 {
		t.Errorf("the state after the failed replay has %d moves, want the 2 before the illegal one", len(s.Moves()))
	}
}

func TestDealFromCardsErrors(t *testing.T) {
	t.Parallel()
	golfDeal := NewDeal(DefaultVariant(), NumberedSeed(1))
	bh := NewDeal(mustVariant(t, BlackHole, nil), NumberedSeed(1))
	aiar := NewDeal(mustVariant(t, AllInARow, nil), NumberedSeed(1))
	fs := mustVariant(t, GolfGame, freeStart)
	tests := []struct {
		name    string
		v       Variant
		tableau [][]Card
		stock   []Card
		start   Card
	}{
		{"too few piles", DefaultVariant(), golfDeal.Tableau()[1:], golfDeal.Stock(), golfDeal.Start()},
		{"a short pile", DefaultVariant(), append([][]Card{golfDeal.Tableau()[0][1:]}, golfDeal.Tableau()[1:]...), append(golfDeal.Stock(), golfDeal.Tableau()[0][0]), golfDeal.Start()},
		{"a card twice", DefaultVariant(), golfDeal.Tableau(), append(golfDeal.Stock()[1:], golfDeal.Stock()[2]), golfDeal.Start()},
		{"a card missing", DefaultVariant(), golfDeal.Tableau(), golfDeal.Stock()[1:], golfDeal.Start()},
		{"no start without freeStart", DefaultVariant(), golfDeal.Tableau(), append(golfDeal.Stock(), golfDeal.Start()), NoCard},
		{"a start with freeStart", fs, golfDeal.Tableau(), golfDeal.Stock(), golfDeal.Start()},
		{"a stock in black-hole", bh.Variant, bh.Tableau(), []Card{bh.Start()}, NoCard},
		{"no foundation in black-hole", bh.Variant, bh.Tableau(), nil, NoCard},
		{"a foundation in all-in-a-row", aiar.Variant, aiar.Tableau(), nil, NewCard(Ace, Spades)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := DealFromCards(tt.v, tt.tableau, tt.stock, tt.start); err == nil {
				t.Error("no error")
			}
		})
	}
	// And the good ones rebuild the seeded deal exactly.
	for _, d := range []Deal{golfDeal, bh, aiar} {
		nd, err := DealFromCards(d.Variant, d.Tableau(), d.Stock(), d.Start())
		if err != nil {
			t.Fatal(err)
		}
		nd.Seed = d.Seed // a hand-made deal has no seed of its own
		b, _ := json.Marshal(nd)
		c, _ := json.Marshal(d)
		if string(b) != string(c) {
			t.Errorf("DealFromCards(%s) = %s, want %s", d.Variant.Game, b, c)
		}
	}
}
