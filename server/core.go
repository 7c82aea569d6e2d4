package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/store"
)

// A hub keeps one room (hub.go) or one tournament (tournament_hub.go) on
// this instance: the state folded from the store's log, kept in step
// through a subscription to the log, changed and read by one goroutine,
// its loop. hubCore is the machine the two share, after centrifuge's Hub:
// the registry that starts a hub on first use and stops it with its last
// user, subscribe-then-load, commands run on the loop (typed reads,
// batched changes), the deadline timer, the resubscription after an
// outage and the periodic check for lost messages. What differs (how the
// state is decoded, changed, shown) is the hub's hubLogic.
type hubCore[B any] struct {
	s *Server // the hubs' server; the core itself uses st
	// st is the part of the store the core uses: the log it loads and the
	// bus it follows.
	st   hubStore
	key  string
	what string // "room" or "tournament", in errors
	ops  chan op[B]
	stop chan struct{}
	done chan struct{}
	refs int // guarded by the registry's mu
	sub  store.Subscription
	subC <-chan store.Entry // nil while resubscribing after an outage
	// deadline fires at the state's next deadline (schedule).
	deadline *time.Timer
	log      *slog.Logger
}

// op is work for a hub's loop: run, or a change (batch) that may share
// one store append with the changes queued after it.
type op[B any] struct {
	run   func()
	batch *B
}

// hubLogic is what every kind of hub adds to the core. Every method but
// load runs on the hub's loop. A hub may add the optional capabilities
// below (hubLifecycle, hubTimer, hubBatcher); the loop asks for them once.
type hubLogic[B any] interface {
	core() *hubCore[B]
	// load reads the state from the store (after the core subscribed, so
	// nothing is missed).
	load(ctx context.Context) error
	// entry applies an event another instance appended.
	entry(e store.Entry)
	// check runs every ResyncEvery and after a resubscription: it brings
	// the state in step with the store when a message was lost.
	check()
	// tick runs when the deadline passes.
	tick()
}

// hubLifecycle is a hub with work of its own when its loop starts
// (started runs first on the loop) and stops (stopped runs last).
type hubLifecycle interface {
	started()
	stopped()
}

// hubTimer is a hub with a timer of its own besides the deadline: timer
// is that timer (nil when unset), fired runs when it fires.
type hubTimer interface {
	timer() *time.Timer
	fired()
}

// hubBatcher is a hub whose changes are queued as batches (op.batch):
// applyBatch applies the queued changes in one store append. Only hubs
// that batch are sent batches.
type hubBatcher[B any] interface {
	applyBatch(batch []*B)
}

// hubStore is the part of the store a hub's core uses: the log it loads
// (and the hubs append to) and the bus that carries other instances'
// events.
type hubStore interface {
	store.RoomLog
	store.Bus
}

// The optional capabilities each kind of hub has.
var (
	_ hubLifecycle        = (*hub)(nil)
	_ hubTimer            = (*hub)(nil)
	_ hubLifecycle        = (*thub)(nil)
	_ hubTimer            = (*thub)(nil)
	_ hubBatcher[tchange] = (*thub)(nil)
)

func newCore[B any](s *Server, what, key string) hubCore[B] {
	return hubCore[B]{s: s, st: s.store, key: key, what: what, ops: make(chan op[B]), stop: make(chan struct{}), done: make(chan struct{}),
		log: s.log.With(what, key)}
}

// registry holds the live hubs of one kind, by key.
type registry[H hubLogic[B], B any] struct {
	s    *Server
	mu   sync.Mutex
	hubs map[string]H
	// make returns a new hub, not loaded.
	make func(key string) H
	// afterStart, when set, runs once the hub's loop has started.
	afterStart func(h H)
}

func newRegistry[H hubLogic[B], B any](s *Server, make func(string) H, afterStart func(H)) *registry[H, B] {
	return &registry[H, B]{s: s, hubs: map[string]H{}, make: make, afterStart: afterStart}
}

// acquire returns the hub of key, starting it if needed. Call release when
// done with it. Acquirers of a hub still loading wait on its ops channel,
// which the loop serves only once it is loaded.
func (r *registry[H, B]) acquire(ctx context.Context, key string) (H, error) {
	r.mu.Lock()
	if h, ok := r.hubs[key]; ok {
		h.core().refs++
		r.mu.Unlock()
		return h, nil
	}
	h := r.make(key)
	c := h.core()
	c.refs = 1
	r.hubs[key] = h
	r.mu.Unlock()
	if err := c.open(ctx, h); err != nil {
		r.mu.Lock()
		if cur, ok := r.hubs[key]; ok && cur.core() == c {
			delete(r.hubs, key)
		}
		r.mu.Unlock()
		close(c.done)
		var zero H
		return zero, err
	}
	r.s.hubLoops.Go(func() { runLoop(h) })
	if r.afterStart != nil {
		r.afterStart(h)
	}
	return h, nil
}

// release drops a reference; the last one stops the hub and waits for it.
func (r *registry[H, B]) release(h H) {
	c := h.core()
	r.mu.Lock()
	c.refs--
	last := c.refs == 0
	if cur, ok := r.hubs[c.key]; last && ok && cur.core() == c {
		delete(r.hubs, c.key)
	}
	r.mu.Unlock()
	if last {
		close(c.stop)
		<-c.done
	}
}

// all returns the live hubs.
func (r *registry[H, B]) all() []H {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]H, 0, len(r.hubs))
	for _, h := range r.hubs {
		out = append(out, h)
	}
	return out
}

// open subscribes, then loads.
func (c *hubCore[B]) open(ctx context.Context, l hubLogic[B]) error {
	sub, err := c.st.Subscribe(context.WithoutCancel(ctx), c.key)
	if err != nil {
		return err
	}
	if err := l.load(ctx); err != nil {
		sub.Close()
		return err
	}
	c.sub, c.subC = sub, sub.C()
	return nil
}

// loadState reads a hub's state from the store's snapshot: on load and on
// every resync.
func loadState[S any](ctx context.Context, st store.RoomLog, key string, decode func([]byte) (S, error)) (S, int64, error) {
	var zero S
	snap, err := st.Load(ctx, key)
	if err != nil {
		return zero, 0, err
	}
	state, err := decode(snap.Data)
	if err != nil {
		return zero, 0, err
	}
	return state, snap.Version, nil
}

func runLoop[B any](l hubLogic[B]) {
	c := l.core()
	life, _ := l.(hubLifecycle)
	own, _ := l.(hubTimer)
	defer close(c.done)
	defer func() {
		if c.sub != nil {
			c.sub.Close()
		}
		if c.deadline != nil {
			c.deadline.Stop()
		}
		if life != nil {
			life.stopped()
		}
	}()
	if life != nil {
		life.started()
	}
	poll := time.NewTicker(c.s.opts.ResyncEvery)
	defer poll.Stop()
	for {
		var deadlineC, timerC <-chan time.Time
		if c.deadline != nil {
			deadlineC = c.deadline.C
		}
		if own != nil {
			if t := own.timer(); t != nil {
				timerC = t.C
			}
		}
		select {
		case <-c.stop:
			return
		case o := <-c.ops:
			c.handle(l, o)
		case e, ok := <-c.subC:
			if !ok {
				if c.resubscribe() {
					l.check()
				}
				continue
			}
			l.entry(e)
		case <-deadlineC:
			c.deadline = nil
			l.tick()
		case <-timerC:
			own.fired()
		case <-poll.C:
			if c.subC == nil {
				c.resubscribe()
			}
			l.check()
		}
	}
}

// handle runs an op; a change takes whatever other changes are queued
// behind it (up to maxBatch) into one batch.
func (c *hubCore[B]) handle(l hubLogic[B], o op[B]) {
	if o.batch == nil {
		o.run()
		return
	}
	batch := []*B{o.batch}
	var next *op[B]
drain:
	for len(batch) < maxBatch {
		select {
		case n := <-c.ops:
			if n.batch == nil {
				next = &n
				break drain
			}
			batch = append(batch, n.batch)
		default:
			break drain
		}
	}
	// Batches are sent to hubBatchers only (a hub that does not batch
	// queues run ops).
	l.(hubBatcher[B]).applyBatch(batch)
	if next != nil {
		c.handle(l, *next)
	}
}

// resubscribe replaces a subscription the store ended (an outage), within
// a timeout. Until it works, subC is nil (a nil channel never delivers)
// and the periodic check both keeps the state in step and tries again.
func (c *hubCore[B]) resubscribe() bool {
	if c.sub != nil {
		c.sub.Close()
		c.sub = nil
	}
	c.subC = nil
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	sub, err := c.st.Subscribe(ctx, c.key)
	if err != nil {
		c.log.Warn("resubscribe failed", "err", err)
		return false
	}
	c.sub, c.subC = sub, sub.C()
	return true
}

// send queues an op on the loop.
func (c *hubCore[B]) send(ctx context.Context, o op[B]) error {
	select {
	case c.ops <- o:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return fmt.Errorf("%w: %s closed on this instance", store.ErrUnavailable, c.what)
	}
}

// do runs f on the loop and waits for it.
func (c *hubCore[B]) do(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	if err := c.send(ctx, op[B]{run: func() { f(); close(ran) }}); err != nil {
		return err
	}
	select {
	case <-ran:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// read runs f on the hub's loop and returns what it returns.
func read[T, B any](ctx context.Context, c *hubCore[B], f func() T) (T, error) {
	var v T
	if err := c.do(ctx, func() { v = f() }); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// readErr is read for an f that may refuse.
func readErr[T, B any](ctx context.Context, c *hubCore[B], f func() (T, error)) (T, error) {
	var v T
	var ferr error
	if err := c.do(ctx, func() { v, ferr = f() }); err != nil {
		var zero T
		return zero, err
	}
	return v, ferr
}

// schedule sets the deadline timer for t (when ok), a little after it.
func (c *hubCore[B]) schedule(t time.Time, ok bool) {
	if c.deadline != nil {
		c.deadline.Stop()
		c.deadline = nil
	}
	if ok {
		c.deadline = time.NewTimer(max(t.Sub(c.s.now()), 0) + 10*time.Millisecond)
	}
}

// createKey stores a new log under a fresh key: first makes the key and
// the snapshot and first event under it; a key already taken is drawn
// again (a few times).
func (s *Server) createKey(ctx context.Context, first func(key string) (snap, data []byte, err error), newKey func() string) (string, error) {
	for attempt := 0; ; attempt++ {
		key := newKey()
		snap, data, err := first(key)
		if err != nil {
			return "", err
		}
		err = s.store.Create(ctx, key, snap, data)
		if err == nil {
			return key, nil
		}
		if !errors.Is(err, store.ErrExists) || attempt > 5 {
			return "", err
		}
	}
}

// newRoomLog stores a new room with the settings (of a tournament when id
// is set) and returns its code.
func (s *Server) newRoomLog(ctx context.Context, set match.Settings, id string) (string, error) {
	return s.createKey(ctx, func(code string) ([]byte, []byte, error) {
		ev := match.Event{Kind: match.KindCreate, At: s.now(), Code: code, Settings: &set, Tournament: id}
		room, err := match.NewRoom(ev)
		if err != nil {
			return nil, nil, err
		}
		snap, err := room.Encode()
		data, _ := json.Marshal(room.Log(ev, nil))
		return snap, data, err
	}, newRoomCode)
}
