package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/solverpool"
)

// errNoReview: the analysis of a hole that is not public.
var errNoReview = errors.New("server: no analysis of that hole: it is not over for everyone yet, it is a tournament's, or there is no such hole or seat")

// reviewCache keeps the latest analyses (a record's review never
// changes), so the replay page asking again costs no solve.
type reviewCache struct {
	mu    sync.Mutex
	byKey map[string]golf.Review
	order []string
}

const reviewCacheSize = 256

func (c *reviewCache) get(key string) (golf.Review, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rv, ok := c.byKey[key]
	return rv, ok
}

func (c *reviewCache) put(key string, rv golf.Review) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]golf.Review{}
	}
	if _, ok := c.byKey[key]; ok {
		return
	}
	if len(c.order) >= reviewCacheSize {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[key] = rv
	c.order = append(c.order, key)
}

// getReview serves GET /api/rooms/{code}/holes/{hole}/analysis?seat=i:
// the post-round analysis of one player's game of a hole
// (golf.ReviewRecord), once everyone has finished that hole, never in a
// tournament room. The solves run in the solver pool at normal priority,
// counted against the caller's address.
func (s *Server) getReview(w http.ResponseWriter, r *http.Request) {
	hole, err1 := strconv.Atoi(r.PathValue("hole"))
	seat, err2 := strconv.Atoi(r.URL.Query().Get("seat"))
	if err1 != nil || err2 != nil {
		writeError(w, http.StatusBadRequest, protocol.ErrCodeBadMessage, "want /api/rooms/{code}/holes/{hole}/analysis?seat=N")
		return
	}
	room, ok := s.pathRoom(w, r)
	if !ok {
		return
	}
	recs, ok := room.HoleRecords(hole)
	if !ok || room.Tournament != "" || seat < 0 || seat >= len(recs) || seat >= len(room.Seats) {
		writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, errNoReview.Error())
		return
	}
	rec := recs[seat]
	key, _ := rec.MarshalJSON()
	rv, cached := s.reviews.get(string(key))
	if !cached {
		var err error
		client := clientOf(r, s.opts.Limits.TrustedHeader)
		nodes := s.opts.SolveNodes
		if nodes <= 0 {
			nodes = match.SolveNodes
		}
		solveErr := s.solve(r.Context(), solverpool.Normal, client, func() {
			var sv golf.Solver
			// Poll: the caller waits for the review, so it does not wait
			// for the rooms, but it lets their sockets be read.
			rv, err = golf.ReviewRecord(rec, &sv, &golf.SolveOptions{MaxNodes: nodes, Yield: s.poller.Poll})
		})
		if solveErr != nil {
			if errors.Is(solveErr, context.Canceled) || errors.Is(solveErr, context.DeadlineExceeded) {
				return // the caller left
			}
			s.fail(w, solveErr)
			return
		}
		if err != nil {
			s.fail(w, err)
			return
		}
		s.reviews.put(string(key), rv)
	}
	writeJSON(w, http.StatusOK, protocol.HoleReview{Hole: hole, Seat: seat, Name: room.Seats[seat].Name, Review: rv})
}
