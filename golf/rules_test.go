package golf

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

var (
	strict    = map[string]any(nil)
	qok       = map[string]any{"kings": "queen-on-king"}
	wrap      = map[string]any{"kings": "wrap"}
	joker1    = map[string]any{"jokers": 1}
	redeal1   = map[string]any{"redeals": 1}
	undoOn    = map[string]any{"undo": true}
	freeStart = map[string]any{"freeStart": true}
)

// turns is n stock turns in record form.
func turns(n int) string { return strings.TrimSpace(strings.Repeat("s ", n)) }

// noFit are seven column tops none of which fits on a 9 (or a 9 of any
// kings rule): the deal can only go on by turning the stock.
var noFit = []string{"2C", "3C", "4C", "5C", "6C", "JC", "QC"}

// ruleCase is one sentence of rules.md: on the deal spec, after the setup
// moves, the move is legal (want nil) or fails with want; check, if set,
// looks at the state afterwards.
type ruleCase struct {
	name  string
	spec  layoutSpec
	setup string
	move  string
	want  error
	check func(t *testing.T, s *State)
}

func wasteIs(want string) func(t *testing.T, s *State) {
	return func(t *testing.T, s *State) {
		t.Helper()
		if got := formatCards(s.Waste()); got != want {
			t.Errorf("waste = %s, want %s", got, want)
		}
	}
}

func legalIs(want string) func(t *testing.T, s *State) {
	return func(t *testing.T, s *State) {
		t.Helper()
		if got := movesString(s.Legal()); got != want {
			t.Errorf("legal moves = [%s], want [%s]", got, want)
		}
	}
}

func scoreIs(want int) func(t *testing.T, s *State) {
	return func(t *testing.T, s *State) {
		t.Helper()
		if got := s.Score(); got != want {
			t.Errorf("score = %d, want %d", got, want)
		}
	}
}

func all(fs ...func(t *testing.T, s *State)) func(t *testing.T, s *State) {
	return func(t *testing.T, s *State) {
		t.Helper()
		for _, f := range fs {
			f(t, s)
		}
	}
}

var ruleCases = []ruleCase{
	// Standard Golf: playing onto the waste.
	{name: "golf/a free card one rank higher goes on the waste", spec: layoutSpec{piles: []string{"6C"}, start: "5D"}, move: "1", check: wasteIs("5D 6C")},
	{name: "golf/a free card one rank lower goes on the waste", spec: layoutSpec{piles: []string{"4C"}, start: "5D"}, move: "1", check: wasteIs("5D 4C")},
	{name: "golf/two ranks away does not fit", spec: layoutSpec{piles: []string{"7C"}, start: "5D"}, move: "1", want: ErrNotAdjacent},
	{name: "golf/the same rank does not fit", spec: layoutSpec{piles: []string{"5C"}, start: "5D"}, move: "1", want: ErrNotAdjacent},
	{name: "golf/suits and colours do not matter", spec: layoutSpec{piles: []string{"6D"}, start: "5D"}, move: "1", check: wasteIs("5D 6D")},
	{name: "golf/only the free card of a column is played; the one under it becomes free", spec: layoutSpec{piles: []string{"7C 6C"}, start: "5D"}, setup: "1", move: "1", check: wasteIs("5D 6C 7C")},
	{name: "golf/plays chain and a run may change direction (6 7 8 7 6)", spec: layoutSpec{piles: []string{"6C", "7C", "8C", "7D", "6D"}, start: "5S"}, setup: "1 2 3 4", move: "5", check: wasteIs("5S 6C 7C 8C 7D 6D")},
	{name: "golf/only a 2 goes on an ace", spec: layoutSpec{piles: []string{"2C"}, start: "AD"}, move: "1"},
	{name: "golf/ranks do not wrap: a king does not go on an ace", spec: layoutSpec{piles: []string{"KC"}, start: "AD"}, move: "1", want: ErrNotAdjacent},
	{name: "golf/ranks do not wrap: an ace does not go on a king", spec: layoutSpec{piles: []string{"AC"}, start: "KD"}, move: "1", want: ErrNothingOnKing},
	{name: "golf/nothing goes on a king: not a queen", spec: layoutSpec{piles: []string{"QC"}, start: "KD"}, move: "1", want: ErrNothingOnKing},
	{name: "golf/a king may be played onto a queen", spec: layoutSpec{piles: []string{"KC"}, start: "QD"}, move: "1", check: wasteIs("QD KC")},
	// The stock.
	{name: "golf/the stock may be turned even when a card fits", spec: layoutSpec{piles: []string{"6C"}, start: "5D", stock: "9H"}, move: "s",
		check: all(wasteIs("5D 9H"), func(t *testing.T, s *State) {
			if s.StockLeft() != 15 {
				t.Errorf("stock left = %d, want 15", s.StockLeft())
			}
		})},
	{name: "golf/when no free card fits, turning is the only move", spec: layoutSpec{piles: noFit, start: "9D"}, move: "s", check: func(t *testing.T, s *State) {}},
	{name: "golf/when no free card fits, the legal moves are just the turn", spec: layoutSpec{piles: noFit, start: "9D", stock: "KH"}, move: "s", check: legalIs("s")},
	{name: "golf/each stock card is turned once: an empty stock cannot be turned", spec: layoutSpec{piles: []string{"6C"}, stockEnd: "5D"}, setup: turns(16), move: "s", want: ErrStockEmpty},
	{name: "golf/no redeal by default", spec: layoutSpec{piles: []string{"6C"}, stockEnd: "5D"}, setup: turns(16), move: "r", want: ErrNoRedeal},
	{name: "golf/the deal ends when the stock is empty and no free card fits", spec: layoutSpec{piles: noFit, stockEnd: "9D"}, setup: turns(16), move: "s", want: ErrGameOver,
		check: all(scoreIs(35), legalIs(""))},
	{name: "golf/a game over refuses plays too", spec: layoutSpec{piles: noFit, stockEnd: "9D"}, setup: turns(16), move: "1", want: ErrGameOver},
	// Piles.
	{name: "golf/an empty column stays empty", spec: layoutSpec{piles: []string{"TC 9C 8C 7C 6C"}, start: "5D"}, setup: "1 1 1 1 1 s", move: "1", want: ErrEmptyPile,
		check: func(t *testing.T, s *State) {
			if p := s.Piles()[0]; len(p) != 0 {
				t.Errorf("column 1 = %v, want empty", p)
			}
			if c, free := s.PileCard(1); c != NoCard || free {
				t.Errorf("PileCard(1) = %v, %v; want no card", c, free)
			}
		}},
	{name: "golf/there is no column 8", move: "8", want: ErrNoSuchPile},
	{name: "golf/there is no column 0", move: "", want: ErrNoSuchPile},
	{name: "golf/one stroke for every card left", spec: layoutSpec{piles: []string{"6C"}, start: "5D"}, move: "1", check: scoreIs(34)},
	// Options: kings.
	{name: "queen-on-king/a queen goes on a king", spec: layoutSpec{opts: qok, piles: []string{"QC"}, start: "KD"}, move: "1"},
	{name: "queen-on-king/a king goes on a queen", spec: layoutSpec{opts: qok, piles: []string{"KC"}, start: "QD"}, move: "1"},
	{name: "queen-on-king/a king does not join an ace", spec: layoutSpec{opts: qok, piles: []string{"KC"}, start: "AD"}, move: "1", want: ErrNotAdjacent},
	{name: "queen-on-king/an ace does not go on a king", spec: layoutSpec{opts: qok, piles: []string{"AC"}, start: "KD"}, move: "1", want: ErrNotAdjacent},
	{name: "wrap/a queen goes on a king", spec: layoutSpec{opts: wrap, piles: []string{"QC"}, start: "KD"}, move: "1"},
	{name: "wrap/an ace goes on a king", spec: layoutSpec{opts: wrap, piles: []string{"AC"}, start: "KD"}, move: "1"},
	{name: "wrap/a king goes on an ace", spec: layoutSpec{opts: wrap, piles: []string{"KC"}, start: "AD"}, move: "1"},
	{name: "wrap/a 2 goes on an ace", spec: layoutSpec{opts: wrap, piles: []string{"2C"}, start: "AD"}, move: "1"},
	{name: "wrap/a jack does not go on a king", spec: layoutSpec{opts: wrap, piles: []string{"JC"}, start: "KD"}, move: "1", want: ErrNotAdjacent},
	{name: "wrap/a 3 does not go on an ace", spec: layoutSpec{opts: wrap, piles: []string{"3C"}, start: "AD"}, move: "1", want: ErrNotAdjacent},
	// Options: freeStart.
	{name: "freeStart/the first play is any free card, a king too", spec: layoutSpec{opts: freeStart, piles: []string{"KC"}}, move: "1", check: wasteIs("KC")},
	{name: "freeStart/after the first play the rules apply", spec: layoutSpec{opts: freeStart, piles: []string{"KC", "QC"}}, setup: "1", move: "2", want: ErrNothingOnKing},
	{name: "freeStart/every free card may start the waste", spec: layoutSpec{opts: freeStart, piles: noFit}, move: "7", check: legalIs("6 s")},
	{name: "freeStart/the stock may be turned first", spec: layoutSpec{opts: freeStart, stock: "8H"}, move: "s", check: wasteIs("8H")},
	// Options: jokers.
	{name: "jokers/a joker goes on a king", spec: layoutSpec{opts: joker1, piles: []string{"JK"}, start: "KD"}, move: "1"},
	{name: "jokers/a joker goes on any card", spec: layoutSpec{opts: joker1, piles: []string{"JK"}, start: "5D"}, move: "1"},
	{name: "jokers/any card goes on a joker", spec: layoutSpec{opts: joker1, piles: []string{"JK", "9C"}, start: "2D"}, setup: "1", move: "2", check: wasteIs("2D JK 9C")},
	{name: "jokers/a king goes on a joker", spec: layoutSpec{opts: joker1, piles: []string{"KC"}, start: "JK"}, move: "1"},
	{name: "jokers/two jokers go on each other", spec: layoutSpec{opts: map[string]any{"jokers": 2}, piles: []string{"JK"}, start: "JK"}, move: "1"},
	{name: "jokers/a joker left in a column scores 1", spec: layoutSpec{opts: joker1, piles: []string{"JK 6C"}, start: "5D"}, move: "1", check: scoreIs(34)},
	// Options: redeals.
	{name: "redeals/no redeal while the stock has cards", spec: layoutSpec{opts: redeal1}, move: "r", want: ErrStockNotEmpty},
	{name: "redeals/the waste turns over without shuffling, first card ever turned on top",
		spec:  layoutSpec{opts: redeal1, piles: []string{"6C", "2C", "3C", "4C", "JC", "QC", "2D"}, start: "5D", stock: "8H 9H", stockEnd: "TS"},
		setup: "1 " + turns(16), move: "r",
		check: func(t *testing.T, s *State) {
			if got := formatCards(s.Waste()); got != "5D" {
				t.Errorf("waste after the redeal = %s, want 5D (the first card ever on the waste)", got)
			}
			st := s.Stock()
			if len(st) != 17 || formatCards(st[:3]) != "6C 8H 9H" || st[16] != NewCard(10, Spades) {
				t.Errorf("stock after the redeal = %s, want 6C 8H 9H ... TS", formatCards(st))
			}
			if s.RedealsLeft() != 0 {
				t.Errorf("redeals left = %d", s.RedealsLeft())
			}
		}},
	{name: "redeals/only one redeal", spec: layoutSpec{opts: redeal1, piles: noFit, stockEnd: "9D"}, setup: turns(16) + " r " + turns(16), move: "r", want: ErrGameOver},
	{name: "redeals/the redeal is the move left when nothing fits", spec: layoutSpec{opts: redeal1, piles: noFit, stockEnd: "9D"}, setup: turns(16), move: "r", check: func(t *testing.T, s *State) {
		if s.StockLeft() != 16 || len(s.Waste()) != 1 {
			t.Errorf("after the redeal: stock %d, waste %d; want 16 and 1", s.StockLeft(), len(s.Waste()))
		}
	}},
	{name: "redeals/a second redeal is refused while a card fits", spec: layoutSpec{opts: redeal1, piles: []string{"TC"}, stockEnd: "9D"}, setup: turns(16) + " r " + turns(16), move: "r", want: ErrNoRedeal},
	// Options: undo.
	{name: "undo/off by default", spec: layoutSpec{piles: []string{"6C"}, start: "5D"}, setup: "1", move: "u", want: ErrUndoOff},
	{name: "undo/nothing to undo at the start", spec: layoutSpec{opts: undoOn}, move: "u", want: ErrNothingToUndo},
	{name: "undo/takes back a play", spec: layoutSpec{opts: undoOn, piles: []string{"6C"}, start: "5D"}, setup: "1", move: "u", check: all(wasteIs("5D"), scoreIs(35), legalIs("1 s"))},
	{name: "undo/takes back a turn", spec: layoutSpec{opts: undoOn, start: "5D"}, setup: "s", move: "u", check: wasteIs("5D")},
	{name: "undo/works after the game is over", spec: layoutSpec{opts: undoOn, piles: noFit, stockEnd: "9D"}, setup: turns(16), move: "u", check: legalIs("s")},
	// Black Hole.
	{name: "black-hole/a king goes on the ace of spades (wrap)", spec: layoutSpec{game: BlackHole, piles: []string{"KC"}}, move: "1"},
	{name: "black-hole/a 2 goes on the ace of spades", spec: layoutSpec{game: BlackHole, piles: []string{"2C"}}, move: "1"},
	{name: "black-hole/a queen does not", spec: layoutSpec{game: BlackHole, piles: []string{"QC"}}, move: "1", want: ErrNotAdjacent},
	{name: "black-hole/building goes up and down round the corner", spec: layoutSpec{game: BlackHole, piles: []string{"KC", "AC", "KD", "QH"}}, setup: "1 2 3", move: "4", check: wasteIs("AS KC AC KD QH")},
	{name: "black-hole/there is no stock", spec: layoutSpec{game: BlackHole, piles: []string{"2C"}}, move: "s", want: ErrStockEmpty},
	{name: "black-hole/there is no redeal", spec: layoutSpec{game: BlackHole, piles: []string{"2C"}}, move: "r", want: ErrNoRedeal},
	{name: "black-hole/there is no fan 18", spec: layoutSpec{game: BlackHole}, move: "18", want: ErrNoSuchPile},
	{name: "black-hole/score is the cards left", spec: layoutSpec{game: BlackHole, piles: []string{"2C"}}, move: "1", check: scoreIs(50)},
	// All in a Row.
	{name: "all-in-a-row/the first card is any exposed card", spec: layoutSpec{game: AllInARow, piles: []string{"7C"}}, move: "1", check: wasteIs("7C")},
	{name: "all-in-a-row/then up or down", spec: layoutSpec{game: AllInARow, piles: []string{"7C", "8C"}}, setup: "1", move: "2"},
	{name: "all-in-a-row/with wraparound", spec: layoutSpec{game: AllInARow, piles: []string{"KC", "AC", "KD"}}, setup: "1 2", move: "3"},
	{name: "all-in-a-row/and nothing else", spec: layoutSpec{game: AllInARow, piles: []string{"7C", "9C"}}, setup: "1", move: "2", want: ErrNotAdjacent},
	{name: "all-in-a-row/there is no stock", spec: layoutSpec{game: AllInARow}, move: "s", want: ErrStockEmpty},
	{name: "all-in-a-row/score is the cards left", spec: layoutSpec{game: AllInARow}, move: "1", check: scoreIs(51)},
	// TriPeaks: position 10 is covered by 19 and 20.
	{name: "tripeaks/a covered card is not free", spec: layoutSpec{game: TriPeaks, piles: peaks(map[int]string{19: "6C", 20: "7C", 10: "8C"}), start: "5D"}, move: "10", want: ErrNotFree},
	{name: "tripeaks/a card half uncovered is not free", spec: layoutSpec{game: TriPeaks, piles: peaks(map[int]string{19: "6C", 20: "7C", 10: "8C"}), start: "5D"}, setup: "19", move: "10", want: ErrNotFree},
	{name: "tripeaks/a card is free once no card covers it", spec: layoutSpec{game: TriPeaks, piles: peaks(map[int]string{19: "6C", 20: "7C", 10: "8C"}), start: "5D"}, setup: "19 20", move: "10", check: wasteIs("5D 6C 7C 8C")},
	{name: "tripeaks/a peak's tip is covered by two cards of the row below", spec: layoutSpec{game: TriPeaks, piles: peaks(map[int]string{3: "6C"}), start: "5D"}, move: "3", want: ErrNotFree},
	{name: "tripeaks/kings wrap by default", spec: layoutSpec{game: TriPeaks, piles: peaks(map[int]string{19: "AC"}), start: "KD"}, move: "19"},
	{name: "tripeaks/strict kings may be chosen", spec: layoutSpec{game: TriPeaks, opts: strict, piles: peaks(map[int]string{19: "QC"}), start: "KD"}, move: "19"},
	{name: "tripeaks/strict kings refuse a queen on a king", spec: layoutSpec{game: TriPeaks, opts: map[string]any{"kings": "strict"}, piles: peaks(map[int]string{19: "QC"}), start: "KD"}, move: "19", want: ErrNothingOnKing},
	{name: "tripeaks/a played position stays empty", spec: layoutSpec{game: TriPeaks, piles: peaks(map[int]string{19: "6C"}), start: "5D"}, setup: "19", move: "19", want: ErrEmptyPile},
	{name: "tripeaks/there is no position 29", spec: layoutSpec{game: TriPeaks}, move: "29", want: ErrNoSuchPile},
	// Pyramid Golf: position 16 (row 6, first) is covered by 22 and 23.
	{name: "pyramid-golf/a covered card is not free", spec: layoutSpec{game: PyramidGolf, piles: peaks(map[int]string{22: "6C", 23: "7C", 16: "8C"}), start: "5D"}, setup: "22", move: "16", want: ErrNotFree},
	{name: "pyramid-golf/a card is free when neither card below it remains", spec: layoutSpec{game: PyramidGolf, piles: peaks(map[int]string{22: "6C", 23: "7C", 16: "8C"}), start: "5D"}, setup: "22 23", move: "16"},
	{name: "pyramid-golf/the apex is covered", spec: layoutSpec{game: PyramidGolf, piles: peaks(map[int]string{1: "6C"}), start: "5D"}, move: "1", want: ErrNotFree},
	{name: "pyramid-golf/kings wrap by default", spec: layoutSpec{game: PyramidGolf, piles: peaks(map[int]string{28: "KC"}), start: "AD"}, move: "28"},
	{name: "pyramid-golf/jokers apply", spec: layoutSpec{game: PyramidGolf, opts: joker1, piles: peaks(map[int]string{28: "JK"}), start: "5D"}, move: "28"},
	// Double Golf.
	{name: "double-golf/a card is not adjacent to its twin", spec: layoutSpec{game: DoubleGolf, piles: []string{"6C", "6C"}, start: "5D"}, setup: "1", move: "2", want: ErrNotAdjacent},
	{name: "double-golf/plays as golf", spec: layoutSpec{game: DoubleGolf, piles: []string{"6C", "7C"}, start: "5D"}, setup: "1", move: "2"},
	{name: "double-golf/there is no column 9", spec: layoutSpec{game: DoubleGolf}, move: "9", want: ErrNoSuchPile},
}

func TestRules(t *testing.T) {
	t.Parallel()
	for _, tt := range ruleCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sp := tt.spec
			if sp.game == "" {
				sp.game = GolfGame
			}
			d := build(t, sp)
			s := NewState(&d)
			applyAll(t, s, moves(t, tt.setup))
			m := Move{Action: Play} // the empty move text is pile 0
			if tt.move != "" {
				m = moves(t, tt.move)[0]
			}
			before := rawState(s)
			legal := slices.Contains(s.Legal(), m)
			err := s.Apply(m)
			wantErr(t, err, tt.want)
			if m.Action != Undo && legal != (err == nil) {
				t.Errorf("Legal() contains %s = %v, but Apply says %v", m, legal, err)
			}
			if err != nil {
				if after := rawState(s); !reflectEqualState(before, after) {
					t.Errorf("illegal move changed the state")
				}
			}
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

// TestRuleErrorsCovered checks that the table exercises every typed move
// error.
func TestRuleErrorsCovered(t *testing.T) {
	t.Parallel()
	for _, e := range []error{ErrNoSuchPile, ErrEmptyPile, ErrNotFree, ErrNotAdjacent, ErrNothingOnKing, ErrStockEmpty, ErrStockNotEmpty, ErrNoRedeal, ErrGameOver, ErrUndoOff, ErrNothingToUndo} {
		found := false
		for _, c := range ruleCases {
			found = found || errors.Is(c.want, e)
		}
		if !found {
			t.Errorf("no rule case expects %v", e)
		}
	}
}
