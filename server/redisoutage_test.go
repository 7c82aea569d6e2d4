package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/client"
	"golfsolitaire/internal/testredis"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/redisstore"
)

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
	rp := testredis.Start(t, testredis.Options{Durable: true})
	rc := redis.NewClient(&redis.Options{
		Addr: rp.Addr(), MaxRetries: -1, DialTimeout: 300 * time.Millisecond, DialerRetries: 1,
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

	rp.Kill()
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

	rp.Start()
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
