package match

import (
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"golfsolitaire/golf"
)

// TestBestAfterHole checks that the best score of a hole is stored when
// the hole ends for everyone, shown only for revealed holes, and that each
// player's strokes against it are on the scorecard.
func TestBestAfterHole(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Format, set.Holes = Stroke, 2
	r := newTestRoom(t, set, "Ana", "Bo")
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true})
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(7)})
	h := r.CurrentHole()
	// Seat 0 finishes hole 1 (stands); seat 1 still plays: no best yet.
	mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: 0, Hole: 1})
	if h.Best != nil {
		t.Fatal("best stored before the hole is over for everyone")
	}
	for _, seat := range []int{0, 1, SpectatorSeat} {
		v := r.View(seat)
		if len(v.Best) != 0 {
			t.Fatalf("view of seat %d shows a best score during the hole: %+v", seat, v.Best)
		}
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), `"vsBest"`) || strings.Contains(string(b), `"best"`) {
			t.Fatalf("view of seat %d mentions the best during the hole: %s", seat, b)
		}
	}
	mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: 1, Hole: 1})
	if need := r.NeedsBest(); len(need) != 1 || need[0] != 1 {
		t.Fatalf("NeedsBest = %v, want [1]", need)
	}
	ev, ok := bestEvent(r, 1)
	if !ok {
		t.Fatal("no best event for a finished hole")
	}
	bad := ev
	bad.Best = new(int)
	*bad.Best = *ev.Best - 1
	if _, err := r.Apply(bad); !errors.Is(err, ErrBadEvent) {
		t.Fatalf("a best event whose line does not score it: %v, want ErrBadEvent", err)
	}
	mustApply(t, r, ev)
	if _, err := r.Apply(ev); !errors.Is(err, ErrNoChange) {
		t.Fatalf("a second best event: %v, want ErrNoChange", err)
	}
	if h.Best == nil || !h.Done || len(r.NeedsBest()) != 0 {
		t.Fatal("no best stored at the end of the hole")
	}
	sol := golf.Solve(h.Deal(set.Variant), &golf.SolveOptions{MaxNodes: SolveNodes})
	if *h.Best != sol.Best || h.BestExact != sol.Exact {
		t.Fatalf("best = %d (exact %v), want %d (%v)", *h.Best, h.BestExact, sol.Best, sol.Exact)
	}
	v := r.View(1)
	if len(v.Best) != 1 || v.Best[0].Hole != 1 || v.Best[0].Best != sol.Best {
		t.Fatalf("view best = %+v", v.Best)
	}
	for _, row := range v.Standings.Rows {
		want := *row.Scores[0] - sol.Best
		if row.VsBest == nil || row.VsBest[0] == nil || *row.VsBest[0] != want {
			t.Fatalf("row %s: vsBest = %v, want %d", row.Name, row.VsBest, want)
		}
		if row.VsBest[1] != nil {
			t.Fatalf("row %s: vsBest of hole 2 (in play) set", row.Name)
		}
	}
	// The best line replays to the best score.
	rp, ok := r.BestLine(1)
	if !ok || rp.Score != sol.Best || len(rp.Boards) != len(rp.Moves)+1 {
		t.Fatalf("BestLine = %v, score %d, want %d", ok, rp.Score, sol.Best)
	}
	if _, ok := r.BestLine(2); ok {
		t.Fatal("BestLine of the hole in play")
	}
	// It survives the snapshot.
	b, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	r2, err := DecodeRoom(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := r2.View(0).Best; len(got) != 1 || got[0] != v.Best[0] {
		t.Fatalf("after the snapshot, best = %+v", got)
	}
}

// TestTournamentRoomHasNoBest: a tournament room leaves the best to the
// tournament (shown once the hole is safe).
func TestTournamentRoomHasNoBest(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Format, set.Seats, set.Holes, set.Public, set.Spectators = Stroke, 1, 1, false, false
	r, err := NewRoom(Event{Kind: KindCreate, At: t0, Code: "T", Settings: &set, Tournament: "TX"})
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, r, Event{Kind: KindJoin, At: t0, Name: "Ana", Token: tokenHash("a")})
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(3)})
	mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: 0, Hole: 1})
	if r.Holes[0].Best != nil || len(r.View(0).Best) != 0 || r.View(0).Difficulty != 0 {
		t.Fatal("a tournament room shows the best score or a difficulty")
	}
	if _, ok := r.BestLine(1); ok {
		t.Fatal("a tournament room serves the best line")
	}
}

// bestEvent is the event recording the solver's answer for finished hole n,
// built as the server builds it (server/analysis.go): the room's analyzer
// solves the deal, and rates it when the room rates deals.
func bestEvent(r *Room, n int) (Event, bool) {
	h := r.holeNumber(n)
	if h == nil || !h.Done {
		return Event{}, false
	}
	sol := r.analyzer().Solve(r.Settings.Variant, h.Seed)
	best := sol.Best
	ev := Event{Kind: KindBest, Hole: n, Best: &best, BestExact: sol.Exact, BestLine: append([]golf.Move{}, sol.Moves...)}
	if r.RatesDeals() {
		ev.Difficulty = r.analyzer().Rate(r.Settings.Variant, h.Seed)
	}
	return ev, true
}

// propertyCheck skips, under -race, a property check of the solver's
// choices (as in golf's tests: pure code, on the test's goroutine, some
// thirty times slower under the race detector). .ci/run runs them in their
// own step, without -race: go test ./golf/ ./match/
func propertyCheck(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("PROPERTY CHECK SKIPPED under -race: run it with go test ./golf/ ./match/ (without -race; .ci/run does, in its own step)")
	}
}

// testSolveNodes and testRateNodes are small budgets for the tests of the
// solver's choices: the properties hold at any budget (each choice is
// checked against the same budget), and production budgets under -race
// cost a minute.
const testSolveNodes, testRateNodes = 5_000, 5_000

// TestWinnableOnly: the solver's choice of a winnable deal (the rule of
// tournament rounds, of rounds started before deals travelled in events,
// and of the seed pools) is the first of the hole seed and its
// replacements that the solver clears within the budget.
func TestWinnableOnly(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	an := NewAnalyzer(testSolveNodes, testRateNodes)
	set := DefaultSettings()
	set.WinnableOnly = true
	replaced := 0
	for b := byte(1); b <= 3; b++ {
		round := golf.Seed{b, 42}
		for n := 1; n <= 2; n++ {
			seed, k := an.HoleDealSeed(set, round, n)
			want := round.HoleSeed(n)
			if k > 0 {
				want = want.AgainSeed(k)
				replaced++
			}
			if seed != want {
				t.Fatalf("seed %x, want again:%d %x", seed, k, want)
			}
			// Deterministic: computed afresh (no memo) it is the same, and
			// the deal clears.
			d := golf.NewDeal(set.Variant, seed)
			sol := golf.Solve(&d, &golf.SolveOptions{MaxNodes: testSolveNodes})
			if !sol.Cleared {
				t.Fatalf("round %x hole %d: deal %x does not clear", round[:2], n, seed)
			}
			for j := 0; j < k; j++ {
				c := round.HoleSeed(n)
				if j > 0 {
					c = c.AgainSeed(j)
				}
				if NewAnalyzer(testSolveNodes, testRateNodes).Clearable(set.Variant, c) {
					t.Fatalf("an earlier candidate (again:%d) clears", j)
				}
			}
			if s2, k2 := NewAnalyzer(testSolveNodes, testRateNodes).HoleDealSeed(set, round, n); s2 != seed || k2 != k {
				t.Fatal("HoleDealSeed is not deterministic")
			}
		}
	}
	if replaced == 0 {
		t.Fatal("no deal was replaced: strict Golf clears only about a quarter of deals")
	}
	// A room started by an event without deals (written before deals
	// travelled in events) still chooses them itself, the same way.
	set.Format, set.Seats, set.Holes = Stroke, 1, 3
	r := newTestRoom(t, set, "Ana")
	r.SetAnalyzer(an)
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(9)})
	h := r.CurrentHole()
	if want, k := an.HoleDealSeed(set, *seedOf(9), 1); h.Seed != want || h.Replaced != k {
		t.Fatalf("hole seed %x (replaced %d), want %x (%d)", h.Seed, h.Replaced, want, k)
	}
	// The same round with the deals chosen before the event plays the same
	// deals without the solver.
	var deals []golf.Seed
	var ks []int
	for n := 1; n <= set.Holes; n++ {
		d, k := an.HoleDealSeed(set, *seedOf(9), n)
		deals, ks = append(deals, d), append(ks, k)
	}
	r2 := newTestRoom(t, set, "Ana")
	fresh := NewAnalyzer(testSolveNodes, testRateNodes)
	r2.SetAnalyzer(fresh)
	mustApply(t, r2, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(9), Deals: deals, Replaced: ks})
	if got := r2.CurrentHole(); got.Seed != h.Seed || got.Replaced != h.Replaced || fresh.Runs() != 0 {
		t.Fatalf("with deals: hole seed %x (%d), solver runs %d; want %x (%d), 0", got.Seed, got.Replaced, fresh.Runs(), h.Seed, h.Replaced)
	}
}

func TestDifficultySetting(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	an := NewAnalyzer(testSolveNodes, testRateNodes)
	set := DefaultSettings()
	// With kings wrapping every level is common (in strict Golf "easy"
	// hardly ever happens and the nearest level is chosen).
	set.Variant.Options.Kings = golf.Wrap
	for _, level := range []golf.Difficulty{golf.Easy, golf.Fair, golf.Hard, golf.Expert} {
		set.Difficulty = int(level)
		round := golf.Seed{byte(level), 7}
		seed, _ := an.HoleDealSeed(set, round, 1)
		d := golf.NewDeal(set.Variant, seed)
		if got := golf.Rate(&d, &golf.SolveOptions{MaxNodes: testRateNodes}); got != level {
			t.Fatalf("level %v: deal rated %v", level, got)
		}
		// The seed pools' choice from a random seed: a deal of the level,
		// and its rating.
		deal, rated := an.Choose(set, golf.Seed{byte(level), 8})
		d = golf.NewDeal(set.Variant, deal)
		if got := golf.Rate(&d, &golf.SolveOptions{MaxNodes: testRateNodes}); got != level || rated != level {
			t.Fatalf("level %v: Choose gave a deal rated %v (said %v)", level, got, rated)
		}
	}
	for _, bad := range []string{`{"difficulty": 5}`, `{"difficulty": -1}`, `{"seats": 1, "format": "stroke", "deal": 4, "winnableOnly": true}`} {
		var s Settings
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("settings %s accepted", bad)
		}
	}
}

// TestPracticeDifficulty: solo practice rates each deal, and publishes the
// rating with the best score once the hole is over, never during play
// (the rating is of the whole deal, the hidden stock included); rooms with
// more seats do not rate.
func TestPracticeDifficulty(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Format, set.Seats, set.Holes = Stroke, 1, 2
	r := newTestRoom(t, set, "Ana")
	an := NewAnalyzer(testSolveNodes, testRateNodes)
	r.SetAnalyzer(an)
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(5)})
	if v := r.View(0); v.Difficulty != 0 || v.DifficultyName != "" {
		t.Fatalf("difficulty %d %q shown during play", v.Difficulty, v.DifficultyName)
	}
	if an.Runs() != 0 {
		t.Fatalf("starting a practice hole ran the solver %d times", an.Runs())
	}
	seed := r.CurrentHole().Seed
	mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: 0, Hole: 1})
	ev, ok := bestEvent(r, 1)
	if !ok {
		t.Fatal("no best event")
	}
	d := golf.NewDeal(set.Variant, seed)
	want := golf.Rate(&d, &golf.SolveOptions{MaxNodes: testRateNodes})
	if ev.Difficulty != want {
		t.Fatalf("best event difficulty %v, want %v", ev.Difficulty, want)
	}
	bad := ev
	bad.Difficulty = 9
	if _, err := r.Apply(bad); !errors.Is(err, ErrBadEvent) {
		t.Fatalf("a best event with difficulty 9: %v", err)
	}
	mustApply(t, r, ev)
	v := r.View(0)
	if v.Difficulty != 0 {
		t.Fatalf("hole 2 in play shows difficulty %d", v.Difficulty)
	}
	if len(v.Best) != 1 || v.Best[0].Difficulty != int(want) || v.Best[0].DifficultyName != want.String() {
		t.Fatalf("best of hole 1 = %+v, want difficulty %d", v.Best, want)
	}
	set.Seats = 2
	r = newTestRoom(t, set, "Ana", "Bo")
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true})
	mustApply(t, r, Event{Kind: KindStart, At: t0.Add(time.Second), Seat: 0, Seed: seedOf(5)})
	mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: 0, Hole: 1})
	mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: 1, Hole: 1})
	r.SetAnalyzer(an)
	if ev, _ := bestEvent(r, 1); ev.Difficulty != 0 {
		t.Fatal("a two-seat room rates its deals")
	}
	if _, err := r.Apply(Event{Kind: KindBest, Hole: 1, Best: ev.Best, BestLine: ev.BestLine, BestExact: ev.BestExact, Difficulty: golf.Fair}); err == nil {
		t.Fatal("a two-seat room accepted a rating")
	}
}

// TestAnalyzerKeepsSolvers: the analyzer reuses its solvers from deal to
// deal across garbage collections (a sync.Pool, used before, lost them at
// every collection: under load about one solve in ten started on new
// tables), keeps at most maxIdleSolvers, and drops one whose tables grew
// large.
func TestAnalyzerKeepsSolvers(t *testing.T) {
	t.Parallel()
	an := NewAnalyzer(testSolveNodes, testRateNodes)
	v := DefaultSettings().Variant
	an.Solve(v, golf.NumberedSeed(1))
	if len(an.idle) != 1 {
		t.Fatalf("%d idle solvers after a solve, want 1", len(an.idle))
	}
	kept := an.idle[0]
	if kept.TableBytes() <= 0 {
		t.Fatalf("a solver that solved a deal holds %d bytes of tables", kept.TableBytes())
	}
	runtime.GC()
	runtime.GC()
	an.Solve(v, golf.NumberedSeed(2))
	an.Rate(v, golf.NumberedSeed(3))
	if len(an.idle) != 1 || an.idle[0] != kept {
		t.Fatalf("after two collections, a solve and a rating: %d idle solvers, the first kept: %v", len(an.idle), len(an.idle) > 0 && an.idle[0] == kept)
	}
	var busy []*golf.Solver
	for range maxIdleSolvers + 3 {
		busy = append(busy, an.getSolver())
	}
	for _, s := range busy {
		an.putSolver(s)
	}
	if len(an.idle) != maxIdleSolvers {
		t.Fatalf("%d idle solvers, want at most %d", len(an.idle), maxIdleSolvers)
	}
	an.idle = nil
	an.idleBytes = kept.TableBytes() - 1
	an.putSolver(kept)
	if len(an.idle) != 0 {
		t.Fatalf("a solver with %d bytes of tables kept, over the limit of %d", kept.TableBytes(), an.idleBytes)
	}
}

// BenchmarkAnalyzerRate rates 50 numbered Golf deals at the production
// budgets through one analyzer (its solvers reused from deal to deal).
func BenchmarkAnalyzerRate(b *testing.B) {
	v := DefaultSettings().Variant
	for i := 0; i < b.N; i++ {
		an := NewAnalyzer(0, 0)
		for n := 1; n <= 50; n++ {
			an.Rate(v, golf.NumberedSeed(n+1000*i))
		}
	}
}

// TestAnalyzerKeepsRecentDeals checks that a deal solved ahead stays
// memoized while as many other deals as the memo holds are looked up
// after it (a server warms the deals of thousands of rooms' holes before
// they end).
func TestAnalyzerKeepsRecentDeals(t *testing.T) {
	t.Parallel()
	an := NewAnalyzer(testSolveNodes, testRateNodes)
	v := DefaultSettings().Variant
	a := golf.Seed{1, 2, 3}
	if an.Solved(v, a) {
		t.Fatal("a deal never solved reads as solved")
	}
	an.Solve(v, a)
	runs := an.Runs()
	for i := range maxAnalyses {
		an.analysisOf(v, golf.Seed{byte(i), byte(i >> 8), 9})
	}
	if !an.Solved(v, a) {
		t.Errorf("the deal solved before %d others were looked up is no longer memoized", maxAnalyses)
	}
	an.Solve(v, a)
	if an.Runs() != runs {
		t.Errorf("solving the deal again ran the solver (%d runs, want %d)", an.Runs(), runs)
	}
}

// TestAnalyzerYield: the analyzer's solver runs give way through the
// yield it is given (a server's waits for its rooms), about once every
// 8,192 nodes.
func TestAnalyzerYield(t *testing.T) {
	t.Parallel()
	an := NewAnalyzer(0, 0)
	yields := 0
	an.SetYield(func() { yields++ })
	var nodes int64
	for i := 1; i <= 20; i++ {
		nodes += an.Solve(golf.DefaultVariant(), golf.NumberedSeed(i)).Nodes
	}
	if want := int(nodes/8192) - 1; nodes < 4*8192 || yields < want {
		t.Errorf("%d nodes, %d yields through SetYield's; want at least %d", nodes, yields, want)
	}
}
