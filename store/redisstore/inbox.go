package redisstore

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// The script of the inboxes.
var (
	//go:embed deliver.lua
	deliverLua    string
	deliverScript = redis.NewScript(deliverLua)
)

// inboxItems is the hash of an inbox's items by id, inboxOrder the list
// of their ids, newest first: "golf:inbox:{box}:items" and ":order", one
// hash tag, so one inbox is one slot.
func (k keys) inboxItems(box string) string { return k.prefix + "inbox:{" + box + "}:items" }
func (k keys) inboxOrder(box string) string { return k.prefix + "inbox:{" + box + "}:order" }

func checkInbox(box string) error {
	if box == "" || strings.ContainsAny(box, "{}") {
		return fmt.Errorf("redisstore: bad inbox name %q", box)
	}
	return nil
}

// Deliver implements store.Inboxes, in one script.
func (s *Store) Deliver(ctx context.Context, box, id string, item []byte, most int, ttl time.Duration) error {
	if err := checkInbox(box); err != nil {
		return err
	}
	if most <= 0 || ttl <= 0 {
		return fmt.Errorf("redisstore: deliver to %s: max %d and ttl %v must be positive", box, most, ttl)
	}
	ms := max(ttl.Milliseconds(), 1)
	ok, err := deliverScript.Run(ctx, s.client, []string{s.keys.inboxItems(box), s.keys.inboxOrder(box)}, id, item, most, ms).Int64()
	if err != nil {
		return wrap("deliver to "+box, err)
	}
	if ok == 0 {
		return store.ErrInboxFull
	}
	return nil
}

// Inbox implements store.Inboxes: the order and the items read in one
// transaction.
func (s *Store) Inbox(ctx context.Context, box string) ([]store.InboxItem, error) {
	if err := checkInbox(box); err != nil {
		return nil, err
	}
	var order *redis.StringSliceCmd
	var items *redis.MapStringStringCmd
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		order = p.LRange(ctx, s.keys.inboxOrder(box), 0, -1)
		items = p.HGetAll(ctx, s.keys.inboxItems(box))
		return nil
	})
	if err != nil {
		return nil, wrap("inbox "+box, err)
	}
	out := []store.InboxItem{}
	data := items.Val()
	for _, id := range order.Val() {
		if d, ok := data[id]; ok {
			out = append(out, store.InboxItem{ID: id, Data: []byte(d)})
		}
	}
	return out, nil
}

// Withdraw implements store.Inboxes, in one transaction.
func (s *Store) Withdraw(ctx context.Context, box string, ids ...string) error {
	if err := checkInbox(box); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HDel(ctx, s.keys.inboxItems(box), ids...)
		for _, id := range ids {
			p.LRem(ctx, s.keys.inboxOrder(box), 0, id)
		}
		return nil
	})
	return wrap("withdraw from "+box, err)
}
