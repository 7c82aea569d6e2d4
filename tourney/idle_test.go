package tourney

import (
	"errors"
	"testing"
	"time"

	"golfsolitaire/golf"
)

// TestIdleClose: a tournament that neither a start nor a closing time
// would end closes by the clock after idleLimit without an event (so it
// expires, where before it was kept for ever); every event puts the
// deadline back; start and closing times keep their own clock.
func TestIdleClose(t *testing.T) {
	t.Run("never started", func(t *testing.T) {
		tr := newTournament(t, DefaultSettings())
		if d, ok := tr.NextDeadline(); !ok || !d.Equal(t0.Add(idleLimit)) {
			t.Fatalf("next deadline %v %v, want the creation and idleLimit", d, ok)
		}
		later := t0.Add(10 * time.Hour)
		apply(t, tr, Event{Kind: KindJoin, At: later, Name: "Ana", Token: hash("ana")})
		if _, ok := tr.Due(t0.Add(idleLimit)); ok {
			t.Fatal("due a day after creation though someone joined since")
		}
		ev, ok := tr.Due(later.Add(idleLimit))
		if !ok || ev.Kind != KindClose {
			t.Fatalf("Due a day after the last join = %v %v", ev, ok)
		}
		apply(t, tr, ev)
		if tr.Status != Closed || tr.Reason != idleReason {
			t.Fatalf("status %s reason %q", tr.Status, tr.Reason)
		}
	})
	t.Run("live without a closing time", func(t *testing.T) {
		tr := newTournament(t, DefaultSettings())
		joinN(t, tr, 2)
		apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
		apply(t, tr, Event{Kind: KindResult, At: t0.Add(time.Hour), Entrant: 0, Hole: 1, Score: 4})
		if _, ok := tr.Due(t0.Add(idleLimit)); ok {
			t.Fatal("due a day after the start though a result came since")
		}
		ev, ok := tr.Due(t0.Add(time.Hour + idleLimit))
		if !ok {
			t.Fatal("a live tournament nobody plays never closes")
		}
		apply(t, tr, ev)
		if tr.Status != Closed {
			t.Fatalf("status %s", tr.Status)
		}
	})
	t.Run("a start time is its own clock", func(t *testing.T) {
		s := DefaultSettings()
		s.Starts = t0.Add(30 * 24 * time.Hour)
		tr := newTournament(t, s)
		if _, ok := tr.Due(t0.Add(2 * idleLimit)); ok {
			t.Fatal("an upcoming tournament with a start time closed as idle")
		}
	})
	t.Run("not a close by anyone", func(t *testing.T) {
		tr := newTournament(t, DefaultSettings())
		if _, err := tr.Apply(Event{Kind: KindClose, At: t0.Add(idleLimit), Token: hash("someone")}); !errors.Is(err, ErrNotHost) {
			t.Fatalf("a stranger's close when idle: %v", err)
		}
	})
}

// TestMaxAhead: a start time, and a closing time after the start, at most
// maxAhead away.
func TestMaxAhead(t *testing.T) {
	seeds := []golf.Seed{{1}}
	for _, tc := range []struct {
		name           string
		starts, closes time.Duration
		ok             bool
	}{
		{"start in 90 days", maxAhead, 0, true},
		{"start in 91 days", maxAhead + 24*time.Hour, 0, false},
		{"closes 90 days after the start", time.Hour, time.Hour + maxAhead, true},
		{"closes 91 days after the start", time.Hour, time.Hour + maxAhead + 24*time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			s.Starts = t0.Add(tc.starts)
			if tc.closes != 0 {
				s.Closes = t0.Add(tc.closes)
			}
			_, err := New(Event{Kind: KindCreate, At: t0, ID: "T1", Settings: &s, Seeds: seeds, Host: hash("host")})
			if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("New: %v, want ok %v", err, tc.ok)
			}
		})
	}
}
