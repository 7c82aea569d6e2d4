package redisstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// The scripts of the seed pools.
var (
	//go:embed pushseeds.lua
	pushSeedsLua    string
	pushSeedsScript = redis.NewScript(pushSeedsLua)

	//go:embed popseeds.lua
	popSeedsLua    string
	popSeedsScript = redis.NewScript(popSeedsLua)
)

var _ store.SeedPools = (*Store)(nil)

// seedPool is the list holding the named seed pool, oldest entry first:
// "golf:seedpool:{name}" (its own hash tag, so one pool is one slot).
func (k keys) seedPool(pool string) string { return k.prefix + "seedpool:{" + pool + "}" }

func checkPoolName(pool string) error {
	if pool == "" || strings.ContainsAny(pool, "{}") {
		return fmt.Errorf("redisstore: bad seed pool name %q", pool)
	}
	return nil
}

// PushSeeds implements store.SeedPools.
func (s *Store) PushSeeds(ctx context.Context, pool string, entries []string, max int) (int, error) {
	if err := checkPoolName(pool); err != nil {
		return 0, err
	}
	if max < 0 {
		return 0, fmt.Errorf("redisstore: pool cap %d", max)
	}
	args := make([]any, 0, len(entries)+1)
	args = append(args, max)
	for _, e := range entries {
		args = append(args, e)
	}
	n, err := pushSeedsScript.Run(ctx, s.client, []string{s.keys.seedPool(pool)}, args...).Int()
	if err != nil {
		return 0, wrap("push seeds "+pool, err)
	}
	return n, nil
}

// PopSeeds implements store.SeedPools.
func (s *Store) PopSeeds(ctx context.Context, pool string, n int) ([]string, error) {
	if err := checkPoolName(pool); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("redisstore: pop %d seeds", n)
	}
	out, err := popSeedsScript.Run(ctx, s.client, []string{s.keys.seedPool(pool)}, n).StringSlice()
	if errors.Is(err, redis.Nil) {
		return nil, store.ErrPoolShort
	}
	if err != nil {
		return nil, wrap("pop seeds "+pool, err)
	}
	return out, nil
}

// SeedPoolLen implements store.SeedPools.
func (s *Store) SeedPoolLen(ctx context.Context, pool string) (int, error) {
	if err := checkPoolName(pool); err != nil {
		return 0, err
	}
	n, err := s.client.LLen(ctx, s.keys.seedPool(pool)).Result()
	if err != nil {
		return 0, wrap("seed pool length "+pool, err)
	}
	return int(n), nil
}
