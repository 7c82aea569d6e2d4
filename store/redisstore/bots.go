package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// SetBot implements store.Store. A room's records are one hash in the
// room's slot, expiring with the room; the set of rooms with records lives
// in another slot, so it is updated after the script (and Bots removes the
// codes whose hash is gone).
func (s *Store) SetBot(ctx context.Context, room, id string, data []byte) error {
	if data == nil {
		return wrap("forget bot of "+room, s.client.HDel(ctx, s.keys.bots(room), id).Err())
	}
	ok, err := setBotScript.Run(ctx, s.client, []string{s.keys.snapshot(room), s.keys.bots(room)}, id, data).Int64()
	if err != nil {
		return wrap("set bot of "+room, err)
	}
	if ok == 0 {
		return fmt.Errorf("redisstore: set bot of %s: %w", room, store.ErrNotFound)
	}
	return wrap("set bot of "+room, s.client.SAdd(ctx, s.keys.botRooms(), room).Err())
}

// botScanBatch is how many room codes Bots reads at a time.
const botScanBatch = 256

// Bots implements store.Store. A code whose records are gone (the room
// expired, or its last bot was forgotten) is taken out of the set, and
// put back if a record appeared meanwhile: SetBot writes the record before
// the code, so a code is never lost while its room has records.
func (s *Store) Bots(ctx context.Context, limit int) ([]store.Bot, error) {
	out := []store.Bot{}
	if limit <= 0 {
		return out, nil
	}
	var cursor uint64
	seen := map[string]bool{} // SSCAN may return a code twice
	for {
		found, next, err := s.client.SScan(ctx, s.keys.botRooms(), cursor, "", botScanBatch).Result()
		if err != nil {
			return nil, wrap("bots", err)
		}
		var codes []string
		for _, code := range found {
			if !seen[code] {
				seen[code] = true
				codes = append(codes, code)
			}
		}
		cmds := make([]*redis.MapStringStringCmd, len(codes))
		_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, code := range codes {
				cmds[i] = p.HGetAll(ctx, s.keys.bots(code))
			}
			return nil
		})
		if err != nil {
			return nil, wrap("bots", err)
		}
		var stale []string
		for i, cmd := range cmds {
			recs, err := cmd.Result()
			if err != nil {
				return nil, wrap("bots", err)
			}
			if len(recs) == 0 {
				stale = append(stale, codes[i])
			}
			for id, data := range recs {
				if len(out) < limit {
					out = append(out, store.Bot{Room: codes[i], ID: id, Data: []byte(data)})
				}
			}
		}
		if err := s.dropBotRooms(ctx, stale); err != nil {
			return nil, err
		}
		cursor = next
		if cursor == 0 || len(out) >= limit {
			return out, nil
		}
	}
}

// dropBotRooms takes codes without records out of the set of bot rooms.
func (s *Store) dropBotRooms(ctx context.Context, codes []string) error {
	for _, code := range codes {
		if err := s.client.SRem(ctx, s.keys.botRooms(), code).Err(); err != nil {
			return wrap("bots", err)
		}
		n, err := s.client.Exists(ctx, s.keys.bots(code)).Result()
		if err != nil {
			return wrap("bots", err)
		}
		if n > 0 { // SetBot ran in between
			if err := s.client.SAdd(ctx, s.keys.botRooms(), code).Err(); err != nil {
				return wrap("bots", err)
			}
		}
	}
	return nil
}

// leaseMillis is a lease's time to live in milliseconds, at least 1.
func leaseMillis(ttl time.Duration) int64 { return max(ttl.Milliseconds(), 1) }

// TakeLease implements store.Store with SET NX PX.
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

// RenewLease implements store.Store: compare and extend, in one script.
func (s *Store) RenewLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	ok, err := renewScript.Run(ctx, s.client, []string{s.keys.lease(key)}, owner, leaseMillis(ttl)).Int64()
	if err != nil {
		return false, wrap("renew lease "+key, err)
	}
	return ok == 1, nil
}

// ReleaseLease implements store.Store: compare and delete, in one script.
func (s *Store) ReleaseLease(ctx context.Context, key, owner string) error {
	return wrap("release lease "+key, releaseScript.Run(ctx, s.client, []string{s.keys.lease(key)}, owner).Err())
}
