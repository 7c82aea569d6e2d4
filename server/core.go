package server

import (
	"context"
	"encoding/json"

	"golfsolitaire/match"
	"golfsolitaire/server/internal/hubs"
)

// A hub keeps one room (hub.go) or one tournament (server/tournaments) on
// this instance. The machine the two share (the registry, the loop,
// subscribe-then-load, batched changes, deadlines, resubscription) is
// package server/internal/hubs; what each kind adds is its hubs.Logic,
// plus the optional capabilities it has (hubs.Lifecycle, hubs.Timer,
// hubs.Batcher, hubs.Settled, hubs.Deferrer, hubs.Noticer).

// The optional capabilities of a room's hub (a tournament's are asserted in
// server/tournaments/hub.go).
var (
	_ hubs.Lifecycle = (*hub)(nil)
	_ hubs.Timer     = (*hub)(nil)
	_ hubs.Settled   = (*hub)(nil)
	_ hubs.Deferrer  = (*hub)(nil)
	_ hubs.Noticer   = (*hub)(nil)
)

// hubEnv is what the server's hubs share: its store, logger and clock,
// the resync period, and the group Close waits on.
func (s *Server) hubEnv() hubs.Env {
	return hubs.Env{Store: s.store, Log: s.log, Now: s.now, ResyncEvery: s.opts.ResyncEvery, Loops: &s.hubLoops}
}

// newRoomLog stores a new room with the settings (of a tournament when id
// is set) and returns its code.
func (s *Server) newRoomLog(ctx context.Context, set match.Settings, id string) (string, error) {
	return hubs.CreateKey(ctx, s.store, func(code string) ([]byte, []byte, error) {
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
