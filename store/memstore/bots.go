package memstore

import (
	"context"
	"fmt"
	"time"

	"golfsolitaire/store"
)

// SetBot implements store.Store. The records live in the room, so they go
// away with it.
func (s *Store) SetBot(ctx context.Context, code, id string, data []byte) error {
	if err := s.lockOpen(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r := s.live(code, s.opts.Now())
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
		r.bots = make(map[string][]byte)
	}
	r.bots[id] = clone(data)
	return nil
}

// Bots implements store.Store.
func (s *Store) Bots(ctx context.Context, limit int) ([]store.Bot, error) {
	if err := s.lockOpen(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := []store.Bot{}
	now := s.opts.Now()
	for code, r := range s.rooms {
		if len(r.bots) == 0 || s.live(code, now) == nil {
			continue
		}
		for id, data := range r.bots {
			if len(out) >= limit {
				return out, nil
			}
			out = append(out, store.Bot{Room: code, ID: id, Data: clone(data)})
		}
	}
	return out, nil
}

// TakeLease implements store.Store.
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

// RenewLease implements store.Store.
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

// ReleaseLease implements store.Store.
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
