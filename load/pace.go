package load

import (
	"context"
	"sync"
	"time"
)

// pacer spaces events at most rate a second: each take reserves the next
// free slot and waits for it. A nil pacer never waits.
type pacer struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

func newPacer(rate float64) *pacer {
	if rate <= 0 {
		return nil
	}
	return &pacer{interval: time.Duration(float64(time.Second) / rate)}
}

func (p *pacer) take(ctx context.Context) error {
	if p == nil {
		return ctx.Err()
	}
	p.mu.Lock()
	now := time.Now()
	// Do not bank more than one interval of idle time: a pause must not
	// turn into a burst.
	if p.next.Before(now.Add(-p.interval)) {
		p.next = now.Add(-p.interval)
	}
	p.next = p.next.Add(p.interval)
	at := p.next
	p.mu.Unlock()
	return sleep(ctx, at.Sub(now))
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
