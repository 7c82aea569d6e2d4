package fold_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"golfsolitaire/fold"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

var at = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// TestReplayRoom: a room's joins folded onto its first snapshot give the
// room the events made; an event that skips a version is refused.
func TestReplayRoom(t *testing.T) {
	set := match.DefaultSettings()
	r, err := match.NewRoom(match.Event{Kind: match.KindCreate, At: at, Code: "K7R-4MP-9TW", Settings: &set})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var events []store.Entry
	for i, name := range []string{"Ana", "Bo"} {
		ev := match.Event{Kind: match.KindJoin, At: at, Name: name, Token: strings.Repeat(fmt.Sprint(i), 64)}
		notices, err := r.Apply(ev)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(r.Log(ev, notices))
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, store.Entry{Version: r.Version, Data: data})
	}
	want, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := fold.Replay(r.Code, snap, events)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Replay = %s\nwant %s", got, want)
	}
	if _, err := fold.Replay(r.Code, snap, events[1:]); err == nil || !strings.Contains(err.Error(), "replaying event") {
		t.Errorf("Replay with a version missing: %v, want a refusal", err)
	}
}

// TestReplayTournament: a key of a tournament ("T" and a code without
// separators) is folded as a tournament.
func TestReplayTournament(t *testing.T) {
	set := tourney.DefaultSettings()
	tr, err := tourney.New(tourney.Event{Kind: tourney.KindCreate, At: at, ID: "TK7R4MP9TW", Settings: &set, Seeds: []golf.Seed{{1}}, Host: strings.Repeat("h", 64)})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := tr.Encode()
	if err != nil {
		t.Fatal(err)
	}
	ev := tourney.Event{Kind: tourney.KindJoin, At: at, Name: "Ana", Token: strings.Repeat("a", 64)}
	if _, err := tr.Apply(ev); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tr.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := fold.Replay(tr.ID, snap, []store.Entry{{Version: tr.Version, Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Replay = %s\nwant %s", got, want)
	}
}
