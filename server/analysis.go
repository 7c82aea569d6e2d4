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
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/solverpool"
	"golfsolitaire/store"
)

// errNoHints is the refusal of a hint outside solo practice.
var errNoHints = errors.New("server: hints are for solo practice only")

// getBestLine serves GET /api/rooms/{code}/holes/{hole}/best: the solver's
// best line of a hole, board by board (match's best-line replay), once everyone has
// finished that hole.
func (s *Server) getBestLine(w http.ResponseWriter, r *http.Request) {
	hole, err := strconv.Atoi(r.PathValue("hole"))
	if err != nil {
		writeError(w, http.StatusBadRequest, protocol.ErrCodeBadMessage, "want /api/rooms/{code}/holes/{hole}/best")
		return
	}
	room, ok := s.pathRoom(w, r)
	if !ok {
		return
	}
	rp, ok := room.BestLine(hole)
	if !ok {
		writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "that hole is not over for everyone yet, or there is no such hole")
		return
	}
	writeJSON(w, http.StatusOK, rp)
}

// warmBest queues the deal of a hole that has just started to be solved
// ahead of the hole's end (bestWarmer). Not in tournament rooms: the
// tournament solves a hole's best on its own goroutine once the hole is
// safe. A hole's deal is not solved earlier (with the round's draw):
// many rooms never reach their later holes, and each solve costs some
// 5 ms of CPU.
func (s *Server) warmBest(r *match.Room, notices []match.Notice) {
	if r.Tournament != "" {
		return
	}
	for _, n := range notices {
		if n.Kind != match.NoticeHoleStarted {
			continue
		}
		if h := r.CurrentHole(); h != nil && h.Number == n.Hole {
			s.warm.add(r.Settings.Variant, h.Seed)
		}
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
		v     int64
	}
	sn, err := hubs.ReadErr(ctx, &h.Core, func() (snap, error) {
		sn := snap{v: h.room.Version}
		r := h.room
		if !r.Settings.Solo() || r.Tournament != "" {
			return sn, errNoHints
		}
		if r.Status != match.Playing {
			return sn, match.ErrNotPlaying
		}
		cur := r.CurrentHole()
		if cur.Number != hole {
			return sn, match.ErrWrongHole
		}
		if cur.Games[seat].Done {
			return sn, match.ErrHoleDone
		}
		v := r.View(seat)
		sn.board, _ = json.Marshal(v.Board)
		sn.st = cur.State(r.Settings.Variant, seat).Clone()
		return sn, nil
	})
	if err != nil {
		return "", sn.v, err
	}
	mac := hmac.New(sha256.New, s.secret[:])
	mac.Write([]byte(h.code))
	mac.Write(sn.board)
	var seed [32]byte
	copy(seed[:], mac.Sum(nil))
	// A hint is high priority, and each seat may have SolverPerClient of
	// them in flight.
	var m golf.Move
	client := "seat:" + h.code + "/" + strconv.Itoa(seat)
	if err := s.solve(ctx, solverpool.High, client, func() { m = golf.HintYield(sn.st, bot.SearchSamples, rand.NewChaCha8(seed), s.poller.Poll) }); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			// Queued past the hint's time: every worker busy. Say so, with
			// when to ask again, rather than "internal error".
			err = &retryError{err: errSolverBusy, after: solverRetry}
		}
		return "", sn.v, err
	}
	if m == (golf.Move{}) {
		return "", sn.v, nil
	}
	return m.String(), sn.v, nil
}

// recordBests solves the deals of finished holes whose best score is not
// recorded yet, off the hub's goroutine, in the solver pool at high
// priority, one hole of the room at a time (so a room that ends holes
// quickly queues one job, not eighteen), and appends a best event for
// each, with the deal's rating in solo practice. Only the instance that
// ended the hole (or loads the room later) does it; if two race, the room
// accepts one best event per hole. Runs on the hub's goroutine.
func (h *hub) recordBests() {
	need := h.room.NeedsBest()
	if len(need) == 0 || h.gone {
		return
	}
	if h.solving == nil {
		h.solving = map[[2]int]bool{}
		h.bestTurn = make(chan struct{}, 1)
	}
	round, v, rates := h.room.Round, h.room.Settings.Variant, h.room.RatesDeals()
	for _, n := range need {
		key := [2]int{round, n}
		if h.solving[key] {
			continue
		}
		h.solving[key] = true
		seed := h.room.Holes[n-1].Seed
		h.s.tasks.goCtx(func(ctx context.Context) {
			var sol golf.Solution
			var level golf.Difficulty
			// The analyzer runs each solve as a high-priority job of the
			// solver pool.
			select {
			case h.bestTurn <- struct{}{}:
			case <-ctx.Done():
				return // closing: whoever serves the room next records it
			}
			sol = h.s.analyzer.Solve(v, seed)
			if rates {
				level = h.s.analyzer.Rate(v, seed)
			}
			<-h.bestTurn
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			best := sol.Best
			ev := match.Event{Kind: match.KindBest, Hole: n, Best: &best, BestExact: sol.Exact, BestLine: sol.Moves, Difficulty: level}
			r := h.change(ctx, func(r *match.Room) (match.Event, error) {
				delete(h.solving, key)
				if r.Round != round {
					return match.Event{}, match.ErrNoChange
				}
				return ev, nil
			})
			if r.err != nil && !errors.Is(r.err, match.ErrNoChange) && !errors.Is(r.err, store.ErrUnavailable) && !errors.Is(r.err, context.DeadlineExceeded) {
				h.Log.Warn("best score not recorded", "hole", n, "err", r.err)
			}
		})
	}
}
