package server_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store"
)

// openBotRoom has the host Ana open a private stroke room (two seats, two
// holes) on the instance in, seat a bot of the level there, and connect
// to hostURL; it returns once Ana sees the bot's seat ready.
func openBotRoom(t *testing.T, ctx context.Context, in *instance, hostURL, level string) (g protocol.SeatGrant, seat int, name string, host *seatPlayer) {
	t.Helper()
	g, err := in.api.CreateRoom(ctx, stroke(2, 2, map[string]any{"public": false}), "Ana")
	if err != nil {
		t.Fatal(err)
	}
	seat, name, err = in.api.AddBot(ctx, g.Code, g.Token, level)
	if err != nil {
		t.Fatal(err)
	}
	host = newSeatPlayer("Ana", dial(t, ctx, hostURL, g.Code, g.Token))
	if _, err := host.c.WaitView(ctx, func(v *match.View) bool { return len(v.Seats) == 2 && v.Seats[seat].Ready }); err != nil {
		t.Fatal(err)
	}
	return g, seat, name, host
}

// botMovesAfter counts the move events of the seat in the room's log after
// version v, by hole.
func botMovesAfter(t *testing.T, cl *cluster, code string, seat int, v int64) map[int]int {
	t.Helper()
	out := map[int]int{}
	for i, l := range cl.log(t, code) {
		if int64(i+1) > v && l.Kind == match.KindMove && l.Seat == seat {
			out[l.Hole]++
		}
	}
	return out
}

// checkBotPlayedOut checks the finished room: the bot still has its seat
// (no other player or bot joined in its place) and played every hole to
// its end, none scored as it stood because it was away or out of time.
func checkBotPlayedOut(t *testing.T, cl *cluster, code string, seat int, name string) {
	t.Helper()
	room := cl.room(t, code)
	if room.Status != match.Finished {
		t.Fatalf("the room is %s, not finished", room.Status)
	}
	if len(room.Seats) != 2 || !room.Seats[seat].Bot || room.Seats[seat].Name != name {
		t.Fatalf("seats %+v: seat %d should be %s", room.Seats, seat, name)
	}
	joins := 0
	for _, l := range cl.log(t, code) {
		if l.Kind == match.KindJoin {
			joins++
		}
	}
	if joins != 2 {
		t.Errorf("%d joins in the log, want 2 (the host and the bot, once)", joins)
	}
	for _, h := range room.Holes {
		g := h.Games[seat]
		if !g.Done || len(g.Moves) == 0 || g.End == match.EndAway || g.End == match.EndClock {
			t.Errorf("hole %d: the bot's game %+v should be played to its end", h.Number, g)
		}
	}
}

// checkBotTokenHidden checks that the seat token of the room's bot, which
// the store keeps, shows in nothing a client gets: not in the frames rec
// recorded, nor in the room's API answers (the room, its records, the
// lobby); and that the room's snapshot holds only its hash.
func checkBotTokenHidden(t *testing.T, ctx context.Context, e *env, code string, rec *recorder) {
	t.Helper()
	bots, err := e.st.DueBots(ctx, time.Now().Add(24*time.Hour), 100) // every record, running or not
	if err != nil {
		t.Fatal(err)
	}
	var token string
	for _, b := range bots {
		var r struct{ Token string }
		if b.Room == code && json.Unmarshal(b.Data, &r) == nil {
			token = r.Token
		}
	}
	if token == "" {
		t.Fatalf("no bot record with a token for %s in the store: %q", code, bots)
	}
	sum := sha256.Sum256([]byte(token))
	hash := hex.EncodeToString(sum[:])
	if snap := e.snapshot(t, code); !bytes.Contains(snap, []byte(hash)) || bytes.Contains(snap, []byte(token)) {
		t.Errorf("the room's snapshot should hold the bot token's hash and not the token")
	}
	frames := rec.messages()
	if len(frames) == 0 {
		t.Fatal("no frames recorded")
	}
	for _, path := range []string{"/api/rooms/" + code, "/api/rooms/" + code + "/records", "/api/rooms"} {
		var raw json.RawMessage
		if _, err := e.api.Call(ctx, http.MethodGet, path, nil, &raw); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		frames = append(frames, raw)
	}
	for _, f := range frames {
		for _, secret := range []string{token, hash} {
			if bytes.Contains(f, []byte(secret)) {
				t.Fatalf("a frame or API answer holds the bot's seat token (or its hash): %.300s", f)
			}
		}
	}
}

// TestBotSurvivesInstanceStop: a host on instance A adds a bot and starts
// the match; A stops in the middle of the bot's first hole. The bot
// resumes on instance B well before its lease (the default 10 s) could
// lapse, since A released it, plays on from the middle of the hole, and
// the match finishes with the bot in its seat.
func TestBotSurvivesInstanceStop(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		// The bots' pace: slow enough that the bot is still in its first
		// hole (some 40 moves) when A has stopped, however long that takes
		// on a loaded machine. A releases the bot as it starts to stop, and
		// B resumes it while A's connections drain: at 30 ms a move, busy
		// runs saw B finish the hole before A's stop returned.
		slow := func(o *server.Options) {
			o.BotThink = 150 * time.Millisecond
			o.BotSweepEvery = 100 * time.Millisecond
		}
		a := startInstance(t, cl.store(t), cl.own, slow)
		b := startInstance(t, cl.store(t), cl.own, slow)
		g, seat, name, host := openBotRoom(t, ctx, a, a.url, "greedy")
		if err := host.c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 10*time.Second, "the bot's first moves on A", func() bool { return host.w.movesSeen(seat, 1) >= 3 })
		if na, nb := a.srv.RunningBots(), b.srv.RunningBots(); na != 1 || nb != 0 {
			t.Fatalf("bots running on A and B: %d and %d, want 1 and 0", na, nb)
		}

		a.stop(t)
		stopped := time.Now()
		atStop := cl.room(t, g.Code)
		game := atStop.Holes[0].Games[seat]
		if atStop.Status != match.Playing || len(atStop.Holes) != 1 || game.Done || len(game.Moves) == 0 {
			t.Fatalf("A stopped with the room %s at hole %d, the bot's game %+v: want the middle of its first hole",
				atStop.Status, len(atStop.Holes), game)
		}
		host.reconnect(t, ctx, b.url, g.Code, g.Token)
		waitFor(t, 5*time.Second, "the bot to resume on B", func() bool { return b.srv.RunningBots() == 1 })
		t.Logf("the bot resumed on B %v after A stopped, at its move %d of hole 1", time.Since(stopped).Round(time.Millisecond), len(game.Moves))

		if err := host.playOut(ctx); err != nil {
			t.Fatal(err)
		}
		waitFinished(t, ctx, "Ana", host.c)
		after := botMovesAfter(t, cl, g.Code, seat, atStop.Version)
		if after[1] == 0 || after[2] == 0 {
			t.Errorf("bot moves after A stopped, by hole: %v; want some in hole 1 (resumed mid-hole) and in hole 2", after)
		}
		checkBotPlayedOut(t, cl, g.Code, seat, name)
		if n := len(cl.room(t, g.Code).Holes[0].Games[seat].Moves); n != len(game.Moves)+after[1] {
			t.Errorf("the bot has %d moves in hole 1: %d before the stop and %d after", n, len(game.Moves), after[1])
		}
	})
}

// leaseFails is a store whose lease operations fail while fail is set, as
// when an instance is cut off from the store's leases.
type leaseFails struct {
	store.Store
	fail atomic.Bool
	// lapsed counts the renewals, while not cut off, that did not renew
	// (an error, or the lease already gone): on a loaded machine a renewal
	// can be late past the lease's end, and the other instance's takeover
	// is then what the product must do.
	lapsed atomic.Int64
}

var errLeaseCut = fmt.Errorf("test: leases cut off: %w", store.ErrUnavailable)

func (s *leaseFails) TakeLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if s.fail.Load() {
		return false, errLeaseCut
	}
	return s.Store.TakeLease(ctx, key, owner, ttl)
}

func (s *leaseFails) RenewLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if s.fail.Load() {
		return false, errLeaseCut
	}
	ok, err := s.Store.RenewLease(ctx, key, owner, ttl)
	if !ok || err != nil {
		s.lapsed.Add(1)
	}
	return ok, err
}

func (s *leaseFails) ReleaseLease(ctx context.Context, key, owner string) error {
	if s.fail.Load() {
		return errLeaseCut
	}
	return s.Store.ReleaseLease(ctx, key, owner)
}

// runningMonitor samples how many instances run the bot, every
// millisecond, and remembers any moment when more than one did.
type runningMonitor struct {
	mu      sync.Mutex
	both    int  // samples with the bot running on both instances
	aRan    bool // on A since the last reset
	bRan    bool // on B since the last reset
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

func monitorBots(a, b *instance) *runningMonitor {
	m := &runningMonitor{stop: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(m.stopped)
		for {
			na, nb := a.srv.RunningBots(), b.srv.RunningBots()
			m.mu.Lock()
			if na+nb > 1 {
				m.both++
			}
			m.aRan = m.aRan || na > 0
			m.bRan = m.bRan || nb > 0
			m.mu.Unlock()
			select {
			case <-m.stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return m
}

// reset starts a new phase and returns what ran in the last one.
func (m *runningMonitor) reset() (aRan, bRan bool, both int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	aRan, bRan, both = m.aRan, m.bRan, m.both
	m.aRan, m.bRan = false, false
	return aRan, bRan, both
}

// close stops the sampling (it may be called again).
func (m *runningMonitor) close() {
	m.once.Do(func() { close(m.stop) })
	<-m.stopped
}

// TestBotLeaseOneRunner: of two instances sweeping every 20 ms with a lease
// of 3 s, only the one holding the lease runs the bot. When A can no
// longer renew it (its leases cut off), A stops its bot before the lease
// lapses and B takes over only after; once A's leases work again, A does
// not take the bot back. The bot, taken over mid-hole without its lease
// being released, still plays the match to the end.
func TestBotLeaseOneRunner(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		// Generous enough that a loaded CI box (the whole suite under
		// -race) never stalls a renewal for half of it (1.5 s was not,
		// at a load average of 15).
		const lease = 3 * time.Second
		opts := func(o *server.Options) {
			o.BotThink = 40 * time.Millisecond
			o.BotLease = lease
			o.BotSweepEvery = 20 * time.Millisecond
		}
		// The instances' logs are printed if the test fails: they say why a
		// bot stopped where it ran (a bot that stops for any reason lets its
		// lease go and is due at once, for the other instance to resume).
		logs := failureLogs(t)
		sa, sb := &leaseFails{Store: cl.store(t)}, &leaseFails{Store: cl.store(t)}
		a := startInstance(t, sa, cl.own, opts, func(o *server.Options) { o.Logger = logs.With("instance", "A") })
		b := startInstance(t, sb, cl.own, opts, func(o *server.Options) { o.Logger = logs.With("instance", "B") })
		// The host plays on B, so B has the room loaded throughout.
		g, seat, name, host := openBotRoom(t, ctx, a, b.url, "random")
		m := monitorBots(a, b)
		defer m.close()
		if err := host.c.Start(ctx); err != nil {
			t.Fatal(err)
		}

		// Half a lease past the first one's end: A renews its lease (every
		// third of it, so four times by then); B's sweeps (every 20 ms) find
		// it held, where without A's renewals B would have run the bot for
		// the last half lease.
		time.Sleep(3 * lease / 2)
		if aRan, bRan, _ := m.reset(); !aRan || bRan || b.srv.RunningBots() != 0 {
			if n := sa.lapsed.Load(); n == 0 {
				t.Fatalf("with A holding the lease: the bot ran on A %v, on B %v; want only on A", aRan, bRan)
			} else {
				t.Logf("A's lease lapsed (%d renewals late or refused on this loaded machine), so B's takeover was due", n)
			}
		}

		sa.fail.Store(true)
		cut := time.Now()
		waitFor(t, time.Minute, "B to take the bot over", func() bool { return a.srv.RunningBots() == 0 && b.srv.RunningBots() == 1 })
		took := time.Since(cut)
		atTakeover := cl.room(t, g.Code)
		t.Logf("B took the bot over %v after A's leases were cut off (lease %v)", took.Round(time.Millisecond), lease)
		m.reset()

		sa.fail.Store(false)
		lapsedB := sb.lapsed.Load()
		time.Sleep(3 * lease / 2) // A sweeps again, and finds B's lease held
		if aRan, bRan, _ := m.reset(); aRan || !bRan {
			if n := sb.lapsed.Load() - lapsedB; n == 0 {
				t.Fatalf("after A's leases work again: the bot ran on A %v, on B %v; want only on B", aRan, bRan)
			} else {
				t.Logf("B's lease lapsed (%d renewals late or refused on this loaded machine), so A's takeover was due", n)
			}
		}

		if err := host.playOut(ctx); err != nil {
			t.Fatal(err)
		}
		waitFinished(t, ctx, "Ana", host.c)
		m.close()
		if _, _, both := m.reset(); both > 0 {
			t.Errorf("the bot ran on both instances at once in %d samples", both)
		}
		after := botMovesAfter(t, cl, g.Code, seat, atTakeover.Version)
		if after[1]+after[2] == 0 {
			t.Error("the bot made no move after B took it over")
		}
		checkBotPlayedOut(t, cl, g.Code, seat, name)
	})
}

// failureLogs returns a logger whose lines are kept and printed only if
// t fails (after the instances started later have stopped: cleanups run
// last first). Lines logged after that are dropped with the buffer.
func failureLogs(t *testing.T) *slog.Logger {
	var mu sync.Mutex
	var buf bytes.Buffer
	t.Cleanup(func() {
		if t.Failed() {
			mu.Lock()
			defer mu.Unlock()
			t.Logf("the instances' logs:\n%s", buf.String())
		}
	})
	return slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestAddBotIgnoresHostHeader: a bot reaches its server in memory, never
// through the request's Host header (which the client chooses: it could
// send the bot, and its seat's token, to any host).
func TestAddBotIgnoresHostHeader(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := testCtx(t)
	grants := e.create(t, ctx, map[string]any{"format": "match", "holes": 1, "public": false}, "Ana")
	code := grants[0].Code
	body, _ := json.Marshal(map[string]string{"token": grants[0].Token, "level": "random"})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.ts+"/api/rooms/"+code+"/bots", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Host = "203.0.113.9:1" // a documentation address: nothing answers there
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("add bot: %s", resp.Status)
	}
	c := dial(t, ctx, e.ts, code, grants[0].Token)
	if _, err := c.WaitView(ctx, func(v *match.View) bool { return len(v.Seats) == 2 && v.Seats[1].Ready }); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// The bot moves, so it reached the server. Ana sees that it moved (an
	// event of seat 1), not what: she has turned no card, so the bot's
	// settled board is still the deal.
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		select {
		case m, ok := <-c.Updates():
			if !ok {
				t.Fatalf("connection closed: %v", c.Err())
			}
			if m.Event != nil && m.Event.Kind == match.KindMove && m.Event.Seat == 1 {
				return
			}
		case <-wctx.Done():
			t.Fatal("the bot never moved")
		}
	}
}
