// Package inmem keeps accounts, ratings and the archive in memory: the
// default when no database is configured, so `go run .` works with nothing
// installed. Nothing survives a restart.
package inmem

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/ratings"
)

var _ accounts.Store = (*Store)(nil)

// Store is the in-memory accounts.Store. The zero value is not usable; use
// New.
type Store struct {
	mu      sync.Mutex
	now     func() time.Time
	nextID  accounts.ID
	byID    map[accounts.ID]accounts.Account
	byKey   map[string]accounts.ID
	bySkel  map[string]accounts.ID
	ratings map[accounts.ID]map[ratings.Family]accounts.FamilyRating
	history map[accounts.ID][]accounts.HistoryEntry
	games   map[string]accounts.Game
	order   []string // game IDs in the order they were archived
	// passkeys by credential ID (as a string), in registration order.
	passkeys map[string]accounts.Passkey
	pkOrder  []string
	// seen is every account's sightings: kind, value -> last time.
	seen map[accounts.ID]map[sighting]time.Time
	// plays are every account's plays by deal.
	plays map[accounts.ID]map[string]accounts.Play
}

type sighting struct{ kind, value string }

// New returns an empty store.
func New() *Store {
	return &Store{
		now:     time.Now,
		byID:    map[accounts.ID]accounts.Account{},
		byKey:   map[string]accounts.ID{},
		bySkel:  map[string]accounts.ID{},
		ratings: map[accounts.ID]map[ratings.Family]accounts.FamilyRating{},
		history: map[accounts.ID][]accounts.HistoryEntry{},
		games:   map[string]accounts.Game{},

		passkeys: map[string]accounts.Passkey{},
		seen:     map[accounts.ID]map[sighting]time.Time{},
		plays:    map[accounts.ID]map[string]accounts.Play{},
	}
}

func (s *Store) Create(_ context.Context, a accounts.Account) (accounts.Account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byKey[a.Key]; ok {
		return accounts.Account{}, fmt.Errorf("%w: %q", accounts.ErrNameTaken, a.Name)
	}
	if _, ok := s.bySkel[a.Skeleton]; ok && a.Skeleton != "" {
		return accounts.Account{}, fmt.Errorf("%w: %q", accounts.ErrNameConfusable, a.Name)
	}
	s.nextID++
	a.ID = s.nextID
	a.Created = s.now().UTC().Truncate(time.Microsecond)
	s.byID[a.ID] = a
	s.byKey[a.Key] = a.ID
	if a.Skeleton != "" {
		s.bySkel[a.Skeleton] = a.ID
	}
	return a, nil
}

func (s *Store) ByKey(_ context.Context, key string) (accounts.Account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.byKey[key]
	if !ok {
		return accounts.Account{}, accounts.ErrNotFound
	}
	return s.byID[id], nil
}

func (s *Store) ByID(_ context.Context, id accounts.ID) (accounts.Account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.byID[id]
	if !ok {
		return accounts.Account{}, accounts.ErrNotFound
	}
	return a, nil
}

func (s *Store) Delete(_ context.Context, id accounts.ID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.byID[id]
	if !ok {
		return accounts.ErrNotFound
	}
	delete(s.byID, id)
	delete(s.byKey, a.Key)
	if s.bySkel[a.Skeleton] == a.ID {
		delete(s.bySkel, a.Skeleton)
	}
	delete(s.ratings, id)
	delete(s.history, id)
	delete(s.seen, id)
	delete(s.plays, id)
	for k, p := range s.passkeys {
		if p.Account == id {
			delete(s.passkeys, k)
		}
	}
	for gid, g := range s.games {
		g.Players = slices.Clone(g.Players)
		for i := range g.Players {
			if g.Players[i].Account == id {
				g.Players[i].Account = 0
			}
		}
		s.games[gid] = g
	}
	return nil
}

func (s *Store) Ratings(_ context.Context, id accounts.ID) ([]accounts.FamilyRating, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []accounts.FamilyRating
	for _, r := range s.ratings[id] {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b accounts.FamilyRating) int { return compare(a.Family, b.Family) })
	return out, nil
}

func compare(a, b ratings.Family) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (s *Store) RecordGame(_ context.Context, g accounts.Game, rate accounts.RateFunc) (accounts.Game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.games[g.ID]; ok {
		return accounts.Game{}, fmt.Errorf("%w: %s", accounts.ErrDuplicate, g.ID)
	}
	before := make([]ratings.Rating, len(g.Players))
	for i, p := range g.Players {
		if _, ok := s.byID[p.Account]; !ok {
			return accounts.Game{}, fmt.Errorf("%w: account of player %q", accounts.ErrNotFound, p.Name)
		}
		before[i] = ratings.New()
		if r, ok := s.ratings[p.Account][g.Family]; ok {
			before[i] = r.Rating
		}
	}
	after, err := rate(slices.Clone(before))
	if err != nil {
		return accounts.Game{}, err
	}
	if len(after) != len(before) {
		return accounts.Game{}, fmt.Errorf("accounts: %d ratings for %d players", len(after), len(before))
	}
	if g.Finished.IsZero() {
		g.Finished = s.now()
	}
	g.Finished = g.Finished.UTC().Truncate(time.Microsecond)
	g.Players = slices.Clone(g.Players)
	for i := range g.Players {
		p := &g.Players[i]
		p.Before, p.After = before[i], after[i]
		m := s.ratings[p.Account]
		if m == nil {
			m = map[ratings.Family]accounts.FamilyRating{}
			s.ratings[p.Account] = m
		}
		fr := m[g.Family]
		m[g.Family] = accounts.FamilyRating{Family: g.Family, Rating: after[i], Games: fr.Games + 1, Updated: g.Finished}
		s.history[p.Account] = append(s.history[p.Account], accounts.HistoryEntry{Family: g.Family, Rating: after[i], GameID: g.ID, At: g.Finished})
	}
	s.games[g.ID] = g
	s.order = append(s.order, g.ID)
	return g, nil
}

func (s *Store) History(_ context.Context, id accounts.ID, family ratings.Family) ([]accounts.HistoryEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []accounts.HistoryEntry
	for _, h := range s.history[id] {
		if h.Family == family {
			out = append(out, h)
		}
	}
	return out, nil
}

func (s *Store) Games(_ context.Context, id accounts.ID, limit int) ([]accounts.Game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []accounts.Game
	for i := len(s.order) - 1; i >= 0 && len(out) < limit; i-- {
		g := s.games[s.order[i]]
		if slices.ContainsFunc(g.Players, func(p accounts.GamePlayer) bool { return p.Account == id }) {
			out = append(out, g)
		}
	}
	return out, nil
}

func (s *Store) Game(_ context.Context, gameID string) (accounts.Game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[gameID]
	if !ok {
		return accounts.Game{}, accounts.ErrNotFound
	}
	return g, nil
}

func (s *Store) Leaderboard(_ context.Context, family ratings.Family, limit int) ([]accounts.Leader, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	type row struct {
		key string
		accounts.Leader
	}
	var rows []row
	for id, m := range s.ratings {
		if r, ok := m[family]; ok {
			a := s.byID[id]
			rows = append(rows, row{key: a.Key, Leader: accounts.Leader{Name: a.Name, FamilyRating: r}})
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := cmp.Compare(b.Rating.Rating, a.Rating.Rating); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	out := []accounts.Leader{}
	for _, r := range rows[:min(limit, len(rows))] {
		out = append(out, r.Leader)
	}
	return out, nil
}

func clonePasskey(p accounts.Passkey) accounts.Passkey {
	p.ID = slices.Clone(p.ID)
	p.Credential = slices.Clone(p.Credential)
	return p
}

func (s *Store) AddPasskey(_ context.Context, p accounts.Passkey) (accounts.Passkey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[p.Account]; !ok {
		return accounts.Passkey{}, fmt.Errorf("%w: account %d", accounts.ErrNotFound, p.Account)
	}
	k := string(p.ID)
	if _, ok := s.passkeys[k]; ok {
		return accounts.Passkey{}, accounts.ErrPasskeyTaken
	}
	p = clonePasskey(p)
	p.Created = s.now().UTC().Truncate(time.Microsecond)
	p.LastUsed = time.Time{}
	s.passkeys[k] = p
	s.pkOrder = append(s.pkOrder, k)
	return clonePasskey(p), nil
}

func (s *Store) Passkeys(_ context.Context, id accounts.ID) ([]accounts.Passkey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []accounts.Passkey
	for _, k := range s.pkOrder {
		if p, ok := s.passkeys[k]; ok && p.Account == id {
			out = append(out, clonePasskey(p))
		}
	}
	return out, nil
}

func (s *Store) PasskeyByID(_ context.Context, credential []byte) (accounts.Passkey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.passkeys[string(credential)]
	if !ok {
		return accounts.Passkey{}, accounts.ErrNotFound
	}
	return clonePasskey(p), nil
}

func (s *Store) UsePasskey(_ context.Context, credential, data []byte, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.passkeys[string(credential)]
	if !ok {
		return accounts.ErrNotFound
	}
	p.Credential = slices.Clone(data)
	p.LastUsed = at.UTC().Truncate(time.Microsecond)
	s.passkeys[string(credential)] = p
	return nil
}

func (s *Store) DeletePasskey(_ context.Context, id accounts.ID, credential []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.passkeys[string(credential)]
	if !ok || p.Account != id {
		return accounts.ErrNotFound
	}
	delete(s.passkeys, string(credential))
	s.pkOrder = slices.DeleteFunc(s.pkOrder, func(k string) bool { return k == string(credential) })
	return nil
}

func (s *Store) Stats(_ context.Context, id accounts.ID) ([]accounts.FamilyStats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	by := map[ratings.Family]*accounts.FamilyStats{}
	var out []*accounts.FamilyStats
	for _, gid := range s.order {
		g := s.games[gid]
		for seat, p := range g.Players {
			if p.Account != id {
				continue
			}
			st := by[g.Family]
			if st == nil {
				st = &accounts.FamilyStats{Family: g.Family, BestToPar: p.ToPar, BestGame: g.ID}
				by[g.Family] = st
				out = append(out, st)
			}
			st.Games++
			if accounts.Won(g.Players, seat) {
				st.Won++
			}
			st.Holes += p.Holes
			st.Clears += p.Clears
			st.SumToPar += p.ToPar
			if p.ToPar < st.BestToPar {
				st.BestToPar, st.BestGame = p.ToPar, g.ID
			}
		}
	}
	res := []accounts.FamilyStats{}
	for _, st := range out {
		res = append(res, *st)
	}
	slices.SortFunc(res, func(a, b accounts.FamilyStats) int { return compare(a.Family, b.Family) })
	return res, nil
}

func (s *Store) Seen(_ context.Context, id accounts.ID, kind, value string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[id]; !ok {
		return accounts.ErrNotFound
	}
	m := s.seen[id]
	if m == nil {
		m = map[sighting]time.Time{}
		s.seen[id] = m
	}
	k := sighting{kind, value}
	if at = at.UTC().Truncate(time.Microsecond); at.After(m[k]) {
		m[k] = at
	}
	return nil
}

func (s *Store) Links(_ context.Context, id accounts.ID, since time.Time) ([]accounts.Link, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	type lk struct {
		id   accounts.ID
		kind string
	}
	best := map[lk]time.Time{}
	for k, mine := range s.seen[id] {
		if mine.Before(since) {
			continue
		}
		for other, m := range s.seen {
			theirs, ok := m[k]
			if other == id || !ok || theirs.Before(since) {
				continue
			}
			at := mine
			if theirs.Before(at) {
				at = theirs
			}
			if l := (lk{other, k.kind}); at.After(best[l]) {
				best[l] = at
			}
		}
	}
	out := []accounts.Link{}
	for l, at := range best {
		out = append(out, accounts.Link{Account: l.id, Name: s.byID[l.id].Name, Kind: l.kind, At: at})
	}
	slices.SortFunc(out, func(a, b accounts.Link) int {
		return cmp.Or(cmp.Compare(a.Account, b.Account), strings.Compare(a.Kind, b.Kind))
	})
	return out, nil
}

func (s *Store) AddCasualRound(_ context.Context, ids []accounts.ID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if a, ok := s.byID[id]; ok {
			a.CasualRounds++
			s.byID[id] = a
		}
	}
	return nil
}
