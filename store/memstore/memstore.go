package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"golfsolitaire/store"
)

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// HistoryLen is how many events of each room are kept for Since.
	// Default 1000.
	HistoryLen int
	// RoomTTL is how long a room is kept after its last Append, unless
	// Expire said otherwise. Default 24h.
	RoomTTL time.Duration
	// Now tells the time (tests pass a fake clock). Default time.Now.
	Now func() time.Time
	// Buffer is the size of each subscriber's channel. Default 64.
	Buffer int
	// Replay folds the events after a room's last snapshot in Load. With
	// it, Append writes a room's snapshot only every SnapshotEvery events
	// (store.SnapshotDue); without it, on every Append.
	Replay store.Replay
	// SnapshotEvery is how many events apart snapshots are written when
	// Replay is set. Default 32; at most HistoryLen.
	SnapshotEvery int
}

// sweepEvery bounds how often Create and Append scan all rooms for expired
// ones.
const sweepEvery = time.Minute

// ErrClosed is returned by calls on a closed Store.
var ErrClosed = fmt.Errorf("memstore: closed: %w", store.ErrUnavailable)

// Store is an in-memory store.Store.
type Store struct {
	opts Options

	mu        sync.Mutex
	rooms     map[string]*room
	listed    map[string]listing // by room code
	listSeq   int64
	queues    map[string][]string          // Pair queues by key
	leases    map[string]lease             // by key
	subs      map[string]map[*sub]struct{} // by topic (roomTopic or listenTopic)
	lastSweep time.Time
	closed    bool

	tour       tournaments // tournament.go
	*SeedPools             // seeds.go
	outbox     outbox      // outbox.go
	*Inboxes               // inbox.go
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

type room struct {
	version  int64
	snapshot []byte // at version snapV
	snapV    int64
	log      []store.Entry // the last HistoryLen entries, oldest first
	ttl      time.Duration
	expires  time.Time
	bots     map[string]*botRecord // SetBot records by bot id (bots.go)
}

type lease struct {
	owner   string
	expires time.Time
}

type listing struct {
	data []byte
	seq  int64 // order of the first SetListing
}

// New returns an empty Store.
func New(opts Options) *Store {
	if opts.HistoryLen <= 0 {
		opts.HistoryLen = 1000
	}
	if opts.RoomTTL <= 0 {
		opts.RoomTTL = 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Buffer <= 0 {
		opts.Buffer = 64
	}
	if opts.SnapshotEvery <= 0 {
		opts.SnapshotEvery = 32
	}
	opts.SnapshotEvery = min(opts.SnapshotEvery, opts.HistoryLen)
	if opts.Replay == nil {
		opts.SnapshotEvery = 1
	}
	return &Store{
		SeedPools: NewSeedPools(),
		Inboxes:   NewInboxes(opts.Now),
		opts:      opts,
		rooms:     make(map[string]*room),
		listed:    make(map[string]listing),
		queues:    make(map[string][]string),
		leases:    make(map[string]lease),
		subs:      make(map[string]map[*sub]struct{}),
		lastSweep: opts.Now(),
	}
}

func roomTopic(room string) string    { return "room:" + room }
func listenTopic(topic string) string { return "topic:" + topic }

// live returns the room if it exists and has not expired, removing it if it
// has. Callers hold s.mu.
func (s *Store) live(code string, now time.Time) *room {
	r := s.rooms[code]
	if r == nil {
		return nil
	}
	if !now.Before(r.expires) {
		s.remove(code)
		return nil
	}
	return r
}

// lockOpen takes s.mu for a call on the store. It returns ctx's error, or
// ErrClosed once Close has run, without the lock; nil with s.mu held, for
// the caller to release.
func (s *Store) lockOpen(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// checkOpen reports what lockOpen would, without keeping the lock: for
// the calls that take another lock (the tournaments') or none.
func (s *Store) checkOpen(ctx context.Context) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	s.mu.Unlock()
	return nil
}

func (s *Store) remove(code string) {
	delete(s.rooms, code)
	delete(s.listed, code)
}

// sweep removes expired rooms, at most once per sweepEvery. Callers hold
// s.mu.
func (s *Store) sweep(now time.Time) {
	if now.Sub(s.lastSweep) < sweepEvery {
		return
	}
	s.lastSweep = now
	for code, r := range s.rooms {
		if !now.Before(r.expires) {
			s.remove(code)
		}
	}
	for key, l := range s.leases {
		if !now.Before(l.expires) {
			delete(s.leases, key)
		}
	}
}

// Create implements store.RoomLog.
func (s *Store) Create(ctx context.Context, code string, snapshot []byte, first []byte) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	now := s.opts.Now()
	s.sweep(now)
	if s.live(code, now) != nil {
		return fmt.Errorf("memstore: create %q: %w", code, store.ErrExists)
	}
	e := store.Entry{Version: 1, Data: clone(first)}
	s.rooms[code] = &room{
		version:  1,
		snapshot: clone(snapshot),
		snapV:    1,
		log:      []store.Entry{e},
		ttl:      s.opts.RoomTTL,
		expires:  now.Add(s.opts.RoomTTL),
	}
	s.publish(roomTopic(code), e)
	return nil
}

// Load implements store.RoomLog.
func (s *Store) Load(ctx context.Context, code string) (store.Snapshot, error) {
	if err := s.lockOpen(ctx); err != nil {
		return store.Snapshot{}, err
	}
	defer s.mu.Unlock()
	r := s.live(code, s.opts.Now())
	if r == nil {
		return store.Snapshot{}, fmt.Errorf("memstore: load %q: %w", code, store.ErrNotFound)
	}
	if r.snapV == r.version {
		return store.Snapshot{Version: r.version, Data: clone(r.snapshot)}, nil
	}
	// The events after the snapshot: the log holds them (SnapshotEvery is
	// at most HistoryLen).
	tail := r.log[r.snapV+1-r.log[0].Version:]
	evs := make([]store.Entry, len(tail))
	for i, e := range tail {
		evs[i] = store.Entry{Version: e.Version, Data: clone(e.Data)}
	}
	data, err := s.opts.Replay(code, clone(r.snapshot), evs)
	if err != nil {
		return store.Snapshot{}, fmt.Errorf("memstore: load %q: replaying %d events after version %d: %w", code, len(evs), r.snapV, err)
	}
	return store.Snapshot{Version: r.version, Data: data}, nil
}

// Append implements store.RoomLog.
func (s *Store) Append(ctx context.Context, code string, expect int64, snapshot []byte, events ...[]byte) (int64, error) {
	if err := s.lockOpen(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	return s.appendLocked(code, expect, snapshot, events)
}

// appendLocked is Append, s.mu held.
func (s *Store) appendLocked(code string, expect int64, snapshot []byte, events [][]byte) (int64, error) {
	now := s.opts.Now()
	s.sweep(now)
	r := s.live(code, now)
	if r == nil {
		return 0, fmt.Errorf("memstore: append %q: %w", code, store.ErrNotFound)
	}
	if r.version != expect {
		return 0, fmt.Errorf("memstore: append %q at %d, room at %d: %w", code, expect, r.version, store.ErrConflict)
	}
	if store.SnapshotDue(s.opts.SnapshotEvery, expect, len(events)) {
		r.snapshot, r.snapV = clone(snapshot), expect+int64(len(events))
	}
	topic := roomTopic(code)
	for _, data := range events {
		r.version++
		e := store.Entry{Version: r.version, Data: clone(data)}
		r.log = append(r.log, e)
		s.publish(topic, e)
	}
	if n := len(r.log) - s.opts.HistoryLen; n > 0 {
		// Clear the dropped entries so their data can be collected; append
		// reallocates the slice from time to time, copying only the tail.
		clear(r.log[:n])
		r.log = r.log[n:]
	}
	r.expires = now.Add(r.ttl)
	return r.version, nil
}

// Since implements store.RoomLog.
func (s *Store) Since(ctx context.Context, code string, v int64) ([]store.Entry, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	r := s.live(code, s.opts.Now())
	if r == nil {
		return nil, fmt.Errorf("memstore: since %q: %w", code, store.ErrNotFound)
	}
	v = max(v, 0)
	switch {
	case v == r.version:
		return []store.Entry{}, nil
	case v > r.version:
		return nil, fmt.Errorf("memstore: since %q: version %d is ahead of the room at %d: %w", code, v, r.version, store.ErrTooOld)
	case len(r.log) == 0 || r.log[0].Version > v+1:
		return nil, fmt.Errorf("memstore: since %q: version %d: %w", code, v, store.ErrTooOld)
	}
	tail := r.log[v+1-r.log[0].Version:]
	out := make([]store.Entry, len(tail))
	for i, e := range tail {
		out[i] = store.Entry{Version: e.Version, Data: clone(e.Data)}
	}
	return out, nil
}

// Subscribe implements store.Bus.
func (s *Store) Subscribe(ctx context.Context, code string) (store.Subscription, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if s.live(code, s.opts.Now()) == nil {
		return nil, fmt.Errorf("memstore: subscribe %q: %w", code, store.ErrNotFound)
	}
	return s.subscribe(ctx, roomTopic(code)), nil
}

// Expire implements store.RoomLog.
func (s *Store) Expire(ctx context.Context, code string, ttl time.Duration) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	now := s.opts.Now()
	r := s.live(code, now)
	if r == nil {
		return fmt.Errorf("memstore: expire %q: %w", code, store.ErrNotFound)
	}
	if ttl <= 0 {
		s.remove(code)
		return nil
	}
	r.ttl = ttl
	r.expires = now.Add(ttl)
	return nil
}

// SetListing implements store.Lobby.
func (s *Store) SetListing(ctx context.Context, code string, data []byte) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if data == nil {
		delete(s.listed, code)
		return nil
	}
	if s.live(code, s.opts.Now()) == nil {
		return fmt.Errorf("memstore: list %q: %w", code, store.ErrNotFound)
	}
	l, ok := s.listed[code]
	if !ok {
		s.listSeq++
		l.seq = s.listSeq
	}
	l.data = clone(data)
	s.listed[code] = l
	return nil
}

// Listings implements store.Lobby.
func (s *Store) Listings(ctx context.Context, limit int) ([]store.Listing, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if limit <= 0 {
		return []store.Listing{}, nil
	}
	now := s.opts.Now()
	type seqListing struct {
		seq int64
		store.Listing
	}
	var all []seqListing
	for code, l := range s.listed {
		if s.live(code, now) == nil {
			continue // live removed the listing too
		}
		all = append(all, seqListing{l.seq, store.Listing{Room: code, Data: clone(l.data)}})
	}
	slices.SortFunc(all, func(a, b seqListing) int { return cmp.Compare(b.seq, a.seq) }) // newest first
	out := make([]store.Listing, 0, min(limit, len(all)))
	for _, l := range all {
		if len(out) >= limit {
			break
		}
		out = append(out, l.Listing)
	}
	return out, nil
}

// Pair implements store.Matchmaker.
func (s *Store) Pair(ctx context.Context, key, ticket string) (string, bool, error) {
	if err := s.lockOpen(ctx); err != nil {
		return "", false, err
	}
	defer s.mu.Unlock()
	q := s.queues[key]
	switch {
	case len(q) == 0:
		s.queues[key] = []string{ticket}
		return "", false, nil
	case q[0] == ticket:
		return "", false, nil // already waiting
	}
	partner := q[0]
	if len(q) == 1 {
		delete(s.queues, key)
	} else {
		s.queues[key] = q[1:]
	}
	return partner, true, nil
}

// Unpair implements store.Matchmaker.
func (s *Store) Unpair(ctx context.Context, key, ticket string) (bool, error) {
	if err := s.lockOpen(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	q := s.queues[key]
	i := slices.Index(q, ticket)
	if i < 0 {
		return false, nil
	}
	q = slices.Delete(q, i, i+1)
	if len(q) == 0 {
		delete(s.queues, key)
	} else {
		s.queues[key] = q
	}
	return true, nil
}

// Notify implements store.Bus.
func (s *Store) Notify(ctx context.Context, topic string, data []byte) error {
	return s.notify(ctx, listenTopic(topic), data)
}

// NotifyRoom implements store.Bus.
func (s *Store) NotifyRoom(ctx context.Context, code string, data []byte) error {
	return s.notify(ctx, roomTopic(code), data)
}

// notify publishes data as an entry of version 0 on the internal topic.
func (s *Store) notify(ctx context.Context, topic string, data []byte) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.publish(topic, store.Entry{Data: clone(data)})
	return nil
}

// Listen implements store.Bus.
func (s *Store) Listen(ctx context.Context, topic string) (store.Subscription, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return s.subscribe(ctx, listenTopic(topic)), nil
}

// Ping implements store.Store.
func (s *Store) Ping(ctx context.Context) error { return s.checkOpen(ctx) }

// SnapshotEvery is how many events apart Append writes snapshots (1
// without a Replay).
func (s *Store) SnapshotEvery() int { return s.opts.SnapshotEvery }

// Close ends every subscription; later calls return ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	for topic, set := range s.subs {
		for sb := range set {
			sb.end()
		}
		delete(s.subs, topic)
	}
	return nil
}

// publish hands e to every subscriber of topic without waiting: a
// subscriber whose buffer is full misses it. Callers hold s.mu.
func (s *Store) publish(topic string, e store.Entry) {
	for sb := range s.subs[topic] {
		select {
		case sb.c <- e:
		default:
		}
	}
}

// subscribe registers a subscriber. Callers hold s.mu.
func (s *Store) subscribe(ctx context.Context, topic string) *sub {
	sb := &sub{s: s, topic: topic, c: make(chan store.Entry, s.opts.Buffer)}
	set := s.subs[topic]
	if set == nil {
		set = make(map[*sub]struct{})
		s.subs[topic] = set
	}
	set[sb] = struct{}{}
	sb.stop = context.AfterFunc(ctx, func() { _ = sb.Close() })
	return sb
}

// sub is a subscription. Sends and the close of c both happen under s.mu,
// so they never race.
type sub struct {
	s     *Store
	topic string
	c     chan store.Entry
	stop  func() bool
	done  bool // c is closed; guarded by s.mu
}

func (sb *sub) C() <-chan store.Entry { return sb.c }

func (sb *sub) Close() error {
	sb.s.mu.Lock()
	defer sb.s.mu.Unlock()
	if sb.done {
		return nil
	}
	if set := sb.s.subs[sb.topic]; set != nil {
		delete(set, sb)
		if len(set) == 0 {
			delete(sb.s.subs, sb.topic)
		}
	}
	sb.end()
	return nil
}

// end closes the channel. Callers hold s.mu.
func (sb *sub) end() {
	if sb.done {
		return
	}
	sb.done = true
	close(sb.c)
	if sb.stop != nil {
		sb.stop()
	}
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// Len reports how many rooms are held, expired or not (for tests and
// metrics).
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.rooms)
}
