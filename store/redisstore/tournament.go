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

var _ store.Tournaments = (*Store)(nil)

var (
	//go:embed tlist.lua
	tlistLua    string
	tlistScript = redis.NewScript(tlistLua)

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
	if err := tlistScript.Run(ctx, s.client, keys, id, show, data).Err(); err != nil {
		return wrap("list tournament "+id, err)
	}
	return nil
}

// TournamentList implements store.Tournaments.
func (s *Store) TournamentList(ctx context.Context, limit int) ([]store.Listing, error) {
	out := []store.Listing{}
	if limit <= 0 {
		return out, nil
	}
	ids, err := s.client.ZRange(ctx, s.keys.tournamentOrder(), 0, int64(limit)-1).Result()
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

// SetScores implements store.Tournaments.
func (s *Store) SetScores(ctx context.Context, board string, scores ...store.Scored) error {
	if len(scores) == 0 {
		return nil
	}
	args := make([]any, 0, 1+2*len(scores))
	args = append(args, boardTTL.Milliseconds())
	for _, m := range scores {
		args = append(args, formatScore(m.Score), m.Member)
	}
	if err := boardScript.Run(ctx, s.client, []string{s.keys.board(board)}, args...).Err(); err != nil {
		return wrap("set scores on "+board, err)
	}
	return nil
}

// Rank implements store.Tournaments.
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

// Range implements store.Tournaments.
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

// Count implements store.Tournaments.
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
