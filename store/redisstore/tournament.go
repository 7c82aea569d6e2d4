package redisstore

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

var (
	_ store.Tournaments  = (*Store)(nil)
	_ store.Leaderboards = (*Store)(nil)
)

var (
	//go:embed tlist.lua
	tlistLua    string
	tlistScript = redis.NewScript(tlistLua)

	//go:embed tprune.lua
	tpruneLua    string
	tpruneScript = redis.NewScript(tpruneLua)

	//go:embed board.lua
	boardLua    string
	boardScript = redis.NewScript(boardLua)
)

// boardTTL is how long a leaderboard is kept after its last update: longer
// than any tournament runs.
const boardTTL = 30 * 24 * time.Hour

// SetTournament implements store.Tournaments.
func (s *Store) SetTournament(ctx context.Context, id string, data []byte) error {
	show := "1"
	if data == nil {
		show = "0"
	}
	keys := []string{s.keys.tournamentOrder(), s.keys.tournamentData(), s.keys.tournamentSeq()}
	if err := tlistScript.Run(ctx, s.client, keys, id, show, data, boardTTL.Milliseconds()).Err(); err != nil {
		return wrap("list tournament "+id, err)
	}
	return nil
}

// pruneTournaments takes the tournaments whose time is up (and remove,
// if not "") out of the list and the due-time index.
func (s *Store) pruneTournaments(ctx context.Context, remove string) error {
	keys := []string{s.keys.tournamentOrder(), s.keys.tournamentData(), s.keys.tournamentDue(), s.keys.tournamentExpires()}
	return tpruneScript.Run(ctx, s.client, keys, time.Now().UnixMilli(), remove).Err()
}

// CloseTournament implements store.Tournaments: the time is kept in a
// sorted set beside the list (pruned by TournamentList and Due), and the
// leaderboard gets it as its TTL, with a marker in its slot that later
// SetScores keep to.
func (s *Store) CloseTournament(ctx context.Context, id string, ttl time.Duration) error {
	if ttl <= 0 {
		if err := s.client.Del(ctx, s.keys.board(id), s.keys.closed(id)).Err(); err != nil {
			return wrap("close tournament "+id, err)
		}
		return wrap("close tournament "+id, s.pruneTournaments(ctx, id))
	}
	ms := max(ttl.Milliseconds(), 1)
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.keys.closed(id), "1", time.Duration(ms)*time.Millisecond)
		p.PExpire(ctx, s.keys.board(id), time.Duration(ms)*time.Millisecond)
		return nil
	})
	if err != nil {
		return wrap("close tournament "+id, err)
	}
	_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAdd(ctx, s.keys.tournamentExpires(), redis.Z{Score: float64(time.Now().UnixMilli() + ms), Member: id})
		p.PExpire(ctx, s.keys.tournamentExpires(), max(boardTTL, 2*time.Duration(ms)*time.Millisecond))
		return nil
	})
	return wrap("close tournament "+id, err)
}

// TournamentList implements store.Tournaments.
func (s *Store) TournamentList(ctx context.Context, limit int) ([]store.Listing, error) {
	out := []store.Listing{}
	if limit <= 0 {
		return out, nil
	}
	if err := s.pruneTournaments(ctx, ""); err != nil {
		return nil, wrap("tournament list", err)
	}
	ids, err := s.client.ZRevRange(ctx, s.keys.tournamentOrder(), 0, int64(limit)-1).Result() // newest first
	if err != nil {
		return nil, wrap("tournament list", err)
	}
	if len(ids) == 0 {
		return out, nil
	}
	vals, err := s.client.HMGet(ctx, s.keys.tournamentData(), ids...).Result()
	if err != nil {
		return nil, wrap("tournament list", err)
	}
	for i, v := range vals {
		if data, ok := v.(string); ok {
			out = append(out, store.Listing{Room: ids[i], Data: []byte(data)})
		}
	}
	return out, nil
}

// SetScores implements store.Leaderboards.
func (s *Store) SetScores(ctx context.Context, board string, scores ...store.Scored) error {
	if len(scores) == 0 {
		return nil
	}
	args := make([]any, 0, 1+2*len(scores))
	args = append(args, boardTTL.Milliseconds())
	for _, m := range scores {
		args = append(args, formatScore(m.Score), m.Member)
	}
	if err := boardScript.Run(ctx, s.client, []string{s.keys.board(board), s.keys.closed(board)}, args...).Err(); err != nil {
		return wrap("set scores on "+board, err)
	}
	return nil
}

// Rank implements store.Leaderboards.
func (s *Store) Rank(ctx context.Context, board, member string) (int64, float64, error) {
	key := s.keys.board(board)
	var rank *redis.IntCmd
	var score *redis.FloatCmd
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		rank = p.ZRank(ctx, key, member)
		score = p.ZScore(ctx, key, member)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return 0, 0, wrap("rank on "+board, err)
	}
	r, err := rank.Result()
	if err != nil {
		return 0, 0, fmt.Errorf("redisstore: rank of %s on %s: %w", member, board, wrap("rank", err))
	}
	sc, err := score.Result()
	if err != nil {
		return 0, 0, wrap("rank on "+board, err)
	}
	return r, sc, nil
}

// Range implements store.Leaderboards.
func (s *Store) Range(ctx context.Context, board string, start, stop int64) ([]store.Scored, error) {
	out := []store.Scored{}
	start = max(start, 0)
	if stop < start {
		return out, nil
	}
	zs, err := s.client.ZRangeWithScores(ctx, s.keys.board(board), start, stop).Result()
	if err != nil {
		return nil, wrap("range on "+board, err)
	}
	for _, z := range zs {
		m, _ := z.Member.(string)
		out = append(out, store.Scored{Member: m, Score: z.Score})
	}
	return out, nil
}

// Count implements store.Leaderboards.
func (s *Store) Count(ctx context.Context, board string, lo, hi float64) (int64, error) {
	n, err := s.client.ZCount(ctx, s.keys.board(board), formatScore(lo), formatScore(hi)).Result()
	if err != nil {
		return 0, wrap("count on "+board, err)
	}
	return n, nil
}

// formatScore writes a score as Redis reads it: exact integers, and -inf,
// +inf.
func formatScore(f float64) string {
	switch {
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsInf(f, 1):
		return "+inf"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// SetDue implements store.Tournaments: a sorted set by due time (Unix ms),
// kept as long as the tournament list.
func (s *Store) SetDue(ctx context.Context, id string, at time.Time) error {
	key := s.keys.tournamentDue()
	var err error
	if at.IsZero() {
		err = s.client.ZRem(ctx, key, id).Err()
	} else {
		_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.ZAdd(ctx, key, redis.Z{Score: float64(at.UnixMilli()), Member: id})
			p.PExpire(ctx, key, boardTTL)
			return nil
		})
	}
	return wrap("tournament due "+id, err)
}

// Due implements store.Tournaments.
func (s *Store) Due(ctx context.Context, until time.Time, limit int) ([]string, error) {
	if limit <= 0 {
		return []string{}, nil
	}
	if err := s.pruneTournaments(ctx, ""); err != nil {
		return nil, wrap("tournaments due", err)
	}
	ids, err := s.client.ZRangeByScore(ctx, s.keys.tournamentDue(), &redis.ZRangeBy{
		Min: "-inf", Max: strconv.FormatInt(until.UnixMilli(), 10), Count: int64(limit),
	}).Result()
	if err != nil {
		return nil, wrap("tournaments due", err)
	}
	return ids, nil
}
