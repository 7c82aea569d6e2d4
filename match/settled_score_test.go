package match

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestSettledBoardScoreIsTheRealGame: on anyone else's view of a board,
// the fields that describe the board come from the settled board, while
// "done", the score and how the game ended describe the real game
// (docs/fairplay.md). A seat that has finished while the board others see
// still waits at the deal shows its real score there, as in progress,
// never the score of the board shown.
func TestSettledBoardScoreIsTheRealGame(t *testing.T) {
	t.Parallel()
	r := newTestRoom(t, DefaultSettings(), "Ana", "Bo")
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 0, Ready: true, Seed: seedOf(3)})
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true, Seed: seedOf(3)})
	h := r.CurrentHole()
	rng := rand.New(rand.NewPCG(3, 4))
	at := t0
	// Ana plays the hole out; Bo has not turned a card, so f = 0.
	for !h.Games[0].Done {
		legal := h.State(r.Settings.Variant, 0).Legal()
		at = at.Add(time.Second)
		mustApply(t, r, Event{Kind: KindMove, At: at, Seat: 0, Hole: h.Number, Move: legal[rng.IntN(len(legal))]})
	}
	real := h.Games[0].Score
	for _, viewer := range []int{1, SpectatorSeat} {
		v := r.View(viewer)
		var b *Board
		for _, x := range v.Boards {
			if x.Seat == 0 {
				b = x
			}
		}
		if b == nil {
			t.Fatalf("viewer %d: no board of seat 0", viewer)
		}
		if b.Moves != 0 || b.Moves == len(h.Games[0].Moves) {
			t.Fatalf("viewer %d: the settled board has %d of %d moves; the test needs a board held at the deal", viewer, b.Moves, len(h.Games[0].Moves))
		}
		if !b.Done || b.End != h.Games[0].End || b.Score != real {
			t.Errorf("viewer %d: seat 0's board done %v end %q score %d; want the real game: done, %q, %d", viewer, b.Done, b.End, b.Score, h.Games[0].End, real)
		}
		if p := v.Progress[0]; !p.Done || p.Score == nil || *p.Score != real {
			t.Errorf("viewer %d: progress %+v, want done with score %d", viewer, p, real)
		}
	}
}
