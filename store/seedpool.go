package store

import (
	"context"
	"errors"
)

// ErrPoolShort: PopSeeds asked for more entries than the pool holds; the
// pool is unchanged.
var ErrPoolShort = errors.New("store: not enough seeds in the pool")

// SeedPools keeps named FIFO pools of opaque entries (the server's
// pre-rated deal seeds: docs/deals.md "Pooled rounds"). Every entry is
// handed out once, whichever instance pops it. Pool names must not
// contain braces. memstore.SeedPools keeps them in memory; the Redis store
// implements it too, so instances on one Redis share the pools.
type SeedPools interface {
	// PushSeeds appends entries to the pool, keeping at most max entries
	// (the newest beyond it are dropped), and returns the pool's length.
	PushSeeds(ctx context.Context, pool string, entries []string, max int) (int, error)
	// PopSeeds removes and returns the pool's n oldest entries, or
	// ErrPoolShort (and changes nothing) when it holds fewer.
	PopSeeds(ctx context.Context, pool string, n int) ([]string, error)
	// SeedPoolLen is the number of entries in the pool.
	SeedPoolLen(ctx context.Context, pool string) (int, error)
}
