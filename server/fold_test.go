package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/fold"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/tourney"
)

// snapshotRecorder is a store that keeps the last snapshot the server
// gave each key (Create and Append), the oracle of what a Load must give.
type snapshotRecorder struct {
	store.Store
	mu   sync.Mutex
	last map[string]store.Snapshot
}

func (r *snapshotRecorder) keep(key string, v int64, snap []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if snap != nil {
		r.last[key] = store.Snapshot{Version: v, Data: bytes.Clone(snap)}
	}
}

// SnapshotEvery is 1 to the server, so that it encodes its state on every
// append for the recorder, while the store beneath writes only every
// 1000th and folds the rest on Load.
func (r *snapshotRecorder) SnapshotEvery() int { return 1 }

func (r *snapshotRecorder) Create(ctx context.Context, key string, snap, first []byte) error {
	err := r.Store.Create(ctx, key, snap, first)
	if err == nil {
		r.keep(key, 1, snap)
	}
	return err
}

func (r *snapshotRecorder) Append(ctx context.Context, key string, expect int64, snap []byte, events ...[]byte) (int64, error) {
	v, err := r.Store.Append(ctx, key, expect, snap, events...)
	if err == nil {
		r.keep(key, v, snap)
	}
	return v, err
}

// canonical re-encodes a room or tournament snapshot, so two states
// compare equal when they decode to the same thing.
func canonical(t *testing.T, tournament bool, data []byte) string {
	t.Helper()
	var v any
	var err error
	if tournament {
		v, err = tourney.Decode(data)
	} else {
		v, err = match.DecodeRoom(data)
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReplayFoldsLogs plays a room and fills a tournament on a store that
// writes no snapshot after the first (SnapshotEvery is the history's
// length): Load folds every event after it with fold.Replay, and gives
// the state the server itself held after its last append.
func TestReplayFoldsLogs(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{Replay: fold.Replay, SnapshotEvery: 1000})
	t.Cleanup(func() { st.Close() })
	rec := &snapshotRecorder{Store: st, last: map[string]store.Snapshot{}}
	ts, api := newTestServer(t, rec)

	set := map[string]any{"game": "golf", "holes": 1, "format": "match", "seats": 2}
	g1, err := api.CreateRoom(ctx, set, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	g2, err := api.Join(ctx, g1.Code, "Bo")
	if err != nil {
		t.Fatal(err)
	}
	c1 := dial(t, ctx, ts.URL, g1.Code, g1.Token)
	c2 := dial(t, ctx, ts.URL, g2.Code, g2.Token)
	if err := c2.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := c1.Start(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); playHole(t, ctx, c2, 1) }()
	playHole(t, ctx, c1, 1)
	<-done
	for _, c := range []*client.Conn{c1, c2} {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished }); err != nil {
			t.Fatal(err)
		}
	}

	host, err := api.CreateTournament(ctx, map[string]any{"name": "Fold Cup", "holes": 9}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		if _, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: fmt.Sprint("P", i)}); err != nil {
			t.Fatal(err)
		}
	}

	for _, k := range []struct {
		key        string
		tournament bool
	}{{g1.Code, false}, {host.ID, true}} {
		var want store.Snapshot
		// The room's last events (the end of the round) may be appended
		// just after the views that show them.
		waitFor(t, 10*time.Second, "the server's last append to "+k.key, func() bool {
			rec.mu.Lock()
			want = rec.last[k.key]
			rec.mu.Unlock()
			got, err := st.Load(ctx, k.key)
			return err == nil && got.Version == want.Version
		})
		if want.Version < 8 {
			t.Fatalf("%s ended at version %d: too few events to fold", k.key, want.Version)
		}
		got, err := st.Load(ctx, k.key)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := canonical(t, k.tournament, got.Data), canonical(t, k.tournament, want.Data); g != w {
			t.Fatalf("%s at version %d: Load folded\n%s\nthe server held\n%s", k.key, got.Version, g, w)
		}
	}
}
