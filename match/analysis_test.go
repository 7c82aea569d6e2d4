package match

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
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
	ev, ok := r.BestEvent(1)
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

func TestWinnableOnly(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.WinnableOnly = true
	replaced := 0
	for b := byte(1); b <= 3; b++ {
		round := golf.Seed{b, 42}
		for n := 1; n <= 2; n++ {
			seed, k := HoleDealSeed(set, round, n)
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
			sol := golf.Solve(&d, &golf.SolveOptions{MaxNodes: SolveNodes})
			if !sol.Cleared {
				t.Fatalf("round %x hole %d: deal %x does not clear", round[:2], n, seed)
			}
			for j := 0; j < k; j++ {
				c := round.HoleSeed(n)
				if j > 0 {
					c = c.AgainSeed(j)
				}
				if Clearable(set.Variant, c) {
					t.Fatalf("an earlier candidate (again:%d) clears", j)
				}
			}
			if s2, k2 := HoleDealSeed(set, round, n); s2 != seed || k2 != k {
				t.Fatal("HoleDealSeed is not deterministic")
			}
		}
	}
	if replaced == 0 {
		t.Fatal("no deal was replaced: strict Golf clears only about a quarter of deals")
	}
	// A room records the chosen seed in the hole.
	set.Format, set.Seats, set.Holes = Stroke, 1, 3
	r := newTestRoom(t, set, "Ana")
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(9)})
	h := r.CurrentHole()
	if want, k := HoleDealSeed(set, *seedOf(9), 1); h.Seed != want || h.Replaced != k {
		t.Fatalf("hole seed %x (replaced %d), want %x (%d)", h.Seed, h.Replaced, want, k)
	}
	r = playOut(t, r, rand.New(rand.NewPCG(1, 2)))
	for _, n := range r.NeedsBest() {
		ev, _ := r.BestEvent(n)
		mustApply(t, r, ev)
	}
	for _, h := range r.Holes {
		if h.Best == nil || *h.Best > 0 && h.BestExact {
			t.Fatalf("hole %d of a winnableOnly round: best %v", h.Number, h.Best)
		}
	}
}

func TestDifficultySetting(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	// With kings wrapping every level is common (in strict Golf "easy"
	// hardly ever happens and the nearest level is chosen).
	set.Variant.Options.Kings = golf.Wrap
	for _, level := range []golf.Difficulty{golf.Easy, golf.Fair, golf.Hard, golf.Expert} {
		set.Difficulty = int(level)
		round := golf.Seed{byte(level), 7}
		for n := 1; n <= 1; n++ {
			seed, _ := HoleDealSeed(set, round, n)
			d := golf.NewDeal(set.Variant, seed)
			if got := golf.Rate(&d, &golf.SolveOptions{MaxNodes: RateNodes}); got != level {
				t.Fatalf("level %v, hole %d: deal rated %v", level, n, got)
			}
		}
	}
	for _, bad := range []string{`{"difficulty": 5}`, `{"difficulty": -1}`, `{"seats": 1, "format": "stroke", "deal": 4, "winnableOnly": true}`} {
		var s Settings
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("settings %s accepted", bad)
		}
	}
}

// TestPracticeDifficulty: solo practice shows the rating of the deal in
// play; rooms with more seats do not.
func TestPracticeDifficulty(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Format, set.Seats, set.Holes = Stroke, 1, 2
	r := newTestRoom(t, set, "Ana")
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(5)})
	v := r.View(0)
	d := golf.NewDeal(set.Variant, r.CurrentHole().Seed)
	want := golf.Rate(&d, &golf.SolveOptions{MaxNodes: RateNodes})
	if v.Difficulty != int(want) || v.DifficultyName != want.String() {
		t.Fatalf("difficulty %d %q, want %d", v.Difficulty, v.DifficultyName, want)
	}
	set.Seats = 2
	r = newTestRoom(t, set, "Ana", "Bo")
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true})
	mustApply(t, r, Event{Kind: KindStart, At: t0.Add(time.Second), Seat: 0, Seed: seedOf(5)})
	if r.View(0).Difficulty != 0 {
		t.Fatal("a two-seat room shows a difficulty")
	}
}
