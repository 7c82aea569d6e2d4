// Package storetest is the contract suites of the parts of store.Store
// (RunRoomLog, RunBus, RunLobby, RunMatchmaker, RunBots, RunTournaments
// for Tournaments and Leaderboards, RunSeedPools; RunBackend runs those
// of a whole store.Store): memstore and redisstore run them from their
// tests.
package storetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"golfsolitaire/store"
)

// Config is what a test asks of a new store.
type Config struct {
	// HistoryLen caps each room's history (0: the implementation's
	// default).
	HistoryLen int
	// Replay and SnapshotEvery, when set, go to the store's options of the
	// same names (the room log's spaced snapshots).
	Replay        store.Replay
	SnapshotEvery int
	// Now is the test's fake clock. Implementations that keep time
	// themselves (Redis) ignore it and provide Backend.Advance instead.
	Now func() time.Time
}

// Backend describes the implementation under test.
type Backend struct {
	// New returns a new store, closed by the suite when the test ends.
	// Stores from different tests must not share data (rooms, listings,
	// queues, topics): tests run in parallel.
	New func(t *testing.T, c Config) store.Store
	// Shared says that two stores from New in one test share one backend,
	// like two server instances on one Redis. Without it the tests of
	// several instances use one store for both roles.
	Shared bool
	// Configurable says that New honours Config.HistoryLen; without it the
	// trimming tests are skipped.
	Configurable bool
	// Advance makes d pass for the test's stores, after the suite has moved
	// the clock behind Config.Now (memstore: nothing more to do; miniredis:
	// FastForward). Nil: the suite sleeps d for real.
	Advance func(t *testing.T, d time.Duration)
}

// Run runs the suite on stores from newStore, with real time: the TTL tests
// sleep, the trimming tests are skipped and each instance test uses one
// store for both roles. RunBackend runs all of it.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	RunBackend(t, Backend{New: func(t *testing.T, _ Config) store.Store { return newStore(t) }})
}

type namedTest struct {
	name string
	run  func(t *testing.T, h *harness)
}

// RunRoomLog runs the contract of store.RoomLog: create, load, append,
// since, expire, and the spaced snapshots (Config.Replay).
func RunRoomLog(t *testing.T, b Backend) {
	runTests(t, b, []namedTest{
		{"CreateLoad", testCreateLoad},
		{"NotFound", testNotFound},
		{"Append", testAppend},
		{"AppendData", testAppendData},
		{"AppendRaceOneWinner", testAppendRaceOneWinner},
		{"AppendRaceNoLostEvents", testAppendRaceNoLostEvents},
		{"Since", testSince},
		{"SinceTrimmed", testSinceTrimmed},
		{"Expire", testExpire},
		{"AppendRefreshesTTL", testAppendRefreshesTTL},
		{"SnapshotEvery", testSnapshotEvery},
		{"SnapshotOtherInstance", testSnapshotOtherInstance},
		{"SnapshotConflict", testSnapshotConflict},
		{"SnapshotRaceNoLostEvents", testSnapshotRaceNoLostEvents},
		{"SnapshotBatch", testSnapshotBatch},
		{"ReplayFails", testReplayFails},
		{"SnapshotEveryOption", testSnapshotEveryOption},
	})
}

// RunBus runs the contract of store.Bus: room subscriptions and topics.
func RunBus(t *testing.T, b Backend) {
	runTests(t, b, []namedTest{
		{"SubscribeOtherInstance", testSubscribeOtherInstance},
		{"SlowSubscriber", testSlowSubscriber},
		{"NotifyListen", testNotifyListen},
		{"NotifyRoom", testNotifyRoom},
		{"SubscriptionEnds", testSubscriptionEnds},
		{"CloseEndsSubscriptions", testCloseEndsSubscriptions},
	})
}

// RunLobby runs the contract of store.Lobby.
func RunLobby(t *testing.T, b Backend) {
	runTests(t, b, []namedTest{
		{"Listings", testListings},
		{"ListingsExpire", testListingsExpire},
		{"ListingsSpam", testListingsSpam},
	})
}

// RunMatchmaker runs the contract of store.Matchmaker.
func RunMatchmaker(t *testing.T, b Backend) {
	runTests(t, b, []namedTest{
		{"Pair", testPair},
		{"PairConcurrent", testPairConcurrent},
	})
}

// RunBots runs the contracts of store.Bots and store.Leases.
func RunBots(t *testing.T, b Backend) {
	runTests(t, b, []namedTest{
		{"Bots", testBots},
		{"BotsExpireWithRoom", testBotsExpireWithRoom},
		{"BotsDue", testBotsDue},
		{"Lease", testLease},
		{"LeaseExpiry", testLeaseExpiry},
		{"LeaseRaceOneWinner", testLeaseRaceOneWinner},
	})
}

// RunBackend runs the suites of every part of store.Store but the
// tournaments' and the seed pools' (RunTournaments, RunSeedPools), and
// Ping.
func RunBackend(t *testing.T, b Backend) {
	// The parts run side by side, as the tests of each part do.
	for _, part := range []struct {
		name string
		run  func(*testing.T, Backend)
	}{
		{"RoomLog", RunRoomLog}, {"Bus", RunBus}, {"Lobby", RunLobby},
		{"Matchmaker", RunMatchmaker}, {"Bots", RunBots}, {"Outbox", RunOutbox},
	} {
		t.Run(part.name, func(t *testing.T) {
			t.Parallel()
			part.run(t, b)
		})
	}
	runTests(t, b, []namedTest{{"Ping", testPing}})
}

func runTests(t *testing.T, b Backend, tests []namedTest) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t, newHarness(t, b))
		})
	}
}

// harness is one test's view of the backend.
type harness struct {
	b     Backend
	mu    sync.Mutex
	now   time.Time
	ctx   context.Context
	ids   int
	token string
}

func newHarness(t *testing.T, b Backend) *harness {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return &harness{b: b, now: time.Now(), ctx: ctx, token: randomHex(4)}
}

func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

// store opens a store with the default configuration.
func (h *harness) store(t *testing.T) store.Store {
	t.Helper()
	return h.storeWith(t, Config{})
}

func (h *harness) storeWith(t *testing.T, c Config) store.Store {
	t.Helper()
	c.Now = h.clock
	s := h.b.New(t, c)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// pair returns two stores on one backend (two server instances), or one
// store twice.
func (h *harness) pair(t *testing.T) (store.Store, store.Store) {
	t.Helper()
	a := h.store(t)
	if !h.b.Shared {
		return a, a
	}
	return a, h.store(t)
}

// advance makes d pass.
func (h *harness) advance(t *testing.T, d time.Duration) {
	t.Helper()
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
	if h.b.Advance != nil {
		h.b.Advance(t, d)
		return
	}
	time.Sleep(d)
}

// room returns a room code unique to this run; codes from one harness sort
// in the order they were made.
func (h *harness) room() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ids++
	return fmt.Sprintf("T%s%03d", h.token, h.ids)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func mustCreate(t *testing.T, ctx context.Context, s store.Store, room string) {
	t.Helper()
	if err := s.Create(ctx, room, []byte("snap1"), []byte("ev1")); err != nil {
		t.Fatalf("Create(%q) = %v", room, err)
	}
}

func mustAppend(t *testing.T, ctx context.Context, s store.Store, room string, expect int64, events ...string) int64 {
	t.Helper()
	evs := make([][]byte, len(events))
	for i, e := range events {
		evs[i] = []byte(e)
	}
	v, err := s.Append(ctx, room, expect, []byte(fmt.Sprintf("snap%d", expect+int64(len(events)))), evs...)
	if err != nil {
		t.Fatalf("Append(%q, %d) = %v", room, expect, err)
	}
	return v
}

// next receives one entry or fails the test.
func next(t *testing.T, sub store.Subscription) store.Entry {
	t.Helper()
	select {
	case e, ok := <-sub.C():
		if !ok {
			t.Fatal("subscription ended early")
		}
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no entry within 5s")
	}
	panic("unreachable")
}

// ended waits for the subscription's channel to be closed, discarding what
// is still buffered.
func ended(t *testing.T, sub store.Subscription) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-sub.C():
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("subscription not ended within 5s")
		}
	}
}

// quiet checks that nothing arrives for a little while.
func quiet(t *testing.T, sub store.Subscription) {
	t.Helper()
	select {
	case e, ok := <-sub.C():
		t.Fatalf("got %v (open %v), want nothing", e, ok)
	case <-time.After(100 * time.Millisecond):
	}
}

func testCreateLoad(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	snap, err := s.Load(h.ctx, room)
	if err != nil || snap.Version != 1 || string(snap.Data) != "snap1" {
		t.Fatalf("Load = %d %q %v, want 1 \"snap1\" nil", snap.Version, snap.Data, err)
	}
	entries, err := s.Since(h.ctx, room, 0)
	if err != nil || len(entries) != 1 || entries[0].Version != 1 || string(entries[0].Data) != "ev1" {
		t.Fatalf("Since(0) = %v %v, want [{1 ev1}]", entries, err)
	}
	if err := s.Create(h.ctx, room, []byte("other"), []byte("other")); !errors.Is(err, store.ErrExists) {
		t.Fatalf("second Create = %v, want ErrExists", err)
	}
	if snap, _ := s.Load(h.ctx, room); string(snap.Data) != "snap1" {
		t.Fatalf("failed Create changed the snapshot to %q", snap.Data)
	}
}

func testNotFound(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	calls := []struct {
		name string
		call func() error
	}{
		{"Load", func() error { _, err := s.Load(h.ctx, room); return err }},
		{"Append", func() error { _, err := s.Append(h.ctx, room, 1, nil, []byte("x")); return err }},
		{"Since", func() error { _, err := s.Since(h.ctx, room, 0); return err }},
		{"Subscribe", func() error {
			sub, err := s.Subscribe(h.ctx, room)
			if err == nil {
				sub.Close()
			}
			return err
		}},
		{"Expire", func() error { return s.Expire(h.ctx, room, time.Hour) }},
		{"SetListing", func() error { return s.SetListing(h.ctx, room, []byte("{}")) }},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s(unknown room) = %v, want ErrNotFound", c.name, err)
		}
	}
	if err := s.SetListing(h.ctx, room, nil); err != nil {
		t.Errorf("SetListing(unknown room, nil) = %v, want nil", err)
	}
}

func testAppend(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	steps := []struct {
		expect  int64
		events  []string
		want    int64
		wantErr error
	}{
		{1, []string{"a"}, 2, nil},
		{2, []string{"b", "c", "d"}, 5, nil},
		{2, []string{"late"}, 0, store.ErrConflict},
		{6, []string{"ahead"}, 0, store.ErrConflict},
		{5, []string{"e"}, 6, nil},
	}
	for _, st := range steps {
		evs := make([][]byte, len(st.events))
		for i, e := range st.events {
			evs[i] = []byte(e)
		}
		v, err := s.Append(h.ctx, room, st.expect, []byte(fmt.Sprintf("snap-after-%v", st.events)), evs...)
		if !errors.Is(err, st.wantErr) || (st.wantErr == nil && v != st.want) {
			t.Fatalf("Append(%d, %q) = %d %v, want %d %v", st.expect, st.events, v, err, st.want, st.wantErr)
		}
	}
	snap, err := s.Load(h.ctx, room)
	if err != nil || snap.Version != 6 || string(snap.Data) != `snap-after-[e]` {
		t.Fatalf("Load = %d %q %v, want 6 \"snap-after-[e]\"", snap.Version, snap.Data, err)
	}
	entries, err := s.Since(h.ctx, room, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range entries {
		if e.Version != int64(i+1) {
			t.Errorf("entry %d has version %d", i, e.Version)
		}
		got = append(got, string(e.Data))
	}
	if want := []string{"ev1", "a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Fatalf("log = %q, want %q (failed Appends must change nothing)", got, want)
	}
}

func testAppendData(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	datas := [][]byte{
		[]byte("plain"),
		{},
		[]byte("12:34:with:colons"),
		{0, 1, 2, 0xff, 0xfe, '\n', 0},
		bytes.Repeat([]byte("x"), 64<<10),
	}
	sub, err := s.Subscribe(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	v := int64(1)
	for _, d := range datas {
		v, err = s.Append(h.ctx, room, v, d, d)
		if err != nil {
			t.Fatalf("Append(%q) = %v", d[:min(len(d), 16)], err)
		}
		snap, err := s.Load(h.ctx, room)
		if err != nil || !bytes.Equal(snap.Data, d) {
			t.Fatalf("Load = %q %v, want %q", snap.Data[:min(len(snap.Data), 16)], err, d[:min(len(d), 16)])
		}
		if e := next(t, sub); e.Version != v || !bytes.Equal(e.Data, d) {
			t.Fatalf("subscription got %d %q, want %d %q", e.Version, e.Data[:min(len(e.Data), 16)], v, d[:min(len(d), 16)])
		}
	}
	entries, err := s.Since(h.ctx, room, 1)
	if err != nil || len(entries) != len(datas) {
		t.Fatalf("Since(1) = %d entries %v, want %d", len(entries), err, len(datas))
	}
	for i, e := range entries {
		if !bytes.Equal(e.Data, datas[i]) {
			t.Errorf("Since entry %d = %q, want %q", i, e.Data[:min(len(e.Data), 16)], datas[i][:min(len(datas[i]), 16)])
		}
	}
}

// testAppendRaceOneWinner: many Appends with one expected version, from
// two instances; exactly one wins.
func testAppendRaceOneWinner(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room := h.room()
	mustCreate(t, h.ctx, a, room)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			_, errs[i] = s.Append(h.ctx, room, 1, []byte(fmt.Sprint(i)), []byte(fmt.Sprint(i)))
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("appenders %d and %d both won version 2", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, store.ErrConflict):
			t.Fatalf("appender %d: %v, want nil or ErrConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no appender won")
	}
	snap, err := a.Load(h.ctx, room)
	if err != nil || snap.Version != 2 || string(snap.Data) != fmt.Sprint(winner) {
		t.Fatalf("Load = %d %q %v, want 2 %q", snap.Version, snap.Data, err, fmt.Sprint(winner))
	}
	entries, err := b.Since(h.ctx, room, 1)
	if err != nil || len(entries) != 1 || string(entries[0].Data) != fmt.Sprint(winner) {
		t.Fatalf("Since(1) = %v %v, want the winner's event only", entries, err)
	}
}

// testAppendRaceNoLostEvents: writers retry on conflict until each has
// appended its events; every event is in the log exactly once, and a
// subscriber sees the versions in order.
func testAppendRaceNoLostEvents(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room := h.room()
	mustCreate(t, h.ctx, a, room)
	const writers, each = 6, 15
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for w := range writers {
		s := a
		if w%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for i := 0; i < each; {
				snap, err := s.Load(h.ctx, room)
				if err != nil {
					errc <- err
					return
				}
				ev := fmt.Sprintf("w%d-%d", w, i)
				_, err = s.Append(h.ctx, room, snap.Version, []byte(ev), []byte(ev))
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
	entries, err := a.Since(h.ctx, room, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1+writers*each {
		t.Fatalf("log has %d entries, want %d", len(entries), 1+writers*each)
	}
	seen := map[string]bool{}
	for i, e := range entries {
		if e.Version != int64(i+1) {
			t.Fatalf("entry %d has version %d", i, e.Version)
		}
		if seen[string(e.Data)] {
			t.Fatalf("event %q twice", e.Data)
		}
		seen[string(e.Data)] = true
	}
	snap, _ := b.Load(h.ctx, room)
	if snap.Version != int64(1+writers*each) || string(snap.Data) != string(entries[len(entries)-1].Data) {
		t.Fatalf("snapshot %d %q does not match the last event %q", snap.Version, snap.Data, entries[len(entries)-1].Data)
	}
}

func testSince(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room := h.room()
	mustCreate(t, h.ctx, a, room)
	mustAppend(t, h.ctx, a, room, 1, "a", "b")
	mustAppend(t, h.ctx, a, room, 3, "c", "d")
	cases := []struct {
		v       int64
		want    []string
		wantErr error
	}{
		{0, []string{"ev1", "a", "b", "c", "d"}, nil},
		{-3, []string{"ev1", "a", "b", "c", "d"}, nil},
		{1, []string{"a", "b", "c", "d"}, nil},
		{3, []string{"c", "d"}, nil},
		{4, []string{"d"}, nil},
		{5, []string{}, nil},
		{6, nil, store.ErrTooOld},
	}
	for _, c := range cases {
		entries, err := b.Since(h.ctx, room, c.v)
		if !errors.Is(err, c.wantErr) {
			t.Errorf("Since(%d) error = %v, want %v", c.v, err, c.wantErr)
			continue
		}
		if c.wantErr != nil {
			continue
		}
		got := []string{}
		for i, e := range entries {
			if want := max(c.v, 0) + int64(i) + 1; e.Version != want {
				t.Errorf("Since(%d)[%d].Version = %d, want %d", c.v, i, e.Version, want)
			}
			got = append(got, string(e.Data))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Since(%d) = %q, want %q", c.v, got, c.want)
		}
	}
}

func testSinceTrimmed(t *testing.T, h *harness) {
	if !h.b.Configurable {
		t.Skip("backend ignores Config.HistoryLen")
	}
	const keep = 4
	s := h.storeWith(t, Config{HistoryLen: keep})
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	v := int64(1)
	for i := range 9 {
		v = mustAppend(t, h.ctx, s, room, v, fmt.Sprint("e", i))
	}
	// v is 10; the history holds 7..10.
	cases := []struct {
		v       int64
		want    int
		wantErr error
	}{
		{10, 0, nil},
		{9, 1, nil},
		{6, 4, nil},
		{5, 0, store.ErrTooOld},
		{0, 0, store.ErrTooOld},
	}
	for _, c := range cases {
		entries, err := s.Since(h.ctx, room, c.v)
		if !errors.Is(err, c.wantErr) || len(entries) != c.want {
			t.Errorf("Since(%d) = %d entries, %v; want %d, %v", c.v, len(entries), err, c.want, c.wantErr)
		}
		if len(entries) > 0 && (entries[0].Version != c.v+1 || entries[len(entries)-1].Version != v) {
			t.Errorf("Since(%d) = versions %d..%d, want %d..%d", c.v, entries[0].Version, entries[len(entries)-1].Version, c.v+1, v)
		}
	}
	// One Append of more events than the history holds.
	many := make([][]byte, 3*keep)
	for i := range many {
		many[i] = []byte(fmt.Sprint("m", i))
	}
	v2, err := s.Append(h.ctx, room, v, []byte("snap"), many...)
	if err != nil || v2 != v+int64(len(many)) {
		t.Fatalf("Append(%d events) = %d %v", len(many), v2, err)
	}
	if _, err := s.Since(h.ctx, room, v); !errors.Is(err, store.ErrTooOld) {
		t.Errorf("Since(%d) after a long Append = %v, want ErrTooOld", v, err)
	}
	entries, err := s.Since(h.ctx, room, v2-keep)
	if err != nil || len(entries) != keep || string(entries[keep-1].Data) != fmt.Sprint("m", len(many)-1) {
		t.Errorf("Since(%d) = %v %v, want the last %d events", v2-keep, entries, err, keep)
	}
}

// testSubscribeOtherInstance: a subscriber on one instance receives every
// entry appended on the other, in order.
func testSubscribeOtherInstance(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room, other := h.room(), h.room()
	mustCreate(t, h.ctx, b, room)
	mustCreate(t, h.ctx, b, other)
	sub, err := a.Subscribe(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	sub2, err := a.Subscribe(h.ctx, room) // a second subscriber of the same room
	if err != nil {
		t.Fatal(err)
	}
	defer sub2.Close()
	v := int64(1)
	for i := range 10 {
		events := make([]string, 1+i%3)
		for j := range events {
			events[j] = fmt.Sprintf("e%d.%d", i, j)
		}
		v = mustAppend(t, h.ctx, b, room, v, events...)
		mustAppend(t, h.ctx, b, other, v-int64(len(events)), events...) // must not show up
	}
	for _, s := range []store.Subscription{sub, sub2} {
		for want := int64(2); want <= v; want++ {
			if e := next(t, s); e.Version != want {
				t.Fatalf("got version %d, want %d", e.Version, want)
			}
		}
		quiet(t, s)
	}
}

// testSlowSubscriber: a subscriber that does not read does not hold up
// Append; when it reads again it finds the gap and catches up with Since.
func testSlowSubscriber(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room := h.room()
	mustCreate(t, h.ctx, a, room)
	slow, err := b.Subscribe(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	const n = 300
	ctx, cancel := context.WithTimeout(h.ctx, 20*time.Second)
	defer cancel()
	v := int64(1)
	for range n {
		if v, err = a.Append(ctx, room, v, []byte("s"), []byte("e")); err != nil {
			t.Fatalf("Append held up by a slow subscriber: %v", err)
		}
	}
	// Catch up as a client does: apply entries in order, fill gaps from
	// Since.
	have := int64(1)
	deadline := time.After(5 * time.Second)
	for have < v {
		select {
		case e, ok := <-slow.C():
			if !ok {
				t.Fatal("subscription ended")
			}
			switch {
			case e.Version <= have:
				continue
			case e.Version > have+1:
				missed, err := b.Since(h.ctx, room, have)
				if err != nil {
					t.Fatal(err)
				}
				have = missed[len(missed)-1].Version
			default:
				have = e.Version
			}
		case <-time.After(200 * time.Millisecond):
			// The last entries may have been dropped: nothing comes to
			// show the gap, so check the head.
			missed, err := b.Since(h.ctx, room, have)
			if err != nil {
				t.Fatal(err)
			}
			if len(missed) > 0 {
				have = missed[len(missed)-1].Version
			}
		case <-deadline:
			t.Fatalf("caught up to %d of %d", have, v)
		}
	}
}

func testExpire(t *testing.T, h *harness) {
	s := h.store(t)
	room, gone := h.room(), h.room()
	mustCreate(t, h.ctx, s, room)
	mustCreate(t, h.ctx, s, gone)
	if err := s.Expire(h.ctx, gone, 0); err != nil {
		t.Fatalf("Expire(0) = %v", err)
	}
	if _, err := s.Load(h.ctx, gone); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Load after Expire(0) = %v, want ErrNotFound", err)
	}
	mustAppend(t, h.ctx, s, room, 1, "a")
	if err := s.Expire(h.ctx, room, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	h.advance(t, 200*time.Millisecond)
	if _, err := s.Load(h.ctx, room); err != nil {
		t.Fatalf("Load before the TTL = %v", err)
	}
	h.advance(t, 500*time.Millisecond)
	if _, err := s.Load(h.ctx, room); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Load after the TTL = %v, want ErrNotFound", err)
	}
	if _, err := s.Since(h.ctx, room, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Since after the TTL = %v, want ErrNotFound", err)
	}
	// The code can be used again, from scratch.
	mustCreate(t, h.ctx, s, room)
	if entries, err := s.Since(h.ctx, room, 0); err != nil || len(entries) != 1 {
		t.Fatalf("Since(0) of the new room = %v %v, want its first event only", entries, err)
	}
	if _, err := s.Since(h.ctx, room, 2); !errors.Is(err, store.ErrTooOld) {
		t.Fatalf("Since(2) of the new room = %v, want ErrTooOld", err)
	}
}

// keptByAppend runs the timeline of the TTL tests on room, which is at
// version 1: Expire gives it 600ms, and an Append at 400ms keeps it until
// 1000ms (Append refreshes to the Expire duration). check is called at
// 800ms with kept true, and at 1200ms with kept false.
func keptByAppend(t *testing.T, h *harness, s store.Store, room string, check func(kept bool)) {
	t.Helper()
	if err := s.Expire(h.ctx, room, 600*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	h.advance(t, 400*time.Millisecond)
	mustAppend(t, h.ctx, s, room, 1, "a") // kept until 1000ms
	h.advance(t, 400*time.Millisecond)
	check(true)
	h.advance(t, 400*time.Millisecond)
	check(false)
}

func testAppendRefreshesTTL(t *testing.T, h *harness) {
	s := h.store(t)
	room := h.room()
	mustCreate(t, h.ctx, s, room)
	keptByAppend(t, h, s, room, func(kept bool) {
		_, err := s.Load(h.ctx, room)
		switch {
		case kept && err != nil:
			t.Fatalf("Load after Append refreshed the TTL = %v", err)
		case !kept && !errors.Is(err, store.ErrNotFound):
			t.Fatalf("Load after the refreshed TTL = %v, want ErrNotFound (Append refreshes to the Expire duration)", err)
		}
	})
}

func listed(t *testing.T, ctx context.Context, s store.Store, limit int) []string {
	t.Helper()
	ls, err := s.Listings(ctx, limit)
	if err != nil {
		t.Fatalf("Listings = %v", err)
	}
	var out []string
	for _, l := range ls {
		out = append(out, l.Room+"="+string(l.Data))
	}
	return out
}

func testListings(t *testing.T, h *harness) {
	a, b := h.pair(t)
	r1, r2, r3 := h.room(), h.room(), h.room()
	for _, r := range []string{r1, r2, r3} {
		mustCreate(t, h.ctx, a, r)
	}
	steps := []struct {
		name  string
		room  string
		data  []byte
		limit int
		want  []string
	}{
		{"empty", "", nil, 10, nil},
		{"show 1", r1, []byte("one"), 10, []string{r1 + "=one"}},
		{"show 3", r3, []byte("three"), 10, []string{r3 + "=three", r1 + "=one"}},
		{"show 2", r2, []byte("two"), 10, []string{r2 + "=two", r3 + "=three", r1 + "=one"}},
		{"update 1 keeps its place", r1, []byte("ONE"), 10, []string{r2 + "=two", r3 + "=three", r1 + "=ONE"}},
		{"limit", "", nil, 2, []string{r2 + "=two", r3 + "=three"}},
		{"hide 3", r3, nil, 10, []string{r2 + "=two", r1 + "=ONE"}},
		{"hide 3 again", r3, nil, 10, []string{r2 + "=two", r1 + "=ONE"}},
	}
	for i, st := range steps {
		if st.room != "" {
			// Alternate instances: the listing is shared.
			s := a
			if i%2 == 1 {
				s = b
			}
			if err := s.SetListing(h.ctx, st.room, st.data); err != nil {
				t.Fatalf("%s: SetListing = %v", st.name, err)
			}
			time.Sleep(2 * time.Millisecond) // distinct listing times
		}
		if got := listed(t, h.ctx, b, st.limit); !slices.Equal(got, st.want) {
			t.Fatalf("%s: Listings(%d) = %q, want %q", st.name, st.limit, got, st.want)
		}
	}
	if err := a.Expire(h.ctx, r1, 0); err != nil {
		t.Fatal(err)
	}
	if got, want := listed(t, h.ctx, b, 10), []string{r2 + "=two"}; !slices.Equal(got, want) {
		t.Fatalf("after removing %s: Listings = %q, want %q", r1, got, want)
	}
}

// testListingsSpam: 210 rooms listed (a spammer's), then a real one: the
// lobby's first 200 show the real one; and once the spam rooms expire,
// they are gone from the listing.
func testListingsSpam(t *testing.T, h *harness) {
	s := h.store(t)
	var spam []string
	for range 210 {
		r := h.room()
		spam = append(spam, r)
		mustCreate(t, h.ctx, s, r)
		if err := s.SetListing(h.ctx, r, []byte("spam")); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2 * time.Millisecond) // a later listing time
	real := h.room()
	mustCreate(t, h.ctx, s, real)
	if err := s.SetListing(h.ctx, real, []byte("real")); err != nil {
		t.Fatal(err)
	}
	got := listed(t, h.ctx, s, 200)
	if len(got) != 200 || got[0] != real+"=real" {
		t.Fatalf("Listings(200) after 210 spam rooms: %d rooms, first %q, want 200 with %s first", len(got), got[:min(1, len(got))], real)
	}
	for _, r := range spam {
		if err := s.Expire(h.ctx, r, 100*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	h.advance(t, 300*time.Millisecond)
	if got, want := listed(t, h.ctx, s, 200), []string{real + "=real"}; !slices.Equal(got, want) {
		t.Fatalf("after the spam rooms expired: Listings = %d rooms (%.3q), want %q", len(got), got[:min(3, len(got))], want)
	}
}

func testListingsExpire(t *testing.T, h *harness) {
	s := h.store(t)
	short, long := h.room(), h.room()
	mustCreate(t, h.ctx, s, short)
	mustCreate(t, h.ctx, s, long)
	if err := s.Expire(h.ctx, short, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{short, long} {
		if err := s.SetListing(h.ctx, r, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if got := listed(t, h.ctx, s, 10); len(got) != 2 {
		t.Fatalf("Listings = %q, want both rooms", got)
	}
	h.advance(t, 500*time.Millisecond)
	if got, want := listed(t, h.ctx, s, 1), []string{long + "=x"}; !slices.Equal(got, want) {
		t.Fatalf("after %s expired: Listings(1) = %q, want %q", short, got, want)
	}
}

func testPair(t *testing.T, h *harness) {
	a, b := h.pair(t)
	key, other := "k"+h.room(), "k"+h.room()
	type result struct {
		partner string
		ok      bool
	}
	steps := []struct {
		op     string // "pair" or "unpair"
		s      store.Store
		key    string
		ticket string
		want   result
	}{
		{"pair", a, key, "A", result{"", false}},
		{"pair", a, key, "A", result{"", false}}, // already waiting
		{"pair", b, other, "X", result{"", false}},
		{"pair", b, key, "B", result{"A", true}},
		{"pair", b, key, "C", result{"", false}},
		{"unpair", a, key, "C", result{"", true}},
		{"unpair", a, key, "C", result{"", false}},
		{"pair", a, key, "D", result{"", false}},
		{"pair", a, key, "E", result{"D", true}},
		{"unpair", b, key, "D", result{"", false}},
		{"pair", a, other, "Y", result{"X", true}},
	}
	for i, st := range steps {
		var got result
		var err error
		if st.op == "pair" {
			got.partner, got.ok, err = st.s.Pair(h.ctx, st.key, st.ticket)
		} else {
			got.ok, err = st.s.Unpair(h.ctx, st.key, st.ticket)
		}
		if err != nil || got != st.want {
			t.Fatalf("step %d: %s(%s, %s) = %v %v, want %v", i, st.op, st.key, st.ticket, got, err, st.want)
		}
	}
}

// testPairConcurrent: 2n players from two instances; everyone is paired
// exactly once.
func testPairConcurrent(t *testing.T, h *harness) {
	a, b := h.pair(t)
	key := "k" + h.room()
	const n = 20
	partners := make([]string, 2*n)
	var wg sync.WaitGroup
	errc := make(chan error, 2*n)
	for i := range 2 * n {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			p, ok, err := s.Pair(h.ctx, key, fmt.Sprint(i))
			if err != nil {
				errc <- err
			}
			if ok {
				partners[i] = p
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	paired := map[string]int{}
	pairs := 0
	for i, p := range partners {
		if p == "" {
			continue
		}
		pairs++
		paired[fmt.Sprint(i)]++
		paired[p]++
	}
	if pairs != n {
		t.Fatalf("%d pairs, want %d", pairs, n)
	}
	for i := range 2 * n {
		if c := paired[fmt.Sprint(i)]; c != 1 {
			t.Errorf("player %d paired %d times", i, c)
		}
	}
	for i := range 2 * n {
		if ok, err := a.Unpair(h.ctx, key, fmt.Sprint(i)); ok || err != nil {
			t.Errorf("Unpair(%d) = %v %v, want false: nobody should be left waiting", i, ok, err)
		}
	}
}

func testNotifyListen(t *testing.T, h *harness) {
	a, b := h.pair(t)
	topic, other := "t"+h.room(), "t"+h.room()
	la, err := a.Listen(h.ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	defer la.Close()
	lb, err := b.Listen(h.ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	lo, err := a.Listen(h.ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	defer lo.Close()
	msgs := [][]byte{[]byte("hello"), {}, {0, ':', 0xff}}
	for _, m := range msgs {
		if err := b.Notify(h.ctx, topic, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []store.Subscription{la, lb} {
		for _, m := range msgs {
			if e := next(t, l); e.Version != 0 || !bytes.Equal(e.Data, m) {
				t.Fatalf("Listen got %d %q, want 0 %q", e.Version, e.Data, m)
			}
		}
	}
	quiet(t, lo)
	if err := a.Notify(h.ctx, "t"+h.room(), []byte("nobody listens")); err != nil {
		t.Fatalf("Notify without listeners = %v", err)
	}
}

// testNotifyRoom: a room's notice reaches its subscribers on every
// instance among its events, as version 0, in order with them, and is
// not stored; another room's subscribers and a topic's listeners do not
// get it.
func testNotifyRoom(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room, other := h.room(), h.room()
	mustCreate(t, h.ctx, a, room)
	mustCreate(t, h.ctx, a, other)
	var subs []store.Subscription
	for _, s := range []store.Store{a, b} {
		sub, err := s.Subscribe(h.ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		subs = append(subs, sub)
	}
	so, err := a.Subscribe(h.ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	defer so.Close()
	lt, err := a.Listen(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer lt.Close()
	msgs := [][]byte{[]byte("gg"), {}, {0, ':', 0xff}}
	for _, m := range msgs {
		if err := b.NotifyRoom(h.ctx, room, m); err != nil {
			t.Fatal(err)
		}
	}
	v := mustAppend(t, h.ctx, b, room, 1, "ev2")
	for _, sub := range subs {
		for _, m := range msgs {
			if e := next(t, sub); e.Version != 0 || !bytes.Equal(e.Data, m) {
				t.Fatalf("subscriber got %d %q, want 0 %q", e.Version, e.Data, m)
			}
		}
		if e := next(t, sub); e.Version != v || string(e.Data) != "ev2" {
			t.Fatalf("subscriber got %d %q after the notices, want %d ev2", e.Version, e.Data, v)
		}
	}
	quiet(t, so)
	quiet(t, lt)
	entries, err := a.Since(h.ctx, room, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Version != 1 || entries[1].Version != v {
		t.Fatalf("Since = %v, want the two events alone", entries)
	}
	if err := a.NotifyRoom(h.ctx, h.room(), []byte("nobody listens")); err != nil {
		t.Fatalf("NotifyRoom without subscribers = %v", err)
	}
}

func testSubscriptionEnds(t *testing.T, h *harness) {
	a, b := h.pair(t)
	room := h.room()
	mustCreate(t, h.ctx, a, room)

	closed, err := a.Subscribe(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(h.ctx)
	canceled, err := a.Subscribe(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := a.Subscribe(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	listener, err := a.Listen(ctx, "t"+room)
	if err != nil {
		t.Fatal(err)
	}

	if err := closed.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	if err := closed.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	ended(t, closed)
	cancel()
	ended(t, canceled)
	ended(t, listener)

	// The remaining subscriber of the room still gets entries.
	v := mustAppend(t, h.ctx, b, room, 1, "after")
	if e := next(t, kept); e.Version != v {
		t.Fatalf("kept subscriber got %d, want %d", e.Version, v)
	}
}

func testCloseEndsSubscriptions(t *testing.T, h *harness) {
	a, b := h.pair(t)
	s := h.store(t) // closed below; a and b go on
	room := h.room()
	mustCreate(t, h.ctx, a, room)
	if !h.b.Shared {
		// s is its own backend: give it the room too.
		mustCreate(t, h.ctx, s, room)
	}
	sub, err := s.Subscribe(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Listen(h.ctx, "t"+room)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	ended(t, sub)
	ended(t, l)
	if err := s.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	if err := sub.Close(); err != nil {
		t.Fatalf("Subscription.Close after the store closed = %v", err)
	}
	if _, err := s.Subscribe(h.ctx, room); err == nil {
		t.Fatal("Subscribe on a closed store succeeded")
	}
	// Other instances are not affected.
	other, err := b.Subscribe(h.ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	v := mustAppend(t, h.ctx, a, room, 1, "x")
	if e := next(t, other); e.Version != v {
		t.Fatalf("got %d, want %d", e.Version, v)
	}
}

func testPing(t *testing.T, h *harness) {
	s := h.store(t)
	if err := s.Ping(h.ctx); err != nil {
		t.Fatalf("Ping = %v", err)
	}
}
