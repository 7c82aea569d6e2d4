package server_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// appendHangs is a store whose Append, while hang is set, waits for
// release whatever its context says: a store that stops answering.
type appendHangs struct {
	store.Store
	hang    atomic.Bool
	release chan struct{}
}

func (s *appendHangs) Append(ctx context.Context, room string, expect int64, snapshot []byte, events ...[]byte) (int64, error) {
	if s.hang.Load() {
		<-s.release
	}
	return s.Store.Append(ctx, room, expect, snapshot, events...)
}

// TestConnGaugeAfterHungDetach: both players of a room leave while its
// store hangs. The first one's detach holds the room's loop (recording
// the seat away) past the second one's detach timeout (3 s), so the
// second is never taken off the room's list; once the store answers and
// the room's hub stops, golf_connections is back to 0 all the same (it
// stayed at 1).
func TestConnGaugeAfterHungDetach(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := &appendHangs{Store: memstore.New(memstore.Options{}), release: make(chan struct{})}
	in := startInstance(t, st, true)
	ga, gb := matchRoom(t, ctx, in, in, stroke(2, 2, nil))
	a := dial(t, ctx, in.url, ga.Code, ga.Token)
	b := dial(t, ctx, in.url, gb.Code, gb.Token)
	waitFor(t, 10*time.Second, "both players connected", func() bool { return instanceMetric(in.srv, "golf_connections") == "2" })

	st.hang.Store(true)
	a.Close()
	b.Close()
	time.Sleep(4500 * time.Millisecond) // past the detach's 3 s
	st.hang.Store(false)
	close(st.release)
	waitFor(t, 10*time.Second, "the room's hub to stop", func() bool { return instanceMetric(in.srv, "golf_rooms_active") == "0" })
	if n := instanceMetric(in.srv, "golf_connections"); n != "0" {
		t.Errorf("golf_connections is %s with no room and no connection", n)
	}
}
