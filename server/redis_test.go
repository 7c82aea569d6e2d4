package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"golfsolitaire/client"
	"golfsolitaire/fold"
	"golfsolitaire/internal/contract"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// This file holds what the multi-instance and failure tests share: the
// stores they run on, server instances that can be stopped mid-test, and
// players and watchers that count what they did and saw.

// backend makes the stores of one test's server instances. Every store a
// cluster returns shares the same rooms, as instances on one Redis do.
type backend struct {
	name string
	new  func(t *testing.T) *cluster
}

// backends are the stores the multi-instance tests run on: the memory
// store (one store shared by the instances in this process) and Redis (a
// store of its own per instance, on the Redis at REDIS_URL under a key
// prefix of the test's own, or else on a miniredis of the test's own; and
// the same on the Redis Cluster and the Sentinel master CI starts).
var backends = []backend{
	{"memory", func(t *testing.T) *cluster {
		st := memstore.New(memstore.Options{Replay: fold.Replay})
		t.Cleanup(func() { st.Close() })
		return &cluster{store: func(*testing.T) store.Store { return st }, inspect: st}
	}},
	{"redis", func(t *testing.T) *cluster {
		r := newTestRedis(t)
		return &cluster{store: r.store, inspect: r.store(t), own: true}
	}},
	{"redis-cluster", func(t *testing.T) *cluster {
		r := newTopologyRedis(t, redistest.All[1])
		return &cluster{store: r.store, inspect: r.store(t), own: true}
	}},
	{"redis-sentinel", func(t *testing.T) *cluster {
		r := newTopologyRedis(t, redistest.All[2])
		return &cluster{store: r.store, inspect: r.store(t), own: true}
	}},
}

// cluster gives the stores of a test's instances.
type cluster struct {
	// store returns the store for a new instance.
	store func(t *testing.T) store.Store
	// own is true when each instance has a store of its own, closed when
	// the instance stops (as when its process exits).
	own bool
	// inspect is a store the test reads the rooms with.
	inspect store.Store
}

// eachBackend runs f as a subtest on every backend, all at once. The
// subtests run beside each other in the test's own turn among the
// parallel tests (go test's -parallel): parallel subtests (t.Parallel)
// would each wait for a turn of their own, after every parallel test of
// the package has had one, so that the longest of them (a bot's lease
// changing hands, 13 s) ran alone at the package's end.
func eachBackend(t *testing.T, f func(t *testing.T, cl *cluster)) {
	t.Helper()
	var wg sync.WaitGroup
	for _, b := range backends {
		wg.Go(func() {
			t.Run(b.name, func(t *testing.T) { f(t, b.new(t)) })
		})
	}
	wg.Wait()
}

// log returns the room's whole event log, checking that its versions run
// from 1 without a gap.
func (cl *cluster) log(t *testing.T, code string) []match.Logged {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	entries, err := cl.inspect.Since(ctx, code, 0)
	if err != nil {
		t.Fatalf("since 0: %v", err)
	}
	var out []match.Logged
	for i, e := range entries {
		if e.Version != int64(i+1) {
			t.Fatalf("log entry %d has version %d", i, e.Version)
		}
		l, err := match.DecodeLogged(e.Data)
		if err != nil {
			t.Fatalf("log entry %d: %v", e.Version, err)
		}
		out = append(out, l)
	}
	return out
}

// room returns the room's stored state.
func (cl *cluster) room(t *testing.T, code string) *match.Room {
	t.Helper()
	snap, err := cl.inspect.Load(context.Background(), code)
	if err != nil {
		t.Fatalf("load %s: %v", code, err)
	}
	r, err := match.DecodeRoom(snap.Data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testRedis is the Redis of one test: a topology of package redistest
// with a key prefix of the test's own (its keys deleted at the end), or a
// miniredis of its own.
type testRedis struct {
	cfg    redisstore.ClientConfig
	prefix string
}

// newTestRedis is the single node at REDIS_URL, or else a miniredis.
func newTestRedis(t *testing.T) *testRedis {
	t.Helper()
	if os.Getenv("REDIS_URL") == "" {
		m := miniredis.RunT(t)
		realTime(t, m)
		return &testRedis{cfg: redisstore.ClientConfig{Mode: redisstore.ModeSingle, Addrs: []string{m.Addr()}}, prefix: "golf:"}
	}
	return newTopologyRedis(t, redistest.All[0])
}

// newTopologyRedis is the topology, skipped (loudly) when CI did not start
// it.
func newTopologyRedis(t *testing.T, tp redistest.Topology) *testRedis {
	t.Helper()
	cfg := tp.Config(t)
	return &testRedis{cfg: cfg, prefix: tp.Prefix(t, "server")}
}

// realTime moves the miniredis clock with the real one, so that keys
// expire as they would in Redis (miniredis only ages keys when told to):
// bot leases lapse.
func realTime(t *testing.T, m *miniredis.Miniredis) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				m.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		<-done
	})
}

// store returns a new store with a client of its own, as a server
// instance has; it is closed when the test ends.
func (r *testRedis) store(t *testing.T) store.Store {
	c, _, err := redisstore.NewClient(context.Background(), r.cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := redisstore.New(c, redisstore.Options{Prefix: r.prefix, Replay: fold.Replay})
	t.Cleanup(func() {
		st.Close()
		c.Close()
	})
	return st
}

// instance is one server instance behind its own HTTP server.
type instance struct {
	srv  *server.Server
	ts   *httptest.Server
	api  *client.API
	url  string
	st   store.Store
	own  bool
	once sync.Once
}

// startInstance starts a server over st, listening on an address of its
// own; like every server it resumes the bots of instances that stop.
// Stopping it (at the end of the test at the latest) checks that its hubs
// and connections are gone.
func startInstance(t *testing.T, st store.Store, own bool, mod ...func(*server.Options)) *instance {
	t.Helper()
	in := &instance{st: st, own: own}
	// The listener exists before the server, which needs its address.
	in.ts = httptest.NewUnstartedServer(contract.Tap(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { in.srv.ServeHTTP(w, r) })))
	in.url = "http://" + in.ts.Listener.Addr().String()
	opts := server.Options{
		Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ResyncEvery: 200 * time.Millisecond,
		PlayerRate: limit.Rate{PerSecond: 2000, Burst: 2000},
		SolveNodes: testSolveNodes, RateNodes: testRateNodes,
		Limits: limit.NoLimits(), BotThink: testBotThink, PasswordParams: cheapPasswords,
	}
	for _, f := range mod {
		f(&opts)
	}
	s, err := server.New(opts)
	if err != nil {
		in.ts.Listener.Close()
		t.Fatal(err)
	}
	in.srv = s
	in.ts.Start()
	in.api = &client.API{BaseURL: in.url}
	t.Cleanup(func() { in.stop(t) })
	return in
}

// stop shuts the instance down as a deploy would: the HTTP server first,
// then the server, which closes its WebSockets with 1001; with a store of
// its own, the store too. Then every hub must stop and every connection
// detach.
func (in *instance) stop(t *testing.T) {
	in.once.Do(func() {
		in.ts.Close()
		in.srv.Close()
		deadline := time.Now().Add(5 * time.Second)
		for {
			rooms, conns := instanceMetric(in.srv, "golf_rooms_active"), instanceMetric(in.srv, "golf_connections")
			if rooms == "0" && conns == "0" {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("stopped instance still has %s rooms and %s connections", rooms, conns)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if in.own {
			in.st.Close()
		}
	})
}

// instanceMetric reads a sample of the server's metrics through its
// handler (its HTTP server may be closed).
func instanceMetric(s *server.Server, name string) string {
	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			return f[1]
		}
	}
	return ""
}

// readyz returns the status of GET /readyz.
func (in *instance) readyz(ctx context.Context) int {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, in.url+"/readyz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// seatPlayer plays one seat and counts the moves the server accepted, by
// hole. Only one goroutine uses it.
type seatPlayer struct {
	name  string
	c     *client.Conn
	w     *watcher
	moves map[int]int
	// last is the last move the server accepted, as sent.
	last protocol.ClientMessage
	// retries counts moves sent again after "unavailable" (a slow store).
	retries int
}

func newSeatPlayer(name string, c *client.Conn) *seatPlayer {
	p := &seatPlayer{name: name, c: c, w: newWatcher(name), moves: map[int]int{}}
	p.w.follow(c)
	return p
}

// reconnect dials url with Since = the last version seen, as a client
// that lost its server does, and waits for the room's snapshot.
func (p *seatPlayer) reconnect(t *testing.T, ctx context.Context, url, code, token string) {
	t.Helper()
	<-p.w.idle() // what the old connection received is counted
	c, err := client.Dial(ctx, url, &client.Options{Room: code, Token: token, Since: p.c.Version()})
	if err != nil {
		t.Fatalf("%s: reconnect: %v", p.name, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	p.c = c
	p.w.follow(c)
	if _, err := c.WaitView(ctx, func(*match.View) bool { return true }); err != nil {
		t.Fatalf("%s: no snapshot after reconnecting: %v", p.name, err)
	}
}

// chooseMove is playHole's choice: the first playable pile, else turn the
// stock, else redeal.
func chooseMove(b *match.Board) string {
	switch {
	case len(b.Playable) > 0:
		return itoa(b.Playable[0])
	case b.CanTurn:
		return "s"
	case b.CanRedeal:
		return "r"
	}
	return "s"
}

// board waits for the seat's board of hole h; over is true when the hole
// is over for the seat (done, or the room moved on).
func (p *seatPlayer) board(ctx context.Context, h int) (b *match.Board, over bool, err error) {
	v, err := p.c.WaitView(ctx, func(v *match.View) bool {
		return v.Status == match.Finished || v.Board != nil && v.Board.Hole >= h
	})
	if err != nil {
		return nil, false, fmt.Errorf("%s: waiting for hole %d: %w", p.name, h, err)
	}
	if v.Status != match.Playing || v.Board == nil || v.Board.Hole > h || v.Board.Done {
		return v.Board, true, nil
	}
	return v.Board, false, nil
}

// play plays hole h until it is over for the seat, or max moves when max
// is positive. It reports whether the hole is over for the seat.
func (p *seatPlayer) play(ctx context.Context, h, max int) (bool, error) {
	for n := 0; max <= 0 || n < max; n++ {
		b, over, err := p.board(ctx, h)
		if err != nil || over {
			return over, err
		}
		mv := chooseMove(b)
		msg := moveMsg(p.c.NextSeq(), h, mv)
		_, err = p.c.DoSeq(ctx, msg)
		// "unavailable" asks the client to try again: a real client sends
		// the same command with the same seq, which is applied once.
		for try := 0; client.IsCode(err, protocol.ErrCodeUnavailable) && try < 10; try++ {
			p.retries++
			time.Sleep(50 * time.Millisecond)
			_, err = p.c.DoSeq(ctx, msg)
		}
		if err != nil {
			if client.IsCode(err, protocol.ErrCodeHoleDone) || client.IsCode(err, protocol.ErrCodeWrongHole) ||
				client.IsCode(err, protocol.ErrCodeNotPlaying) {
				return true, nil
			}
			return false, fmt.Errorf("%s: hole %d, move %s: %w", p.name, h, mv, err)
		}
		p.moves[h]++
		p.last = msg
	}
	return false, nil
}

// playOut plays every hole left until the round is finished.
func (p *seatPlayer) playOut(ctx context.Context) error {
	for {
		v, err := p.c.WaitView(ctx, func(v *match.View) bool { return v.Status != match.Waiting && v.Hole > 0 })
		if err != nil {
			return fmt.Errorf("%s: waiting for play: %w", p.name, err)
		}
		if v.Status == match.Finished {
			return nil
		}
		h := v.Hole
		if _, err := p.play(ctx, h, 0); err != nil {
			return err
		}
		if _, err := p.c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished || v.Hole > h }); err != nil {
			return fmt.Errorf("%s: waiting for the hole after %d: %w", p.name, h, err)
		}
	}
}

// watcher drains the Updates of a participant's connections (one after
// the other, across reconnects) and checks that the versions it receives
// follow each other: every event once, in order, none missed.
type watcher struct {
	name string

	mu      sync.Mutex
	last    int64
	errs    []string
	moves   map[[2]int]int // (seat, hole) -> move events received
	notices map[string]int // "holeEnded 2", "roundEnded" -> received
	done    chan struct{}  // closed when the current connection has ended
	// refused are the error replies to commands the test wrote itself
	// (client.Conn.WriteRaw: no DoSeq waits for them), by seq.
	refused map[int64]protocol.ServerMessage
}

func newWatcher(name string) *watcher {
	w := &watcher{name: name, moves: map[[2]int]int{}, notices: map[string]int{}, done: make(chan struct{}), refused: map[int64]protocol.ServerMessage{}}
	close(w.done)
	return w
}

// follow starts draining c, which must be the only connection followed
// now.
func (w *watcher) follow(c *client.Conn) {
	done := make(chan struct{})
	w.mu.Lock()
	w.done = done
	w.mu.Unlock()
	go func() {
		defer close(done)
		for m := range c.Updates() {
			w.see(m)
		}
	}()
}

// idle is closed once the connection followed last has ended and all it
// received is counted.
func (w *watcher) idle() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.done
}

func (w *watcher) see(m protocol.ServerMessage) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch m.Type {
	case protocol.TypeError:
		if m.Seq != 0 {
			w.refused[m.Seq] = m
		}
	case protocol.TypeSnapshot:
		// The first snapshot sets the start; a later one (after a
		// reconnect) comes after the events the client missed, at the
		// version they led to.
		if w.last != 0 && m.V != w.last {
			w.errs = append(w.errs, fmt.Sprintf("snapshot at v%d after v%d", m.V, w.last))
		}
		w.last = max(w.last, m.V)
	case protocol.TypeEvent:
		if m.V != w.last+1 {
			w.errs = append(w.errs, fmt.Sprintf("event v%d after v%d", m.V, w.last))
		}
		w.last = max(w.last, m.V)
		if m.Event == nil {
			return
		}
		if m.Event.Kind == match.KindMove {
			w.moves[[2]int{m.Event.Seat, m.Event.Hole}]++
		}
		for _, n := range m.Event.Notices {
			switch n.Kind {
			case "holeEnded", "holeStarted":
				w.notices[fmt.Sprintf("%s %d", n.Kind, n.Hole)]++
			case "roundEnded", "started":
				w.notices[string(n.Kind)]++
			}
		}
	}
}

// check reports the version errors seen and returns the last version.
func (w *watcher) check(t *testing.T) int64 {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.errs {
		t.Errorf("%s: %s", w.name, e)
	}
	return w.last
}

// takeRefusal returns (and forgets) the error reply to the command of
// seq, if one arrived.
func (w *watcher) takeRefusal(seq int64) (protocol.ServerMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	m, ok := w.refused[seq]
	delete(w.refused, seq)
	return m, ok
}

// movesSeen returns how many move events of the seat and hole arrived.
func (w *watcher) movesSeen(seat, hole int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.moves[[2]int{seat, hole}]
}

// checkRecords reads the room's records from the API and checks them
// against the moves the players made: each record has exactly as many
// moves as its player had accepted, and replays to the score the room
// gave it. It returns the records.
func checkRecords(t *testing.T, ctx context.Context, api *client.API, code string, players []*seatPlayer) protocol.Records {
	t.Helper()
	for _, p := range players {
		if p.retries > 0 {
			t.Logf("%s sent %d moves again after an unavailable error", p.name, p.retries)
		}
	}
	var recs protocol.Records
	if _, err := api.Call(ctx, http.MethodGet, "/api/rooms/"+code+"/records", nil, &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs.Holes) == 0 {
		t.Fatalf("no records: %+v", recs)
	}
	for _, h := range recs.Holes {
		if len(h.Records) != len(players) {
			t.Fatalf("hole %d: %d records for %d players", h.Number, len(h.Records), len(players))
		}
		for i, rec := range h.Records {
			if got, want := len(rec.Moves), players[i].moves[h.Number]; got != want {
				t.Errorf("hole %d, %s: the record has %d moves, the player had %d accepted", h.Number, players[i].name, got, want)
			}
			st, err := rec.Replay()
			if err != nil {
				t.Fatalf("hole %d, %s: the record does not replay: %v", h.Number, players[i].name, err)
			}
			if st.Score() != h.Scores[i] {
				t.Errorf("hole %d, %s: the record scores %d, the room says %d", h.Number, players[i].name, st.Score(), h.Scores[i])
			}
		}
	}
	return recs
}

// standingsJSON is the standings a view shows, for comparing views.
func standingsJSON(v *match.View) string {
	b, _ := json.Marshal(v.Standings)
	return string(b)
}

// waitFinished waits for the connection's view of the finished round.
func waitFinished(t *testing.T, ctx context.Context, name string, c *client.Conn) *match.View {
	t.Helper()
	// Finished, and the solver's best score recorded for every hole (a best
	// event follows the end of each hole): the room is at its last version.
	v, err := c.WaitView(ctx, func(v *match.View) bool {
		return v.Status == match.Finished && len(v.Best) == len(v.Revealed)
	})
	if err != nil {
		t.Fatalf("%s: waiting for the end: %v", name, err)
	}
	return v
}

// parallel runs the functions at once and returns their errors.
func parallel(fs ...func() error) []error {
	var wg sync.WaitGroup
	errs := make([]error, len(fs))
	for i, f := range fs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f()
		}()
	}
	wg.Wait()
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}
