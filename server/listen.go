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
// caller's goroutine, until ctx ends. It listens again whenever the store
// cannot listen or ends the subscription: a listener that gave up at its
// first failure would miss its notices for the rest of the process's
// life (the other instances' counts, the held marks `golf worker`
// processes ask for). Notices sent while it is not listening are missed,
// as notices may be (store.Bus.Notify). What went wrong is logged at
// level (at Debug while it goes on), and listening again after it at
// level too.
func (s *Server) keepListening(ctx context.Context, topic string, level slog.Level, handle func(store.Entry)) {
	wait, failed := relistenFirst, false
	for {
		sub, err := s.store.Listen(ctx, topic)
		if err == nil {
			if failed {
				s.log.Log(ctx, level, "listening again", "topic", topic)
			}
			failed = false
			for e := range sub.C() {
				handle(e)
			}
			sub.Close()
			err = errSubscriptionEnded
		}
		if ctx.Err() != nil {
			return
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
		case <-t.C:
		}
	}
}
