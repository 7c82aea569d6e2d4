package server

import (
	"context"
	"encoding/json"
	"errors"

	"golfsolitaire/match"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/store"
)

// A hub keeps one room (hub.go) or one tournament (tournament_hub.go) on
// this instance. The machine the two share (the registry, the loop,
// subscribe-then-load, batched changes, deadlines, resubscription) is
// package server/internal/hubs; what each kind adds is its hubs.Logic,
// plus the optional capabilities it has (hubs.Lifecycle, hubs.Timer,
// hubs.Batcher).

// The optional capabilities each kind of hub has.
var (
	_ hubs.Lifecycle        = (*hub)(nil)
	_ hubs.Timer            = (*hub)(nil)
	_ hubs.Lifecycle        = (*thub)(nil)
	_ hubs.Timer            = (*thub)(nil)
	_ hubs.Batcher[tchange] = (*thub)(nil)
)

// hubEnv is what the server's hubs share: its store, logger and clock,
// the resync period, and the group Close waits on.
func (s *Server) hubEnv() hubs.Env {
	return hubs.Env{Store: s.store, Log: s.log, Now: s.now, ResyncEvery: s.opts.ResyncEvery, Loops: &s.hubLoops}
}

// createKey stores a new log under a fresh key: first makes the key and
// the snapshot and first event under it; a key already taken is drawn
// again (a few times).
func (s *Server) createKey(ctx context.Context, first func(key string) (snap, data []byte, err error), newKey func() string) (string, error) {
	for attempt := 0; ; attempt++ {
		key := newKey()
		snap, data, err := first(key)
		if err != nil {
			return "", err
		}
		err = s.store.Create(ctx, key, snap, data)
		if err == nil {
			return key, nil
		}
		if !errors.Is(err, store.ErrExists) || attempt > 5 {
			return "", err
		}
	}
}

// newRoomLog stores a new room with the settings (of a tournament when id
// is set) and returns its code.
func (s *Server) newRoomLog(ctx context.Context, set match.Settings, id string) (string, error) {
	return s.createKey(ctx, func(code string) ([]byte, []byte, error) {
		ev := match.Event{Kind: match.KindCreate, At: s.now(), Code: code, Settings: &set, Tournament: id}
		room, err := match.NewRoom(ev)
		if err != nil {
			return nil, nil, err
		}
		snap, err := room.Encode()
		data, _ := json.Marshal(room.Log(ev, nil))
		return snap, data, err
	}, newRoomCode)
}
