package tourney_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/tourney"
)

func tok(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestLateEntry: with late entry, a live stroke-play tournament takes
// entries until its closing time, and no hole is safe before the close
// (a late entrant plays the same deals); without it entries close at the
// start. Late entry needs stroke play and a closing time.
func TestLateEntry(t *testing.T) {
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, late := range []bool{false, true} {
		set := tourney.DefaultSettings()
		set.Starts, set.Closes, set.LateEntry = start, start.Add(24*time.Hour), late
		tr, err := tourney.New(tourney.Event{Kind: tourney.KindCreate, At: start.Add(-time.Hour), ID: "TLATE00000", Settings: &set, Seeds: []golf.Seed{{1}}, Host: tok("host")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Apply(tourney.Event{Kind: tourney.KindJoin, At: start.Add(-time.Minute), Name: "Ana", Token: tok("ana")}); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Apply(tourney.Event{Kind: tourney.KindStart, At: start}); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Apply(tourney.Event{Kind: tourney.KindResult, At: start.Add(time.Hour), Entrant: 0, Hole: 1, Score: 3}); err != nil {
			t.Fatal(err)
		}
		if got := tr.Safe(1, 1); got != !late {
			t.Errorf("late entry %v: hole 1 finished by every entrant is safe = %v", late, got)
		}
		_, err = tr.Apply(tourney.Event{Kind: tourney.KindJoin, At: start.Add(2 * time.Hour), Name: "Bo", Token: tok("bo")})
		if late && err != nil {
			t.Errorf("late entry: joining while live: %v", err)
		}
		if !late && !errors.Is(err, tourney.ErrNotOpen) {
			t.Errorf("no late entry: joining while live: %v, want ErrNotOpen", err)
		}
		if late {
			if _, err := tr.Apply(tourney.Event{Kind: tourney.KindJoin, At: start.Add(25 * time.Hour), Name: "Cy", Token: tok("cy")}); !errors.Is(err, tourney.ErrNotOpen) {
				t.Errorf("joining after the closing time: %v, want ErrNotOpen", err)
			}
		}
	}
	set := tourney.DefaultSettings()
	set.LateEntry = true
	if err := set.Validate(); !errors.Is(err, tourney.ErrInvalid) {
		t.Errorf("late entry without a closing time: %v", err)
	}
}
