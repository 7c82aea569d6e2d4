package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
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
}

// Store is a store.Store on Redis. Stores on one Redis (or Cluster) with
// the same Prefix share everything, like the server instances using them.
type Store struct {
	client redis.UniversalClient
	opts   Options
	keys   keys
	fan    *fanout
}

var _ store.Store = (*Store)(nil)

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
	return &Store{
		client: client,
		opts:   opts,
		keys:   keys{prefix: opts.Prefix},
		fan:    newFanout(client, opts.Buffer),
	}
}

// Create implements store.Store.
func (s *Store) Create(ctx context.Context, room string, snapshot []byte, first []byte) error {
	created, err := createScript.Run(ctx, s.client, s.keys.roomKeys(room),
		snapshot, first, s.opts.RoomTTL.Milliseconds(), s.opts.HistoryLen, s.keys.events(room),
	).Int64()
	if err != nil {
		return wrap("create "+room, err)
	}
	if created == 0 {
		return fmt.Errorf("redisstore: create %s: %w", room, store.ErrExists)
	}
	return nil
}

// Load implements store.Store.
func (s *Store) Load(ctx context.Context, room string) (store.Snapshot, error) {
	vals, err := s.client.HMGet(ctx, s.keys.snapshot(room), "v", "data").Result()
	if err != nil {
		return store.Snapshot{}, wrap("load "+room, err)
	}
	if len(vals) != 2 || vals[0] == nil {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: %w", room, store.ErrNotFound)
	}
	v, err := parseVersion(vals[0])
	if err != nil {
		return store.Snapshot{}, fmt.Errorf("redisstore: load %s: %w", room, err)
	}
	data, _ := vals[1].(string)
	return store.Snapshot{Version: v, Data: []byte(data)}, nil
}

// Append implements store.Store.
func (s *Store) Append(ctx context.Context, room string, expect int64, snapshot []byte, events ...[]byte) (int64, error) {
	args := make([]any, 0, 4+len(events))
	args = append(args, expect, snapshot, s.opts.HistoryLen, s.keys.events(room))
	for _, e := range events {
		args = append(args, e)
	}
	v, err := appendScript.Run(ctx, s.client, s.keys.roomKeys(room), args...).Int64()
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

// Since implements store.Store. The snapshot's version and the stream are
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

// Subscribe implements store.Store.
func (s *Store) Subscribe(ctx context.Context, room string) (store.Subscription, error) {
	n, err := s.client.Exists(ctx, s.keys.snapshot(room)).Result()
	if err != nil {
		return nil, wrap("subscribe "+room, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("redisstore: subscribe %s: %w", room, store.ErrNotFound)
	}
	return s.fan.subscribe(ctx, s.keys.events(room), decodeEntry)
}

// Expire implements store.Store.
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
		if err := s.client.ZRem(ctx, s.keys.listings(), room).Err(); err != nil {
			return wrap("expire "+room, err)
		}
	}
	return nil
}

// SetListing implements store.Store. The data lives in the room's slot
// and expires with the room; the index of listed codes is separate.
func (s *Store) SetListing(ctx context.Context, room string, data []byte) error {
	if data == nil {
		// Out of the index first, so Listings never finds a code whose
		// data was deleted on purpose.
		if err := s.client.ZRem(ctx, s.keys.listings(), room).Err(); err != nil {
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
	// NX keeps the time of the first listing, which orders the lobby.
	err = s.client.ZAddNX(ctx, s.keys.listings(), redis.Z{Score: float64(time.Now().UnixMilli()), Member: room}).Err()
	return wrap("show "+room, err)
}

// Listings implements store.Store. Codes whose listing data is gone (the
// room expired) are skipped and removed from the index. (If such a room's
// code is reused and shown again while Listings runs, its entry may be
// removed too; the next SetListing puts it back.)
func (s *Store) Listings(ctx context.Context, limit int) ([]store.Listing, error) {
	out := []store.Listing{}
	if limit <= 0 {
		return out, nil
	}
	batch := int64(max(limit, 16))
	var stale []any
	for start := int64(0); len(out) < limit; start += batch {
		codes, err := s.client.ZRange(ctx, s.keys.listings(), start, start+batch-1).Result()
		if err != nil {
			return nil, wrap("listings", err)
		}
		if len(codes) == 0 {
			break
		}
		// One pipeline; a Cluster client splits it by slot.
		cmds := make([]*redis.StringCmd, len(codes))
		_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, code := range codes {
				cmds[i] = p.Get(ctx, s.keys.listing(code))
			}
			return nil
		})
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, wrap("listings", err)
		}
		for i, cmd := range cmds {
			data, err := cmd.Result()
			switch {
			case errors.Is(err, redis.Nil):
				stale = append(stale, codes[i])
			case err != nil:
				return nil, wrap("listings", err)
			case len(out) < limit:
				out = append(out, store.Listing{Room: codes[i], Data: []byte(data)})
			}
		}
		if int64(len(codes)) < batch {
			break
		}
	}
	if len(stale) > 0 {
		if err := s.client.ZRem(ctx, s.keys.listings(), stale...).Err(); err != nil {
			return nil, wrap("listings", err)
		}
	}
	return out, nil
}

// Pair implements store.Store.
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

// Unpair implements store.Store.
func (s *Store) Unpair(ctx context.Context, key, ticket string) (bool, error) {
	n, err := s.client.LRem(ctx, s.keys.queue(key), 0, ticket).Result()
	if err != nil {
		return false, wrap("unpair", err)
	}
	return n > 0, nil
}

// Notify implements store.Store.
func (s *Store) Notify(ctx context.Context, topic string, data []byte) error {
	return wrap("notify", s.client.Publish(ctx, s.keys.topic(topic), data).Err())
}

// Listen implements store.Store.
func (s *Store) Listen(ctx context.Context, topic string) (store.Subscription, error) {
	return s.fan.subscribe(ctx, s.keys.topic(topic), decodeNotice)
}

// Ping checks both the command connections and the shared pub/sub
// connection (a PING through it and its PONG back).
func (s *Store) Ping(ctx context.Context) error {
	if err := s.client.Ping(ctx).Err(); err != nil {
		return wrap("ping", err)
	}
	return s.fan.roundTrip(ctx)
}

// Close ends every subscription and closes the pub/sub connection. It does
// not close the client given to New.
func (s *Store) Close() error {
	return s.fan.close()
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
