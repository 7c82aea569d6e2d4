package memstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golfsolitaire/store"
)

// Inboxes is store.Inboxes in memory, for one process.
type Inboxes struct {
	now   func() time.Time
	mu    sync.Mutex
	boxes map[string]*inbox
	swept time.Time
}

type inbox struct {
	items   []store.InboxItem // newest first
	expires time.Time
}

var _ store.Inboxes = (*Inboxes)(nil)

// NewInboxes returns empty inboxes on the clock now (time.Now for nil).
func NewInboxes(now func() time.Time) *Inboxes {
	if now == nil {
		now = time.Now
	}
	return &Inboxes{now: now, boxes: map[string]*inbox{}}
}

func checkInbox(box string) error {
	if box == "" || strings.ContainsAny(box, "{}") {
		return fmt.Errorf("memstore: bad inbox name %q", box)
	}
	return nil
}

// live returns the inbox if it has not expired (forgetting it if it has);
// call with the lock held. Now and then it forgets every expired inbox.
func (b *Inboxes) live(box string) *inbox {
	now := b.now()
	if now.Sub(b.swept) > sweepEvery {
		b.swept = now
		for k, in := range b.boxes {
			if !now.Before(in.expires) {
				delete(b.boxes, k)
			}
		}
	}
	in := b.boxes[box]
	if in != nil && !now.Before(in.expires) {
		delete(b.boxes, box)
		return nil
	}
	return in
}

// Deliver implements store.Inboxes.
func (b *Inboxes) Deliver(_ context.Context, box, id string, item []byte, max int, ttl time.Duration) error {
	if err := checkInbox(box); err != nil {
		return err
	}
	if max <= 0 || ttl <= 0 {
		return fmt.Errorf("memstore: deliver to %s: max %d and ttl %v must be positive", box, max, ttl)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	in := b.live(box)
	if in == nil {
		in = &inbox{}
	}
	items := slices.DeleteFunc(slices.Clone(in.items), func(it store.InboxItem) bool { return it.ID == id })
	if len(items) >= max {
		return store.ErrInboxFull
	}
	in.items = append([]store.InboxItem{{ID: id, Data: slices.Clone(item)}}, items...)
	in.expires = b.now().Add(ttl)
	b.boxes[box] = in
	return nil
}

// Inbox implements store.Inboxes.
func (b *Inboxes) Inbox(_ context.Context, box string) ([]store.InboxItem, error) {
	if err := checkInbox(box); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []store.InboxItem{}
	if in := b.live(box); in != nil {
		for _, it := range in.items {
			out = append(out, store.InboxItem{ID: it.ID, Data: slices.Clone(it.Data)})
		}
	}
	return out, nil
}

// Withdraw implements store.Inboxes.
func (b *Inboxes) Withdraw(_ context.Context, box string, ids ...string) error {
	if err := checkInbox(box); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	in := b.live(box)
	if in == nil {
		return nil
	}
	in.items = slices.DeleteFunc(slices.Clone(in.items), func(it store.InboxItem) bool { return slices.Contains(ids, it.ID) })
	if len(in.items) == 0 {
		delete(b.boxes, box)
	}
	return nil
}
