package server_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/redisstore"
)

// redisProcess is a redis-server of the test's own, persisting every write
// (append-only file, fsync always) so its data survives a crash.
type redisProcess struct {
	t    *testing.T
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
	exit chan struct{}
}

// startRedisProcess starts redis-server on a free port. It skips the test
// when the binary is missing, unless CI is set.
func startRedisProcess(t *testing.T) *redisProcess {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server not found (CI must install it): %v", err)
		}
		t.Skip("redis-server not found")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := &redisProcess{t: t, bin: bin, dir: t.TempDir(), port: port}
	r.start()
	t.Cleanup(r.kill)
	return r
}

func (r *redisProcess) addr() string { return "127.0.0.1:" + strconv.Itoa(r.port) }

func (r *redisProcess) start() {
	r.t.Helper()
	r.cmd = exec.Command(r.bin, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", r.dir, "--loglevel", "warning")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	r.exit = make(chan struct{})
	go func(cmd *exec.Cmd, exit chan struct{}) {
		_ = cmd.Wait()
		close(exit)
	}(r.cmd, r.exit)
	// Listening is not enough: Redis answers LOADING while it reads its
	// append-only file.
	c := redis.NewClient(&redis.Options{Addr: r.addr(), MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			r.kill()
			r.t.Fatalf("redis-server on %s not ready: %v", r.addr(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill stops the server as a crash would.
func (r *redisProcess) kill() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	<-r.exit
	r.cmd = nil
}

// waitReady waits until GET /readyz answers want.
func waitReady(t *testing.T, ctx context.Context, in *instance, want int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got := in.readyz(ctx)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz answers %d after %v, want %d", got, within, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRedisOutage kills the Redis under a server in the middle of a hole:
// moves get the error "unavailable" and /readyz answers 503 within a few
// seconds. Redis comes back on the same port with its data: /readyz
// answers 200 again, the refused move sent again with the same sequence
// number is applied (once), and the match finishes with every move
// recorded.
func TestRedisOutage(t *testing.T) {
	t.Parallel()
	rp := startRedisProcess(t)
	rc := redis.NewClient(&redis.Options{
		Addr: rp.addr(), MaxRetries: -1, DialTimeout: 300 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: time.Second, WriteTimeout: time.Second,
	})
	t.Cleanup(func() { rc.Close() })
	st := redisstore.New(rc, redisstore.Options{})
	t.Cleanup(func() { st.Close() })
	// The periodic check is out of the way: only the commands themselves
	// may bring the hub back in step with Redis.
	in := startInstance(t, st, false, func(o *server.Options) { o.ResyncEvery = time.Minute })
	cl := &cluster{inspect: st}
	ctx := testCtx(t)

	ga, gb := matchRoom(t, ctx, in, in, map[string]any{"format": "match", "holes": 2, "seats": 2})
	a := newSeatPlayer("Ana", dial(t, ctx, in.url, ga.Code, ga.Token))
	b := newSeatPlayer("Bo", dial(t, ctx, in.url, gb.Code, gb.Token))
	readyAll(t, ctx, a, b)
	for _, p := range []*seatPlayer{a, b} {
		if over, err := p.play(ctx, 1, 3); err != nil || over {
			t.Fatalf("%s: first moves: over %v, %v", p.name, over, err)
		}
	}
	waitReady(t, ctx, in, http.StatusOK, time.Second)

	rp.kill()
	board, over, err := a.board(ctx, 1)
	if err != nil || over {
		t.Fatalf("Ana's board: over %v, %v", over, err)
	}
	seq, move := a.c.NextSeq(), chooseMove(board)
	start := time.Now()
	_, err = a.c.DoSeq(ctx, moveMsg(seq, 1, move))
	if !client.IsCode(err, protocol.ErrCodeUnavailable) {
		t.Fatalf("a move while Redis is down: %v, want code %s", err, protocol.ErrCodeUnavailable)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the move took %v to fail", d)
	}
	// Bo's moves fail the same way, and change nothing.
	if _, err := b.c.Move(ctx, 1, "s"); !client.IsCode(err, protocol.ErrCodeUnavailable) {
		t.Fatalf("Bo's move while Redis is down: %v, want code %s", err, protocol.ErrCodeUnavailable)
	}
	waitReady(t, ctx, in, http.StatusServiceUnavailable, 3*time.Second)

	rp.start()
	waitReady(t, ctx, in, http.StatusOK, 5*time.Second)

	// The refused move, sent again as it was: applied, once.
	r, err := a.c.DoSeq(ctx, moveMsg(seq, 1, move))
	if err != nil || r.Duplicate {
		t.Fatalf("the refused move sent again: %+v, %v; want it applied", r, err)
	}
	a.moves[1]++
	if got := len(cl.room(t, ga.Code).Holes[0].Games[0].Moves); got != a.moves[1] {
		t.Fatalf("Ana has %d moves stored, made %d", got, a.moves[1])
	}
	if r, err := a.c.DoSeq(ctx, moveMsg(seq, 1, move)); err != nil || !r.Duplicate {
		t.Fatalf("the move sent a third time: %+v, %v; want a duplicate ack", r, err)
	}

	noErrors(t, parallel(func() error { return a.playOut(ctx) }, func() error { return b.playOut(ctx) }))
	va := waitFinished(t, ctx, "Ana", a.c)
	vb := waitFinished(t, ctx, "Bo", b.c)
	if standingsJSON(va) != standingsJSON(vb) {
		t.Errorf("final standings differ:\nAna %s\nBo  %s", standingsJSON(va), standingsJSON(vb))
	}
	if va.Standings.Match == nil || !va.Standings.Match.Decided {
		t.Errorf("the match is not decided: %+v", va.Standings.Match)
	}
	waitVersion(t, a.w, va.V)
	waitVersion(t, b.w, va.V)
	checkRecords(t, ctx, in.api, ga.Code, []*seatPlayer{a, b})
	if got := len(cl.log(t, ga.Code)); int64(got) != va.V || cl.room(t, ga.Code).Status != match.Finished {
		t.Errorf("the log has %d events, the room is at v%d", got, va.V)
	}
}
