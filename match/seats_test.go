package match

import (
	"errors"
	"testing"
	"time"
)

// TestLeaveAndKick: a player leaves a waiting room, the host removes a
// seat, the seats after it move up; every refusal changes nothing.
func TestLeaveAndKick(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Seats = 4
	set.Format = Stroke
	set.AutoStart = false
	for _, tc := range []struct {
		name  string
		ev    Event
		err   error
		names []string // seats after, when no error
	}{
		{"leave", Event{Kind: KindLeave, Seat: 1}, nil, []string{"Ana", "Cy", "Di"}},
		{"last leaves", Event{Kind: KindLeave, Seat: 3}, nil, []string{"Ana", "Bo", "Cy"}},
		{"host leaves: the next is host", Event{Kind: KindLeave, Seat: 0}, nil, []string{"Bo", "Cy", "Di"}},
		{"kick", Event{Kind: KindKick, Seat: 0, Target: 2}, nil, []string{"Ana", "Bo", "Di"}},
		{"kick by a guest", Event{Kind: KindKick, Seat: 1, Target: 2}, ErrNotHost, nil},
		{"kick the host", Event{Kind: KindKick, Seat: 0, Target: 0}, ErrNoSuchSeat, nil},
		{"kick nobody", Event{Kind: KindKick, Seat: 0, Target: 4}, ErrNoSuchSeat, nil},
		{"leave no seat", Event{Kind: KindLeave, Seat: 7}, ErrNoSuchSeat, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRoom(t, set, "Ana", "Bo", "Cy", "Di")
			before, _ := r.Encode()
			tc.ev.At = t0
			n, err := r.Apply(tc.ev)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				if after, _ := r.Encode(); string(after) != string(before) {
					t.Error("a refused event changed the room")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(n) != 1 || (n[0].Kind != "left" && n[0].Kind != "removed") {
				t.Errorf("notices %+v", n)
			}
			var got []string
			for _, s := range r.Seats {
				got = append(got, s.Name)
			}
			if len(got) != len(tc.names) {
				t.Fatalf("seats %v, want %v", got, tc.names)
			}
			for i := range got {
				if got[i] != tc.names[i] {
					t.Fatalf("seats %v, want %v", got, tc.names)
				}
			}
			if r.SeatOf(tokenHash("0")) < 0 && tc.ev.Seat != 0 {
				t.Error("the host lost its seat")
			}
		})
	}
	t.Run("not once playing", func(t *testing.T) {
		r := newTestRoom(t, set, "Ana", "Bo")
		mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: 1, Ready: true})
		mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: seedOf(1)})
		if _, err := r.Apply(Event{Kind: KindLeave, At: t0, Seat: 1}); !errors.Is(err, ErrNotWaiting) {
			t.Errorf("leave while playing: %v", err)
		}
		if _, err := r.Apply(Event{Kind: KindKick, At: t0, Seat: 0, Target: 1}); !errors.Is(err, ErrNotWaiting) {
			t.Errorf("kick while playing: %v", err)
		}
	})
}

// TestReleaseUnready: in a public room a guest not ready ReadyWithin after
// joining is released by the clock; the host, ready guests and bots stay;
// private rooms keep everyone.
func TestReleaseUnready(t *testing.T) {
	t.Parallel()
	for _, public := range []bool{true, false} {
		set := DefaultSettings()
		set.Seats = 4
		set.Format = Stroke
		set.AutoStart = false
		set.Public = public
		r := newTestRoom(t, set, "Ana", "Squatter", "Bo")
		mustApply(t, r, Event{Kind: KindJoin, At: t0, Name: "Bot (random)", Token: tokenHash("bot"), Bot: true})
		mustApply(t, r, Event{Kind: KindReady, At: t0.Add(time.Minute), Seat: 2, Ready: true})
		d, ok := r.NextDeadline()
		if !public {
			if ok {
				t.Errorf("private room: deadline %v", d)
			}
			if _, err := r.Apply(Event{Kind: KindTick, At: t0.Add(time.Hour)}); !errors.Is(err, ErrNoChange) {
				t.Errorf("private room: tick %v", err)
			}
			continue
		}
		if !ok || !d.Equal(t0.Add(ReadyWithin)) {
			t.Fatalf("deadline %v %v, want %v", d, ok, t0.Add(ReadyWithin))
		}
		if _, err := r.Apply(Event{Kind: KindTick, At: d.Add(-time.Second)}); !errors.Is(err, ErrNoChange) {
			t.Fatalf("tick before the deadline: %v", err)
		}
		n := mustApply(t, r, Event{Kind: KindTick, At: d})
		if len(n) != 1 || n[0].Kind != "released" || n[0].Seat != 1 {
			t.Fatalf("notices %+v", n)
		}
		if len(r.Seats) != 3 || r.Seats[1].Name != "Bo" || r.Seats[2].Name != "Bot (random)" {
			t.Fatalf("seats after release: %+v", r.Seats)
		}
		if d, ok := r.NextDeadline(); ok {
			t.Errorf("deadline %v left", d)
		}
	}
}

// TestNamesInRoom: a person may not take a bot's name nor one confusable
// with a seated player's; bots may share theirs.
func TestNamesInRoom(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Seats = 6
	set.Format = Stroke
	r := newTestRoom(t, set, "Ana")
	for i, tc := range []struct {
		name string
		bot  bool
		ok   bool
	}{
		{"\u0410na", false, false}, // Cyrillic А
		{"ana", false, false},
		{"Bot (search)", false, false},
		{"Ana\u202E", false, false},
		{"Bot (search)", true, true},
		{"Bot (search)", true, true},
		{"Bo", false, true},
	} {
		_, err := r.Apply(Event{Kind: KindJoin, At: t0, Name: tc.name, Token: tokenHash("n" + string(rune('a'+i))), Bot: tc.bot})
		if (err == nil) != tc.ok {
			t.Errorf("join %q (bot %v): %v, want ok=%v", tc.name, tc.bot, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("join %q: %v is not ErrInvalid", tc.name, err)
		}
	}
}
