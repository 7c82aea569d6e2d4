package inmem

import (
	"context"
	"fmt"

	"golfsolitaire/accounts"
)

func (s *Store) Rename(_ context.Context, id accounts.ID, n accounts.Account) (accounts.Account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.byID[id]
	if !ok {
		return accounts.Account{}, accounts.ErrNotFound
	}
	if other, ok := s.byKey[n.Key]; ok && other != id {
		return accounts.Account{}, fmt.Errorf("%w: %q", accounts.ErrNameTaken, n.Name)
	}
	if other, ok := s.bySkel[n.Skeleton]; ok && n.Skeleton != "" && other != id {
		return accounts.Account{}, fmt.Errorf("%w: %q", accounts.ErrNameConfusable, n.Name)
	}
	delete(s.byKey, a.Key)
	if s.bySkel[a.Skeleton] == id {
		delete(s.bySkel, a.Skeleton)
	}
	a.Name, a.Key, a.Skeleton, a.NameNote = n.Name, n.Key, n.Skeleton, ""
	s.byID[id] = a
	s.byKey[a.Key] = id
	if a.Skeleton != "" {
		s.bySkel[a.Skeleton] = id
	}
	return a, nil
}
