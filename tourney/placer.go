package tourney

import "math"

// Placer counts places on a stored board (the store's sorted set of the
// entrants' sort keys), once per key: the places of a page of the board
// as Leaderboard gives them, without reading the whole board.
type Placer struct {
	// board counts the entrants whose keys are in [lo, hi].
	board func(lo, hi float64) (int64, error)
	memo  map[float64][2]int64
}

// NewPlacer returns a placer counting with count: how many entrants the
// board holds with keys in [lo, hi].
func NewPlacer(count func(lo, hi float64) (int64, error)) *Placer {
	return &Placer{board: count, memo: map[float64][2]int64{}}
}

func (p *Placer) count(lo, hi float64) (int64, error) {
	if lo > hi {
		return 0, nil
	}
	return p.board(lo, hi)
}

// Place is the place of a key and whether another entrant shares it. An
// unfinished entrant (the level's own key) is placed after the better
// levels and ties with anyone else on their level; a finished one also
// after the finishers of their level with a better countback, and ties
// with those on their key, or with the unfinished when no finisher is
// ahead of them.
func (p *Placer) Place(k float64) (int64, bool, error) {
	if v, ok := p.memo[k]; ok {
		return v[0], v[1] == 1, nil
	}
	level := keyLevel(k)
	below, err := p.count(math.Inf(-1), level-1)
	if err != nil {
		return 0, false, err
	}
	var place int64
	var tied bool
	if k == level {
		others, err := p.count(level, level+levelWidth-1)
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
