package golf

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// allVariants lists every game with every combination of the values of the
// options that apply to it.
func allVariants() []Variant {
	values := map[string][]any{
		OptKings:         {"strict", "queen-on-king", "wrap"},
		OptFreeStart:     {false, true},
		OptJokers:        {0, 1, 2},
		OptColumns:       {7, 6},
		OptRedeals:       {0, 1},
		OptUndo:          {false, true},
		OptNegativeScore: {true, false},
	}
	var out []Variant
	for _, g := range Games {
		combos := []map[string]any{{}}
		for _, opt := range optionOrder {
			if !g.Applies(opt) {
				continue
			}
			var next []map[string]any
			for _, c := range combos {
				for _, val := range values[opt] {
					m := map[string]any{opt: val}
					for k, x := range c {
						m[k] = x
					}
					next = append(next, m)
				}
			}
			combos = next
		}
		for _, c := range combos {
			v, err := NewVariant(string(g), c)
			if err != nil {
				panic(err)
			}
			out = append(out, v)
		}
	}
	return out
}

// refFits is the rule of rules.md written out again, independently of the
// engine's fits: one rank up or down; strict: nothing on a king; wrap: king
// and ace are neighbours; a joker is wild both ways; an empty waste takes
// anything.
func refFits(k Kings, top, c Card) bool {
	if top == NoCard || top == Joker || c == Joker {
		return true
	}
	a, b := top.Rank(), c.Rank()
	oneAway := a-b == 1 || b-a == 1
	switch k {
	case Strict:
		return oneAway && a != King
	case QueenOnKing:
		return oneAway
	default:
		return oneAway || (a == Ace && b == King) || (a == King && b == Ace)
	}
}

// refCovers is the covering of deals.md for TriPeaks and Pyramid Golf, by
// 0-based position.
func refCovers(g Game) [][]int {
	cov := make([][]int, 28)
	if g == TriPeaks {
		for i := 0; i < 9; i++ {
			cov[9+i] = []int{18 + i, 19 + i}
		}
		for q := 0; q < 6; q++ {
			p := q / 2
			cov[3+q] = []int{9 + q + p, 10 + q + p}
		}
		for p := 0; p < 3; p++ {
			cov[p] = []int{3 + 2*p, 4 + 2*p}
		}
		return cov
	}
	start := func(r int) int { return r * (r + 1) / 2 }
	for r := 0; r < 6; r++ {
		for i := 0; i <= r; i++ {
			cov[start(r)+i] = []int{start(r+1) + i, start(r+1) + i + 1}
		}
	}
	return cov
}

// model is a reference implementation of the rules, as plain as can be:
// columns as stacks, peaks as cells with covering lists, the waste and the
// stock as slices.
type model struct {
	v       Variant
	cols    [][]Card // column games: each column bottom first
	cells   []Card   // peak games: NoCard once played
	covers  [][]int
	waste   []Card
	stock   []Card
	redeals int
}

func newModel(d *Deal) *model {
	m := &model{v: d.Variant, stock: d.Stock(), redeals: d.Variant.Options.Redeals}
	if d.Start() != NoCard {
		m.waste = []Card{d.Start()}
	}
	if !d.Variant.hasStock() {
		m.redeals = 0
	}
	if g := d.Variant.Game; g == TriPeaks || g == PyramidGolf {
		for _, p := range d.Tableau() {
			m.cells = append(m.cells, p[0])
		}
		m.covers = refCovers(g)
	} else {
		m.cols = d.Tableau()
	}
	return m
}

func (m *model) clone() *model {
	c := *m
	c.cols = nil
	for _, col := range m.cols {
		c.cols = append(c.cols, slices.Clone(col))
	}
	c.cells = slices.Clone(m.cells)
	c.waste = slices.Clone(m.waste)
	c.stock = slices.Clone(m.stock)
	return &c
}

func (m *model) left() int {
	n := 0
	for _, col := range m.cols {
		n += len(col)
	}
	for _, c := range m.cells {
		if c != NoCard {
			n++
		}
	}
	return n
}

// free returns pile i's free card, or NoCard.
func (m *model) free(i int) Card {
	if m.cols != nil {
		if col := m.cols[i]; len(col) > 0 {
			return col[len(col)-1]
		}
		return NoCard
	}
	for _, by := range m.covers[i] {
		if m.cells[by] != NoCard {
			return NoCard
		}
	}
	return m.cells[i]
}

func (m *model) piles() int { return max(len(m.cols), len(m.cells)) }

func (m *model) legal() []Move {
	if m.left() == 0 {
		return nil
	}
	var out []Move
	top := NoCard
	if len(m.waste) > 0 {
		top = m.waste[len(m.waste)-1]
	}
	for i := range m.piles() {
		if c := m.free(i); c != NoCard && refFits(m.v.Options.Kings, top, c) {
			out = append(out, PlayPile(i+1))
		}
	}
	switch {
	case len(m.stock) > 0:
		out = append(out, TurnMove)
	case m.redeals > 0 && len(m.waste) > 0:
		out = append(out, RedealMove)
	}
	return out
}

func (m *model) apply(mv Move) {
	switch mv.Action {
	case Play:
		i := int(mv.Pile) - 1
		m.waste = append(m.waste, m.free(i))
		if m.cols != nil {
			m.cols[i] = m.cols[i][:len(m.cols[i])-1]
		} else {
			m.cells[i] = NoCard
		}
	case Turn:
		m.waste = append(m.waste, m.stock[0])
		m.stock = m.stock[1:]
	case Redeal:
		// Turning the waste over puts its bottom card, the first ever
		// turned, on top of the stock: the stock in turn order is the
		// waste from the bottom up.
		m.stock = m.waste
		m.waste = nil
		m.redeals--
		m.apply(TurnMove)
	}
}

func (m *model) score() int {
	if n := m.left(); n > 0 {
		return n
	}
	if m.v.Options.NegativeScore {
		return -len(m.stock)
	}
	return 0
}

// agree checks the engine against the model: tableau, waste, stock, the
// legal moves, Over, the score, and that every card is in exactly one place.
func agree(t *testing.T, s *State, m *model, pack []Card) {
	t.Helper()
	piles := s.Piles()
	var all []Card
	for i := range m.piles() {
		var want []Card
		if m.cols != nil {
			want = m.cols[i]
		} else {
			want = []Card{m.cells[i]}
		}
		if !slices.Equal(piles[i], want) && !(len(piles[i]) == 0 && len(want) == 0) {
			t.Fatalf("pile %d = %v, model %v", i+1, piles[i], want)
		}
		for _, c := range piles[i] {
			if c != NoCard {
				all = append(all, c)
			}
		}
	}
	if !slices.Equal(s.Waste(), m.waste) && !(len(s.Waste()) == 0 && len(m.waste) == 0) {
		t.Fatalf("waste = %v, model %v", s.Waste(), m.waste)
	}
	if !slices.Equal(s.Stock(), m.stock) && !(s.StockLeft() == 0 && len(m.stock) == 0) {
		t.Fatalf("stock = %v, model %v", s.Stock(), m.stock)
	}
	all = append(append(all, s.Waste()...), s.Stock()...)
	slices.Sort(all)
	if !slices.Equal(all, pack) {
		t.Fatalf("cards are not one pack: %s", formatCards(all))
	}
	legal := m.legal()
	if got := s.Legal(); !slices.Equal(got, legal) && !(len(got) == 0 && len(legal) == 0) {
		t.Fatalf("legal = [%s], model [%s]", movesString(got), movesString(legal))
	}
	if s.Over() != (len(legal) == 0) {
		t.Fatalf("Over() = %v with legal moves [%s]", s.Over(), movesString(legal))
	}
	if s.Cleared() != (m.left() == 0) || s.CardsLeft() != m.left() {
		t.Fatalf("Cleared %v CardsLeft %d, model left %d", s.Cleared(), s.CardsLeft(), m.left())
	}
	if s.Score() != m.score() {
		t.Fatalf("score = %d, model %d", s.Score(), m.score())
	}
	if s.StockLeft() != len(m.stock) || s.RedealsLeft() != m.redeals {
		t.Fatalf("stock left %d redeals %d, model %d %d", s.StockLeft(), s.RedealsLeft(), len(m.stock), m.redeals)
	}
}

// randomMove is any move at all, legal or not.
func randomMove(r *rand.Rand) Move {
	switch r.IntN(8) {
	case 0:
		return TurnMove
	case 1:
		return RedealMove
	case 2:
		return UndoMove
	case 3:
		return Move{Action: Action(4 + r.IntN(250))}
	}
	return Move{Action: Play, Pile: uint8(r.IntN(70))}
}

// playRandom plays one game of random and greedy play on the deal, checking
// the engine against the model after every move, illegal moves and undos.
func playRandom(t *testing.T, d *Deal, r *rand.Rand) *State {
	t.Helper()
	s := NewState(d)
	m := newModel(d)
	pack := packOf(d.Variant)
	greedy := r.IntN(3) // 0: uniform; 1, 2: plays before turns, mostly
	type undoPoint struct {
		snap  snapshot
		model *model
	}
	var history []undoPoint
	var legal []Move
	for step := 0; step < 600; step++ {
		agree(t, s, m, pack)
		legal = s.AppendLegal(legal[:0])
		// An arbitrary move: if the engine refuses it, nothing changes; it
		// accepts exactly the model's legal moves.
		if mv := randomMove(r); mv.Action != Undo {
			before := rawState(s)
			err := s.Apply(mv)
			if slices.Contains(m.legal(), mv) != (err == nil) {
				t.Fatalf("move %s: engine says %v, model legal [%s]", mv, err, movesString(m.legal()))
			}
			if err != nil {
				if !reflectEqualState(before, rawState(s)) {
					t.Fatalf("illegal move %s (%v) changed the state", mv, err)
				}
			} else {
				history = append(history, undoPoint{snapOf(before), m.clone()})
				m.apply(mv)
				continue
			}
		}
		if !d.Variant.Options.Undo {
			before := rawState(s)
			wantErr(t, s.Apply(UndoMove), ErrUndoOff)
			if !reflectEqualState(before, rawState(s)) {
				t.Fatal("refused undo changed the state")
			}
		} else if len(history) > 0 && r.IntN(10) == 0 {
			if err := s.Apply(UndoMove); err != nil {
				t.Fatalf("undo: %v", err)
			}
			last := history[len(history)-1]
			history = history[:len(history)-1]
			if got := snap(s); !got.equal(last.snap) {
				t.Fatalf("undo gave %+v, want %+v", got, last.snap)
			}
			m = last.model
			continue
		}
		if len(legal) == 0 {
			if !s.Over() {
				t.Fatal("no legal move but not over")
			}
			wantErr(t, s.Apply(TurnMove), ErrGameOver)
			return s
		}
		mv := legal[r.IntN(len(legal))]
		if greedy > 0 && legal[0].Action == Play && r.IntN(8) != 0 {
			mv = legal[r.IntN(len(legal))]
			if mv.Action != Play {
				mv = legal[0]
			}
		}
		before := snap(s)
		if err := s.Apply(mv); err != nil {
			t.Fatalf("legal move %s refused: %v", mv, err)
		}
		history = append(history, undoPoint{before, m.clone()})
		m.apply(mv)
	}
	return s
}

// snapOf is the snapshot of a raw copy of a state.
func snapOf(s State) snapshot { return snap(&s) }

// checkRecord checks that the game's record round-trips through JSON and
// replays to the same game.
func checkRecord(t *testing.T, s *State) {
	t.Helper()
	rec := s.Record()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeRecord(b)
	if err != nil {
		t.Fatalf("DecodeRecord(%s): %v", b, err)
	}
	if back.Variant != rec.Variant || back.Seed != rec.Seed || !slices.Equal(back.Moves, rec.Moves) {
		t.Fatalf("record round trip:\n got %+v\nwant %+v", back, rec)
	}
	rs, err := back.Replay()
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rs.Score() != s.Score() || rs.Over() != s.Over() || !snap(rs).equal(snap(s)) {
		t.Fatalf("replay: score %d over %v, game score %d over %v", rs.Score(), rs.Over(), s.Score(), s.Over())
	}
}

// TestRandomPlay plays thousands of random deals of every game and option
// combination against the reference model.
func TestRandomPlay(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	perVariant := 3
	if testing.Short() {
		perVariant = 1
	}
	variants := allVariants()
	byGame := map[Game][]Variant{}
	for _, v := range variants {
		byGame[v.Game] = append(byGame[v.Game], v)
	}
	for _, g := range Games {
		t.Run(string(g), func(t *testing.T) {
			t.Parallel()
			vs := byGame[g]
			// The games with few combinations get more deals each.
			n := perVariant * max(1, 100/len(vs))
			cleared, games := 0, 0
			defer func() { t.Logf("%d games, %d cleared", games, cleared) }()
			for vi, v := range vs {
				r := rand.New(rand.NewPCG(uint64(vi), uint64(len(g))))
				for k := range n {
					seed := NumberedSeed(vi*1000 + k)
					d := NewDeal(v, seed)
					s := playRandom(t, &d, r)
					if t.Failed() {
						t.Fatalf("%s seed %s", v, seed)
					}
					checkRecord(t, s)
					games++
					if s.Cleared() {
						cleared++
					}
				}
			}
		})
	}
}

func TestAllVariantsCount(t *testing.T) {
	t.Parallel()
	got := map[Game]int{}
	for _, v := range allVariants() {
		got[v.Game]++
	}
	want := map[Game]int{GolfGame: 288, DoubleGolf: 144, TriPeaks: 36, PyramidGolf: 36, BlackHole: 2, AllInARow: 2}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("variants per game = %v, want %v", got, want)
	}
}
