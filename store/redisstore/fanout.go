package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// How the receive loop waits: it reads with a timeout so that an idle
// connection is pinged, and backs off while Redis cannot be reached.
const (
	receiveTimeout = 30 * time.Second
	minBackoff     = 20 * time.Millisecond
	maxBackoff     = time.Second
	// pingTimeout bounds Ping and Subscribe when their context has no
	// deadline.
	pingTimeout = 5 * time.Second
)

// errConnLost ends a round trip whose connection broke.
var errConnLost = errors.New("pub/sub connection lost")

// fanout shares one pub/sub connection between all the subscriptions of a
// Store: it subscribes a channel when its first local subscriber comes and
// unsubscribes when the last one leaves, and one goroutine (run) hands each
// message to the channel's subscribers without waiting for them.
type fanout struct {
	ps     *redis.PubSub
	buffer int
	// sharded: SSUBSCRIBE and SUNSUBSCRIBE (a Cluster's sharded pub/sub,
	// every channel of this fanout on one node) instead of SUBSCRIBE.
	sharded bool
	// lost is called when the connection breaks (a Cluster client then
	// reloads its slot map, so the reconnection finds the new master).
	lost func()
	// retired, when set, is called once the last channel is gone; the
	// fanout then closes (a shard fanout; see newShardFanout).
	retired func(*fanout)
	ctx     context.Context // canceled by close
	cancel  context.CancelFunc
	done    chan struct{} // closed when run returns
	pings   atomic.Int64

	// opMu orders SUBSCRIBE and UNSUBSCRIBE with the reference counts:
	// it is held across the decision and the command. Lock order: opMu,
	// then mu.
	opMu sync.Mutex
	// mu guards the maps, the subscriptions' done flags and the sends on
	// their channels; run holds it only while dispatching.
	mu       sync.Mutex
	channels map[string]map[*subscription]struct{}
	pongs    map[string]chan error // pending round trips by PING payload
	closed   bool
}

func newFanout(client redis.UniversalClient, buffer int) *fanout {
	ctx, cancel := context.WithCancel(context.Background())
	return startFanout(ctx, cancel, client.Subscribe(ctx), buffer, false, nil) // no channel yet: connects lazily
}

// newShardFanout is a fanout for the sharded channels of one Cluster node:
// its connection goes to the master of its channels' slot (go-redis picks
// the node from a subscribed channel, also when it reconnects after a
// failover).
//
// It subscribes channel before anything else, so that its connection is
// made to that channel's master; when its last channel is unsubscribed it
// retires (retired is called, and it closes): a new one is made for the
// next channel, rather than reconnecting without a channel to a random
// node.
func newShardFanout(ctx context.Context, client *redis.ClusterClient, buffer int, channel string, retired func(*fanout)) (*fanout, error) {
	ps := client.SSubscribe(context.WithoutCancel(ctx))
	if err := ps.SSubscribe(ctx, channel); err != nil {
		_ = ps.Close()
		return nil, err
	}
	fctx, cancel := context.WithCancel(context.Background())
	lost := func() { client.ReloadState(context.Background()) }
	f := startFanout(fctx, cancel, ps, buffer, true, lost)
	f.retired = retired
	return f, nil
}

func startFanout(ctx context.Context, cancel context.CancelFunc, ps *redis.PubSub, buffer int, sharded bool, lost func()) *fanout {
	f := &fanout{
		ps:       ps,
		sharded:  sharded,
		lost:     lost,
		buffer:   buffer,
		ctx:      ctx,
		cancel:   cancel,
		done:     make(chan struct{}),
		channels: make(map[string]map[*subscription]struct{}),
		pongs:    make(map[string]chan error),
	}
	go f.run()
	return f
}

// run receives from the pub/sub connection until close. On a broken
// connection go-redis reconnects and resubscribes at the next receive;
// what was published in between is lost (subscribers see version gaps).
func (f *fanout) run() {
	defer close(f.done)
	backoff := minBackoff
	for {
		msg, err := f.ps.ReceiveTimeout(f.ctx, receiveTimeout)
		if f.ctx.Err() != nil {
			return
		}
		if err != nil {
			if f.sharded && redis.HasErrorPrefix(err, "CROSSSLOT") {
				// go-redis resubscribes a reconnected connection's sharded
				// channels in ONE SSUBSCRIBE, which Redis refuses when they
				// are in different slots (they are: one fanout serves a
				// master's rooms): subscribe them again one by one.
				f.resubscribeEach()
				continue
			}
			var netErr net.Error
			if errors.As(err, &netErr) && netErr.Timeout() {
				// Idle: a PING keeps the connection and proves it alive.
				_ = f.ps.Ping(f.ctx)
				continue
			}
			// The connection is lost (or cannot be made): PINGs sent on
			// it will not be answered.
			f.failPings(err)
			if f.lost != nil {
				f.lost()
			}
			select {
			case <-f.ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, maxBackoff)
			continue
		}
		backoff = minBackoff
		switch m := msg.(type) {
		case *redis.Message:
			f.dispatch(m)
		case *redis.Pong:
			f.mu.Lock()
			if c, ok := f.pongs[m.Payload]; ok {
				c <- nil
				delete(f.pongs, m.Payload)
			}
			f.mu.Unlock()
		}
	}
}

func (f *fanout) dispatch(m *redis.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	subs := f.channels[m.Channel]
	if len(subs) == 0 {
		return
	}
	var e store.Entry
	decoded := false
	for sb := range subs {
		if !decoded {
			var err error
			if e, err = sb.decode(m.Payload); err != nil {
				return // not ours; nothing sensible to deliver
			}
			decoded = true
		}
		select {
		case sb.c <- e:
		default: // too slow: it misses this entry and sees the gap
		}
	}
}

// resubscribeEach sends SSUBSCRIBE for each channel of a sharded fanout,
// one at a time.
func (f *fanout) resubscribeEach() {
	f.opMu.Lock()
	defer f.opMu.Unlock()
	f.mu.Lock()
	channels := make([]string, 0, len(f.channels))
	for ch := range f.channels {
		channels = append(channels, ch)
	}
	f.mu.Unlock()
	for _, ch := range channels {
		_ = f.ps.SSubscribe(f.ctx, ch)
	}
}

// failPings ends the pending round trips with err.
func (f *fanout) failPings(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, c := range f.pongs {
		c <- fmt.Errorf("%w: %w", errConnLost, err)
		delete(f.pongs, id)
	}
}

// roundTrip sends a PING through the pub/sub connection and waits for its
// PONG, at most pingTimeout. Redis answers a connection's commands in
// order, so once the PONG is back every SUBSCRIBE sent before it is in
// effect.
func (f *fanout) roundTrip(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	id := "golf-ping-" + strconv.FormatInt(f.pings.Add(1), 10)
	pong := make(chan error, 1)
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return ErrClosed
	}
	f.pongs[id] = pong
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.pongs, id)
		f.mu.Unlock()
	}()
	if err := f.ps.Ping(ctx, id); err != nil {
		return wrap("pub/sub ping", err)
	}
	select {
	case err := <-pong:
		return wrap("pub/sub ping", err)
	case <-f.ctx.Done():
		return ErrClosed
	case <-ctx.Done():
		return wrap("pub/sub ping", fmt.Errorf("no answer: %w", ctx.Err()))
	}
}

// subscribe starts delivering channel's messages, decoded by decode, to a
// new subscription. It returns once Redis has the subscription.
func (f *fanout) subscribe(ctx context.Context, channel string, decode func(string) (store.Entry, error)) (*subscription, error) {
	sb := &subscription{f: f, channel: channel, decode: decode, c: make(chan store.Entry, f.buffer)}
	f.opMu.Lock()
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		f.opMu.Unlock()
		return nil, ErrClosed
	}
	set := f.channels[channel]
	first := set == nil
	if first {
		set = make(map[*subscription]struct{})
		f.channels[channel] = set
	}
	set[sb] = struct{}{}
	sb.stop = context.AfterFunc(ctx, func() { _ = sb.Close() })
	f.mu.Unlock()
	var err error
	if first {
		if f.sharded {
			err = f.ps.SSubscribe(ctx, channel)
		} else {
			err = f.ps.Subscribe(ctx, channel)
		}
	}
	f.opMu.Unlock()
	// If the connection breaks meanwhile, go-redis resubscribes on the new
	// one before anything else is sent: try again.
	for try := 0; err == nil; try++ {
		err = f.roundTrip(ctx)
		if err == nil || try == 2 || ctx.Err() != nil || !errors.Is(err, errConnLost) {
			break
		}
		err = nil
	}
	if err != nil {
		_ = sb.Close()
		return nil, wrap("subscribe", err)
	}
	return sb, nil
}

// close ends every subscription and the receive loop.
func (f *fanout) close() error {
	f.opMu.Lock()
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		f.opMu.Unlock()
		return nil
	}
	f.closed = true
	for channel, set := range f.channels {
		for sb := range set {
			sb.end()
		}
		delete(f.channels, channel)
	}
	f.mu.Unlock()
	f.opMu.Unlock()
	return f.shutdown()
}

// shutdown ends the receive loop and closes the connection.
func (f *fanout) shutdown() error {
	f.cancel()
	err := f.ps.Close()
	<-f.done
	if errors.Is(err, redis.ErrClosed) {
		err = nil
	}
	return err
}

// subscription is a store.Subscription fed by a fanout.
type subscription struct {
	f       *fanout
	channel string
	decode  func(string) (store.Entry, error)
	c       chan store.Entry
	stop    func() bool // stops the context's AfterFunc; guarded by f.mu
	done    bool        // c is closed; guarded by f.mu
}

func (sb *subscription) C() <-chan store.Entry { return sb.c }

// Close ends the subscription; the last subscriber of a channel
// unsubscribes it.
func (sb *subscription) Close() error {
	f := sb.f
	f.opMu.Lock()
	defer f.opMu.Unlock()
	f.mu.Lock()
	if sb.done {
		f.mu.Unlock()
		return nil
	}
	sb.end()
	set := f.channels[sb.channel]
	delete(set, sb)
	last := len(set) == 0
	if last {
		delete(f.channels, sb.channel)
	}
	retire := last && f.retired != nil && len(f.channels) == 0 && !f.closed
	if retire {
		f.closed = true // new subscribers go to a new fanout
	}
	f.mu.Unlock()
	if retire {
		f.retired(f)
		go f.shutdown()
		return nil
	}
	if !last {
		return nil
	}
	// Best effort: if Redis is unreachable, the channel is dropped from
	// the resubscription list all the same, and a stray message for it is
	// ignored by dispatch.
	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
	defer cancel()
	if f.sharded {
		_ = f.ps.SUnsubscribe(ctx, sb.channel)
	} else {
		_ = f.ps.Unsubscribe(ctx, sb.channel)
	}
	return nil
}

// end closes the channel. Callers hold f.mu.
func (sb *subscription) end() {
	if sb.done {
		return
	}
	sb.done = true
	close(sb.c)
	if sb.stop != nil {
		sb.stop()
	}
}

// decodeEntry reads a room channel's message: "<version>:<data>" (version
// 0: a NotifyRoom message).
func decodeEntry(payload string) (store.Entry, error) {
	for i := 0; i < len(payload); i++ {
		if payload[i] == ':' {
			v, err := strconv.ParseInt(payload[:i], 10, 64)
			if err != nil {
				break
			}
			return store.Entry{Version: v, Data: []byte(payload[i+1:])}, nil
		}
	}
	return store.Entry{}, fmt.Errorf("redisstore: bad event message %.20q", payload)
}

// decodeNotice reads a topic's message: the data as is.
func decodeNotice(payload string) (store.Entry, error) {
	return store.Entry{Data: []byte(payload)}, nil
}
