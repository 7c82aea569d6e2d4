package redisstore

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// legacyBotRoomKeys are the sets of room codes with bots that earlier
// versions kept instead of the due-time index: one set ("golf:botrooms"),
// then 16 shards ("golf:botrooms:{N}").
func (k keys) legacyBotRoomKeys() []string {
	out := []string{k.prefix + "botrooms"}
	for n := range listingShards {
		out = append(out, k.prefix+"botrooms:{"+strconv.Itoa(n)+"}")
	}
	return out
}

// MigrateBots moves the bots that an earlier version listed in its sets
// of bot rooms into the due-time index (due now), and deletes those sets,
// so that an upgrade does not strand the bots of rooms being played. It
// returns how many bots it moved. It is idempotent and costs 17 EXISTS
// when there is nothing to move; a bot already in the index keeps its due
// time. The server runs it at start-up.
func (s *Store) MigrateBots(ctx context.Context) (int, error) {
	moved := 0
	now := float64(time.Now().UnixMilli())
	for _, set := range s.keys.legacyBotRoomKeys() {
		n, err := s.client.Exists(ctx, set).Result()
		if err != nil {
			return moved, wrap("migrate bots", err)
		}
		if n == 0 {
			continue
		}
		rooms, err := s.client.SMembers(ctx, set).Result()
		if err != nil {
			return moved, wrap("migrate bots", err)
		}
		for _, room := range rooms {
			ids, err := s.client.HKeys(ctx, s.keys.bots(room)).Result()
			if err != nil {
				return moved, wrap("migrate bots of "+room, err)
			}
			if len(ids) == 0 {
				continue // the room expired, or its bots were forgotten
			}
			idx := s.keys.botDue(room)
			_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
				for _, id := range ids {
					p.ZAddNX(ctx, idx, redis.Z{Score: now, Member: botMember(room, id)})
				}
				p.PExpire(ctx, idx, 2*s.opts.RoomTTL)
				return nil
			})
			if err != nil {
				return moved, wrap("migrate bots of "+room, err)
			}
			moved += len(ids)
		}
		if err := s.client.Del(ctx, set).Err(); err != nil {
			return moved, wrap("migrate bots", err)
		}
	}
	return moved, nil
}
