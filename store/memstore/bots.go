package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"golfsolitaire/store"
)

// botRecord is a bot's record and when it is next due.
type botRecord struct {
	data []byte
	due  time.Time
}

// SetBot implements store.Bots. The records live in the room, so they go
// away with it.
func (s *Store) SetBot(ctx context.Context, code, id string, data []byte) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	now := s.opts.Now()
	r := s.live(code, now)
	if data == nil {
		if r != nil {
			delete(r.bots, id)
		}
		return nil
	}
	if r == nil {
		return fmt.Errorf("memstore: set bot of %q: %w", code, store.ErrNotFound)
	}
	if r.bots == nil {
		r.bots = make(map[string]*botRecord)
	}
	r.bots[id] = &botRecord{data: clone(data), due: now}
	return nil
}

// DelayBot implements store.Bots.
func (s *Store) DelayBot(ctx context.Context, code, id string, at time.Time) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if r := s.live(code, s.opts.Now()); r != nil && r.bots[id] != nil {
		r.bots[id].due = at
	}
	return nil
}

// DueBots implements store.Bots.
func (s *Store) DueBots(ctx context.Context, until time.Time, limit int) ([]store.Bot, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	type due struct {
		at time.Time
		b  store.Bot
	}
	var all []due
	now := s.opts.Now()
	for code, r := range s.rooms {
		if len(r.bots) == 0 || s.live(code, now) == nil {
			continue
		}
		for id, rec := range r.bots {
			if !rec.due.After(until) {
				all = append(all, due{rec.due, store.Bot{Room: code, ID: id, Data: clone(rec.data)}})
			}
		}
	}
	slices.SortFunc(all, func(a, b due) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.b.Room, b.b.Room), cmp.Compare(a.b.ID, b.b.ID))
	})
	out := []store.Bot{}
	for _, d := range all[:min(len(all), max(limit, 0))] {
		out = append(out, d.b)
	}
	return out, nil
}

// TakeLease implements store.Leases.
func (s *Store) TakeLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := s.lockOpen(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	now := s.opts.Now()
	if l, ok := s.leases[key]; ok && now.Before(l.expires) {
		return false, nil
	}
	s.leases[key] = lease{owner: owner, expires: now.Add(ttl)}
	return true, nil
}

// RenewLease implements store.Leases.
func (s *Store) RenewLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := s.lockOpen(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	now := s.opts.Now()
	l, ok := s.leases[key]
	if !ok || l.owner != owner || !now.Before(l.expires) {
		return false, nil
	}
	s.leases[key] = lease{owner: owner, expires: now.Add(ttl)}
	return true, nil
}

// ReleaseLease implements store.Leases.
func (s *Store) ReleaseLease(ctx context.Context, key, owner string) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if l, ok := s.leases[key]; ok && l.owner == owner {
		delete(s.leases, key)
	}
	return nil
}
