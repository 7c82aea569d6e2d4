package server

import (
	"context"
	"sync"
)

// tasks are goroutines the server starts besides its hubs (a hole's best
// score, a deal's warm-up, knockout rooms, posting results to a
// tournament): each gets a context that Close cancels, and Close waits
// for them, so nothing of the server runs once it returns.
type tasks struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

func (t *tasks) init() { t.ctx, t.cancel = context.WithCancel(context.Background()) }

// goCtx runs f in a goroutine with the server's context, unless the
// server is closing; it reports whether f was started.
func (t *tasks) goCtx(f func(ctx context.Context)) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.wg.Go(func() { f(t.ctx) })
	return true
}

// stop cancels the tasks and waits for them.
func (t *tasks) stop() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
}
