package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"golfsolitaire/bot"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// errNoHints is the refusal of a hint outside solo practice.
var errNoHints = errors.New("server: hints are for solo practice only")

// getBestLine serves GET /api/rooms/{code}/holes/{hole}/best: the solver's
// best line of a hole, board by board (match.ReplayLine), once everyone has
// finished that hole.
func (s *Server) getBestLine(w http.ResponseWriter, r *http.Request) {
	code, ok := s.roomCode(w, r)
	if !ok {
		return
	}
	hole, err := strconv.Atoi(r.PathValue("hole"))
	if err != nil {
		writeError(w, http.StatusBadRequest, protocol.ErrCodeBadMessage, "want /api/rooms/{code}/holes/{hole}/best")
		return
	}
	room, err := s.loadRoom(r.Context(), code)
	if err != nil {
		s.fail(w, err)
		return
	}
	rp, ok := room.BestLine(hole)
	if !ok {
		writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "that hole is not over for everyone yet, or there is no such hole")
		return
	}
	writeJSON(w, http.StatusOK, rp)
}

// warmBest solves the deals of holes that have just started, off the
// hub's goroutine, so the end of the hole finds the answer memoized. When
// every solver slot is busy it does nothing: the fold then solves.
func (s *Server) warmBest(r *match.Room, notices []match.Notice) {
	if r.Tournament != "" {
		return
	}
	for _, n := range notices {
		if n.Kind != "holeStarted" {
			continue
		}
		h := r.CurrentHole()
		if h == nil || h.Number != n.Hole {
			continue
		}
		select {
		case s.solverSlots <- struct{}{}:
		default:
			continue
		}
		v, seed := r.Settings.Variant, h.Seed
		go func() {
			defer func() { <-s.solverSlots }()
			s.analyzer.Warm(v, seed)
		}()
	}
}

// hintFor answers a hint command: in solo practice (not a tournament
// room), a suggested move for the player's hole in play. The suggestion
// uses only what the player sees (golf.Hint), and its sampler's seed comes
// from the player's own board and a secret of this server, never from the
// stock.
func (s *Server) hintFor(ctx context.Context, h *hub, seat, hole int) (move string, v int64, err error) {
	type snap struct {
		st    *golf.State
		board []byte
		err   error
	}
	res := h.do(ctx, &command{read: func(r *match.Room) any {
		if !r.Settings.Solo() || r.Tournament != "" {
			return snap{err: errNoHints}
		}
		if r.Status != match.Playing {
			return snap{err: match.ErrNotPlaying}
		}
		cur := r.CurrentHole()
		if cur.Number != hole {
			return snap{err: match.ErrWrongHole}
		}
		if cur.Games[seat].Done {
			return snap{err: match.ErrHoleDone}
		}
		v := r.View(seat)
		b, _ := json.Marshal(v.Board)
		return snap{st: cur.State(r.Settings.Variant, seat).Clone(), board: b}
	}})
	if res.err != nil {
		return "", res.v, res.err
	}
	sn := res.data.(snap)
	if sn.err != nil {
		return "", res.v, sn.err
	}
	select {
	case s.solverSlots <- struct{}{}:
	case <-ctx.Done():
		return "", res.v, ctx.Err()
	}
	defer func() { <-s.solverSlots }()
	mac := hmac.New(sha256.New, s.secret[:])
	mac.Write([]byte(h.code))
	mac.Write(sn.board)
	var seed [32]byte
	copy(seed[:], mac.Sum(nil))
	m := golf.Hint(sn.st, bot.SearchSamples, rand.NewChaCha8(seed))
	if m == (golf.Move{}) {
		return "", res.v, nil
	}
	return m.String(), res.v, nil
}

// recordBests solves the deals of finished holes whose best score is not
// recorded yet, off the hub's goroutine (bounded by the server's solver
// slots), and appends a best event for each. Only the instance that ended
// the hole (or loads the room later) does it; if two race, the room
// accepts one best event per hole. Runs on the hub's goroutine.
func (h *hub) recordBests() {
	need := h.room.NeedsBest()
	if len(need) == 0 {
		return
	}
	if h.solving == nil {
		h.solving = map[[2]int]bool{}
	}
	round, v := h.room.Round, h.room.Settings.Variant
	for _, n := range need {
		key := [2]int{round, n}
		if h.solving[key] {
			continue
		}
		h.solving[key] = true
		seed := h.room.Holes[n-1].Seed
		go func() {
			h.s.solverSlots <- struct{}{}
			sol := h.s.analyzer.Solve(v, seed)
			<-h.s.solverSlots
			best := sol.Best
			ev := match.Event{Kind: match.KindBest, Hole: n, Best: &best, BestExact: sol.Exact, BestLine: sol.Moves}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			r := h.do(ctx, &command{build: func(r *match.Room) (match.Event, error) {
				delete(h.solving, key)
				if r.Round != round {
					return match.Event{}, match.ErrNoChange
				}
				return ev, nil
			}})
			if r.err != nil && !errors.Is(r.err, match.ErrNoChange) && !errors.Is(r.err, store.ErrUnavailable) && !errors.Is(r.err, context.DeadlineExceeded) {
				h.log.Warn("best score not recorded", "hole", n, "err", r.err)
			}
		}()
	}
}
