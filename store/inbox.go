package store

import (
	"context"
	"errors"
	"time"
)

// ErrInboxFull: Deliver found the inbox holding its most items already
// (none of them under the new item's id); nothing changed.
var ErrInboxFull = errors.New("store: the inbox is full")

// InboxItem is one item of an inbox: its id (one item per id) and its
// opaque data.
type InboxItem struct {
	ID   string
	Data []byte
}

// Inboxes keeps small, bounded inboxes of opaque items addressed to one
// recipient (an account's challenges): records of their own kind, never
// a room's log, never replayed. Inbox names must not contain braces.
// memstore.Inboxes keeps them in memory; the Redis store implements it
// too, so that every instance on one Redis sees the same inboxes.
type Inboxes interface {
	// Deliver puts item in the inbox box under id, as its newest item: an
	// item with the same id is replaced (and becomes the newest). When
	// the inbox already holds max items, none under id, it returns
	// ErrInboxFull and changes nothing. The inbox is kept ttl from this
	// delivery (every item with it: the caller drops what it no longer
	// wants with Withdraw). max and ttl must be positive.
	Deliver(ctx context.Context, box, id string, item []byte, max int, ttl time.Duration) error
	// Inbox returns the inbox's items, newest first; none for an inbox
	// that was never delivered to, or expired.
	Inbox(ctx context.Context, box string) ([]InboxItem, error)
	// Withdraw removes the items with those ids from the inbox; ids (or
	// an inbox) that are not there are not an error.
	Withdraw(ctx context.Context, box string, ids ...string) error
}
