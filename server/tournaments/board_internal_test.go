package tournaments

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/server/internal/codes"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/tourney"
)

// TestBoardRowsPlaces: the places the store's leaderboard pages give are
// those of tourney.Leaderboard, countback on or off, with finished and
// unfinished entrants on the same scores (who must be shown tied) and
// entrants not started (last, no place); the lists of leaders read from
// the store are tourney.Leaders (held entrants left out).
func TestBoardRowsPlaces(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for trial := range 40 {
		rng := rand.New(rand.NewPCG(uint64(trial), 7))
		set := tourney.DefaultSettings()
		set.Countback = trial%4 != 3
		seeds := []golf.Seed{{1}}
		tr, err := tourney.New(tourney.Event{Kind: tourney.KindCreate, At: at, ID: "TBOARD0000", Settings: &set, Seeds: seeds, Host: codes.HashToken("host")})
		if err != nil {
			t.Fatal(err)
		}
		n := 3 + rng.IntN(12)
		for i := range n {
			if _, err := tr.Apply(tourney.Event{Kind: tourney.KindJoin, At: at, Name: fmt.Sprint("P", i), Token: codes.HashToken(fmt.Sprint("token-", i))}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tr.Apply(tourney.Event{Kind: tourney.KindStart, At: at, Token: codes.HashToken("host")}); err != nil {
			t.Fatal(err)
		}
		// Scores from a narrow range so that totals collide often; the last
		// entrant never finishes, so the tournament stays live.
		for i := range n {
			holes := set.Holes
			if rng.IntN(2) == 0 || i == n-1 {
				holes = rng.IntN(set.Holes)
			}
			for h := 1; h <= holes; h++ {
				if _, err := tr.Apply(tourney.Event{Kind: tourney.KindResult, At: at, Entrant: i, Hole: h, Score: 4 + rng.IntN(3)}); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Some entrants are held for review: the lists of leaders pass them.
		for i := range n {
			if rng.IntN(4) == 0 {
				if _, err := tr.Apply(tourney.Event{Kind: tourney.KindHeld, At: at, Entrant: i, Held: true}); err != nil {
					t.Fatal(err)
				}
			}
		}
		st := memstore.New(memstore.Options{})
		var scores []store.Scored
		for i := range n {
			if tr.OnBoard(i) {
				scores = append(scores, store.Scored{Member: tourney.Member(i), Score: tr.SortKey(i)})
			}
		}
		if len(scores) > 0 {
			if err := st.SetScores(ctx, tr.ID, scores...); err != nil {
				t.Fatal(err)
			}
		}
		want := tr.Leaderboard()
		for _, size := range []int{1, 2, 3, 100} {
			for page := 1; (page-1)*size < len(want); page++ {
				lb, err := leaderboardOf(ctx, st, tr, page, size, -1)
				if err != nil {
					t.Fatal(err)
				}
				for j, r := range lb.Rows {
					w := want[(page-1)*size+j]
					if r.Entrant != w.Entrant || r.PlaceText != w.PlaceText {
						t.Fatalf("trial %d size %d page %d row %d: %d %s, want %d %s (all %v)", trial, size, page, j, r.Entrant, r.PlaceText, w.Entrant, w.PlaceText, want)
					}
				}
			}
		}
		for _, k := range []int{1, 2, 3, 20} {
			got, err := leadersOf(ctx, st, tr, k)
			if err != nil {
				t.Fatal(err)
			}
			want := tr.Leaders(k)
			if len(got) != len(want) {
				t.Fatalf("trial %d: %d leaders from the store, %d from the tournament (%v, %v)", trial, len(got), len(want), got, want)
			}
			for j := range got {
				if got[j].Entrant != want[j].Entrant || got[j].PlaceText != want[j].PlaceText || got[j].Held || got[j].NotStarted {
					t.Fatalf("trial %d: leader %d is %d %s, want %d %s", trial, j, got[j].Entrant, got[j].PlaceText, want[j].Entrant, want[j].PlaceText)
				}
			}
		}
		st.Close()
	}
}
