package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"golfsolitaire/store"
)

// The spaced snapshots are tested on a toy domain: a room's state is its
// events joined by "|", which the suite's Replay folds. Appends that do
// not reach a snapshot (store.SnapshotDue) pass a bogus snapshot, so a
// store that wrote it would load a wrong state.

const every = 4 // Config.SnapshotEvery of these tests

// folder is the suite's Replay; it records how many events each call
// folded.
type folder struct {
	mu    sync.Mutex
	calls []int
	fail  error
}

func (f *folder) replay(_ string, snapshot []byte, events []store.Entry) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, len(events))
	if f.fail != nil {
		return nil, f.fail
	}
	var b strings.Builder
	b.Write(snapshot)
	for _, e := range events {
		b.WriteString("|")
		b.Write(e.Data)
	}
	return []byte(b.String()), nil
}

// last returns how many events the last call folded (-1: no call since
// the previous last) and forgets the calls.
func (f *folder) last() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := -1
	if len(f.calls) > 0 {
		n = f.calls[len(f.calls)-1]
	}
	f.calls = nil
	return n
}

// spaced opens stores (two instances on a shared backend) that write
// snapshots every `every` events, folding with f.
func (h *harness) spaced(t *testing.T, f *folder) (store.Store, store.Store) {
	t.Helper()
	if !h.b.Configurable {
		t.Skip("the backend does not take Config.Replay")
	}
	c := Config{Replay: f.replay, SnapshotEvery: every}
	a := h.storeWith(t, c)
	if !h.b.Shared {
		return a, a
	}
	return a, h.storeWith(t, c)
}

// toyRoom is a room of the toy domain as the test knows it.
type toyRoom struct {
	code   string
	events []string
}

func (r *toyRoom) version() int64 { return int64(len(r.events)) }
func (r *toyRoom) state() string  { return strings.Join(r.events, "|") }

func newToyRoom(t *testing.T, h *harness, s store.Store) *toyRoom {
	t.Helper()
	r := &toyRoom{code: h.room(), events: []string{"ev1"}}
	if err := s.Create(h.ctx, r.code, []byte("ev1"), []byte("ev1")); err != nil {
		t.Fatalf("Create = %v", err)
	}
	return r
}

// appendToy appends events as the server would: the snapshot only when
// it is due, a bogus one otherwise.
func appendToy(t *testing.T, h *harness, s store.Store, r *toyRoom, events ...string) {
	t.Helper()
	expect := r.version()
	snap := []byte("BOGUS: this snapshot is not due")
	if store.SnapshotDue(every, expect, len(events)) {
		snap = []byte(strings.Join(append(slices.Clone(r.events), events...), "|"))
	}
	evs := make([][]byte, len(events))
	for i, e := range events {
		evs[i] = []byte(e)
	}
	v, err := s.Append(h.ctx, r.code, expect, snap, evs...)
	if err != nil || v != expect+int64(len(events)) {
		t.Fatalf("Append(%d, %q) = %d %v, want %d", expect, events, v, err, expect+int64(len(events)))
	}
	r.events = append(r.events, events...)
}

// mustLoad checks that Load returns the room's whole state at its
// version.
func mustLoad(t *testing.T, h *harness, s store.Store, r *toyRoom) {
	t.Helper()
	snap, err := s.Load(h.ctx, r.code)
	if err != nil || snap.Version != r.version() || string(snap.Data) != r.state() {
		t.Fatalf("Load = %d %q %v, want %d %q", snap.Version, snap.Data, err, r.version(), r.state())
	}
}

// testSnapshotEvery: after N-1, N and N+1 events (and on to 3N+1), Load
// returns the state at the latest version, folding only the events after
// the last snapshot; Since reaches across snapshots.
func testSnapshotEvery(t *testing.T, h *harness) {
	f := &folder{}
	s, _ := h.spaced(t, f)
	r := newToyRoom(t, h, s)
	mustLoad(t, h, s, r)
	if n := f.last(); n != -1 {
		t.Fatalf("Load of a new room folded %d events, want no fold", n)
	}
	for v := int64(2); v <= 3*every+1; v++ {
		appendToy(t, h, s, r, fmt.Sprint("e", v))
		mustLoad(t, h, s, r)
		// The last snapshot is at the last multiple of every (or at 1).
		sv := max(v/every*every, 1)
		want := int(v - sv)
		if want == 0 {
			want = -1 // no fold
		}
		if got := f.last(); got != want {
			t.Fatalf("at version %d (snapshots every %d): Load folded %d events, want %d", v, every, got, max(want, 0))
		}
	}
	entries, err := s.Since(h.ctx, r.code, 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range entries {
		if e.Version != int64(3+i) {
			t.Fatalf("Since(2): entry %d has version %d", i, e.Version)
		}
		got = append(got, string(e.Data))
	}
	if want := r.events[2:]; !slices.Equal(got, want) {
		t.Fatalf("Since(2) = %q, want %q", got, want)
	}
}

// testSnapshotOtherInstance: another instance (or this one after a
// restart) loads every acknowledged event, whoever wrote the snapshot.
func testSnapshotOtherInstance(t *testing.T, h *harness) {
	f := &folder{}
	a, b := h.spaced(t, f)
	r := newToyRoom(t, h, a)
	for i := range 2*every + 2 {
		s := a
		if i%3 == 2 {
			s = b
		}
		appendToy(t, h, s, r, fmt.Sprint("e", i))
		mustLoad(t, h, b, r)
		mustLoad(t, h, a, r)
	}
	if h.b.Shared {
		c := h.storeWith(t, Config{Replay: f.replay, SnapshotEvery: every}) // a restart
		mustLoad(t, h, c, r)
	}
}

// testSnapshotConflict: conflicts are found exactly, before and at a
// snapshot, and change nothing.
func testSnapshotConflict(t *testing.T, h *harness) {
	f := &folder{}
	a, b := h.spaced(t, f)
	r := newToyRoom(t, h, a)
	appendToy(t, h, a, r, "e2", "e3") // version 3: the next append writes a snapshot
	for _, expect := range []int64{0, 1, 2, 4, 5, every} {
		if expect == r.version() {
			continue
		}
		_, err := b.Append(h.ctx, r.code, expect, []byte("LOSER"), []byte("loser"))
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("Append at %d, room at %d = %v, want ErrConflict", expect, r.version(), err)
		}
	}
	mustLoad(t, h, a, r)
	appendToy(t, h, b, r, "e4") // the snapshot at 4
	if _, err := a.Append(h.ctx, r.code, 3, []byte("LOSER"), []byte("loser")); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second Append at 3 = %v, want ErrConflict", err)
	}
	mustLoad(t, h, a, r)
	appendToy(t, h, a, r, "e5")
	mustLoad(t, h, b, r)
	entries, err := a.Since(h.ctx, r.code, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, string(e.Data))
	}
	if !slices.Equal(got, r.events) {
		t.Fatalf("log = %q, want %q (refused Appends must change nothing)", got, r.events)
	}
}

// testSnapshotRaceNoLostEvents: writers on two instances load, fold and
// append under contention; every acknowledged event is in the loaded
// state, once, in the log's order.
func testSnapshotRaceNoLostEvents(t *testing.T, h *harness) {
	f := &folder{}
	a, b := h.spaced(t, f)
	r := newToyRoom(t, h, a)
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for w := range writers {
		s := a
		if w%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for i := 0; i < each; {
				snap, err := s.Load(h.ctx, r.code)
				if err != nil {
					errc <- err
					return
				}
				ev := fmt.Sprintf("w%d-%d", w, i)
				next := []byte("BOGUS")
				if store.SnapshotDue(every, snap.Version, 1) {
					next = append(append(snap.Data, '|'), ev...)
				}
				_, err = s.Append(h.ctx, r.code, snap.Version, next, []byte(ev))
				switch {
				case err == nil:
					i++
				case !errors.Is(err, store.ErrConflict):
					errc <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	entries, err := a.Since(h.ctx, r.code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1+writers*each {
		t.Fatalf("log has %d entries, want %d", len(entries), 1+writers*each)
	}
	r.events = nil
	for _, e := range entries {
		r.events = append(r.events, string(e.Data))
	}
	mustLoad(t, h, b, r)
}

// testSnapshotBatch: appends of several events write the snapshot when
// they reach or pass a multiple of every.
func testSnapshotBatch(t *testing.T, h *harness) {
	f := &folder{}
	s, _ := h.spaced(t, f)
	r := newToyRoom(t, h, s)
	steps := []struct {
		events []string
		fold   int // events Load folds after it; -1 none
	}{
		{[]string{"a", "b", "c", "d", "e", "f"}, -1}, // 1 -> 7, past 4: written
		{[]string{"g", "h"}, -1},                     // 7 -> 9, past 8: written
		{[]string{"i", "j"}, 2},                      // 9 -> 11
		{[]string{"k"}, -1},                          // 11 -> 12
	}
	for _, st := range steps {
		appendToy(t, h, s, r, st.events...)
		mustLoad(t, h, s, r)
		if got := f.last(); got != st.fold {
			t.Fatalf("after %q (version %d): Load folded %d events, want %d", st.events, r.version(), got, st.fold)
		}
	}
}

// testReplayFails: a Replay that fails makes Load fail (not ErrNotFound),
// and leaves the log alone.
func testReplayFails(t *testing.T, h *harness) {
	f := &folder{}
	s, _ := h.spaced(t, f)
	r := newToyRoom(t, h, s)
	appendToy(t, h, s, r, "e2")
	f.mu.Lock()
	f.fail = errors.New("cannot fold")
	f.mu.Unlock()
	if _, err := s.Load(h.ctx, r.code); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Load with a failing Replay = %v, want its error", err)
	}
	if _, err := s.Append(h.ctx, r.code, 1, nil, []byte("x")); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("Append at 1 = %v, want ErrConflict", err)
	}
	f.mu.Lock()
	f.fail = nil
	f.mu.Unlock()
	mustLoad(t, h, s, r)
}

// testSnapshotEveryOption: the store reports the spacing it was given,
// and 1 without a Replay.
func testSnapshotEveryOption(t *testing.T, h *harness) {
	f := &folder{}
	s, _ := h.spaced(t, f)
	if n := s.SnapshotEvery(); n != every {
		t.Fatalf("SnapshotEvery() = %d with Replay and SnapshotEvery %d", n, every)
	}
	if n := h.storeWith(t, Config{SnapshotEvery: every}).SnapshotEvery(); n != 1 {
		t.Fatalf("SnapshotEvery() = %d without a Replay, want 1", n)
	}
}
