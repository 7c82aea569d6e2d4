package redisstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// Prefix starts every key and channel name. Default "golf:".
	Prefix string
	// HistoryLen caps each room's event stream. Default 1000.
	HistoryLen int64
	// RoomTTL is how long a room is kept after its last Append, unless
	// Expire said otherwise. Default 24h.
	RoomTTL time.Duration
	// QueueTTL is how long a quick-match queue is kept after its last
	// Pair. Default 1h.
	QueueTTL time.Duration
	// Buffer is the size of each subscriber's channel. Default 64.
	Buffer int
	// WaitReplicas, when positive, makes Create and Append return only
	// once that many replicas have the write (WAIT on the connection that
	// wrote it), so that a failover loses no acknowledged move. When fewer
	// replicas confirm within WaitTimeout, the call fails with
	// store.ErrUnavailable (the write may or may not survive; the caller
	// retries as after any outage). Default 0: no WAIT.
	WaitReplicas int
	// WaitTimeout bounds each WAIT. Default 1s.
	WaitTimeout time.Duration
	// Replay folds the events after a room's last snapshot in Load. With
	// it, Append writes a room's snapshot only every SnapshotEvery events
	// (store.SnapshotDue); without it, on every Append.
	Replay store.Replay
	// SnapshotEvery is how many events apart snapshots are written when
	// Replay is set. Default 32; at most HistoryLen.
	SnapshotEvery int
}

// Store is a store.Store on Redis. Stores on one Redis (or Cluster) with
// the same Prefix share everything, like the server instances using them.
type Store struct {
	client redis.UniversalClient
	opts   Options
	keys   keys
	fan    *fanout // topics; and rooms' channels when not on a Cluster
	// On a Cluster: rooms' channels are sharded (SPUBLISH in the room's
	// scripts, SSUBSCRIBE here) on one fanout per master.
	cluster *redis.ClusterClient
	publish string // "PUBLISH" or "SPUBLISH"
	shardMu sync.Mutex
	shards  map[string]*fanout // by master address
	// appends sends the Appends of many rooms in one pipeline (batch.go);
	// not with WaitReplicas, whose WAIT goes after each script.
	appends *batcher
}

// Every part of store.Store, and the whole.
var (
	_ store.RoomLog      = (*Store)(nil)
	_ store.Bus          = (*Store)(nil)
	_ store.Lobby        = (*Store)(nil)
	_ store.Matchmaker   = (*Store)(nil)
	_ store.Bots         = (*Store)(nil)
	_ store.Leases       = (*Store)(nil)
	_ store.Tournaments  = (*Store)(nil)
	_ store.Leaderboards = (*Store)(nil)
	_ store.SeedPools    = (*Store)(nil)
	_ store.Outbox       = (*Store)(nil)
	_ store.Inboxes      = (*Store)(nil)
	_ store.Store        = (*Store)(nil)
)

// New returns a Store using client, which may be a single node, Sentinel
// or Cluster client. The caller keeps ownership of client: Close does not
// close it. New returns at once: the pub/sub connection is made in the
// background (and remade whenever it breaks); use Ping to check Redis.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.Prefix == "" {
		opts.Prefix = "golf:"
	}
	if opts.HistoryLen <= 0 {
		opts.HistoryLen = 1000
	}
	if opts.RoomTTL <= 0 {
		opts.RoomTTL = 24 * time.Hour
	}
	if opts.QueueTTL <= 0 {
		opts.QueueTTL = time.Hour
	}
	if opts.Buffer <= 0 {
		opts.Buffer = 64
	}
	if opts.WaitTimeout <= 0 {
		opts.WaitTimeout = time.Second
	}
	if opts.SnapshotEvery <= 0 {
		opts.SnapshotEvery = 32
	}
	opts.SnapshotEvery = int(min(int64(opts.SnapshotEvery), opts.HistoryLen))
	if opts.Replay == nil {
		opts.SnapshotEvery = 1
	}
	s := &Store{
		client:  client,
		opts:    opts,
		keys:    keys{prefix: opts.Prefix},
		fan:     newFanout(client, opts.Buffer),
		publish: "PUBLISH",
		shards:  map[string]*fanout{},
		appends: &batcher{client: client, script: appendScript},
	}
	if cc, ok := client.(*redis.ClusterClient); ok {
		s.cluster, s.publish = cc, "SPUBLISH"
	}
	return s
}

// subscribeRoom subscribes a room's channel: on the shared fanout, or on
// a Cluster on the fanout of the master that holds the room's slot now.
func (s *Store) subscribeRoom(ctx context.Context, channel string) (*subscription, error) {
	return s.subscribeChannel(ctx, channel, decodeEntry)
}

// subscribeChannel subscribes channel, its messages decoded by decode: on
// the shared fanout, or on a Cluster (sharded pub/sub) on the fanout of the
// master that holds the channel's slot now.
func (s *Store) subscribeChannel(ctx context.Context, channel string, decode func(string) (store.Entry, error)) (*subscription, error) {
	if s.cluster == nil {
		return s.fan.subscribe(ctx, channel, decode)
	}
	for {
		m, err := s.cluster.MasterForKey(ctx, channel)
		if err != nil {
			return nil, wrap("subscribe", err)
		}
		addr := m.Options().Addr
		s.shardMu.Lock()
		if s.shards == nil {
			s.shardMu.Unlock()
			return nil, ErrClosed
		}
		f := s.shards[addr]
		s.shardMu.Unlock()
		if f == nil {
			f, err = newShardFanout(ctx, s.cluster, s.opts.Buffer, channel, func(f *fanout) {
				s.shardMu.Lock()
				if s.shards[addr] == f {
					delete(s.shards, addr)
				}
				s.shardMu.Unlock()
			})
			if err != nil {
				return nil, wrap("subscribe", err)
			}
			s.shardMu.Lock()
			if s.shards == nil {
				s.shardMu.Unlock()
				_ = f.close()
				return nil, ErrClosed
			}
			if other := s.shards[addr]; other != nil {
				// Another subscriber made one first: use it.
				s.shardMu.Unlock()
				_ = f.close()
				f = other
			} else {
				s.shards[addr] = f
				s.shardMu.Unlock()
			}
		}
		sb, err := f.subscribe(ctx, channel, decode)
		if errors.Is(err, ErrClosed) && ctx.Err() == nil {
			continue // that fanout retired meanwhile: make another
		}
		return sb, err
	}
}

// Create implements store.RoomLog.
func (s *Store) Create(ctx context.Context, room string, snapshot []byte, first []byte) error {
	created, err := s.durable(ctx, createScript, s.keys.roomKeys(room),
		snapshot, first, s.opts.RoomTTL.Milliseconds(), s.opts.HistoryLen, s.keys.events(room), s.publish,
	).Int64()
	if err != nil {
		return wrap("create "+room, err)
	}
	if created == 0 {
		return fmt.Errorf("redisstore: create %s: %w", room, store.ErrExists)
	}
	return nil
}

// Load implements store.RoomLog: the snapshot and the events after it in
// one script, folded by Options.Replay.
func (s *Store) Load(ctx context.Context, room string) (store.Snapshot, error) {
	res, err := loadScript.Run(ctx, s.client, []string{s.keys.snapshot(room), s.keys.log(room)}).Slice()
	if errors.Is(err, redis.Nil) {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: %w", room, store.ErrNotFound)
	}
	if err != nil {
		return store.Snapshot{}, wrap("load "+room, err)
	}
	if len(res) != 4 {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: bad reply %v", room, res)
	}
	v, err := parseVersion(res[0])
	if err != nil {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: %w", room, err)
	}
	sv, err := parseVersion(res[1])
	if err != nil {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: %w", room, err)
	}
	data, _ := res[2].(string)
	if sv == v {
		return store.Snapshot{Version: v, Data: []byte(data)}, nil
	}
	msgs, _ := res[3].([]any)
	evs := make([]store.Entry, 0, len(msgs))
	for _, m := range msgs {
		e, ok := parseStreamEntry(m)
		if !ok || e.Version != sv+1+int64(len(evs)) {
			return store.Snapshot{}, fmt.Errorf("redisstore: load %s: the log after version %d is not whole", room, sv)
		}
		evs = append(evs, e)
	}
	if int64(len(evs)) != v-sv {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: the log holds %d of the %d events after version %d", room, len(evs), v-sv, sv)
	}
	if s.opts.Replay == nil {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: %d events after the snapshot and no Replay to fold them", room, len(evs))
	}
	folded, err := s.opts.Replay(room, []byte(data), evs)
	if err != nil {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: replaying %d events after version %d: %w", room, len(evs), sv, err)
	}
	return store.Snapshot{Version: v, Data: folded}, nil
}

// parseStreamEntry reads an XRANGE entry as the script returns it: {id,
// {"d", data}}.
func parseStreamEntry(m any) (store.Entry, bool) {
	pair, ok := m.([]any)
	if !ok || len(pair) != 2 {
		return store.Entry{}, false
	}
	id, _ := pair[0].(string)
	v, err := strconv.ParseInt(strings.TrimSuffix(id, "-0"), 10, 64)
	if err != nil {
		return store.Entry{}, false
	}
	fields, _ := pair[1].([]any)
	for i := 0; i+1 < len(fields); i += 2 {
		if f, _ := fields[i].(string); f == "d" {
			d, _ := fields[i+1].(string)
			return store.Entry{Version: v, Data: []byte(d)}, true
		}
	}
	return store.Entry{}, false
}

// SnapshotEvery is how many events apart Append writes snapshots (1
// without a Replay).
func (s *Store) SnapshotEvery() int { return s.opts.SnapshotEvery }

// Append implements store.RoomLog.
func (s *Store) Append(ctx context.Context, room string, expect int64, snapshot []byte, events ...[]byte) (int64, error) {
	return s.append(ctx, room, expect, snapshot, nil, events)
}

// append runs append.lua: the events and the outbox entries, encoded.
func (s *Store) append(ctx context.Context, room string, expect int64, snapshot []byte, outbox []any, events [][]byte) (int64, error) {
	write := "0"
	if store.SnapshotDue(s.opts.SnapshotEvery, expect, len(events)) {
		write = "1"
	} else {
		snapshot = nil // not sent
	}
	args := make([]any, 0, 7+len(outbox)+len(events))
	args = append(args, expect, snapshot, s.opts.HistoryLen, s.keys.events(room), s.publish, write, len(outbox)/2)
	args = append(args, outbox...)
	for _, e := range events {
		args = append(args, e)
	}
	keys := append(s.keys.roomKeys(room), s.keys.outbox(room))
	var v int64
	var err error
	if s.opts.WaitReplicas > 0 {
		v, err = s.durable(ctx, appendScript, keys, args...).Int64()
	} else {
		v, err = s.appends.do(ctx, keys, args)
	}
	switch {
	case err != nil:
		return 0, wrap("append "+room, err)
	case v == 0:
		return 0, fmt.Errorf("redisstore: append %s: %w", room, store.ErrNotFound)
	case v < 0:
		return 0, fmt.Errorf("redisstore: append %s at %d, room at %d: %w", room, expect, -v, store.ErrConflict)
	}
	return v, nil
}

// Since implements store.RoomLog. The snapshot's version and the stream are
// read in one MULTI, so they agree.
func (s *Store) Since(ctx context.Context, room string, v int64) ([]store.Entry, error) {
	v = max(v, 0)
	var head *redis.StringCmd
	var tail *redis.XMessageSliceCmd
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		head = p.HGet(ctx, s.keys.snapshot(room), "v")
		tail = p.XRange(ctx, s.keys.log(room), streamID(v+1), "+")
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, wrap("since "+room, err)
	}
	cur, err := head.Int64()
	if err != nil {
		return nil, wrap("since "+room, err) // redis.Nil: no such room
	}
	switch {
	case v == cur:
		return []store.Entry{}, nil
	case v > cur:
		return nil, fmt.Errorf("redisstore: since %s: version %d is ahead of the room at %d: %w", room, v, cur, store.ErrTooOld)
	}
	msgs, err := tail.Result()
	if err != nil {
		return nil, wrap("since "+room, err)
	}
	if len(msgs) == 0 || msgs[0].ID != streamID(v+1) {
		return nil, fmt.Errorf("redisstore: since %s: version %d: %w", room, v, store.ErrTooOld)
	}
	out := make([]store.Entry, 0, len(msgs))
	for _, m := range msgs {
		ver, err := strconv.ParseInt(strings.TrimSuffix(m.ID, "-0"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("redisstore: since %s: bad entry ID %q", room, m.ID)
		}
		data, _ := m.Values["d"].(string)
		out = append(out, store.Entry{Version: ver, Data: []byte(data)})
	}
	return out, nil
}

// Subscribe implements store.Bus.
func (s *Store) Subscribe(ctx context.Context, room string) (store.Subscription, error) {
	n, err := s.client.Exists(ctx, s.keys.snapshot(room)).Result()
	if err != nil {
		return nil, wrap("subscribe "+room, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("redisstore: subscribe %s: %w", room, store.ErrNotFound)
	}
	return s.subscribeRoom(ctx, s.keys.events(room))
}

// Expire implements store.RoomLog.
func (s *Store) Expire(ctx context.Context, room string, ttl time.Duration) error {
	ms := ttl.Milliseconds()
	if ttl > 0 && ms == 0 {
		ms = 1
	}
	ok, err := expireScript.Run(ctx, s.client, s.keys.roomKeys(room), ms).Int64()
	if err != nil {
		return wrap("expire "+room, err)
	}
	if ok == 0 {
		return fmt.Errorf("redisstore: expire %s: %w", room, store.ErrNotFound)
	}
	if ttl <= 0 {
		// The room is gone: drop it from the index now rather than at the
		// next Listings.
		if err := s.client.ZRem(ctx, s.keys.listings(room), room).Err(); err != nil {
			return wrap("expire "+room, err)
		}
	}
	return nil
}

// SetListing implements store.Lobby. The data lives in the room's slot
// and expires with the room; the index of listed codes is separate.
func (s *Store) SetListing(ctx context.Context, room string, data []byte) error {
	if data == nil {
		// Out of the index first, so Listings never finds a code whose
		// data was deleted on purpose.
		if err := s.client.ZRem(ctx, s.keys.listings(room), room).Err(); err != nil {
			return wrap("hide "+room, err)
		}
		return wrap("hide "+room, s.client.Del(ctx, s.keys.listing(room)).Err())
	}
	ok, err := showScript.Run(ctx, s.client, []string{s.keys.snapshot(room), s.keys.listing(room)}, data).Int64()
	if err != nil {
		return wrap("show "+room, err)
	}
	if ok == 0 {
		return fmt.Errorf("redisstore: show %s: %w", room, store.ErrNotFound)
	}
	// NX keeps the time of the first listing, which orders the lobby. The
	// index shard outlives its rooms (they are pruned as they expire) but
	// not forever: each listing keeps it for twice the rooms' time to live.
	idx := s.keys.listings(room)
	_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAddNX(ctx, idx, redis.Z{Score: float64(time.Now().UnixMilli()), Member: room})
		p.PExpire(ctx, idx, 2*s.opts.RoomTTL)
		return nil
	})
	return wrap("show "+room, err)
}

// Listings implements store.Lobby, newest first, from the index shards.
// A shard that cannot be read is left out (the lobby shows the others);
// only when none can be read is it an error. Codes whose listing data is
// gone (the room expired) are skipped and removed from their shard. (If
// such a room's code is reused and shown again while Listings runs, its
// entry may be removed too; the next SetListing puts it back.)
func (s *Store) Listings(ctx context.Context, limit int) ([]store.Listing, error) {
	out := []store.Listing{}
	if limit <= 0 {
		return out, nil
	}
	batch := int64(limit + 16)
	for try := 0; ; try++ {
		cands, cutoff, err := s.listingCandidates(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = out[:0]
		stale := map[int][]any{}
		// Candidates above the cutoff are in exact order; below it a shard
		// that returned a full batch may hold newer ones.
		for start := 0; start < len(cands) && len(out) < limit; start += limit {
			chunk := cands[start:min(start+limit, len(cands))]
			cmds := make([]*redis.StringCmd, len(chunk))
			_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
				for i, c := range chunk {
					cmds[i] = p.Get(ctx, s.keys.listing(c.code))
				}
				return nil
			})
			if err != nil && !errors.Is(err, redis.Nil) && !unavailable(err) {
				return nil, wrap("listings", err)
			}
			for i, cmd := range cmds {
				data, err := cmd.Result()
				switch {
				case errors.Is(err, redis.Nil):
					n := listingShard(chunk[i].code)
					stale[n] = append(stale[n], chunk[i].code)
				case err != nil: // that room's shard is down: leave it out
				case len(out) < limit && chunk[i].score >= cutoff:
					out = append(out, store.Listing{Room: chunk[i].code, Data: []byte(data)})
				}
			}
		}
		for n, codes := range stale {
			if err := s.client.ZRem(ctx, s.keys.listingShard(n), codes...).Err(); err != nil && !unavailable(err) {
				return nil, wrap("listings", err)
			}
		}
		if len(out) >= limit || len(stale) == 0 || try >= 4 {
			return out, nil
		}
		batch *= 2 // stale codes took places: read further
	}
}

type listingCandidate struct {
	code  string
	score float64
}

// listingCandidates reads the newest n codes of each index shard, merged
// newest first, and the cutoff: the newest of the oldest scores of shards
// that had n codes or more (below it some shard may hold codes not read).
func (s *Store) listingCandidates(ctx context.Context, n int64) ([]listingCandidate, float64, error) {
	cmds := make([]*redis.ZSliceCmd, listingShards)
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range cmds {
			cmds[i] = p.ZRevRangeWithScores(ctx, s.keys.listingShard(i), 0, n-1)
		}
		return nil
	})
	var cands []listingCandidate
	cutoff := math.Inf(-1)
	failed := 0
	for _, cmd := range cmds {
		zs, err := cmd.Result()
		if err != nil {
			failed++
			continue
		}
		for _, z := range zs {
			code, _ := z.Member.(string)
			cands = append(cands, listingCandidate{code, z.Score})
		}
		if int64(len(zs)) >= n {
			cutoff = max(cutoff, zs[len(zs)-1].Score)
		}
	}
	if failed == len(cmds) {
		return nil, 0, wrap("listings", err)
	}
	slices.SortFunc(cands, func(a, b listingCandidate) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.code, b.code)
	})
	return cands, cutoff, nil
}

// Pair implements store.Matchmaker.
func (s *Store) Pair(ctx context.Context, key, ticket string) (string, bool, error) {
	partner, err := pairScript.Run(ctx, s.client, []string{s.keys.queue(key)}, ticket, s.opts.QueueTTL.Milliseconds()).Text()
	switch {
	case errors.Is(err, redis.Nil):
		return "", false, nil
	case err != nil:
		return "", false, wrap("pair", err)
	}
	return partner, true, nil
}

// Unpair implements store.Matchmaker.
func (s *Store) Unpair(ctx context.Context, key, ticket string) (bool, error) {
	n, err := s.client.LRem(ctx, s.keys.queue(key), 0, ticket).Result()
	if err != nil {
		return false, wrap("unpair", err)
	}
	return n > 0, nil
}

// Notify implements store.Bus.
// On a Cluster a topic is a sharded channel (SPUBLISH to the master of
// its slot, where its subscribers are): go-redis sends a plain PUBLISH to
// any node, which passes it on over the cluster bus, so notices published
// one after the other could arrive out of order.
func (s *Store) Notify(ctx context.Context, topic string, data []byte) error {
	if s.cluster != nil {
		return wrap("notify", s.cluster.SPublish(ctx, s.keys.topic(topic), data).Err())
	}
	return wrap("notify", s.client.Publish(ctx, s.keys.topic(topic), data).Err())
}

// NotifyRoom implements store.Bus: published on the room's channel as
// the events are, with version 0 ("0:" and the data, decodeEntry).
func (s *Store) NotifyRoom(ctx context.Context, room string, data []byte) error {
	msg := append([]byte("0:"), data...)
	if s.cluster != nil {
		return wrap("notify "+room, s.cluster.SPublish(ctx, s.keys.events(room), msg).Err())
	}
	return wrap("notify "+room, s.client.Publish(ctx, s.keys.events(room), msg).Err())
}

// Listen implements store.Bus.
func (s *Store) Listen(ctx context.Context, topic string) (store.Subscription, error) {
	return s.subscribeChannel(ctx, s.keys.topic(topic), decodeNotice)
}

// Ping checks both the command connections and the shared pub/sub
// connection (a PING through it and its PONG back).
func (s *Store) Ping(ctx context.Context) error {
	if err := s.client.Ping(ctx).Err(); err != nil {
		return wrap("ping", err)
	}
	if err := s.fan.roundTrip(ctx); err != nil {
		return err
	}
	s.shardMu.Lock()
	shards := make([]*fanout, 0, len(s.shards))
	for _, f := range s.shards {
		shards = append(shards, f)
	}
	s.shardMu.Unlock()
	for _, f := range shards {
		if err := f.roundTrip(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Close ends every subscription and closes the pub/sub connection. It does
// not close the client given to New.
func (s *Store) Close() error {
	s.shardMu.Lock()
	shards := s.shards
	s.shards = nil
	s.shardMu.Unlock()
	err := s.fan.close()
	for _, f := range shards {
		err = errors.Join(err, f.close())
	}
	return err
}

// streamID is the stream entry ID of a version.
func streamID(v int64) string { return strconv.FormatInt(v, 10) + "-0" }

func parseVersion(x any) (int64, error) {
	switch x := x.(type) {
	case string:
		return strconv.ParseInt(x, 10, 64)
	case int64:
		return x, nil
	}
	return 0, fmt.Errorf("redisstore: bad version %v", x)
}
