package tournaments

import (
	"context"
	"errors"

	"golfsolitaire/protocol"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// leaderboardOf builds a page of the leaderboard from the store's sorted
// set, with the rows filled from the tournament (names, thru, today). Call
// it on the tournament's hub loop.
func leaderboardOf(ctx context.Context, board store.Leaderboards, t *tourney.Tournament, page, size, viewer int) (*protocol.Leaderboard, error) {
	page, size = max(page, 1), min(max(size, 1), 100)
	total, err := board.Count(ctx, t.ID, negInf, posInf)
	if err != nil {
		return nil, err
	}
	lb := &protocol.Leaderboard{V: t.Version, Total: total, Page: page, Size: size}
	start := int64((page - 1) * size)
	if lb.Rows, err = boardRows(ctx, board, t, start, int64(size)); err != nil {
		return nil, err
	}
	if viewer >= 0 && viewer < len(t.Entrants) {
		rank, _, err := board.Rank(ctx, t.ID, tourney.Member(viewer))
		switch {
		case errors.Is(err, store.ErrNotFound):
			you := t.Line(viewer)
			lb.You = &you
		case err != nil:
			return nil, err
		default:
			from := max(rank-2, 0)
			if lb.Around, err = boardRows(ctx, board, t, from, 5); err != nil {
				return nil, err
			}
			for i := range lb.Around {
				if lb.Around[i].Entrant == viewer {
					you := lb.Around[i]
					lb.You = &you
				}
			}
		}
	}
	return lb, nil
}

// boardRows returns n rows from rank start, with places as
// tourney.Leaderboard gives them: one more than the number of entrants
// placed strictly ahead (tourney.Better), counted by the store; none for
// an entrant not started (after the others, at the tourney package's not-started key).
func boardRows(ctx context.Context, board store.Leaderboards, t *tourney.Tournament, start, n int64) ([]tourney.Row, error) {
	ms, err := board.Range(ctx, t.ID, start, start+n-1)
	if err != nil {
		return nil, err
	}
	rows := []tourney.Row{}
	pl := tourney.NewPlacer(func(lo, hi float64) (int64, error) { return board.Count(ctx, t.ID, lo, hi) })
	for _, m := range ms {
		e := tourney.ParseMember(m.Member)
		if e < 0 || e >= len(t.Entrants) {
			continue
		}
		row := t.Line(e)
		if row.NotStarted {
			rows = append(rows, row) // no place
			continue
		}
		place, tied, err := pl.Place(m.Score)
		if err != nil {
			return nil, err
		}
		row.Place = int(place)
		row.PlaceText = tourney.PlaceText(row.Place, tied)
		rows = append(rows, row)
	}
	return rows, nil
}
