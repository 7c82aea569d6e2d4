package server

import (
	"errors"
	"log/slog"
	"sync"
	"time"

	"golfsolitaire/store"
)

// outage logs the store's unavailability once when it starts and once
// when it ends, rather than once per room per tick: while Redis (or one
// Cluster shard) is down, every hub's listing update, every bot sweep and
// every tournament clock tick fails the same way. Other errors are logged
// each time.
type outage struct {
	mu         sync.Mutex
	down       bool
	since      time.Time
	suppressed int
}

// warn logs msg with err, unless err is store.ErrUnavailable and the
// outage was logged already.
func (o *outage) warn(log *slog.Logger, msg string, err error, args ...any) {
	if !errors.Is(err, store.ErrUnavailable) {
		log.Warn(msg, append(args, "err", err)...)
		return
	}
	o.mu.Lock()
	first := !o.down
	if first {
		o.down, o.since, o.suppressed = true, time.Now(), 0
	} else {
		o.suppressed++
	}
	o.mu.Unlock()
	if first {
		log.Warn("store unavailable: "+msg+" (further failures are not logged until the store answers again)", append(args, "err", err)...)
	}
}

// ok ends an outage (logging how long it lasted); a no-op when there is
// none.
func (o *outage) ok(log *slog.Logger) {
	o.mu.Lock()
	if !o.down {
		o.mu.Unlock()
		return
	}
	o.down = false
	d, n := time.Since(o.since), o.suppressed
	o.mu.Unlock()
	log.Info("store available again", "after", d.Round(time.Millisecond).String(), "failures_not_logged", n)
}
