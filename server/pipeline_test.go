package server_test

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/fairplay"
	"golfsolitaire/jobs"
	"golfsolitaire/ratings"
	"golfsolitaire/server"
)

// pgProxy is a TCP proxy in front of PostgreSQL that the test can cut
// (every connection dropped, new ones refused) and restore: a database
// outage.
type pgProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
	wg     sync.WaitGroup
}

func startPGProxy(t *testing.T, dbURL string) (*pgProxy, string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &pgProxy{ln: ln, target: u.Host, conns: map[net.Conn]bool{}}
	p.wg.Go(p.accept)
	t.Cleanup(func() {
		ln.Close()
		p.cut()
		p.wg.Wait()
	})
	u.Host = ln.Addr().String()
	return p, u.String()
}

func (p *pgProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.down {
			p.mu.Unlock()
			c.Close() // refused
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			io.Copy(dst, src)
			dst.Close()
			src.Close()
		}
		p.wg.Go(func() { pipe(up, c) })
		p.wg.Go(func() { pipe(c, up) })
	}
}

// cut drops every connection and refuses new ones until restore.
func (p *pgProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *pgProxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

// pipelineInstance is a server instance with its accounts and its job
// queue (River) on the database at dbURL, over the shared Redis.
func pipelineInstance(t *testing.T, r *testRedis, dbURL string, mod ...func(*server.Options)) *instance {
	t.Helper()
	return pipelineInstanceLed(t, r, dbURL, true, mod...)
}

// pipelineInstanceLed is pipelineInstance whose queue takes part in
// River's leader election when lead is set.
func pipelineInstanceLed(t *testing.T, r *testRedis, dbURL string, lead bool, mod ...func(*server.Options)) *instance {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	acct, err := postgres.Open(ctx, dbURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(acct.Close)
	if err := jobs.Migrate(ctx, acct.Pool(), nil); err != nil {
		t.Fatal(err)
	}
	q, err := jobs.NewRiver(acct.Pool(), jobs.RiverOptions{Options: jobs.Options{Backoff: func(int) time.Duration { return 200 * time.Millisecond }}, PollInterval: 200 * time.Millisecond, NoLeader: !lead, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return startInstance(t, r.store(t), true, func(o *server.Options) {
		o.Accounts, o.Queue, o.Fairplay = acct, q, &server.Fairplay{}
		o.AllowLinkedAccounts = true // both players sign up from this machine
		for _, f := range mod {
			f(o)
		}
	})
}

// TestRatedRoundThroughOutageAndCrash: a rated round ends on an instance
// while PostgreSQL is unreachable, and that instance goes away before the
// database is back (it could neither record the round nor relay it).
// Another instance, once the database answers, records the round: it is
// archived once and both ratings move once, as Glicko-2 says.
func TestRatedRoundThroughOutageAndCrash(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	r := newTestRedis(t)
	dbURL := pgtest.Database(t, "pipeline")
	proxy, viaProxy := startPGProxy(t, dbURL)

	// It never leads River's maintenance: a leader that stops while the
	// database is away spends seven seconds trying to resign, which proves
	// nothing here (what it fails to record is what this checks).
	a := pipelineInstanceLed(t, r, viaProxy, false)
	ana, bo := signedUpPair(t, a.url)
	// The database goes away once the round is under way: the round
	// ends with it unreachable.
	code := playRatedAt(t, ctx, a.url, ana, bo, proxy.cut)
	// The instance that applied the round's last event goes too.
	a.stop(t)
	proxy.restore()

	b := pipelineInstance(t, r, dbURL)
	guest := newBrowser(t, b.url)
	var g accounts.Game
	waitFor(t, 90*time.Second, "the round to be archived by the other instance", func() bool {
		return guest.do("GET", "/api/games/"+code+"-1", nil, &g).StatusCode == http.StatusOK
	})
	places := make([]int, 2)
	for i, name := range []string{"Ana", "Bo"} {
		for _, p := range g.Players {
			if p.Name == name {
				places[i] = p.Place
			}
		}
	}
	want, err := ratings.Config{}.Round([]ratings.Rating{ratings.New(), ratings.New()}, places)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Ana", "Bo"} {
		p := waitRated(t, guest, name, 1)
		got := p.Rating["golf"]
		if got.Games != 1 || math.Abs(got.Rating-want[i].Rating) > 1e-9 || math.Abs(got.RD-want[i].RD) > 1e-9 {
			t.Errorf("%s's rating = %+v, want %v after one game, recorded once", name, got, want[i])
		}
	}
	// Recorded once: one history row per player.
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var recorded int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM rating_history`).Scan(&recorded); err != nil {
		t.Fatal(err)
	}
	if recorded != 2 {
		t.Errorf("rating history rows = %d, want 2 (one per player)", recorded)
	}
}

// TestFairplayHolesSurviveRestart: finished holes queued for analysis on
// an instance that stops before analysing any (it leaves the queue's work
// to others) are analysed by another instance, each once, through the
// durable queue; nothing is dropped.
func TestFairplayHolesSurviveRestart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := newTestRedis(t)
	dbURL := pgtest.Database(t, "fairplayqueue")
	fp := fairplay.NewMemoryStore()
	fast := &fairplay.Config{Samples: 4, Nodes: 1000, MaxSolves: 300}
	a := pipelineInstance(t, r, dbURL, func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fp, Config: fast}
		o.NoQueueWork = true
	})
	e := &env{ts: a.url, api: a.api}
	const holes = 2
	grants := e.create(t, ctx, stroke(2, holes, nil), "Cleo", "Hal")
	cs := e.startRoom(t, ctx, grants)
	code := grants[0].Code
	for h := 1; h <= holes; h++ {
		done := make(chan struct{})
		go func() {
			defer close(done)
			playHole(t, ctx, cs[1], h)
		}()
		playHole(t, ctx, cs[0], h)
		<-done
	}
	waitFor(t, 30*time.Second, "the holes queued", func() bool { return instanceMetric(a.srv, "golf_fairplay_queued_total") == "4" })
	for _, c := range cs {
		c.CloseNow()
	}
	a.stop(t)
	if _, _, err := fp.Player(ctx, "seat:"+code+":Cleo"); err == nil {
		t.Fatal("a hole was analysed by the instance that leaves the queue to others")
	}

	b := pipelineInstance(t, r, dbURL, func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fp, Config: fast}
	})
	waitFor(t, 2*time.Minute, "every hole analysed by the other instance", func() bool {
		c, _, err1 := fp.Player(ctx, "seat:"+code+":Cleo")
		h, _, err2 := fp.Player(ctx, "seat:"+code+":Hal")
		return err1 == nil && err2 == nil && c.Holes == holes && h.Holes == holes
	})
	for _, name := range []string{"Cleo", "Hal"} {
		_, reports, _ := fp.Player(ctx, "seat:"+code+":"+name)
		if len(reports) != holes {
			t.Errorf("%s has %d hole reports, want %d (each hole once)", name, len(reports), holes)
		}
	}
	if got := instanceMetric(b.srv, "golf_fairplay_dropped_total"); got != "0" {
		t.Errorf("golf_fairplay_dropped_total = %s, want 0", got)
	}
}
