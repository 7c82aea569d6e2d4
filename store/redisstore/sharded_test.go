package redisstore_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// TestShardedPubSub checks that on a Cluster a room's events travel by
// sharded pub/sub on the room's own slot (SSUBSCRIBE on the master that
// holds it; SPUBLISH, which the cluster does not broadcast to every node)
// and not by plain pub/sub, and that they are delivered.
func TestShardedPubSub(t *testing.T) {
	t.Parallel()
	tp := redistest.All[1]
	prefix := tp.Prefix(t, "sharded")
	client := tp.Client(t)
	st := redisstore.New(client, redisstore.Options{Prefix: prefix})
	t.Cleanup(func() { st.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cc := client.(*redis.ClusterClient)
	for _, room := range []string{"SHA1", "SHB2", "SHC3", "SHD4"} {
		if err := st.Create(ctx, room, []byte("s1"), []byte("e1")); err != nil {
			t.Fatal(err)
		}
		sub, err := st.Subscribe(ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		channel := prefix + "{" + room + "}:events"
		master, err := cc.MasterForKey(ctx, channel)
		if err != nil {
			t.Fatal(err)
		}
		shard, err := master.PubSubShardNumSub(ctx, channel).Result()
		if err != nil {
			t.Fatal(err)
		}
		if shard[channel] != 1 {
			t.Errorf("room %s: %d sharded subscribers on its master, want 1", room, shard[channel])
		}
		var plain atomic.Int64
		if err := cc.ForEachShard(ctx, func(ctx context.Context, node *redis.Client) error {
			n, err := node.PubSubNumSub(ctx, channel).Result()
			plain.Add(n[channel])
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if plain.Load() != 0 {
			t.Errorf("room %s: %d plain subscribers, want 0", room, plain.Load())
		}
		if _, err := st.Append(ctx, room, 1, []byte("s2"), []byte("e2")); err != nil {
			t.Fatal(err)
		}
		select {
		case e := <-sub.C():
			if e.Version != 2 || string(e.Data) != "e2" {
				t.Errorf("room %s: got version %d %q, want 2 \"e2\"", room, e.Version, e.Data)
			}
		case <-ctx.Done():
			t.Fatalf("room %s: no event", room)
		}
		sub.Close()
		_ = st.Expire(ctx, room, 0)
	}
}
