package redisstore_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// roundTrips counts the round trips to Redis that carry append scripts,
// and the scripts they carry, and holds each until release is closed.
type roundTrips struct {
	release chan struct{}
	n       atomic.Int64 // round trips
	carried atomic.Int64 // appends in them
}

// appends is how many of cmds run append.lua by EVALSHA (with its 5
// keys). The EVALs that follow a NOSCRIPT, the first time a node sees the
// script, are not counted.
func appends(cmds []redis.Cmder) int64 {
	n := int64(0)
	for _, c := range cmds {
		if c.Name() == "evalsha" {
			if args := c.Args(); len(args) > 3 && fmt.Sprint(args[2]) == "5" && strings.HasSuffix(fmt.Sprint(args[3]), ":snap") {
				n++
			}
		}
	}
	return n
}

func (r *roundTrips) wait(cmds []redis.Cmder) {
	n := appends(cmds)
	if n == 0 {
		return
	}
	r.n.Add(1)
	r.carried.Add(n)
	<-r.release
}

func (r *roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }
func (r *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		r.wait([]redis.Cmder{cmd})
		return next(ctx, cmd)
	}
}
func (r *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		r.wait(cmds)
		return next(ctx, cmds)
	}
}

// TestAppendsGoTogether: rooms that append while another room's append is
// on its way share round trips (group commit), and each Append still
// returns its own room's version once its event is stored, in order.
func TestAppendsGoTogether(t *testing.T) {
	run := func(t *testing.T, client redis.UniversalClient, prefix string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s := redisstore.New(client, redisstore.Options{Prefix: prefix})
		defer s.Close()
		const rooms = 24
		codes := make([]string, rooms)
		for i := range codes {
			codes[i] = fmt.Sprintf("GT%02d", i)
			if err := s.Create(ctx, codes[i], []byte("s1"), []byte("e1")); err != nil {
				t.Fatal(err)
			}
		}
		rt := &roundTrips{release: make(chan struct{})}
		client.AddHook(rt)
		// Every room appends at once; the round trips are held until each
		// append is on its way or waiting for one.
		var wg sync.WaitGroup
		errs := make([]error, rooms)
		for i, code := range codes {
			wg.Go(func() {
				v, err := s.Append(ctx, code, 1, nil, []byte("e2-"+code))
				if err == nil && v != 2 {
					err = fmt.Errorf("version %d, want 2", v)
				}
				errs[i] = err
			})
		}
		for redisstore.QueuedAppends(s)+int(rt.carried.Load()) < rooms && ctx.Err() == nil {
			runtime.Gosched()
		}
		close(rt.release)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("Append(%s) = %v", codes[i], err)
			}
		}
		// At most two held (two flushers), then one for all the others.
		if got := rt.n.Load(); got > 3 {
			t.Errorf("%d appends took %d round trips, want at most 3", rooms, got)
		}
		// Each room's log holds its own events, in order.
		for _, code := range codes {
			got, err := s.Since(ctx, code, 0)
			if err != nil || !slices.EqualFunc(got, []store.Entry{{Version: 1, Data: []byte("e1")}, {Version: 2, Data: []byte("e2-" + code)}}, entryEqual) {
				t.Errorf("Since(%s, 0) = %v %v", code, got, err)
			}
		}
	}
	t.Run("miniredis", func(t *testing.T) {
		m := miniredis.RunT(t)
		client := redis.NewClient(&redis.Options{Addr: m.Addr()})
		t.Cleanup(func() { _ = client.Close() })
		run(t, client, uniquePrefix())
	})
	for _, tp := range redistest.All {
		t.Run(tp.Name, func(t *testing.T) {
			tp.Config(t)
			run(t, tp.Client(t), tp.Prefix(t, "batch"))
		})
	}
}

func entryEqual(a, b store.Entry) bool {
	return a.Version == b.Version && string(a.Data) == string(b.Data)
}
