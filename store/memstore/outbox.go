package memstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"golfsolitaire/store"
)

// outbox holds the entries by room and key, under the store's lock (so
// an entry and its event are written in one step).
type outbox map[string]map[string]store.OutboxEntry

// AppendOutbox implements store.Outbox: Append and the entries under one
// hold of the store's lock.
func (s *Store) AppendOutbox(ctx context.Context, code string, expect int64, snapshot []byte, entries []store.OutboxEntry, events ...[]byte) (int64, error) {
	if err := s.lockOpen(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	v, err := s.appendLocked(code, expect, snapshot, events)
	if err != nil {
		return 0, err
	}
	if len(entries) > 0 && s.outbox == nil {
		s.outbox = outbox{}
	}
	for _, e := range entries {
		m := s.outbox[code]
		if m == nil {
			m = map[string]store.OutboxEntry{}
			s.outbox[code] = m
		}
		if _, ok := m[e.Key]; ok {
			continue
		}
		e.Room, e.Data = code, clone(e.Data)
		if e.At.IsZero() {
			e.At = s.opts.Now()
		}
		m[e.Key] = e
	}
	return v, nil
}

// PendingOutbox implements store.Outbox.
func (s *Store) PendingOutbox(ctx context.Context, limit int) ([]store.OutboxEntry, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []store.OutboxEntry{}
	for _, m := range s.outbox {
		for _, e := range m {
			e.Data = clone(e.Data)
			out = append(out, e)
		}
	}
	slices.SortFunc(out, compareEntries)
	return out[:min(len(out), max(limit, 0))], nil
}

// compareEntries orders entries by At, then room and key.
func compareEntries(a, b store.OutboxEntry) int {
	return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Room, b.Room), cmp.Compare(a.Key, b.Key))
}

// OutboxDone implements store.Outbox.
func (s *Store) OutboxDone(ctx context.Context, entries ...store.OutboxEntry) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, e := range entries {
		delete(s.outbox[e.Room], e.Key)
		if len(s.outbox[e.Room]) == 0 {
			delete(s.outbox, e.Room)
		}
	}
	return nil
}

// OutboxStats implements store.Outbox.
func (s *Store) OutboxStats(ctx context.Context) (int, time.Time, error) {
	if err := s.lockOpen(ctx); err != nil {
		return 0, time.Time{}, err
	}
	defer s.mu.Unlock()
	n, oldest := 0, time.Time{}
	for _, m := range s.outbox {
		for _, e := range m {
			n++
			if oldest.IsZero() || e.At.Before(oldest) {
				oldest = e.At
			}
		}
	}
	return n, oldest, nil
}
