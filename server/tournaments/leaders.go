package tournaments

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"golfsolitaire/match"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// maxLeaders bounds GET /api/tournaments/{id}/leaders?n=N.
const maxLeaders = 20

// getLeaders is GET /api/tournaments/{id}/leaders?n=3: the tournament's
// list of leaders, {"rows":[row…]}: its first n leaderboard rows (with
// their leaderboard places) leaving out entrants held for fair-play
// review (or confirmed), and those who have not started. What any top
// list or prize of a tournament reads (tourney.Leaders, from the store's
// board).
func (ts *Tournaments) getLeaders(w http.ResponseWriter, r *http.Request) {
	n := 3
	if q := r.URL.Query().Get("n"); q != "" {
		v, err := strconv.Atoi(q)
		if err != nil || v < 1 || v > maxLeaders {
			ts.o.Answers.Fail(w, fmt.Errorf("%w: n must be 1 to %d, not %q", match.ErrInvalid, maxLeaders, q))
			return
		}
		n = v
	}
	ts.withTournament(w, r, func(h *hub) {
		rows, err := readT(r.Context(), h, func(t *tourney.Tournament) ([]tourney.Row, error) {
			if !t.HasLeaderboard() {
				return []tourney.Row{}, nil
			}
			return leadersOf(r.Context(), h.board, t, n)
		})
		if err != nil {
			ts.o.Answers.Fail(w, err)
			return
		}
		api.WriteJSON(w, http.StatusOK, struct {
			Rows []tourney.Row `json:"rows"`
		}{rows})
	})
}

// leadersOf reads the board from the top, a page at a time, for the first
// n rows that may lead (tourney.Leaders): past the held ones, up to the
// first not started. Call it on the tournament's hub loop.
func leadersOf(ctx context.Context, board store.Leaderboards, t *tourney.Tournament, n int) ([]tourney.Row, error) {
	out := []tourney.Row{}
	page := int64(max(n, 10))
	for start := int64(0); ; start += page {
		rows, err := boardRows(ctx, board, t, start, page)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.NotStarted {
				return out, nil
			}
			if !r.Held {
				out = append(out, r)
				if len(out) == n {
					return out, nil
				}
			}
		}
		if int64(len(rows)) < page {
			return out, nil
		}
	}
}

// Leaders is the tournament's list of leaders, as getLeaders answers
// it, for the other pages that show them (GET /api/live).
func (ts *Tournaments) Leaders(ctx context.Context, id string, n int) ([]tourney.Row, error) {
	h, err := ts.acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	defer ts.reg.Release(h)
	return readT(ctx, h, func(t *tourney.Tournament) ([]tourney.Row, error) {
		if !t.HasLeaderboard() {
			return []tourney.Row{}, nil
		}
		return leadersOf(ctx, h.board, t, n)
	})
}
