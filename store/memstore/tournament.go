package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"golfsolitaire/store"
)

var (
	_ store.Tournaments  = (*Store)(nil)
	_ store.Leaderboards = (*Store)(nil)
)

// tournaments holds the tournament list and the leaderboards. It has its
// own lock: leaderboard traffic does not wait for room appends.
type tournaments struct {
	mu      sync.Mutex
	listed  map[string]listing
	listSeq int64
	boards  map[string]*board
	due     map[string]time.Time
	expires map[string]time.Time // CloseTournament's deadlines
}

// prune removes what CloseTournament said goes by now. Callers hold t.mu.
func (t *tournaments) prune(now time.Time) {
	for id, at := range t.expires {
		if !now.Before(at) {
			delete(t.listed, id)
			delete(t.boards, id)
			delete(t.due, id)
			delete(t.expires, id)
		}
	}
}

// lockTournaments takes the tournaments' lock, after pruning what expired.
func (s *Store) lockTournaments(ctx context.Context) (*tournaments, error) {
	if err := s.checkOpen(ctx); err != nil {
		return nil, err
	}
	t := &s.tour
	t.mu.Lock()
	t.prune(s.opts.Now())
	return t, nil
}

// CloseTournament implements store.Tournaments.
func (s *Store) CloseTournament(ctx context.Context, id string, ttl time.Duration) error {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if t.expires == nil {
		t.expires = map[string]time.Time{}
	}
	t.expires[id] = s.opts.Now().Add(ttl)
	t.prune(s.opts.Now())
	return nil
}

// board is a sorted set: scores by member and the members in order.
type board struct {
	score  map[string]float64
	sorted []store.Scored
}

func compareScored(a, b store.Scored) int {
	if c := cmp.Compare(a.Score, b.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.Member, b.Member)
}

func (b *board) set(m store.Scored) {
	if old, ok := b.score[m.Member]; ok {
		if old == m.Score {
			return
		}
		i, _ := slices.BinarySearchFunc(b.sorted, store.Scored{Member: m.Member, Score: old}, compareScored)
		b.sorted = slices.Delete(b.sorted, i, i+1)
	}
	b.score[m.Member] = m.Score
	i, _ := slices.BinarySearchFunc(b.sorted, m, compareScored)
	b.sorted = slices.Insert(b.sorted, i, m)
}

// SetTournament implements store.Tournaments.
func (s *Store) SetTournament(ctx context.Context, id string, data []byte) error {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if t.listed == nil {
		t.listed = map[string]listing{}
	}
	if data == nil {
		delete(t.listed, id)
		return nil
	}
	l, ok := t.listed[id]
	if !ok {
		t.listSeq++
		l.seq = t.listSeq
	}
	l.data = clone(data)
	t.listed[id] = l
	return nil
}

// TournamentList implements store.Tournaments.
func (s *Store) TournamentList(ctx context.Context, limit int) ([]store.Listing, error) {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	type seqListing struct {
		seq int64
		l   store.Listing
	}
	all := make([]seqListing, 0, len(t.listed))
	for id, l := range t.listed {
		all = append(all, seqListing{l.seq, store.Listing{Room: id, Data: clone(l.data)}})
	}
	slices.SortFunc(all, func(a, b seqListing) int { return cmp.Compare(b.seq, a.seq) }) // newest first
	out := []store.Listing{}
	for _, x := range all {
		if len(out) >= limit {
			break
		}
		out = append(out, x.l)
	}
	return out, nil
}

// SetScores implements store.Leaderboards.
func (s *Store) SetScores(ctx context.Context, name string, scores ...store.Scored) error {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if t.boards == nil {
		t.boards = map[string]*board{}
	}
	b := t.boards[name]
	if b == nil {
		b = &board{score: map[string]float64{}}
		t.boards[name] = b
	}
	for _, m := range scores {
		b.set(m)
	}
	return nil
}

// Rank implements store.Leaderboards.
func (s *Store) Rank(ctx context.Context, name, member string) (int64, float64, error) {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer t.mu.Unlock()
	b := t.boards[name]
	if b == nil {
		return 0, 0, fmt.Errorf("memstore: rank of %q on %q: %w", member, name, store.ErrNotFound)
	}
	score, ok := b.score[member]
	if !ok {
		return 0, 0, fmt.Errorf("memstore: rank of %q on %q: %w", member, name, store.ErrNotFound)
	}
	i, _ := slices.BinarySearchFunc(b.sorted, store.Scored{Member: member, Score: score}, compareScored)
	return int64(i), score, nil
}

// Range implements store.Leaderboards.
func (s *Store) Range(ctx context.Context, name string, start, stop int64) ([]store.Scored, error) {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	out := []store.Scored{}
	b := t.boards[name]
	if b == nil {
		return out, nil
	}
	start = max(start, 0)
	stop = min(stop, int64(len(b.sorted))-1)
	for i := start; i <= stop; i++ {
		out = append(out, b.sorted[i])
	}
	return out, nil
}

// Count implements store.Leaderboards.
func (s *Store) Count(ctx context.Context, name string, lo, hi float64) (int64, error) {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return 0, err
	}
	defer t.mu.Unlock()
	b := t.boards[name]
	if b == nil {
		return 0, nil
	}
	from, _ := slices.BinarySearchFunc(b.sorted, lo, func(m store.Scored, x float64) int { return cmp.Compare(m.Score, x) })
	to, found := slices.BinarySearchFunc(b.sorted, hi, func(m store.Scored, x float64) int { return cmp.Compare(m.Score, x) })
	for found && to < len(b.sorted) && b.sorted[to].Score <= hi {
		to++
	}
	return int64(max(to-from, 0)), nil
}

// SetDue implements store.Tournaments.
func (s *Store) SetDue(ctx context.Context, id string, at time.Time) error {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return err
	}
	defer t.mu.Unlock()
	if at.IsZero() {
		delete(t.due, id)
		return nil
	}
	if t.due == nil {
		t.due = map[string]time.Time{}
	}
	t.due[id] = at
	return nil
}

// Due implements store.Tournaments.
func (s *Store) Due(ctx context.Context, until time.Time, limit int) ([]string, error) {
	t, err := s.lockTournaments(ctx)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	type entry struct {
		id string
		at time.Time
	}
	var all []entry
	for id, at := range t.due {
		if !at.After(until) {
			all = append(all, entry{id, at})
		}
	}
	slices.SortFunc(all, func(a, b entry) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	out := []string{}
	for _, e := range all {
		if len(out) >= max(limit, 0) {
			break
		}
		out = append(out, e.id)
	}
	return out, nil
}
