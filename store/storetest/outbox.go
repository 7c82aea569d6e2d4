package storetest

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/store"
)

// RunOutbox runs the contract of store.Outbox: entries written with the
// events or not at all, kept beyond the room until done, oldest first.
func RunOutbox(t *testing.T, b Backend) {
	runTests(t, b, []namedTest{
		{"WrittenWithTheEvent", testOutboxWritten},
		{"NothingOnARefusedAppend", testOutboxRefused},
		{"FirstEntryOfAKeyKept", testOutboxFirstKept},
		{"OutlivesTheRoom", testOutboxOutlivesRoom},
		{"DoneRemoves", testOutboxDone},
		{"OtherInstanceRelays", testOutboxOtherInstance},
		{"RaceEveryEntryKept", testOutboxRace},
	})
}

// mine keeps the entries of this harness's rooms (a shared backend may
// hold other tests').
func (h *harness) mine(t *testing.T, s store.Store) []store.OutboxEntry {
	t.Helper()
	all, err := s.PendingOutbox(h.ctx, 1<<20)
	if err != nil {
		t.Fatalf("PendingOutbox: %v", err)
	}
	var out []store.OutboxEntry
	for _, e := range all {
		if strings.HasPrefix(e.Room, "T"+h.token) {
			out = append(out, e)
		}
	}
	return out
}

func entry(key, data string, at time.Time) store.OutboxEntry {
	return store.OutboxEntry{Key: key, Kind: "result", Data: []byte(data), At: at}
}

func describe(es []store.OutboxEntry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "[%s %s %s %q %d] ", e.Room, e.Key, e.Kind, e.Data, e.At.UnixMilli())
	}
	return b.String()
}

func testOutboxWritten(t *testing.T, h *harness) {
	s := h.store(t)
	a, b := h.room(), h.room()
	mustCreate(t, h.ctx, s, a)
	mustCreate(t, h.ctx, s, b)
	t0 := time.UnixMilli(time.Now().UnixMilli())
	v, err := s.AppendOutbox(h.ctx, a, 1, []byte("snap2"), []store.OutboxEntry{entry("rated:"+a+"-1", `{"g":1}`, t0.Add(time.Second))}, []byte("ended"))
	if err != nil || v != 2 {
		t.Fatalf("AppendOutbox = %d %v, want 2", v, err)
	}
	if _, err := s.AppendOutbox(h.ctx, b, 1, []byte("snap2"), []store.OutboxEntry{entry("hole:1", "h1", t0), entry("hole:2", "h2", t0.Add(2*time.Second))}, []byte("e1")); err != nil {
		t.Fatal(err)
	}
	// No entries: a plain append.
	if _, err := s.AppendOutbox(h.ctx, b, 2, []byte("snap3"), nil, []byte("e2")); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Since(h.ctx, a, 1)
	if err != nil || len(evs) != 1 || string(evs[0].Data) != "ended" {
		t.Fatalf("Since = %v %v, want the event", evs, err)
	}
	got := h.mine(t, s)
	want := []store.OutboxEntry{
		{Room: b, Key: "hole:1", Kind: "result", Data: []byte("h1"), At: t0},
		{Room: a, Key: "rated:" + a + "-1", Kind: "result", Data: []byte(`{"g":1}`), At: t0.Add(time.Second)},
		{Room: b, Key: "hole:2", Kind: "result", Data: []byte("h2"), At: t0.Add(2 * time.Second)},
	}
	if describe(got) != describe(want) {
		t.Errorf("PendingOutbox =\n%s\nwant (oldest first)\n%s", describe(got), describe(want))
	}
	n, oldest, err := s.OutboxStats(h.ctx)
	if err != nil || n < 3 || oldest.After(t0) {
		t.Errorf("OutboxStats = %d %v %v, want at least 3, oldest at or before %v", n, oldest, err, t0)
	}
	if first, err := s.PendingOutbox(h.ctx, 1); err != nil || len(first) != 1 {
		t.Errorf("PendingOutbox(1) = %d entries %v, want 1", len(first), err)
	}
}

func testOutboxRefused(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	mustAppend(t, h.ctx, s, room, 1, "a")
	_, err := s.AppendOutbox(h.ctx, room, 1, []byte("x"), []store.OutboxEntry{entry("k", "late", time.Now())}, []byte("late"))
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("AppendOutbox at a stale version = %v, want ErrConflict", err)
	}
	_, err = s.AppendOutbox(h.ctx, h.room(), 1, []byte("x"), []store.OutboxEntry{entry("k2", "none", time.Now())}, []byte("ev"))
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AppendOutbox to an unknown room = %v, want ErrNotFound", err)
	}
	if got := h.mine(t, s); len(got) != 0 {
		t.Errorf("entries after refused appends: %s, want none", describe(got))
	}
}

func testOutboxFirstKept(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	at := time.UnixMilli(time.Now().UnixMilli())
	for i, data := range []string{"first", "second"} {
		if _, err := s.AppendOutbox(h.ctx, room, int64(1+i), nil, []store.OutboxEntry{entry("k", data, at.Add(time.Duration(i)*time.Second))}, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	got := h.mine(t, s)
	if len(got) != 1 || string(got[0].Data) != "first" || !got[0].At.Equal(at) {
		t.Errorf("entries = %s, want only the first", describe(got))
	}
}

func testOutboxOutlivesRoom(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	if _, err := s.AppendOutbox(h.ctx, room, 1, nil, []store.OutboxEntry{entry("rated", "g", time.Now())}, []byte("ended")); err != nil {
		t.Fatal(err)
	}
	if err := s.Expire(h.ctx, room, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(h.ctx, room); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Load after Expire(0) = %v, want ErrNotFound", err)
	}
	if got := h.mine(t, s); len(got) != 1 || got[0].Key != "rated" {
		t.Errorf("entries after the room went = %s, want the entry still pending", describe(got))
	}
}

func testOutboxDone(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	now := time.Now()
	if _, err := s.AppendOutbox(h.ctx, room, 1, nil, []store.OutboxEntry{entry("a", "1", now), entry("b", "2", now.Add(time.Second))}, []byte("ev")); err != nil {
		t.Fatal(err)
	}
	got := h.mine(t, s)
	if len(got) != 2 {
		t.Fatalf("entries = %s, want 2", describe(got))
	}
	if err := s.OutboxDone(h.ctx, got[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.OutboxDone(h.ctx, got[0]); err != nil {
		t.Errorf("OutboxDone of an entry already done = %v, want nil", err)
	}
	if left := h.mine(t, s); len(left) != 1 || left[0].Key != "b" {
		t.Errorf("entries after one done = %s, want b", describe(left))
	}
	if err := s.OutboxDone(h.ctx, got[1]); err != nil {
		t.Fatal(err)
	}
	if left := h.mine(t, s); len(left) != 0 {
		t.Errorf("entries after both done = %s, want none", describe(left))
	}
}

func testOutboxOtherInstance(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room := h.room()
	mustCreate(t, h.ctx, a, room)
	if _, err := a.AppendOutbox(h.ctx, room, 1, nil, []store.OutboxEntry{entry("rated", "g", time.Now())}, []byte("ended")); err != nil {
		t.Fatal(err)
	}
	// The instance that wrote it is gone: the other relays it.
	got := h.mine(t, b)
	if len(got) != 1 {
		t.Fatalf("entries seen by the other instance = %s, want 1", describe(got))
	}
	if err := b.OutboxDone(h.ctx, got...); err != nil {
		t.Fatal(err)
	}
	if left := h.mine(t, a); len(left) != 0 {
		t.Errorf("entries after the other instance relayed them = %s, want none", describe(left))
	}
}

func testOutboxRace(t *testing.T, h *harness) {
	a, b := h.pair(t)
	const rooms = 8
	codes := make([]string, rooms)
	for i := range codes {
		codes[i] = h.room()
		mustCreate(t, h.ctx, a, codes[i])
	}
	// Writers append entries while a relay takes them and marks them done.
	var wg sync.WaitGroup
	for i, code := range codes {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for v := int64(1); v <= 5; v++ {
				if _, err := s.AppendOutbox(h.ctx, code, v, nil, []store.OutboxEntry{entry(fmt.Sprintf("k%d", v), "x", time.Now())}, []byte("ev")); err != nil {
					t.Errorf("AppendOutbox: %v", err)
					return
				}
			}
		})
	}
	seen := map[string]bool{}
	stop := make(chan struct{})
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		for {
			select {
			case <-stop:
				return
			default:
			}
			es := h.mine(t, b)
			for _, e := range es {
				seen[e.Room+"/"+e.Key] = true
			}
			if err := b.OutboxDone(h.ctx, es...); err != nil {
				t.Errorf("OutboxDone: %v", err)
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-relayed
	for _, e := range h.mine(t, a) {
		seen[e.Room+"/"+e.Key] = true
	}
	if len(seen) != rooms*5 {
		t.Errorf("entries relayed or pending = %d, want %d", len(seen), rooms*5)
	}
}
