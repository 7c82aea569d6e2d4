package match

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"golfsolitaire/golf"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func tokenHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// newTestRoom creates a room and seats the named players.
func newTestRoom(t *testing.T, set Settings, names ...string) *Room {
	t.Helper()
	r, err := NewRoom(Event{Kind: KindCreate, At: t0, Code: "TEST", Settings: &set})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		mustApply(t, r, Event{Kind: KindJoin, At: t0, Name: n, Token: tokenHash(fmt.Sprint(i))})
	}
	return r
}

func mustApply(t *testing.T, r *Room, ev Event) []Notice {
	t.Helper()
	n, err := r.Apply(ev)
	if err != nil {
		t.Fatalf("Apply(%+v): %v", ev, err)
	}
	return n
}

func seedOf(b byte) *golf.Seed { s := golf.Seed{b}; return &s }

// playOut plays random legal moves for every seat until the round ends,
// round-tripping the room through its snapshot now and then.
func playOut(t *testing.T, r *Room, rng *rand.Rand) *Room {
	t.Helper()
	at := t0
	for steps := 0; r.Status == Playing; steps++ {
		if steps > 100000 {
			t.Fatal("round does not end")
		}
		h := r.CurrentHole()
		for i, g := range h.Games {
			if g.Done {
				continue
			}
			legal := h.State(r.Settings.Variant, i).Legal()
			m := legal[rng.IntN(len(legal))]
			at = at.Add(time.Second)
			mustApply(t, r, Event{Kind: KindMove, At: at, Seat: i, Hole: h.Number, Move: m})
			break
		}
		if steps%50 == 0 {
			b, err := r.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if r, err = DecodeRoom(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	return r
}

func TestMatchPlayRound(t *testing.T) {
	t.Parallel()
	r := newTestRoom(t, DefaultSettings(), "Ana", "Bo")
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 0, Ready: true, Seed: seedOf(1)})
	n := mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true, Seed: seedOf(1)})
	if r.Status != Playing || len(n) == 0 {
		t.Fatalf("auto start: status %s, notices %v", r.Status, n)
	}
	r = playOut(t, r, rand.New(rand.NewPCG(1, 2)))
	st := r.Standings()
	if !st.Over || st.Match == nil || !st.Match.Decided {
		t.Fatalf("standings not decided: %+v", st.Match)
	}
	t.Logf("%s after %d holes", st.Match.Text, len(r.Holes))
	if v := r.View(0); v.Seed == "" || v.Seed != r.Seed.String() {
		t.Errorf("seed not revealed at the end")
	}
}

func TestIllegalChangesNothing(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	r := newTestRoom(t, set, "Ana", "Bo")
	before, _ := r.Encode()
	bad := []Event{
		{Kind: KindMove, Seat: 0, Hole: 1, Move: golf.TurnMove}, // not playing
		{Kind: KindStart, Seat: 1, Seed: seedOf(2)},             // not host
		{Kind: KindJoin, Name: "Cy", Token: tokenHash("x")},     // full
		{Kind: KindReady, Seat: 5, Ready: true},                 // no seat
		{Kind: "bogus"},
	}
	for _, ev := range bad {
		if _, err := r.Apply(ev); err == nil {
			t.Errorf("Apply(%+v) succeeded", ev)
		}
	}
	after, _ := r.Encode()
	if string(before) != string(after) {
		t.Errorf("a rejected event changed the room")
	}
	mustApply(t, r, Event{Kind: KindReady, Seat: 1, Ready: true})
	mustApply(t, r, Event{Kind: KindStart, Seat: 0, Seed: seedOf(2), At: t0})
	before, _ = r.Encode()
	for _, ev := range []Event{
		{Kind: KindMove, Seat: 0, Hole: 2, Move: golf.TurnMove},
		{Kind: KindMove, Seat: 0, Hole: 1, Move: golf.PlayPile(9)},
		{Kind: KindMove, Seat: 0, Hole: 1, Move: golf.UndoMove},
	} {
		_, err := r.Apply(ev)
		if err == nil {
			t.Errorf("Apply(%+v) succeeded", ev)
		}
		if errors.Is(err, ErrBadEvent) {
			t.Errorf("unexpected %v", err)
		}
	}
	after, _ = r.Encode()
	if string(before) != string(after) {
		t.Errorf("a rejected move changed the room")
	}
}

func TestPracticeDeals(t *testing.T) {
	t.Parallel()
	solo := DefaultSettings()
	solo.Format, solo.Seats, solo.Holes = Stroke, 1, 2
	tests := []struct {
		name  string
		deal  int
		daily bool
		want  [2]golf.Seed
	}{
		{"numbered", 41, false, [2]golf.Seed{golf.NumberedSeed(41), golf.NumberedSeed(42)}},
		{"daily", 0, true, [2]golf.Seed{golf.NumberedSeed(20261130), golf.NumberedSeed(20261131)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := solo
			set.Deal, set.Daily = tt.deal, tt.daily
			r := newTestRoom(t, set, "Solo")
			mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(9)})
			if got := r.CurrentHole().Seed; got != tt.want[0] {
				t.Errorf("hole 1 seed %s, want %s", got, tt.want[0])
			}
			mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: 0, Hole: 1})
			if got := r.CurrentHole().Seed; got != tt.want[1] {
				t.Errorf("hole 2 seed %s, want %s", got, tt.want[1])
			}
		})
	}
	two := DefaultSettings()
	two.Deal = 5
	if err := two.Validate(); err == nil {
		t.Errorf("a numbered deal in a two-player room was accepted")
	}
}

func TestRematchBothAsk(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Holes = 1
	r := newTestRoom(t, set, "Ana", "Bo")
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 0, Ready: true, Seed: seedOf(1)})
	mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true, Seed: seedOf(1)})
	r = playOut(t, r, rand.New(rand.NewPCG(3, 4)))
	if _, err := r.Apply(Event{Kind: KindRematch, Seat: 0, Seed: seedOf(2)}); err != nil {
		t.Fatal(err)
	}
	if r.Status != Waiting || r.Round != 2 || !r.Seats[0].Ready || r.Seats[1].Ready {
		t.Fatalf("after the first rematch: status %s round %d ready %v %v", r.Status, r.Round, r.Seats[0].Ready, r.Seats[1].Ready)
	}
	if _, err := r.Apply(Event{Kind: KindRematch, Seat: 1, Seed: seedOf(2)}); err != nil {
		t.Fatalf("second rematch: %v", err)
	}
	if r.Status != Playing || r.Seed != *seedOf(2) {
		t.Fatalf("the second rematch did not start the round: %s", r.Status)
	}
	if _, err := r.Apply(Event{Kind: KindRematch, Seat: 1, Seed: seedOf(3)}); !errors.Is(err, ErrNotFinished) {
		t.Fatalf("rematch mid-round: %v, want ErrNotFinished", err)
	}
}

// TestRematchStartsWhenNobodyElseIsWaited: in a one-seat room, and in a
// room whose other seats are bots (with autoStart), rematch starts the new
// round at once; before, the seat stayed ready in the waiting room and a
// second ready was refused with ErrNoChange.
func TestRematchStartsWhenNobodyElseIsWaited(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		bot  bool
	}{{"solo", false}, {"with a bot", true}} {
		t.Run(tc.name, func(t *testing.T) {
			set := DefaultSettings()
			set.Holes = 1
			set.Format = Stroke
			set.AutoStart = true
			set.Seats = 1
			names := []string{"Ana"}
			if tc.bot {
				set.Seats = 2
				names = append(names, "Robo") // made a bot below; people may not take the word
			}
			r := newTestRoom(t, set, names...)
			if tc.bot {
				r.Seats[1].Bot, r.Seats[1].Ready = true, true
			}
			mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(1)})
			r = playOut(t, r, rand.New(rand.NewPCG(5, 6)))
			if r.Status != Finished {
				t.Fatalf("status %s after playing out", r.Status)
			}
			notices := mustApply(t, r, Event{Kind: KindRematch, At: t0, Seat: 0, Seed: seedOf(2)})
			if r.Status != Playing || r.Round != 2 || r.Seed != *seedOf(2) || r.CurrentHole() == nil {
				t.Fatalf("after rematch: status %s round %d", r.Status, r.Round)
			}
			if len(notices) == 0 || notices[0].Kind != "started" {
				t.Errorf("notices %+v, want started first", notices)
			}
		})
	}
}
