package redisstore

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Group commit of appends. A room appends one move at a time (its hub waits
// for the store before it sends the move's ack), but many rooms append at
// once: rather than a round trip of its own for each (a write and a read on
// each side, and the pool's check of the connection), the appends that
// arrive while others are on their way go together in one pipeline. The
// order of each room's appends is kept (a room has at most one waiting),
// and each Append returns only once Redis has answered its own script: an
// ack still means the event is stored. With nothing waiting, an Append goes
// out at once, alone.
//
// The flushers are goroutines started when an Append finds fewer than
// maxFlushers at work; each sends pipelines until the queue is empty and
// then ends, so nothing outlives the calls (Close has nothing to stop).
const (
	// maxBatch bounds the appends of one pipeline.
	maxBatch = 128
	// maxFlushers is how many pipelines of appends may be on their way at
	// once: the second takes what came while the first is out, so that one
	// slow reply does not hold every room.
	maxFlushers = 2
)

// appendCall is one Append waiting for its pipeline.
type appendCall struct {
	ctx  context.Context
	keys []string
	args []any
	done chan struct{} // closed once v and err are set
	v    int64
	err  error
}

// batcher queues appends and sends them in pipelines (see above).
type batcher struct {
	client redis.UniversalClient
	script *redis.Script

	mu       sync.Mutex
	queue    []*appendCall
	flushers int
}

// do runs the script with keys and args in the next pipeline and returns
// its reply; or ctx's error if ctx ends first (the script may then run or
// not, as when a reply is lost).
func (b *batcher) do(ctx context.Context, keys []string, args []any) (int64, error) {
	c := &appendCall{ctx: ctx, keys: keys, args: args, done: make(chan struct{})}
	b.mu.Lock()
	b.queue = append(b.queue, c)
	start := b.flushers < maxFlushers
	if start {
		b.flushers++
	}
	b.mu.Unlock()
	if start {
		go b.flush()
	}
	select {
	case <-c.done:
		return c.v, c.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// flush sends the queue's appends, up to maxBatch a pipeline, until it is
// empty.
func (b *batcher) flush() {
	for {
		b.mu.Lock()
		n := min(len(b.queue), maxBatch)
		if n == 0 {
			b.flushers--
			b.mu.Unlock()
			return
		}
		batch := make([]*appendCall, n)
		copy(batch, b.queue)
		rest := copy(b.queue, b.queue[n:])
		clear(b.queue[rest:])
		b.queue = b.queue[:rest]
		b.mu.Unlock()
		b.send(batch)
	}
}

// send runs one pipeline: EVALSHA for each append whose caller still
// waits, then EVAL for those Redis did not have the script for.
func (b *batcher) send(batch []*appendCall) {
	ctx, cancel := batchContext(batch)
	defer cancel()
	cmds := make([]*redis.Cmd, len(batch))
	b.pipeline(ctx, batch, cmds, func(p redis.Pipeliner, c *appendCall) *redis.Cmd {
		if err := c.ctx.Err(); err != nil {
			c.err = err // its caller is gone: not sent
			return nil
		}
		return b.script.EvalSha(ctx, p, c.keys, c.args...)
	})
	b.pipeline(ctx, batch, cmds, func(p redis.Pipeliner, c *appendCall) *redis.Cmd {
		return b.script.Eval(ctx, p, c.keys, c.args...)
	})
	for i, c := range batch {
		if cmds[i] != nil {
			c.v, c.err = cmds[i].Int64()
		}
		close(c.done)
	}
}

// pipeline sends, in one pipeline, cmd(c) for each call of batch that has
// no command yet or whose command failed for want of the script (NOSCRIPT:
// it did not run).
func (b *batcher) pipeline(ctx context.Context, batch []*appendCall, cmds []*redis.Cmd, cmd func(redis.Pipeliner, *appendCall) *redis.Cmd) {
	var todo []int
	for i, c := range batch {
		if c.err == nil && (cmds[i] == nil || redis.HasErrorPrefix(cmds[i].Err(), "NOSCRIPT")) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return
	}
	// Each command's error is its own (a lost connection fails them all).
	_, _ = b.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, i := range todo {
			cmds[i] = cmd(p, batch[i])
		}
		return nil
	})
}

// batchContext lasts as long as the batch's longest caller may wait: until
// its latest deadline, or without one if a caller has none.
func batchContext(batch []*appendCall) (context.Context, context.CancelFunc) {
	var last time.Time
	for _, c := range batch {
		d, ok := c.ctx.Deadline()
		if !ok {
			return context.WithCancel(context.Background())
		}
		if d.After(last) {
			last = d
		}
	}
	return context.WithDeadline(context.Background(), last)
}
