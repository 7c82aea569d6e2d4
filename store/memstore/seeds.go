package memstore

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"golfsolitaire/store"
)

// SeedPools is store.SeedPools in memory, for one process.
type SeedPools struct {
	mu    sync.Mutex
	pools map[string][]string
}

var _ store.SeedPools = (*SeedPools)(nil)

// NewSeedPools returns empty pools.
func NewSeedPools() *SeedPools { return &SeedPools{pools: map[string][]string{}} }

func checkPoolName(pool string) error {
	if pool == "" || strings.ContainsAny(pool, "{}") {
		return fmt.Errorf("memstore: bad seed pool name %q", pool)
	}
	return nil
}

// PushSeeds implements store.SeedPools.
func (p *SeedPools) PushSeeds(_ context.Context, pool string, entries []string, max int) (int, error) {
	if err := checkPoolName(pool); err != nil {
		return 0, err
	}
	if max < 0 {
		return 0, fmt.Errorf("memstore: pool cap %d", max)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.pools[pool]
	room := max - len(q)
	if room > 0 {
		q = append(q, entries[:min(room, len(entries))]...)
		p.pools[pool] = q
	}
	return len(q), nil
}

// PopSeeds implements store.SeedPools.
func (p *SeedPools) PopSeeds(_ context.Context, pool string, n int) ([]string, error) {
	if err := checkPoolName(pool); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("memstore: pop %d seeds", n)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.pools[pool]
	if len(q) < n {
		return nil, store.ErrPoolShort
	}
	out := append([]string(nil), q[:n]...)
	rest := append([]string(nil), q[n:]...)
	if len(rest) == 0 {
		delete(p.pools, pool)
	} else {
		p.pools[pool] = rest
	}
	return out, nil
}

// SeedPoolLen implements store.SeedPools.
func (p *SeedPools) SeedPoolLen(_ context.Context, pool string) (int, error) {
	if err := checkPoolName(pool); err != nil {
		return 0, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pools[pool]), nil
}
