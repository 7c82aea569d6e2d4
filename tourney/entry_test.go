package tourney

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// lateDaily is a tournament like the daily challenge: 9 holes of stroke
// play with late entry, open from start to start+24h.
func lateDaily(t *testing.T, start time.Time) *Tournament {
	t.Helper()
	s := DefaultSettings()
	s.Accounts, s.LateEntry = true, true
	s.Starts, s.Closes = start, start.Add(24*time.Hour)
	tr := newTournament(t, s)
	apply(t, tr, Event{Kind: KindStart, At: start})
	return tr
}

// TestLateEntryClosesAtClosingTimeOnly: with late entry, a tournament
// whose every entrant has finished stays open until its closing time: a
// second entrant enters after the first finished (the daily challenge
// used to close, reveal its seed and refuse everyone once its first
// player finished on a quiet day), and only the clock closes it. Without
// late entry nobody can enter any more, so it still closes when every
// entrant has finished.
func TestLateEntryClosesAtClosingTimeOnly(t *testing.T) {
	start := t0.Truncate(24 * time.Hour)
	tr := lateDaily(t, start)
	apply(t, tr, Event{Kind: KindJoin, At: start.Add(time.Hour), Name: "Ana", Token: hash("ana"), Account: 1})
	for h := 1; h <= 9; h++ {
		if n := apply(t, tr, Event{Kind: KindResult, At: start.Add(2 * time.Hour), Entrant: 0, Hole: h, Score: 4}); len(n) != 0 {
			t.Fatalf("hole %d of the only entrant: notices %+v, want none", h, n)
		}
	}
	if tr.Status != Live || !tr.Closed.IsZero() {
		t.Fatalf("every entrant finished at 02:00: status %s closed %v, want live until 24:00", tr.Status, tr.Closed)
	}
	if _, ok := tr.Due(start.Add(3 * time.Hour)); ok {
		t.Fatal("the clock has something to do before the closing time")
	}
	apply(t, tr, Event{Kind: KindJoin, At: start.Add(20 * time.Hour), Name: "Bo", Token: hash("bo"), Account: 2})
	apply(t, tr, Event{Kind: KindResult, At: start.Add(21 * time.Hour), Entrant: 1, Hole: 1, Score: 6})
	for h := 2; h <= 9; h++ {
		apply(t, tr, Event{Kind: KindResult, At: start.Add(22 * time.Hour), Entrant: 1, Hole: h, Score: 5})
	}
	if tr.Status != Live {
		t.Fatalf("both entrants finished before the closing time: status %s, want live", tr.Status)
	}
	if len(tr.SafeHoles()) != 0 {
		t.Errorf("holes %v safe before the close of a late-entry tournament", tr.SafeHoles())
	}
	ev, ok := tr.Due(start.Add(24*time.Hour + ResultGrace))
	if !ok || ev.Kind != KindClose {
		t.Fatalf("at the closing time the clock has %+v %v, want a close", ev, ok)
	}
	if n := apply(t, tr, ev); len(n) != 1 || n[0].Kind != NoticeClosed || tr.Reason != "closing time" {
		t.Fatalf("closing: notices %+v reason %q", n, tr.Reason)
	}
	if _, err := tr.Apply(Event{Kind: KindJoin, At: start.Add(25 * time.Hour), Name: "Cy", Token: hash("cy"), Account: 3}); !errors.Is(err, ErrNotOpen) {
		t.Errorf("entering after the close: %v, want ErrNotOpen", err)
	}

	// Without late entry: closed once every entrant has finished.
	s := DefaultSettings()
	s.Holes = 9
	plain := newTournament(t, s)
	joinN(t, plain, 1)
	apply(t, plain, Event{Kind: KindStart, At: t0, Token: hash("host")})
	for h := 1; h <= 9; h++ {
		apply(t, plain, Event{Kind: KindResult, At: t0, Entrant: 0, Hole: h, Score: 4})
	}
	if plain.Status != Closed || plain.Reason != "every entrant has finished" {
		t.Errorf("without late entry: status %s reason %q, want closed when every entrant has finished", plain.Status, plain.Reason)
	}
}

// TestLeaderboardNotStarted: entrants who have entered but finished no
// hole are listed after everyone who has, in entry order, marked not
// started, with no place and no score.
func TestLeaderboardNotStarted(t *testing.T) {
	tr := newTournament(t, DefaultSettings())
	joinN(t, tr, 4)
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: 3, Hole: 1, Score: 9})
	apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: 1, Hole: 1, Score: 2})
	var got []string
	for _, r := range tr.Leaderboard() {
		got = append(got, fmt.Sprintf("%q %s %q thru %d today %s notStarted %v", r.PlaceText, r.Name, r.ToParText, r.Thru, r.Today, r.NotStarted))
	}
	want := []string{
		`"1" P1 "-3" thru 1 today 2 notStarted false`,
		`"2" P3 "+4" thru 1 today 2 notStarted false`,
		`"" P0 "" thru 0 today 1 notStarted true`,
		`"" P2 "" thru 0 today 1 notStarted true`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("leaderboard\n%q\nwant\n%q", got, want)
	}
	for _, r := range tr.Leaderboard()[2:] {
		if r.Place != 0 || r.Total != 0 || r.ToPar != 0 {
			t.Errorf("a row not started has a place or a score: %+v", r)
		}
	}
	// The sort keys order them the same way: after every played key.
	for i := range tr.Entrants {
		if i == 0 || i == 2 {
			if tr.SortKey(i) != notStartedKey {
				t.Errorf("entrant %d not started has key %v", i, tr.SortKey(i))
			}
		} else if tr.SortKey(i) >= notStartedKey {
			t.Errorf("entrant %d has played, key %v is not ahead of %v", i, tr.SortKey(i), notStartedKey)
		}
	}
}

// TestHeldMarkAnyTournament: a held or confirmed player is marked on the
// leaderboard of any tournament, rated or not (the daily challenge is
// not rated), and left out of its leaders.
func TestHeldMarkAnyTournament(t *testing.T) {
	tr := newTournament(t, DefaultSettings())
	joinN(t, tr, 3)
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	for e, sc := range []int{1, 3, 5} {
		apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: e, Hole: 1, Score: sc})
	}
	apply(t, tr, Event{Kind: KindHeld, At: t0, Entrant: 0, Held: true})
	rows := tr.Leaderboard()
	if rows[0].Name != "P0" || !rows[0].Held || rows[0].Place != 1 || rows[1].Held {
		t.Fatalf("rows %+v", rows)
	}
	var names []string
	for _, r := range tr.Leaders(2) {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, []string{"P1", "P2"}) {
		t.Errorf("leaders %v, want P1, P2 (P0 is held)", names)
	}
}
