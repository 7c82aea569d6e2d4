package ratings

import "fmt"

// Round updates every player of one rated round at once, from where each
// finished: places[i] is player i's place (1 is first; equal places are a
// tie). Each player gets one result against every other player, scored
// 1, 0.5 or 0 by comparing places, against the others' ratings before the
// round. Match play is the two-player case: places {1, 2} for a win,
// {1, 1} for a halved match. Stroke play among n players is the n-player
// case: n-1 pairwise results each.
func (c Config) Round(before []Rating, places []int) ([]Rating, error) {
	if len(before) != len(places) {
		return nil, fmt.Errorf("%w: %d ratings but %d places", ErrBadInput, len(before), len(places))
	}
	if len(before) < 2 {
		return nil, fmt.Errorf("%w: a rated round needs at least two players, not %d", ErrBadInput, len(before))
	}
	for i, p := range places {
		if p < 1 || p > len(places) {
			return nil, fmt.Errorf("%w: player %d's place %d (want 1 to %d)", ErrBadInput, i, p, len(places))
		}
	}
	after := make([]Rating, len(before))
	for i := range before {
		results := make([]Result, 0, len(before)-1)
		for j := range before {
			if j == i {
				continue
			}
			s := 0.5
			switch {
			case places[i] < places[j]:
				s = 1
			case places[i] > places[j]:
				s = 0
			}
			results = append(results, Result{Opponent: before[j], Score: s})
		}
		r, err := c.Update(before[i], results)
		if err != nil {
			return nil, fmt.Errorf("player %d: %w", i, err)
		}
		after[i] = r
	}
	return after, nil
}
