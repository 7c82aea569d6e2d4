package redisstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// SetBot implements store.Bots. A room's records are one hash in the
// room's slot, expiring with the room; the due-time index lives in other
// slots (16 sorted sets, split like the listing index), so it is updated
// after the script, and DueBots prunes the entries whose record is gone.
func (s *Store) SetBot(ctx context.Context, room, id string, data []byte) error {
	if data == nil {
		// The record first: an index entry without one is pruned, never
		// the other way round.
		if err := s.client.HDel(ctx, s.keys.bots(room), id).Err(); err != nil {
			return wrap("forget bot of "+room, err)
		}
		return wrap("forget bot of "+room, s.client.ZRem(ctx, s.keys.botDue(room), botMember(room, id)).Err())
	}
	ok, err := setBotScript.Run(ctx, s.client, []string{s.keys.snapshot(room), s.keys.bots(room)}, id, data).Int64()
	if err != nil {
		return wrap("set bot of "+room, err)
	}
	if ok == 0 {
		return fmt.Errorf("redisstore: set bot of %s: %w", room, store.ErrNotFound)
	}
	idx := s.keys.botDue(room)
	_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAdd(ctx, idx, redis.Z{Score: float64(time.Now().UnixMilli()), Member: botMember(room, id)})
		p.PExpire(ctx, idx, 2*s.opts.RoomTTL) // not kept forever
		return nil
	})
	return wrap("set bot of "+room, err)
}

// DelayBot implements store.Bots: ZADD XX, so a bot forgotten meanwhile
// is not put back.
func (s *Store) DelayBot(ctx context.Context, room, id string, at time.Time) error {
	ms := max(at.UnixMilli(), 0)
	err := s.client.ZAddXX(ctx, s.keys.botDue(room), redis.Z{Score: float64(ms), Member: botMember(room, id)}).Err()
	return wrap("delay bot of "+room, err)
}

// botMember is a bot's member in the due-time index: the room's code and
// the bot's id, apart by a NUL (neither holds one).
func botMember(room, id string) string { return room + "\x00" + id }

func splitBotMember(m string) (room, id string, ok bool) {
	room, id, ok = strings.Cut(m, "\x00")
	return room, id, ok
}

// DueBots implements store.Bots, from the 16 index shards read at once
// (one round trip) and merged soonest first. A shard that cannot be read
// is left out (its bots wait for the next sweep); only when none can be
// read is it an error. Entries whose record is gone (the room expired, or
// the bot was forgotten) are taken out, and put back if a record appeared
// meanwhile, so a bot is never lost while its room keeps its record.
func (s *Store) DueBots(ctx context.Context, until time.Time, limit int) ([]store.Bot, error) {
	out := []store.Bot{}
	if limit <= 0 {
		return out, nil
	}
	for try := 0; ; try++ {
		cands, err := s.dueCandidates(ctx, until, limit)
		if err != nil {
			return nil, err
		}
		cmds := make([]*redis.StringCmd, len(cands))
		_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, c := range cands {
				cmds[i] = p.HGet(ctx, s.keys.bots(c.room), c.id)
			}
			return nil
		})
		if err != nil && !errors.Is(err, redis.Nil) && !unavailable(err) {
			return nil, wrap("due bots", err)
		}
		out = out[:0]
		var stale []dueCandidate
		for i, cmd := range cmds {
			data, err := cmd.Result()
			switch {
			case errors.Is(err, redis.Nil):
				stale = append(stale, cands[i])
			case err != nil: // that room's shard is down: its bot waits
			case len(out) < limit:
				out = append(out, store.Bot{Room: cands[i].room, ID: cands[i].id, Data: []byte(data)})
			}
		}
		if err := s.pruneBots(ctx, stale); err != nil {
			return nil, err
		}
		if len(out) >= limit || len(stale) == 0 || try >= 4 {
			return out, nil
		}
	}
}

type dueCandidate struct {
	room, id string
	at       float64
}

// dueCandidates reads at most limit due entries of each shard, merged
// soonest first, at most limit of them.
func (s *Store) dueCandidates(ctx context.Context, until time.Time, limit int) ([]dueCandidate, error) {
	cmds := make([]*redis.ZSliceCmd, listingShards)
	by := &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(until.UnixMilli(), 10), Count: int64(limit)}
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range cmds {
			cmds[i] = p.ZRangeByScoreWithScores(ctx, s.keys.botDueShard(i), by)
		}
		return nil
	})
	var cands []dueCandidate
	failed := 0
	var firstErr error
	for _, cmd := range cmds {
		zs, err := cmd.Result()
		if err != nil {
			failed++
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		for _, z := range zs {
			m, _ := z.Member.(string)
			if room, id, ok := splitBotMember(m); ok {
				cands = append(cands, dueCandidate{room, id, z.Score})
			}
		}
	}
	if failed == len(cmds) {
		return nil, wrap("due bots", cmp.Or(firstErr, err))
	}
	slices.SortFunc(cands, func(a, b dueCandidate) int {
		return cmp.Or(cmp.Compare(a.at, b.at), strings.Compare(a.room, b.room), strings.Compare(a.id, b.id))
	})
	return cands[:min(len(cands), limit)], nil
}

// pruneBots takes entries without a record out of the due-time index.
func (s *Store) pruneBots(ctx context.Context, stale []dueCandidate) error {
	for _, c := range stale {
		idx, m := s.keys.botDue(c.room), botMember(c.room, c.id)
		if err := s.client.ZRem(ctx, idx, m).Err(); err != nil {
			return wrap("due bots", err)
		}
		ok, err := s.client.HExists(ctx, s.keys.bots(c.room), c.id).Result()
		if err != nil {
			return wrap("due bots", err)
		}
		if ok { // SetBot ran in between
			if err := s.client.ZAdd(ctx, idx, redis.Z{Score: float64(time.Now().UnixMilli()), Member: m}).Err(); err != nil {
				return wrap("due bots", err)
			}
		}
	}
	return nil
}

// leaseMillis is a lease's time to live in milliseconds, at least 1.
func leaseMillis(ttl time.Duration) int64 { return max(ttl.Milliseconds(), 1) }

// TakeLease implements store.Leases with SET NX PX.
func (s *Store) TakeLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	err := s.client.SetArgs(ctx, s.keys.lease(key), owner, redis.SetArgs{Mode: "NX", TTL: time.Duration(leaseMillis(ttl)) * time.Millisecond}).Err()
	switch {
	case errors.Is(err, redis.Nil):
		return false, nil
	case err != nil:
		return false, wrap("take lease "+key, err)
	}
	return true, nil
}

// RenewLease implements store.Leases: compare and extend, in one script.
func (s *Store) RenewLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	ok, err := renewScript.Run(ctx, s.client, []string{s.keys.lease(key)}, owner, leaseMillis(ttl)).Int64()
	if err != nil {
		return false, wrap("renew lease "+key, err)
	}
	return ok == 1, nil
}

// ReleaseLease implements store.Leases: compare and delete, in one script.
func (s *Store) ReleaseLease(ctx context.Context, key, owner string) error {
	return wrap("release lease "+key, releaseScript.Run(ctx, s.client, []string{s.keys.lease(key)}, owner).Err())
}
