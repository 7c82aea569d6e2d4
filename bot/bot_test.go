package bot

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// testRoom is a two-seat stroke room of two holes, started, with its clock
// at.
func testRoom(t *testing.T, at time.Time) *match.Room {
	t.Helper()
	set := match.DefaultSettings()
	set.Format, set.Holes, set.SkipUnclearable = match.Stroke, 2, false
	r, err := match.NewRoom(match.Event{Kind: match.KindCreate, At: at, Code: "TST", Settings: &set})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Ana", "Bot"} {
		h := sha256.Sum256([]byte(name))
		if _, err := r.Apply(match.Event{Kind: match.KindJoin, At: at, Name: name, Token: hex.EncodeToString(h[:]), Bot: i == 1}); err != nil {
			t.Fatal(err)
		}
	}
	seed := golf.Seed{1, 2, 3}
	if _, err := r.Apply(match.Event{Kind: match.KindStart, At: at, Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	return r
}

// playFor asks p for moves on seat's views of the room and applies them
// until the seat's hole h is over; it returns how many it made.
func playFor(t *testing.T, r *match.Room, p *Player, seat, h int, at time.Time) int {
	t.Helper()
	n := 0
	for ; n < 500; n++ {
		v := r.View(seat)
		if v.Board == nil || v.Board.Hole != h || v.Board.Done {
			return n
		}
		move := p.Choose(&v)
		if move == "" {
			t.Fatalf("hole %d, move %d: no move chosen on a board that is not done: %+v", h, n, v.Board)
		}
		m, err := golf.ParseMove(move)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Apply(match.Event{Kind: match.KindMove, At: at, Seat: seat, Hole: h, Move: m}); err != nil {
			t.Fatalf("hole %d, move %d (%s): %v", h, n, move, err)
		}
		after := r.View(seat)
		p.Played(h, move, after.Board)
	}
	t.Fatalf("hole %d: no end after %d moves", h, n)
	return n
}

// TestPlayerStartsMidHole: a player that first sees a hole after its seat
// has made moves (a bot resumed on another instance) plays legal moves to
// the end of the hole, and plays the next hole from its start, which it
// can rebuild again.
func TestPlayerStartsMidHole(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	for _, level := range []Level{Random, Greedy, Search} {
		t.Run(string(level), func(t *testing.T) {
			r := testRoom(t, at)
			// The first process played five moves, then stopped.
			first := NewPlayer(level, 1)
			for i := range 5 {
				v := r.View(1)
				move := first.Choose(&v)
				m, err := golf.ParseMove(move)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := r.Apply(match.Event{Kind: match.KindMove, At: at, Seat: 1, Hole: 1, Move: m}); err != nil {
					t.Fatalf("move %d: %v", i, err)
				}
				after := r.View(1)
				first.Played(1, move, after.Board)
			}
			if _, err := first.Reconstruct(r.Settings.Variant); err != nil {
				t.Fatalf("the first player cannot rebuild the hole it saw from the start: %v", err)
			}
			// Its successor starts from the view.
			p := NewPlayer(level, 2)
			n := playFor(t, r, p, 1, 1, at)
			if n == 0 {
				t.Fatal("the resumed player made no move")
			}
			if _, err := p.Reconstruct(r.Settings.Variant); err == nil {
				t.Error("Reconstruct of a hole first seen mid-way should fail, not make up the first moves")
			}
			// The other seat finishes the hole; the next one starts.
			playFor(t, r, NewPlayer(Random, 3), 0, 1, at)
			if hole := r.CurrentHole(); hole == nil || hole.Number != 2 {
				t.Fatalf("hole %v in play, want 2", hole)
			}
			v := r.View(1)
			if p.Choose(&v) == "" {
				t.Fatal("no move on the new hole")
			}
			if _, err := p.Reconstruct(r.Settings.Variant); err != nil {
				t.Errorf("the player saw hole 2 from its start and cannot rebuild it: %v", err)
			}
		})
	}
}

// TestSearchYields: a search player's solves give way through its Yield
// (a server passes one that lets the network be polled).
func TestSearchYields(t *testing.T) {
	t.Parallel()
	at := time.Unix(1_700_000_000, 0)
	r := testRoom(t, at)
	p := NewPlayer(Search, 1)
	yields := 0
	p.Yield = func() { yields++ }
	playFor(t, r, p, 1, 1, at)
	if yields == 0 {
		t.Error("a hole of a search player's moves never called its Yield")
	}
}
