package redisstore_test

import (
	"context"
	"hash/fnv"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store/redisstore"
)

// TestMigrateBots: the bots of rooms that an earlier version listed in its
// sets of bot rooms (one set, then 16 shards) are stranded by the
// due-time index until MigrateBots moves them; it deletes the old sets,
// keeps a due time already set and does nothing the second time.
func TestMigrateBots(t *testing.T) {
	t.Parallel()
	both(t, func(t *testing.T, client *redis.Client, prefix string) {
		ctx := context.Background()
		s := redisstore.New(client, redisstore.Options{Prefix: prefix, RoomTTL: time.Hour})
		defer s.Close()
		for _, room := range []string{"ABCD", "EFGH", "JKMN"} {
			if err := s.Create(ctx, room, []byte("s"), []byte("e")); err != nil {
				t.Fatal(err)
			}
			if err := s.SetBot(ctx, room, "b1", []byte("rec "+room)); err != nil {
				t.Fatal(err)
			}
		}
		// As an earlier version left them: ABCD in the one set, EFGH in
		// its shard, neither in the due-time index; JKMN already in the
		// index (due in an hour) and in the old set too; a room whose bots
		// are gone.
		later := time.Now().Add(time.Hour)
		if err := s.DelayBot(ctx, "JKMN", "b1", later); err != nil {
			t.Fatal(err)
		}
		client.ZRem(ctx, prefix+"botdue:{"+shard("ABCD")+"}", "ABCD\x00b1")
		client.ZRem(ctx, prefix+"botdue:{"+shard("EFGH")+"}", "EFGH\x00b1")
		client.SAdd(ctx, prefix+"botrooms", "ABCD", "GONE")
		client.SAdd(ctx, prefix+"botrooms:{"+shard("EFGH")+"}", "EFGH", "JKMN")

		due := func() map[string]bool {
			bots, err := s.DueBots(ctx, time.Now().Add(time.Minute), 100)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]bool{}
			for _, b := range bots {
				out[b.Room] = true
			}
			return out
		}
		if d := due(); d["ABCD"] || d["EFGH"] {
			t.Fatalf("before the migration the old rooms' bots are due: %v", d)
		}
		n, err := s.MigrateBots(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 3 {
			t.Errorf("moved %d bots, want 3 (ABCD, EFGH, JKMN)", n)
		}
		if d := due(); !d["ABCD"] || !d["EFGH"] || d["JKMN"] {
			t.Errorf("due after the migration: %v, want ABCD and EFGH, JKMN still an hour away", d)
		}
		left, err := client.Keys(ctx, prefix+"botrooms*").Result()
		if err != nil {
			t.Fatal(err)
		}
		if len(left) != 0 {
			t.Errorf("old sets left: %q", left)
		}
		if n, err := s.MigrateBots(ctx); n != 0 || err != nil {
			t.Errorf("second migration: %d, %v; want 0, nil", n, err)
		}
	})
}

// shard is the index shard of a room (keys.go: FNV-1a mod 16).
func shard(room string) string {
	h := fnv.New32a()
	h.Write([]byte(room))
	return strconv.Itoa(int(h.Sum32() % 16))
}
