package golf

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// packOf returns the variant's pack, sorted.
func packOf(v Variant) []Card {
	var p [maxPack]Card
	out := slices.Clone(p[:pack(&p, v)])
	slices.Sort(out)
	return out
}

// dealCards returns every card of a deal, sorted.
func dealCards(d *Deal) []Card {
	var out []Card
	for _, p := range d.Tableau() {
		out = append(out, p...)
	}
	out = append(out, d.Stock()...)
	if d.Start() != NoCard {
		out = append(out, d.Start())
	}
	slices.Sort(out)
	return out
}

func TestDealShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		game      Game
		opts      map[string]any
		piles     int
		depth     int
		stock     int
		start     string // "" none, "?" some card, else that card
		packSize  int
		stockGame bool
	}{
		{"golf: 7 columns of 5, stock 17 less the one turned", GolfGame, nil, 7, 5, 16, "?", 52, true},
		{"golf columns 6: 22 in the stock before the first turn", GolfGame, map[string]any{"columns": 6}, 6, 5, 21, "?", 52, true},
		{"golf columns 6 freeStart: all 22 stay in the stock", GolfGame, map[string]any{"columns": 6, "freeStart": true}, 6, 5, 22, "", 52, true},
		{"golf freeStart: empty waste, stock 17", GolfGame, freeStart, 7, 5, 17, "", 52, true},
		{"golf jokers 1: the stock grows", GolfGame, joker1, 7, 5, 17, "?", 53, true},
		{"golf jokers 2", GolfGame, map[string]any{"jokers": 2}, 7, 5, 18, "?", 54, true},
		{"double-golf: 8 columns of 8, stock 40 then 39", DoubleGolf, nil, 8, 8, 39, "?", 104, true},
		{"double-golf freeStart: stock 40", DoubleGolf, freeStart, 8, 8, 40, "", 104, true},
		{"double-golf jokers 2", DoubleGolf, map[string]any{"jokers": 2}, 8, 8, 41, "?", 106, true},
		{"black-hole: AS foundation, 17 fans of 3, no stock", BlackHole, nil, 17, 3, 0, "AS", 52, false},
		{"all-in-a-row: 13 fans of 4, empty foundation, no stock", AllInARow, nil, 13, 4, 0, "", 52, false},
		{"tripeaks: 28 cards, stock 24 less the one turned", TriPeaks, nil, 28, 1, 23, "?", 52, true},
		{"tripeaks jokers 2", TriPeaks, map[string]any{"jokers": 2}, 28, 1, 25, "?", 54, true},
		{"pyramid-golf: 28 cards, stock 24 less the one turned", PyramidGolf, nil, 28, 1, 23, "?", 52, true},
		{"pyramid-golf jokers 1", PyramidGolf, joker1, 28, 1, 24, "?", 53, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := mustVariant(t, tt.game, tt.opts)
			for n := range 20 {
				d := NewDeal(v, NumberedSeed(n))
				tab := d.Tableau()
				if len(tab) != tt.piles {
					t.Fatalf("%d piles, want %d", len(tab), tt.piles)
				}
				for i, p := range tab {
					if len(p) != tt.depth {
						t.Fatalf("pile %d has %d cards, want %d", i+1, len(p), tt.depth)
					}
				}
				if got := len(d.Stock()); got != tt.stock {
					t.Errorf("stock %d, want %d", got, tt.stock)
				}
				switch tt.start {
				case "":
					if d.Start() != NoCard {
						t.Errorf("start %s, want none", d.Start())
					}
				case "?":
					if d.Start() == NoCard {
						t.Errorf("no start card")
					}
				default:
					if d.Start().String() != tt.start {
						t.Errorf("start %s, want %s", d.Start(), tt.start)
					}
				}
				if v.PackSize() != tt.packSize {
					t.Errorf("PackSize %d, want %d", v.PackSize(), tt.packSize)
				}
				if got, want := dealCards(&d), packOf(v); !slices.Equal(got, want) {
					t.Fatalf("the deal is not one pack:\n got %s\nwant %s", formatCards(got), formatCards(want))
				}
				s := NewState(&d)
				if s.StockLeft() != tt.stock || s.Score() != tt.piles*tt.depth || s.Over() {
					t.Errorf("new state: stock %d score %d over %v", s.StockLeft(), s.Score(), s.Over())
				}
			}
		})
	}
}

// TestClearScores plays deals out in one line and checks the end of the
// deal and its score.
func TestClearScores(t *testing.T) {
	t.Parallel()
	two := NewCard(2, Diamonds)
	tests := []struct {
		name   string
		v      Variant
		walk   []int
		launch Card
		turns  int
		score  int
	}{
		{"golf: a clear scores minus the stock left", DefaultVariant(), golfWalk(35), two, 0, -16},
		{"golf: a clear with 4 stock cards left scores -4", DefaultVariant(), golfWalk(35), two, 12, -4},
		{"golf negativeScore false: a clear scores 0", mustVariant(t, GolfGame, map[string]any{"negativeScore": false}), golfWalk(35), two, 0, 0},
		{"golf freeStart: a clear scores minus 17", mustVariant(t, GolfGame, freeStart), golfWalk(35), NoCard, 0, -17},
		{"golf columns 6: a clear scores minus 21", mustVariant(t, GolfGame, map[string]any{"columns": 6}), golfWalk(30), two, 0, -21},
		{"golf redeals 1: a clear scores minus the stock", mustVariant(t, GolfGame, redeal1), golfWalk(35), two, 3, -13},
		{"black-hole: moving all 51 scores 0", mustVariant(t, BlackHole, nil), wrapWalk(2, 51), NewCard(Ace, Spades), 0, 0},
		{"all-in-a-row: moving all 52 scores 0", mustVariant(t, AllInARow, nil), wrapWalk(1, 52), NoCard, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, line := walkDeal(t, tt.v, tt.walk, tt.launch, tt.turns)
			s := NewState(&d)
			for i, m := range line {
				if s.Over() {
					t.Fatalf("over before move %d", i+1)
				}
				if err := s.Apply(m); err != nil {
					t.Fatalf("move %d: %v", i+1, err)
				}
			}
			if !s.Cleared() || !s.Over() {
				t.Fatalf("cleared %v over %v, want both", s.Cleared(), s.Over())
			}
			if got := s.Score(); got != tt.score {
				t.Errorf("score %d, want %d", got, tt.score)
			}
			if got := s.Legal(); len(got) != 0 {
				t.Errorf("legal moves after the clear: %v", got)
			}
			if tt.v.hasStock() {
				// The deal ends at once: the stock left cannot be turned.
				wantErr(t, s.Apply(TurnMove), ErrGameOver)
			}
		})
	}
}

func TestOptionsApply(t *testing.T) {
	t.Parallel()
	// The table of rules.md; pyramid-golf takes the options of tripeaks.
	value := map[string]any{OptKings: "queen-on-king", OptFreeStart: true, OptJokers: 1, OptColumns: 6, OptRedeals: 1, OptUndo: true, OptNegativeScore: false}
	applies := map[string][]Game{
		OptKings:         {GolfGame, DoubleGolf, TriPeaks, PyramidGolf},
		OptFreeStart:     {GolfGame, DoubleGolf},
		OptJokers:        {GolfGame, DoubleGolf, TriPeaks, PyramidGolf},
		OptColumns:       {GolfGame},
		OptRedeals:       {GolfGame, DoubleGolf},
		OptUndo:          Games,
		OptNegativeScore: {GolfGame, DoubleGolf, TriPeaks, PyramidGolf},
	}
	for _, g := range Games {
		for _, opt := range optionOrder {
			want := slices.Contains(applies[opt], g)
			t.Run(string(g)+"/"+opt, func(t *testing.T) {
				t.Parallel()
				if got := g.Applies(opt); got != want {
					t.Errorf("Applies = %v, want %v", got, want)
				}
				_, err := NewVariant(string(g), map[string]any{opt: value[opt]})
				if want && err != nil {
					t.Errorf("error %v, want none", err)
				}
				if !want && !errors.Is(err, ErrBadOption) {
					t.Errorf("error %v, want ErrBadOption (the option does not apply)", err)
				}
			})
		}
	}
}

func TestParseOptionsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		game string
		opts map[string]any
		want error
	}{
		{"unknown game", "poker", nil, ErrUnknownGame},
		{"empty game", "", nil, ErrUnknownGame},
		{"unknown option", "golf", map[string]any{"speed": 1}, ErrBadOption},
		{"kings sideways", "golf", map[string]any{"kings": "sideways"}, ErrBadOption},
		{"kings not a string", "golf", map[string]any{"kings": 1}, ErrBadOption},
		{"jokers 3", "golf", map[string]any{"jokers": 3}, ErrBadOption},
		{"jokers -1", "golf", map[string]any{"jokers": -1}, ErrBadOption},
		{"jokers 1.5", "golf", map[string]any{"jokers": 1.5}, ErrBadOption},
		{"jokers true", "golf", map[string]any{"jokers": true}, ErrBadOption},
		{"columns 5", "golf", map[string]any{"columns": 5}, ErrBadOption},
		{"columns 8", "golf", map[string]any{"columns": 8}, ErrBadOption},
		{"columns for tripeaks", "tripeaks", map[string]any{"columns": 7}, ErrBadOption},
		{"columns for double-golf", "double-golf", map[string]any{"columns": 8}, ErrBadOption},
		{"kings for black-hole", "black-hole", map[string]any{"kings": "wrap"}, ErrBadOption},
		{"jokers for all-in-a-row", "all-in-a-row", map[string]any{"jokers": 0}, ErrBadOption},
		{"freeStart for pyramid-golf", "pyramid-golf", map[string]any{"freeStart": false}, ErrBadOption},
		{"negativeScore for black-hole", "black-hole", map[string]any{"negativeScore": true}, ErrBadOption},
		{"redeals 2", "golf", map[string]any{"redeals": 2}, ErrBadOption},
		{"freeStart maybe", "golf", map[string]any{"freeStart": "maybe"}, ErrBadOption},
		{"undo 1.0 as a number", "golf", map[string]any{"undo": 1}, ErrBadOption},
		{"text values are accepted", "golf", map[string]any{"jokers": "2", "freeStart": "true", "columns": json.Number("6")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewVariant(tt.game, tt.opts)
			if (tt.want == nil) != (err == nil) || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Errorf("NewVariant(%q, %v) error = %v, want %v", tt.game, tt.opts, err, tt.want)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		game  Game
		kings Kings
		neg   bool
	}{
		{GolfGame, Strict, true}, {DoubleGolf, Strict, true}, {TriPeaks, Wrap, true},
		{PyramidGolf, Wrap, true}, {BlackHole, Wrap, false}, {AllInARow, Wrap, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.game), func(t *testing.T) {
			t.Parallel()
			v := mustVariant(t, tt.game, nil)
			o := v.Options
			if o.Kings != tt.kings || o.NegativeScore != tt.neg || o.Jokers != 0 || o.FreeStart || o.Redeals != 0 || o.Undo {
				t.Errorf("defaults = %+v", o)
			}
		})
	}
}

func TestVariantJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     Variant
		err      bool
	}{
		{name: "golf with options", in: `{"game":"golf","options":{"columns":6,"kings":"wrap"}}`, want: Variant{GolfGame, Options{Kings: Wrap, Columns: 6, NegativeScore: true}}},
		{name: "missing game is golf", in: `{}`, want: DefaultVariant()},
		{name: "tripeaks defaults", in: `{"game":"tripeaks"}`, want: Variant{TriPeaks, TriPeaks.Defaults()}},
		{name: "null options", in: `{"game":"black-hole","options":null}`, want: Variant{BlackHole, BlackHole.Defaults()}},
		{name: "unknown game", in: `{"game":"poker"}`, err: true},
		{name: "option that does not apply", in: `{"game":"tripeaks","options":{"columns":7}}`, err: true},
		{name: "unknown field", in: `{"game":"golf","seed":"x"}`, err: true},
		{name: "not an object", in: `[1]`, err: true},
		{name: "fractional jokers", in: `{"options":{"jokers":1.0}}`, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var v Variant
			err := json.Unmarshal([]byte(tt.in), &v)
			if tt.err {
				if err == nil {
					t.Fatalf("decoded %v, want an error", v)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v != tt.want {
				t.Errorf("got %+v, want %+v", v, tt.want)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var back Variant
			if err := json.Unmarshal(b, &back); err != nil || back != v {
				t.Errorf("round trip of %s: %+v, %v", b, back, err)
			}
		})
	}
}
