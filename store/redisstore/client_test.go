package redisstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// TestClusterClientsShareNoAddrs makes several Cluster clients from one
// configuration whose address slice has room to spare (as a caller's
// append leaves it) and has them load the slot map at the same time.
// go-redis keeps the slice it is given and appends the nodes it learns to
// it, so before NewClient copied the addresses the clients wrote into one
// array together: the race detector stopped CI on it.
func TestClusterClientsShareNoAddrs(t *testing.T) {
	t.Parallel()
	cfg := redistest.All[1].Config(t)
	addrs := make([]string, 1, 16)
	addrs[0] = cfg.Addrs[0]
	cfg.Addrs = addrs
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for range 4 {
		c, _, err := redisstore.NewClient(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		cc := c.(*redis.ClusterClient)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				cc.ReloadState(ctx)
				if err := cc.Ping(ctx).Err(); err != nil {
					t.Error(err)
					return
				}
				time.Sleep(250 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	if len(addrs) != 1 || cap(addrs) != 16 {
		t.Fatalf("the caller's slice changed: len %d cap %d", len(addrs), cap(addrs))
	}
	if got := addrs[:16]; got[1] != "" {
		t.Fatalf("a client wrote %q past the caller's slice", got[1])
	}
}
