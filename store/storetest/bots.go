package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/store"
)

// botsOf returns the bots due within the hour (every bot not delayed) as
// "room/id=data", sorted.
func botsOf(t *testing.T, h *harness, s store.Store, limit int) []string {
	t.Helper()
	bots, err := s.DueBots(h.ctx, later(h, time.Hour), limit)
	if err != nil {
		t.Fatalf("Bots = %v", err)
	}
	out := []string{}
	for _, b := range bots {
		out = append(out, b.Room+"/"+b.ID+"="+string(b.Data))
	}
	slices.Sort(out)
	return out
}

// later is d after both the suite's clock and the real one (Redis keeps
// its own time).
func later(h *harness, d time.Duration) time.Time {
	now := time.Now()
	if c := h.clock(); c.After(now) {
		now = c
	}
	return now.Add(d)
}

// dueOf returns the bots due at or before until as "room/id", in order.
func dueOf(t *testing.T, h *harness, s store.Store, until time.Time, limit int) []string {
	t.Helper()
	bots, err := s.DueBots(h.ctx, until, limit)
	if err != nil {
		t.Fatalf("DueBots = %v", err)
	}
	out := []string{}
	for _, b := range bots {
		out = append(out, b.Room+"/"+b.ID)
	}
	return out
}

// testBotsDue: a new record is due at once; DelayBot moves it, soonest
// first; a delay is seen by every instance, leaves forgotten bots
// forgotten and a zero time makes a bot due again.
func testBotsDue(t *testing.T, h *harness) {
	a, b := h.pair(t)
	r1, r2 := h.room(), h.room()
	mustCreate(t, h.ctx, a, r1)
	mustCreate(t, h.ctx, a, r2)
	for _, x := range []struct{ room, id string }{{r1, "x"}, {r1, "y"}, {r2, "z"}} {
		if err := a.SetBot(h.ctx, x.room, x.id, []byte("d")); err != nil {
			t.Fatal(err)
		}
	}
	soon := later(h, time.Second)
	if got, want := dueOf(t, h, b, soon, 10), 3; len(got) != want {
		t.Fatalf("new bots due = %q, want %d of them", got, want)
	}
	base := later(h, time.Hour)
	delays := map[string]time.Duration{r1 + "/x": 3 * time.Minute, r1 + "/y": time.Minute, r2 + "/z": 2 * time.Minute}
	for k, d := range delays {
		room, id, _ := strings.Cut(k, "/")
		if err := b.DelayBot(h.ctx, room, id, base.Add(d)); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		until time.Time
		limit int
		want  []string
	}{
		{soon, 10, []string{}},
		{base, 10, []string{}},
		{base.Add(time.Minute), 10, []string{r1 + "/y"}},
		{base.Add(2*time.Minute - time.Millisecond), 10, []string{r1 + "/y"}},
		{base.Add(2 * time.Minute), 10, []string{r1 + "/y", r2 + "/z"}},
		{base.Add(time.Hour), 10, []string{r1 + "/y", r2 + "/z", r1 + "/x"}},
		{base.Add(time.Hour), 2, []string{r1 + "/y", r2 + "/z"}},
		{base.Add(time.Hour), 0, []string{}},
	}
	for _, st := range steps {
		if got := dueOf(t, h, a, st.until, st.limit); !slices.Equal(got, st.want) {
			t.Fatalf("DueBots(+%v, %d) = %q, want %q", st.until.Sub(base), st.limit, got, st.want)
		}
	}
	// Forgotten, then delayed: stays forgotten. Delayed to zero: due now.
	if err := a.SetBot(h.ctx, r1, "y", nil); err != nil {
		t.Fatal(err)
	}
	if err := b.DelayBot(h.ctx, r1, "y", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := b.DelayBot(h.ctx, r2, "z", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := b.DelayBot(h.ctx, h.room(), "nobody", time.Time{}); err != nil {
		t.Fatalf("DelayBot of an unknown room = %v, want nil", err)
	}
	// Due now: until a second from now, not from the test's start (on a
	// loaded machine the steps above took longer than a second).
	if got, want := dueOf(t, h, a, later(h, time.Second), 10), []string{r2 + "/z"}; !slices.Equal(got, want) {
		t.Fatalf("due after forgetting y and undelaying z = %q, want %q", got, want)
	}
	// Recording a bot again makes it due at once.
	if err := a.SetBot(h.ctx, r1, "x", []byte("again")); err != nil {
		t.Fatal(err)
	}
	if got := dueOf(t, h, b, later(h, time.Second), 10); !slices.Contains(got, r1+"/x") {
		t.Fatalf("due after recording x again = %q, want it there", got)
	}
}

// testBots: records are shared by instances, replaced, forgotten, and go
// away with their room.
func testBots(t *testing.T, h *harness) {
	a, b := h.pair(t)
	r1, r2, missing := h.room(), h.room(), h.room()
	mustCreate(t, h.ctx, a, r1)
	mustCreate(t, h.ctx, a, r2)
	if err := a.SetBot(h.ctx, missing, "x", []byte("d")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetBot of an unknown room = %v, want ErrNotFound", err)
	}
	if err := a.SetBot(h.ctx, missing, "x", nil); err != nil {
		t.Fatalf("forgetting a bot of an unknown room = %v", err)
	}
	if got := botsOf(t, h, b, 10); len(got) != 0 {
		t.Fatalf("Bots of a new store = %q", got)
	}
	binary := string([]byte{0, ':', 0xff})
	steps := []struct {
		name  string
		s     store.Store
		room  string
		id    string
		data  []byte
		limit int
		want  []string
	}{
		{"record 1", a, r1, "b1", []byte("one"), 10, []string{r1 + "/b1=one"}},
		{"record 2, other instance", b, r1, "b2", []byte(binary), 10, []string{r1 + "/b1=one", r1 + "/b2=" + binary}},
		{"record 3, other room", a, r2, "b1", []byte("three"), 10, []string{r1 + "/b1=one", r1 + "/b2=" + binary, r2 + "/b1=three"}},
		{"replace 1", b, r1, "b1", []byte("ONE"), 10, []string{r1 + "/b1=ONE", r1 + "/b2=" + binary, r2 + "/b1=three"}},
		{"forget 2", a, r1, "b2", nil, 10, []string{r1 + "/b1=ONE", r2 + "/b1=three"}},
		{"forget 2 again", b, r1, "b2", nil, 10, []string{r1 + "/b1=ONE", r2 + "/b1=three"}},
		{"limit", nil, "", "", nil, 1, nil},
		{"limit 0", nil, "", "", nil, 0, []string{}},
	}
	for _, st := range steps {
		if st.s != nil {
			if err := st.s.SetBot(h.ctx, st.room, st.id, st.data); err != nil {
				t.Fatalf("%s: SetBot = %v", st.name, err)
			}
		}
		got := botsOf(t, h, b, st.limit)
		if st.want == nil {
			if len(got) != st.limit {
				t.Fatalf("%s: Bots(%d) = %q, want %d of them", st.name, st.limit, got, st.limit)
			}
			continue
		}
		if !slices.Equal(got, st.want) {
			t.Fatalf("%s: Bots(%d) = %q, want %q", st.name, st.limit, got, st.want)
		}
	}
	// Appending keeps the records; removing the room removes them, and a
	// new room with the same code starts with none.
	mustAppend(t, h.ctx, a, r1, 1, "e")
	if err := a.Expire(h.ctx, r2, 0); err != nil {
		t.Fatal(err)
	}
	if got, want := botsOf(t, h, b, 10), []string{r1 + "/b1=ONE"}; !slices.Equal(got, want) {
		t.Fatalf("after removing %s: Bots = %q, want %q", r2, got, want)
	}
	mustCreate(t, h.ctx, b, r2)
	if got, want := botsOf(t, h, a, 10), []string{r1 + "/b1=ONE"}; !slices.Equal(got, want) {
		t.Fatalf("after making %s again: Bots = %q, want %q", r2, got, want)
	}
	if err := a.SetBot(h.ctx, r1, "b1", nil); err != nil {
		t.Fatal(err)
	}
	if got := botsOf(t, h, b, 10); len(got) != 0 {
		t.Fatalf("after forgetting every bot: Bots = %q", got)
	}
	// A room whose last bot was forgotten can record bots again.
	if err := b.SetBot(h.ctx, r1, "b3", []byte("again")); err != nil {
		t.Fatal(err)
	}
	if got, want := botsOf(t, h, a, 10), []string{r1 + "/b3=again"}; !slices.Equal(got, want) {
		t.Fatalf("Bots = %q, want %q", got, want)
	}
}

// testBotsExpireWithRoom: the records live as long as the room, whose
// Appends refresh both.
func testBotsExpireWithRoom(t *testing.T, h *harness) {
	s := h.store(t)
	room, other := h.room(), h.room()
	for _, r := range []string{room, other} {
		mustCreate(t, h.ctx, s, r)
		if err := s.SetBot(h.ctx, r, "b", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	keptByAppend(t, h, s, room, func(kept bool) {
		when, want := "after "+room+" expired", []string{other + "/b=x"}
		if kept {
			when, want = "after Append refreshed the TTL", []string{room + "/b=x", other + "/b=x"}
		}
		if got := botsOf(t, h, s, 10); !slices.Equal(got, want) {
			t.Fatalf("%s: Bots = %q, want %q", when, got, want)
		}
	})
}

// testLease: one holder at a time; only the holder renews or releases.
func testLease(t *testing.T, h *harness) {
	a, b := h.pair(t)
	key, other := "lease"+h.room(), "lease"+h.room()
	const ttl = time.Minute
	type step struct {
		op    string // take, renew, release
		s     store.Store
		key   string
		owner string
		want  bool // for take and renew
	}
	steps := []step{
		{"take", a, key, "A", true},
		{"take", b, key, "B", false},
		{"take", a, key, "A", false}, // held, by the caller too
		{"renew", b, key, "B", false},
		{"renew", a, key, "A", true},
		{"renew", b, key, "A", true}, // the owner, from another instance
		{"release", b, key, "B", false},
		{"take", b, key, "B", false}, // B's release left A's lease alone
		{"take", a, other, "B", true},
		{"release", b, key, "A", false},
		{"renew", a, key, "A", false},
		{"take", b, key, "B", true},
		{"release", a, key, "A", false},
		{"renew", b, key, "B", true},
		{"take", a, other, "A", false},
	}
	for i, st := range steps {
		var got bool
		var err error
		switch st.op {
		case "take":
			got, err = st.s.TakeLease(h.ctx, st.key, st.owner, ttl)
		case "renew":
			got, err = st.s.RenewLease(h.ctx, st.key, st.owner, ttl)
		case "release":
			err = st.s.ReleaseLease(h.ctx, st.key, st.owner)
		}
		if err != nil || got != st.want {
			t.Fatalf("step %d: %s(%s, %s) = %v %v, want %v", i, st.op, st.key, st.owner, got, err, st.want)
		}
	}
}

// testLeaseExpiry: a lease ends at its time to live unless renewed; once
// expired its owner cannot renew it, and anyone may take it.
func testLeaseExpiry(t *testing.T, h *harness) {
	a, b := h.pair(t)
	key := "lease" + h.room()
	// On a real clock the steps are five times longer, so that a stall of
	// the test process (a loaded CI box: 200 ms happened) between a step
	// and the call after it cannot cross the TTL by itself.
	unit := 100 * time.Millisecond
	if h.b.Advance == nil {
		unit = 500 * time.Millisecond
	}
	ttl := 5 * unit
	check := func(what string, got bool, err error, want bool) {
		t.Helper()
		if err != nil || got != want {
			t.Fatalf("%s = %v %v, want %v", what, got, err, want)
		}
	}
	ok, err := a.TakeLease(h.ctx, key, "A", ttl)
	check("take", ok, err, true)
	h.advance(t, 3*unit)
	ok, err = b.TakeLease(h.ctx, key, "B", ttl)
	check("take by B before the TTL", ok, err, false)
	ok, err = a.RenewLease(h.ctx, key, "A", ttl) // until 8 units
	check("renew", ok, err, true)
	h.advance(t, 3*unit)
	ok, err = b.TakeLease(h.ctx, key, "B", ttl)
	check("take by B after the first TTL, renewed", ok, err, false)
	h.advance(t, 3*unit)
	ok, err = a.RenewLease(h.ctx, key, "A", ttl)
	check("renew after the TTL", ok, err, false)
	ok, err = b.TakeLease(h.ctx, key, "B", ttl)
	check("take by B after the TTL", ok, err, true)
	ok, err = a.RenewLease(h.ctx, key, "A", ttl)
	check("renew by A of B's lease", ok, err, false)
}

// testLeaseRaceOneWinner: many owners on two instances take a free lease
// at once; exactly one gets it.
func testLeaseRaceOneWinner(t *testing.T, h *harness) {
	a, b := h.pair(t)
	key := "lease" + h.room()
	const n = 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	var winners []string
	errc := make(chan error, n)
	for i := range n {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			owner := fmt.Sprint("owner", i)
			ok, err := s.TakeLease(h.ctx, key, owner, time.Minute)
			if err != nil {
				errc <- err
				return
			}
			if ok {
				mu.Lock()
				winners = append(winners, owner)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if len(winners) != 1 {
		t.Fatalf("%d owners took the lease (%q), want 1", len(winners), winners)
	}
	// The winner holds it: only the winner renews.
	for i := range n {
		owner := fmt.Sprint("owner", i)
		ok, err := a.RenewLease(h.ctx, key, owner, time.Minute)
		if err != nil || ok != (owner == winners[0]) {
			t.Errorf("RenewLease(%s) = %v %v", owner, ok, err)
		}
	}
}
