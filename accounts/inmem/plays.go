package inmem

import (
	"cmp"
	"context"
	"slices"

	"golfsolitaire/accounts"
)

func (s *Store) AddPlay(_ context.Context, p accounts.Play) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[p.Account]; !ok {
		return accounts.ErrNotFound
	}
	p.Begun, p.Finished = p.Begun.UTC(), p.Finished.UTC()
	m := s.plays[p.Account]
	if m == nil {
		m = map[string]accounts.Play{}
		s.plays[p.Account] = m
	}
	if old, ok := m[p.Deal]; ok && !p.Begun.Before(old.Begun) {
		return nil
	}
	m[p.Deal] = p
	return nil
}

func (s *Store) AccountPlays(_ context.Context, id accounts.ID, limit int) ([]accounts.Play, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []accounts.Play{}
	for _, p := range s.plays[id] {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b accounts.Play) int {
		return cmp.Or(b.Begun.Compare(a.Begun), cmp.Compare(a.Deal, b.Deal))
	})
	if len(out) > max(limit, 0) {
		out = out[:max(limit, 0)]
	}
	return out, nil
}

func (s *Store) DealPlays(_ context.Context, deals []string, ids []accounts.ID) ([]accounts.Play, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []accounts.Play{}
	for _, id := range ids {
		for _, d := range deals {
			if p, ok := s.plays[id][d]; ok && !slices.ContainsFunc(out, func(q accounts.Play) bool { return q.Account == id && q.Deal == d }) {
				out = append(out, p)
			}
		}
	}
	slices.SortFunc(out, func(a, b accounts.Play) int {
		return cmp.Or(cmp.Compare(a.Deal, b.Deal), a.Finished.Compare(b.Finished), cmp.Compare(a.Account, b.Account))
	})
	return out, nil
}
