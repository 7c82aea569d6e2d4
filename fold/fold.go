// Package fold replays a room's or a tournament's logged events onto its
// last snapshot: the store.Replay of the server's logs, with which a store
// that writes snapshots only every few events loads the current state.
package fold

import (
	"encoding/json"
	"fmt"
	"strings"

	"golfsolitaire/match"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// Replay is the store.Replay of the server's logs: the store writes a
// room's (or tournament's) snapshot only every few events and folds the
// events after it when it loads one, with this. Rooms and tournaments
// share the store's keys: a tournament's id is "T" and a code without
// separators (the server's newTournamentID), a room's code has them
// (newRoomCode).
// Give it to the store (memstore.Options.Replay, redisstore.Options.Replay).
func Replay(key string, snapshot []byte, events []store.Entry) ([]byte, error) {
	if isTournamentID(key) {
		return replayTournament(snapshot, events)
	}
	return replayRoom(snapshot, events)
}

func isTournamentID(key string) bool {
	return strings.HasPrefix(key, "T") && !strings.Contains(key, "-")
}

func replayRoom(snapshot []byte, events []store.Entry) ([]byte, error) {
	r, err := match.DecodeRoom(snapshot)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if e.Version != r.Version+1 {
			return nil, fmt.Errorf("fold: replaying event %d onto a room at version %d", e.Version, r.Version)
		}
		l, err := match.DecodeLogged(e.Data)
		if err != nil {
			return nil, err
		}
		if _, err := r.Apply(l.Event); err != nil {
			return nil, fmt.Errorf("fold: replaying event %d: %w", e.Version, err)
		}
	}
	return r.Encode()
}

func replayTournament(snapshot []byte, events []store.Entry) ([]byte, error) {
	t, err := tourney.Decode(snapshot)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if e.Version != t.Version+1 {
			return nil, fmt.Errorf("fold: replaying event %d onto a tournament at version %d", e.Version, t.Version)
		}
		var ev tourney.Event
		if err := json.Unmarshal(e.Data, &ev); err != nil {
			return nil, fmt.Errorf("fold: replaying tournament event %d: %w", e.Version, err)
		}
		if _, err := t.Apply(ev); err != nil {
			return nil, fmt.Errorf("fold: replaying tournament event %d: %w", e.Version, err)
		}
	}
	return t.Encode()
}
