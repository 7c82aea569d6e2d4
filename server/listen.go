package server

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"golfsolitaire/store"
)

// How long a listener waits before it listens again, once the store could
// not listen (it is down) or ended its subscription: relistenFirst,
// doubling to relistenMax while it keeps failing.
const (
	relistenFirst = 100 * time.Millisecond
	relistenMax   = 5 * time.Second
)

// errSubscriptionEnded is why a listener listens again after its
// subscription ended.
var errSubscriptionEnded = errors.New("the subscription ended")

// keepListening hands each notice on topic to handle, in order, on the
// caller's goroutine, until ctx ends or stop closes (a nil stop never
// does). It listens again whenever the store cannot listen or ends the
// subscription: a listener that gave up at its first failure would miss
// its notices for the rest of the process's life (the other instances'
// counts, the held marks `golf worker` processes ask for, a room's
// reactions). It starts with sub when not nil: a subscription the caller
// made before going on, so that what came after it is heard. Notices
// sent while it is not listening are missed, as notices may be
// (store.Bus.Notify). What went wrong is logged at level (at Debug while
// it goes on), and listening again after it at level too.
func (s *Server) keepListening(ctx context.Context, stop <-chan struct{}, topic string, level slog.Level, sub store.Subscription, handle func(store.Entry)) {
	wait, failed := relistenFirst, false
	for {
		var err error
		if sub == nil {
			sub, err = s.store.Listen(ctx, topic)
		}
		if err == nil {
			if failed {
				s.log.Log(ctx, level, "listening again", "topic", topic)
			}
			failed = false
			ended := s.drain(ctx, stop, sub, handle)
			sub = nil
			if !ended {
				return
			}
			err = errSubscriptionEnded
		}
		select {
		case <-ctx.Done():
			return
		case <-stop:
			return
		default:
		}
		lvl := level
		if failed {
			lvl, wait = slog.LevelDebug, min(2*wait, relistenMax)
		} else {
			wait = relistenFirst
		}
		failed = true
		s.log.Log(ctx, lvl, "cannot listen; trying again", "topic", topic, "err", err, "in", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// drain hands sub's entries to handle until the subscription ends (true)
// or ctx ends or stop closes (false), and closes it.
func (s *Server) drain(ctx context.Context, stop <-chan struct{}, sub store.Subscription, handle func(store.Entry)) bool {
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-stop:
			return false
		case e, ok := <-sub.C():
			if !ok {
				return ctx.Err() == nil
			}
			handle(e)
		}
	}
}
