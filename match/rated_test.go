package match

import (
	"errors"
	"testing"
)

func TestRatedSettings(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*Settings)
		ok   bool
	}{
		{"match play", func(s *Settings) {}, true},
		{"stroke play of four", func(s *Settings) { s.Format, s.Seats = Stroke, 4 }, true},
		{"solo", func(s *Settings) { s.Format, s.Seats = Stroke, 1 }, false},
		{"undo", func(s *Settings) { s.Variant.Options.Undo = true }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			s.Rated = true
			tc.mod(&s)
			if err := s.Validate(); (err == nil) != tc.ok {
				t.Errorf("Validate() = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// TestRatedOneSeatPerName: in a rated room a name (an account's) holds
// one seat, and no bot sits down; casual rooms are unchanged.
func TestRatedOneSeatPerName(t *testing.T) {
	rated := DefaultSettings()
	rated.Rated = true
	r := newTestRoom(t, rated, "Ana")
	v := r.Version
	if _, err := r.Apply(Event{Kind: KindJoin, At: t0, Name: "Ana", Token: tokenHash("twin")}); !errors.Is(err, ErrAlreadySeated) {
		t.Errorf("second Ana: err = %v, want ErrAlreadySeated", err)
	}
	if _, err := r.Apply(Event{Kind: KindJoin, At: t0, Name: "Bot (greedy)", Bot: true, Token: tokenHash("bot")}); !errors.Is(err, ErrInvalid) {
		t.Errorf("bot: err = %v, want ErrInvalid", err)
	}
	if len(r.Seats) != 1 || r.Version != v {
		t.Errorf("refused joins changed the room: %d seats, version %d", len(r.Seats), r.Version)
	}
	// A casual room refuses a second Ana too, as a look-alike of a seated
	// player (package names), with ErrInvalid rather than ErrAlreadySeated.
	casual := newTestRoom(t, DefaultSettings(), "Ana")
	if _, err := casual.Apply(Event{Kind: KindJoin, At: t0, Name: "Ana", Token: tokenHash("twin")}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a casual room's second Ana: err = %v, want ErrInvalid", err)
	}
}

// TestHeldMark: a rated room's seat is marked held (at the join or by a
// held event, at any time of the room) and its standings row says so; a
// casual room refuses the mark; the mark moves with its seat.
func TestHeldMark(t *testing.T) {
	casual := newTestRoom(t, DefaultSettings(), "Ana")
	if _, err := casual.Apply(Event{Kind: KindHeld, At: t0, Seat: 0, Held: true}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("held in a casual room: %v, want ErrInvalid", err)
	}
	if _, err := casual.Apply(Event{Kind: KindJoin, At: t0, Name: "Bo", Token: tokenHash("bo"), Held: true}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("held join in a casual room: %v, want ErrInvalid", err)
	}
	rated := DefaultSettings()
	rated.Rated = true
	r := newTestRoom(t, rated, "Ana")
	if _, err := r.Apply(Event{Kind: KindJoin, At: t0, Name: "Bo", Token: tokenHash("bo"), Held: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(Event{Kind: KindHeld, At: t0, Seat: 2, Held: true}); !errors.Is(err, ErrNoSuchSeat) {
		t.Fatalf("held for no seat: %v", err)
	}
	if _, err := r.Apply(Event{Kind: KindHeld, At: t0, Seat: 1, Held: true}); !errors.Is(err, ErrNoChange) {
		t.Fatalf("held twice: %v, want ErrNoChange", err)
	}
	held := func() []bool {
		var out []bool
		for _, row := range r.Standings().Rows {
			for len(out) <= row.Seat {
				out = append(out, false)
			}
			out[row.Seat] = row.Held
		}
		return out
	}
	if got := held(); len(got) != 2 || got[0] || !got[1] {
		t.Fatalf("rows held %v, want [false true]", got)
	}
	if _, err := r.Apply(Event{Kind: KindHeld, At: t0, Seat: 0, Held: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(Event{Kind: KindHeld, At: t0, Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if got := held(); !got[0] || got[1] {
		t.Fatalf("rows held %v, want [true false]", got)
	}
	// Ana leaves before play: Bo moves up to seat 0, unmarked.
	if _, err := r.Apply(Event{Kind: KindLeave, At: t0, Seat: 0}); err != nil {
		t.Fatal(err)
	}
	if got := held(); len(got) != 1 || got[0] {
		t.Fatalf("after a leave: rows held %v, want [false]", got)
	}
}
