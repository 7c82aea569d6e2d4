package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// The outbox (store.Outbox) lives in each room's slot: a hash of entries
// by key (keys.outbox), written by append.lua in the same script as the
// events, and never expiring with the room. Rooms with entries are found
// through an index split in shards like the listings' (keys.outboxIndex),
// in slots of their own, which no room script can write on a Cluster: so
// AppendOutbox marks the room in its index shard BEFORE the script runs.
// A mark without entries (the script failed, or the entries are done) is
// harmless, and the relay drops it once it is older than outboxMarkGrace
// and unchanged since it looked (outboxprune.lua): an AppendOutbox marks
// again before each script, and no script runs that long after its mark
// (each call carries a deadline of seconds).
const outboxMarkGrace = time.Minute

// outboxRecord is an entry as the outbox hash holds it.
type outboxRecord struct {
	Kind string `json:"kind"`
	Data []byte `json:"data"`
	At   int64  `json:"at"` // Unix ms
}

// AppendOutbox implements store.Outbox.
func (s *Store) AppendOutbox(ctx context.Context, room string, expect int64, snapshot []byte, entries []store.OutboxEntry, events ...[]byte) (int64, error) {
	if len(entries) == 0 {
		return s.Append(ctx, room, expect, snapshot, events...)
	}
	now := time.Now()
	args := make([]any, 0, 2*len(entries))
	for _, e := range entries {
		at := e.At
		if at.IsZero() {
			at = now
		}
		rec, err := json.Marshal(outboxRecord{Kind: e.Kind, Data: e.Data, At: at.UnixMilli()})
		if err != nil {
			return 0, fmt.Errorf("redisstore: append %s: outbox entry %s: %w", room, e.Key, err)
		}
		args = append(args, e.Key, rec)
	}
	if err := s.client.ZAdd(ctx, s.keys.outboxIndex(room), redis.Z{Score: float64(now.UnixMilli()), Member: room}).Err(); err != nil {
		return 0, wrap("append "+room, err)
	}
	return s.append(ctx, room, expect, snapshot, args, events)
}

// outboxScan reads every marked room's entries; with prune it drops the
// stale marks of rooms with none.
func (s *Store) outboxScan(ctx context.Context, prune bool) ([]store.OutboxEntry, error) {
	shards := make([]*redis.ZSliceCmd, listingShards)
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range shards {
			shards[i] = p.ZRangeWithScores(ctx, s.keys.outboxShard(i), 0, -1)
		}
		return nil
	})
	if err != nil {
		return nil, wrap("outbox", err)
	}
	type marked struct {
		shard int
		room  string
		score float64
		cmd   *redis.MapStringStringCmd
	}
	var rooms []*marked
	for i, c := range shards {
		for _, z := range c.Val() {
			room, _ := z.Member.(string)
			rooms = append(rooms, &marked{shard: i, room: room, score: z.Score})
		}
	}
	if len(rooms) == 0 {
		return []store.OutboxEntry{}, nil
	}
	_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, m := range rooms {
			m.cmd = p.HGetAll(ctx, s.keys.outbox(m.room))
		}
		return nil
	})
	if err != nil {
		return nil, wrap("outbox", err)
	}
	out := []store.OutboxEntry{}
	stale := time.Now().Add(-outboxMarkGrace).UnixMilli()
	for _, m := range rooms {
		fields := m.cmd.Val()
		if len(fields) == 0 && prune && m.score < float64(stale) {
			if err := outboxPruneScript.Run(ctx, s.client, []string{s.keys.outboxShard(m.shard)}, m.room, m.score).Err(); err != nil {
				return nil, wrap("outbox", err)
			}
		}
		for key, v := range fields {
			var rec outboxRecord
			if err := json.Unmarshal([]byte(v), &rec); err != nil {
				return nil, fmt.Errorf("redisstore: outbox entry %s of %s: %w", key, m.room, err)
			}
			out = append(out, store.OutboxEntry{Room: m.room, Key: key, Kind: rec.Kind, Data: rec.Data, At: time.UnixMilli(rec.At)})
		}
	}
	slices.SortFunc(out, func(a, b store.OutboxEntry) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		if c := strings.Compare(a.Room, b.Room); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	return out, nil
}

// PendingOutbox implements store.Outbox.
func (s *Store) PendingOutbox(ctx context.Context, limit int) ([]store.OutboxEntry, error) {
	out, err := s.outboxScan(ctx, true)
	if err != nil {
		return nil, err
	}
	return out[:min(len(out), max(limit, 0))], nil
}

// OutboxDone implements store.Outbox.
func (s *Store) OutboxDone(ctx context.Context, entries ...store.OutboxEntry) error {
	if len(entries) == 0 {
		return nil
	}
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, e := range entries {
			p.HDel(ctx, s.keys.outbox(e.Room), e.Key)
		}
		return nil
	})
	return wrap("outbox done", err)
}

// OutboxStats implements store.Outbox.
func (s *Store) OutboxStats(ctx context.Context) (int, time.Time, error) {
	out, err := s.outboxScan(ctx, false)
	if err != nil || len(out) == 0 {
		return 0, time.Time{}, err
	}
	return len(out), out[0].At, nil
}
