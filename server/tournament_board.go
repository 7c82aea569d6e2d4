package server

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
func leaderboardOf(ctx context.Context, board store.Tournaments, t *tourney.Tournament, page, size, viewer int) (*protocol.Leaderboard, error) {
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
// placed strictly ahead (tourney.Better), counted by the store.
func boardRows(ctx context.Context, board store.Tournaments, t *tourney.Tournament, start, n int64) ([]tourney.Row, error) {
	ms, err := board.Range(ctx, t.ID, start, start+n-1)
	if err != nil {
		return nil, err
	}
	rows := []tourney.Row{}
	pl := placer{ctx: ctx, board: board, id: t.ID, memo: map[float64][2]int64{}}
	for _, m := range ms {
		e := tourney.ParseMember(m.Member)
		if e < 0 || e >= len(t.Entrants) {
			continue
		}
		row := t.Line(e)
		place, tied, err := pl.place(m.Score)
		if err != nil {
			return nil, err
		}
		row.Place = int(place)
		row.PlaceText = tourney.PlaceText(row.Place, tied)
		rows = append(rows, row)
	}
	return rows, nil
}

// placer counts places on a board, once per score.
type placer struct {
	ctx   context.Context
	board store.Tournaments
	id    string
	memo  map[float64][2]int64
}

func (p *placer) count(lo, hi float64) (int64, error) {
	if lo > hi {
		return 0, nil
	}
	return p.board.Count(p.ctx, p.id, lo, hi)
}

// place is the place of a key and whether another entrant shares it. An
// unfinished entrant (the level's own key) is placed after the better
// levels and ties with anyone else on their level; a finished one also
// after the finishers of their level with a better countback, and ties
// with those on their key, or with the unfinished when no finisher is
// ahead of them.
func (p *placer) place(k float64) (int64, bool, error) {
	if v, ok := p.memo[k]; ok {
		return v[0], v[1] == 1, nil
	}
	level := tourney.KeyLevel(k)
	below, err := p.count(negInf, level-1)
	if err != nil {
		return 0, false, err
	}
	var place int64
	var tied bool
	if k == level {
		others, err := p.count(level, level+tourney.LevelWidth-1)
		if err != nil {
			return 0, false, err
		}
		place, tied = below+1, others > 1
	} else {
		better, err := p.count(level+1, k-1)
		if err != nil {
			return 0, false, err
		}
		same, err := p.count(k, k)
		if err != nil {
			return 0, false, err
		}
		unfinished := int64(0)
		if better == 0 && same == 1 {
			if unfinished, err = p.count(level, level); err != nil {
				return 0, false, err
			}
		}
		place, tied = below+better+1, same > 1 || unfinished > 0
	}
	t := int64(0)
	if tied {
		t = 1
	}
	p.memo[k] = [2]int64{place, t}
	return place, tied, nil
}
