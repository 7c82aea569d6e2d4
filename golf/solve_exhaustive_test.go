package golf

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// bruteBest is the best score from the state by plain exhaustive search
// with the engine's own rules: no pruning, no memo.
func bruteBest(s *State) int {
	if s.Over() {
		return s.Score()
	}
	best := 1 << 30
	for _, m := range s.Legal() {
		c := s.Clone()
		if err := c.Apply(m); err != nil {
			panic(err)
		}
		best = min(best, bruteBest(c))
	}
	return best
}

var solveVariants = []struct {
	game string
	opts map[string]any
}{
	{"golf", nil},
	{"golf", map[string]any{"kings": "queen-on-king"}},
	{"golf", map[string]any{"kings": "wrap"}},
	{"golf", map[string]any{"freeStart": true}},
	{"golf", map[string]any{"jokers": 1}},
	{"golf", map[string]any{"jokers": 2, "kings": "wrap"}},
	{"golf", map[string]any{"columns": 6}},
	{"golf", map[string]any{"redeals": 1}},
	{"golf", map[string]any{"redeals": 1, "kings": "wrap", "freeStart": true}},
	{"golf", map[string]any{"negativeScore": false}},
	{"golf", map[string]any{"negativeScore": false, "redeals": 1}},
	{"double-golf", nil},
	{"double-golf", map[string]any{"redeals": 1, "jokers": 2}},
	{"tripeaks", nil},
	{"pyramid-golf", map[string]any{"kings": "strict"}},
	{"black-hole", nil},
	{"all-in-a-row", nil},
}

// smallCase is a deal cut down to a few tableau cards and a short stock:
// the engine state and the same position for the solver.
func smallCase(v Variant, n int, rng *rand.Rand) (*Deal, *State, position) {
	d := NewDeal(v, NumberedSeed(n))
	st := NewState(&d)
	l := d.layout
	size := 4 + rng.IntN(7)
	if !v.hasStock() {
		size = 6 + rng.IntN(8)
	}
	var present uint64
	for bits.OnesCount64(present) < size {
		present |= 1 << rng.IntN(l.Positions)
	}
	st.present = present
	short := min(int(st.nStock), rng.IntN(7))
	if v.Options.Redeals > 0 {
		short = min(short, 4)
	}
	st.nStock = uint8(short)
	pos := position{v: v, lay: l, cards: &d.tableau, present: present,
		waste: st.Waste(), stock: st.stock[:short], redeals: st.RedealsLeft()}
	return &d, st, pos
}

func TestSolveMatchesExhaustive(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	cases := heavy(150)
	if n, err := strconv.Atoi(os.Getenv("SOLVE_EXHAUSTIVE")); err == nil {
		cases = n // a longer run by hand
	}
	var s Solver
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sv := range solveVariants {
		v, err := NewVariant(sv.game, sv.opts)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < cases; i++ {
			_, st, pos := smallCase(v, i+1, rng)
			want := bruteBest(st.Clone())
			// The bounds at the root never exceed the best score.
			s.setup(pos)
			top := s.wasteTop()
			if r := s.relax(pos.present, top, 0, pos.redeals, s.suffix[0]); r > 0 && r > want {
				t.Fatalf("%s case %d: relaxation bound %d, exhaustive %d", v, i, r, want)
			}
			if s.match {
				if d := s.matchBound(pos.present, pos.present, top, 0, len(s.stock1), 1<<30); d > 0 && d > want {
					t.Fatalf("%s case %d: matching bound %d, exhaustive %d", v, i, d, want)
				}
			}
			sol := s.solve(pos, nil)
			if !sol.Exact || sol.Best != want {
				t.Fatalf("%s case %d: solver %d (exact %v), exhaustive %d", v, i, sol.Best, sol.Exact, want)
			}
			// Again with restarts every few nodes (see Solver.solve).
			s.firstTry = 1 + int64(i%7)
			rs := s.solve(pos, nil)
			s.firstTry = 0
			if !rs.Exact || rs.Best != want {
				t.Fatalf("%s case %d: solver with restarts %d (exact %v), exhaustive %d", v, i, rs.Best, rs.Exact, want)
			}
			c := st.Clone()
			for j, m := range sol.Moves {
				if err := c.Apply(m); err != nil {
					t.Fatalf("%s case %d: move %d %s: %v", v, i, j, m, err)
				}
			}
			if !c.Over() || c.Score() != sol.Best || c.Cleared() != sol.Cleared {
				t.Fatalf("%s case %d: line ends over=%v score %d cleared %v, solver says %d %v", v, i, c.Over(), c.Score(), c.Cleared(), sol.Best, sol.Cleared)
			}
		}
	}
}

// TestSolveReplays solves real deals of every variant and replays the
// returned record: it must be legal, end the game and score Best.
func TestSolveReplays(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	deals := heavy(6)
	var s Solver
	for _, sv := range solveVariants {
		v, _ := NewVariant(sv.game, sv.opts)
		for n := 1; n <= deals; n++ {
			d := NewDeal(v, NumberedSeed(n))
			sol := s.Solve(&d, &SolveOptions{MaxNodes: 300_000})
			st, err := sol.Record(&d).Replay()
			if err != nil {
				t.Fatalf("%s deal %d: %v", v, n, err)
			}
			if !st.Over() || st.Score() != sol.Best || st.Cleared() != sol.Cleared {
				t.Fatalf("%s deal %d: replay over=%v score %d, solver %d", v, n, st.Over(), st.Score(), sol.Best)
			}
		}
	}
}

// TestSolveBudget: a tiny budget answers unknown with a legal line whose
// score is no better than the exact answer.
func TestSolveBudget(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	v := DefaultVariant()
	var s Solver
	unknown := 0
	for n := 1; n <= heavy(20); n++ {
		d := NewDeal(v, NumberedSeed(n))
		quick := s.Solve(&d, &SolveOptions{MaxNodes: 2000})
		full := s.Solve(&d, nil)
		if !full.Exact {
			t.Fatalf("deal %d: no budget yet not exact", n)
		}
		if quick.Exact && quick.Best != full.Best || quick.Best < full.Best {
			t.Fatalf("deal %d: budget answer %d (exact %v), full %d", n, quick.Best, quick.Exact, full.Best)
		}
		if !quick.Exact {
			unknown++
		}
		st, err := quick.Record(&d).Replay()
		if err != nil || st.Score() != quick.Best || !st.Over() {
			t.Fatalf("deal %d: budget line does not replay to %d: %v", n, quick.Best, err)
		}
	}
	if unknown == 0 {
		t.Fatal("a 2000-node budget never ran out")
	}
}

// TestSolveUnclearableSound: no deal that Deal.Unclearable rejects is cleared
// by the solver (a clear would prove the check unsound).
func TestSolveUnclearableSound(t *testing.T) {
	propertyCheck(t)
	deals := 300
	if testing.Short() {
		deals = 60
	}
	var s Solver
	for _, sv := range solveVariants {
		v, _ := NewVariant(sv.game, sv.opts)
		rejected := 0
		for n := 1; n <= deals && rejected < 15; n++ {
			d := NewDeal(v, NumberedSeed(n))
			if !d.Unclearable() {
				continue
			}
			rejected++
			sol := s.Solve(&d, &SolveOptions{MaxNodes: 2_000_000})
			if sol.Cleared {
				t.Fatalf("%s deal %d: Unclearable, yet the solver clears it", v, n)
			}
		}
	}
}

// TestSolveCleared: Cleared agrees with the score (a clear scores 0 or
// below, anything else at least 1).
func TestSolveCleared(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	v, _ := NewVariant("golf", map[string]any{"kings": "wrap"})
	var s Solver
	for n := 1; n <= heavy(10); n++ {
		d := NewDeal(v, NumberedSeed(n))
		sol := s.Solve(&d, nil)
		if sol.Cleared != (sol.Best <= 0) {
			t.Fatalf("deal %d: cleared %v best %d", n, sol.Cleared, sol.Best)
		}
	}
}

// lineDeficiencyRef is the greedy line matching written plainly.
func lineDeficiencyRef(sup, dem [15]int) int {
	def := 0
	for r := 1; r <= 13; r++ {
		d := dem[r]
		a := min(d, sup[r-1])
		sup[r-1] -= a
		d -= a
		if r < 13 {
			b := min(d, sup[r+1])
			sup[r+1] -= b
			d -= b
		}
		def += d
	}
	return def
}

// TestCornerScan: lineDeficiency agrees with the plain greedy, and the
// convex scan over the flows across the K-A corner
// finds the same minimum as trying every pair.
func TestCornerScan(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	n := heavy(200_000)
	if k, err := strconv.Atoi(os.Getenv("CORNER_CASES")); err == nil {
		n = k
	}
	for i := 0; i < n; i++ {
		var sup, dem [15]int
		most := 5 // up to 4 of a rank, or 8 (two packs)
		if i%2 == 1 {
			most = 9
		}
		for r := 1; r <= 13; r++ {
			dem[r] = rng.IntN(most)
			sup[r] = dem[r] + rng.IntN(3)
			if rng.IntN(3) == 0 {
				sup[r] = rng.IntN(most)
			}
		}
		if rng.IntN(2) == 0 {
			sup[13] = 0 // strict-like: nothing on a king
		}
		want := lineDeficiencyRef(sup, dem)
		for x := 0; x <= min(dem[1], sup[13]); x++ {
			for y := 0; y <= min(dem[13], sup[1]); y++ {
				s2, d2 := sup, dem
				s2[13] -= x
				d2[1] -= x
				s2[1] -= y
				d2[13] -= y
				w := lineDeficiencyRef(s2, d2)
				if got := lineDeficiency(&sup, &dem, x, y); got != w {
					t.Fatalf("sup %v dem %v x %d y %d: %d, reference %d", sup, dem, x, y, got, w)
				}
				want = min(want, w)
			}
		}
		if got := cornerScan(&sup, &dem, lineDeficiency(&sup, &dem, 0, 0)); got != want {
			t.Fatalf("sup %v dem %v: scan %d, every pair %d", sup, dem, got, want)
		}
	}
}

func TestLuby(t *testing.T) {
	want := []int64{1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2}
	for i, w := range want {
		if got := luby(i + 1); got != w {
			t.Fatalf("luby(%d) = %d, want %d", i+1, got, w)
		}
	}
}

// playedBy is the set of tableau positions that some line from s plays
// while turning at most turns stock cards (plain exhaustive search).
func playedBy(s *State, turns int) uint64 {
	var u uint64
	for _, m := range s.Legal() {
		if m == TurnMove && turns == 0 {
			continue
		}
		c := s.Clone()
		if err := c.Apply(m); err != nil {
			panic(err)
		}
		t := turns
		if m == TurnMove {
			t--
		}
		u |= s.present&^c.present | playedBy(c, t)
	}
	return u
}

// TestRunReachSound checks runReach against exhaustive search: every card
// that some line plays before turning the stock card end is in the set,
// for every end.
func TestRunReachSound(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	cases := heavy(300)
	var s Solver
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sv := range solveVariants {
		v, err := NewVariant(sv.game, sv.opts)
		if err != nil {
			t.Fatal(err)
		}
		if v.Options.Redeals > 0 {
			continue // runReach is not used with redeals
		}
		for i := 0; i < cases; i++ {
			_, st, pos := smallCase(v, i+1, rng)
			s.setup(pos)
			top := s.wasteTop()
			for end := 0; end <= len(s.cur); end++ {
				got := s.runReach(pos.present, top, 0, end)
				if want := playedBy(st, end); want&^got != 0 {
					t.Fatalf("%s case %d, stock cards turned %d: lines play %#x, runReach has only %#x", v, i, end, want, got)
				}
			}
		}
	}
}
