package store

import (
	"context"
	"time"
)

// Scored is a leaderboard member with its score; lower scores rank first,
// equal scores by member.
type Scored struct {
	Member string
	Score  float64
}

// Tournaments keeps what tournaments need besides their event log and
// snapshot, which live in a Store like a room's (under the tournament's
// id), and their leaderboards (Leaderboards): the list of tournaments and
// the times their clocks are due.
type Tournaments interface {
	// SetTournament shows (data non-nil) or hides (nil) a tournament in
	// the list of tournaments. Data is opaque (JSON from the server).
	SetTournament(ctx context.Context, id string, data []byte) error
	// TournamentList returns at most limit listed tournaments (none for
	// limit <= 0), newest first: the one listed last (by its first
	// SetTournament) first, so that old ones never hide new ones.
	TournamentList(ctx context.Context, limit int) ([]Listing, error)

	// SetDue records when the tournament id next needs its clock (its
	// start while upcoming, its close while live); a zero time forgets it
	// (finished). Due returns at most limit ids due at or before until,
	// soonest first, so a server's clock reads only the tournaments near
	// their start or close instead of scanning the whole list.
	SetDue(ctx context.Context, id string, at time.Time) error
	Due(ctx context.Context, until time.Time, limit int) ([]string, error)

	// CloseTournament makes the tournament id's listing, due time and
	// leaderboard go ttl from now (the tournament closed; its log and
	// snapshot expire through RoomLog.Expire). Until then they work as
	// before; later SetScores keep the deadline. A ttl <= 0 removes them
	// now.
	CloseTournament(ctx context.Context, id string, ttl time.Duration) error
}

// Leaderboards keeps the tournaments' leaderboards: sorted sets whose
// score packs the total and the countback (package tourney), so that
// rank, pages and "around me" are answered by the store. A tournament's
// board goes with it (Tournaments.CloseTournament).
type Leaderboards interface {
	// SetScores adds or updates members of the leaderboard board.
	SetScores(ctx context.Context, board string, scores ...Scored) error
	// Rank returns a member's 0-based rank and score; ErrNotFound when the
	// member is not on the board.
	Rank(ctx context.Context, board, member string) (rank int64, score float64, err error)
	// Range returns the members ranked start to stop (0-based, inclusive),
	// best first; past the end it returns fewer (or none).
	Range(ctx context.Context, board string, start, stop int64) ([]Scored, error)
	// Count returns how many members have a score in [min, max]; the size
	// of the board with -Inf, +Inf.
	Count(ctx context.Context, board string, min, max float64) (int64, error)
}
