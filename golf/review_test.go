package golf

import (
	"math/rand/v2"
	"testing"
)

// reviewBudget keeps each solve of the review tests small; the invariants
// hold whether or not a solve is exact.
var reviewBudget = &SolveOptions{MaxNodes: 20_000}

// randomLine plays a game at random from the deal: a legal move chosen by
// rng, an undo now and then when the variant allows it (the record keeps
// it, as a practice game's does), and it stops early (stands) with
// probability stand at each move.
func randomLine(d *Deal, rng *rand.Rand, stand float64) Record {
	st := NewState(d)
	var moves []Move
	for !st.Over() {
		if rng.Float64() < stand {
			break
		}
		m := UndoMove
		if !d.Variant.Options.Undo || len(st.Moves()) == 0 || rng.IntN(8) != 0 {
			legal := st.Legal()
			m = legal[rng.IntN(len(legal))]
		}
		if err := st.Apply(m); err != nil {
			panic(err)
		}
		moves = append(moves, m)
	}
	return Record{Variant: d.Variant, Seed: d.Seed, Moves: moves}
}

// checkReview holds a review to its promises: every lost ≥ 0, the losses
// sum to score - best, before/after chain from best to the score, a move
// of the solver's own line loses nothing, and the best is the solver's
// best of the deal.
func checkReview(t *testing.T, name string, rec Record, rv Review) {
	t.Helper()
	final, err := rec.Replay()
	if err != nil {
		t.Fatalf("%s: replay: %v", name, err)
	}
	if rv.Score != final.Score() {
		t.Errorf("%s: score %d, the record scores %d", name, rv.Score, final.Score())
	}
	sum, at := 0, rv.Best
	for i, dc := range rv.Decisions {
		if dc.Lost < 0 {
			t.Errorf("%s: decision %d (%s) lost %d < 0", name, i+1, dc.Move, dc.Lost)
		}
		if dc.Before != at || dc.After-dc.Before != dc.Lost {
			t.Errorf("%s: decision %d (%s): before %d after %d lost %d, the previous after %d", name, i+1, dc.Move, dc.Before, dc.After, dc.Lost, at)
		}
		if dc.Better != "" && dc.Lost == 0 {
			t.Errorf("%s: decision %d names a better move with nothing lost", name, i+1)
		}
		at = dc.After
		sum += dc.Lost
	}
	if sum != rv.Score-rv.Best {
		t.Errorf("%s: losses sum to %d, score - best = %d - %d", name, sum, rv.Score, rv.Best)
	}
	if at != rv.Score {
		t.Errorf("%s: the decisions end at %d, the score is %d", name, at, rv.Score)
	}
	want := len(final.Moves())
	if !final.Over() {
		want++
		if last := rv.Decisions[len(rv.Decisions)-1]; last.Move != "stand" {
			t.Errorf("%s: a game left with moves has no stand decision: %+v", name, last)
		}
	}
	if len(rv.Decisions) != want {
		t.Errorf("%s: %d decisions, want %d", name, len(rv.Decisions), want)
	}
}

// TestReviewRecord: for every game of the family, random games (some
// stood early, some with undos) and the solver's own line are reviewed;
// every review keeps its promises, the solver's line loses nothing and
// scores the review's best.
func TestReviewRecord(t *testing.T) {
	t.Parallel()
	for _, g := range Games {
		t.Run(string(g), func(t *testing.T) {
			t.Parallel()
			var sv Solver
			rng := rand.New(rand.NewPCG(uint64(len(g)), 7))
			deals := 2 // the second with undo
			if raceEnabled {
				deals = 1 // some thirty times slower
			}
			for deal := 1; deal <= deals; deal++ {
				opts := map[string]any{}
				if deal == 2 {
					opts["undo"] = true
				}
				v := mustVariant(t, g, opts)
				d := NewDeal(v, NumberedSeed(deal))
				for k, stand := range []float64{0, 0.03} {
					rec := randomLine(&d, rng, stand)
					rv, err := ReviewRecord(rec, &sv, reviewBudget)
					if err != nil {
						t.Fatalf("deal %d: %v", deal, err)
					}
					checkReview(t, string(g)+" random", rec, rv)
					if k == 0 && rv.Exact {
						sol := sv.Solve(&d, reviewBudget)
						if sol.Exact && sol.Best != rv.Best {
							t.Errorf("deal %d: review best %d, solver %d", deal, rv.Best, sol.Best)
						}
					}
				}
				sol := sv.Solve(&d, reviewBudget)
				rec := sol.Record(&d)
				rv, err := ReviewRecord(rec, &sv, reviewBudget)
				if err != nil {
					t.Fatalf("deal %d, the solver's line: %v", deal, err)
				}
				checkReview(t, string(g)+" solver", rec, rv)
				if rv.Score != sol.Best || rv.Best != sol.Best {
					t.Errorf("deal %d: the solver's line scores %d, review best %d, solver %d", deal, rv.Score, rv.Best, sol.Best)
				}
				for i, dc := range rv.Decisions {
					if dc.Lost != 0 {
						t.Errorf("deal %d: the solver's move %d (%s) lost %d", deal, i+1, dc.Move, dc.Lost)
					}
				}
			}
		})
	}
}

// TestReviewCases: hand-picked records: an empty record of a deal (one
// "stand" decision losing everything the deal allows), a record with an
// undo (the undone move is no decision), an illegal move (an error).
func TestReviewCases(t *testing.T) {
	t.Parallel()
	var sv Solver
	v := mustVariant(t, GolfGame, map[string]any{"undo": true})
	d := NewDeal(v, NumberedSeed(7))
	empty := Record{Variant: v, Seed: d.Seed}
	rv, err := ReviewRecord(empty, &sv, reviewBudget)
	if err != nil {
		t.Fatal(err)
	}
	checkReview(t, "empty", empty, rv)
	if len(rv.Decisions) != 1 || rv.Decisions[0].Move != "stand" || rv.Decisions[0].Lost != rv.Score-rv.Best || rv.Score != 35 {
		t.Errorf("empty record: %+v", rv)
	}

	st := NewState(&d)
	first := st.Legal()[0]
	withUndo := Record{Variant: v, Seed: d.Seed, Moves: []Move{first, UndoMove, first}}
	rv, err = ReviewRecord(withUndo, &sv, reviewBudget)
	if err != nil {
		t.Fatal(err)
	}
	checkReview(t, "undo", withUndo, rv)
	if rv.Undone != 1 || len(rv.Decisions) != 2 || rv.Decisions[0].Move != first.String() {
		t.Errorf("a record with an undo: %+v", rv)
	}

	bad := Record{Variant: v, Seed: d.Seed, Moves: []Move{RedealMove}}
	if _, err := ReviewRecord(bad, &sv, reviewBudget); err == nil {
		t.Error("an illegal move was reviewed")
	}
}

// FuzzReviewRecord: any record that decodes and replays is reviewed
// without error, keeping every promise of checkReview, whatever the game,
// options and moves; one that does not replay is an error.
func FuzzReviewRecord(f *testing.F) {
	for _, b := range sampleRecords(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := DecodeRecord(b)
		if err != nil || len(rec.Moves) > 120 {
			return
		}
		var sv Solver
		rv, err := ReviewRecord(rec, &sv, &SolveOptions{MaxNodes: 2_000})
		if _, rerr := rec.Replay(); rerr != nil {
			if err == nil {
				t.Fatalf("a record that does not replay (%v) was reviewed", rerr)
			}
			return
		}
		if err != nil {
			t.Fatalf("review of a record that replays: %v", err)
		}
		checkReview(t, "fuzz", rec, rv)
	})
}
