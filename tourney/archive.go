package tourney

import (
	"encoding/json"

	"golfsolitaire/accounts"
	"golfsolitaire/ratings"
)

// Archive is the record kept of a closed rated tournament: its
// settings, round commitment and seed, the finishers' scores per hole and
// standings (in the rooms' shape: rows by seat, the seat being the index
// in Players), and each finisher's place among the finishers.
func (t *Tournament) Archive() (accounts.Game, []int, error) {
	var rows []Row
	for _, r := range t.Leaderboard() {
		if r.Thru == t.Settings.Holes {
			rows = append(rows, r)
		}
	}
	places := make([]int, len(rows))
	for i, r := range rows {
		places[i] = 1
		for _, o := range rows {
			if o.Place < r.Place {
				places[i]++
			}
		}
	}
	type stRow struct {
		Seat      int    `json:"seat"`
		Name      string `json:"name"`
		Place     int    `json:"place"`
		Total     int    `json:"total"`
		ToPar     int    `json:"toPar"`
		ToParText string `json:"toParText"`
		Scores    []*int `json:"scores"`
	}
	type hole struct {
		Number int   `json:"number"`
		Scores []int `json:"scores"`
	}
	st := struct {
		Format     string  `json:"format"`
		Holes      int     `json:"holes"`
		Par        int     `json:"par"`
		Tournament string  `json:"tournament"`
		Rows       []stRow `json:"rows"`
		Over       bool    `json:"over"`
	}{Format: "stroke", Holes: t.Settings.Holes, Par: 5 * t.Settings.Holes, Tournament: t.ID, Over: true}
	holes := make([]hole, t.Settings.Holes)
	for h := range holes {
		holes[h].Number = h + 1
	}
	g := accounts.Game{ID: "t-" + t.ID, Family: ratings.Family(t.Settings.Variant.Game), Format: "stroke", Finished: t.Closed}
	for i, r := range rows {
		st.Rows = append(st.Rows, stRow{Seat: i, Name: r.Name, Place: places[i], Total: r.Total, ToPar: r.ToPar, ToParText: r.ToParText, Scores: r.Scores})
		// The entrant's account, as entered (accounts-only tournaments
		// always record it): ratings and fair-play holds key on it.
		p := accounts.GamePlayer{Account: accounts.ID(t.Entrants[r.Entrant].Account), Name: r.Name, Place: places[i], Total: r.Total, ToPar: r.ToPar}
		for h, sc := range r.Scores {
			if sc == nil {
				continue
			}
			holes[h].Scores = append(holes[h].Scores, *sc)
			p.Holes++
			if *sc <= 0 {
				p.Clears++
			}
		}
		g.Players = append(g.Players, p)
	}
	var err error
	if g.Settings, err = json.Marshal(t.Settings); err != nil {
		return accounts.Game{}, nil, err
	}
	if g.Standings, err = json.Marshal(st); err != nil {
		return accounts.Game{}, nil, err
	}
	if g.Holes, err = json.Marshal(holes); err != nil {
		return accounts.Game{}, nil, err
	}
	if cs := t.Commitments(); len(cs) > 0 {
		g.Commitment = cs[0]
	}
	g.Seed = t.StrokeSeed().String()
	return g, places, nil
}
