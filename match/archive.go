package match

import (
	"encoding/json"
	"strconv"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/golf"
	"golfsolitaire/ratings"
)

// HoleRecords are the records of one hole, by seat.
type HoleRecords struct {
	Number  int           `json:"number"`
	Records []golf.Record `json:"records"`
	Scores  []int         `json:"scores"`
}

// FinishedHoles are the records of every hole that everyone has
// finished (GET /api/rooms/{code}/records, the archive).
func (r *Room) FinishedHoles() []HoleRecords {
	var out []HoleRecords
	for _, h := range r.Holes {
		recs, ok := r.HoleRecords(h.Number)
		if !ok {
			continue
		}
		hr := HoleRecords{Number: h.Number, Records: recs}
		for _, g := range h.Games {
			hr.Scores = append(hr.Scores, g.Score)
		}
		out = append(out, hr)
	}
	return out
}

// Archive is the record kept of a finished rated round: settings,
// commitment, seed, every hole's records and scores, standings, and each
// seat's place; finished is when the round ended.
func (r *Room) Archive(finished time.Time) (accounts.Game, []int, error) {
	v := r.View(-2)
	st := r.Standings()
	for i := range st.Rows {
		// The held mark (held.go) is of the moment: the archive is
		// written only once the round counts.
		st.Rows[i].Held = false
	}
	settings, err := json.Marshal(r.Settings)
	if err != nil {
		return accounts.Game{}, nil, err
	}
	standings, err := json.Marshal(st)
	if err != nil {
		return accounts.Game{}, nil, err
	}
	holesJSON, err := json.Marshal(r.FinishedHoles())
	if err != nil {
		return accounts.Game{}, nil, err
	}
	places := make([]int, len(r.Seats))
	for _, row := range st.Rows {
		places[row.Seat] = row.Place
	}
	if st.Match != nil {
		// Match play: the match's result, not the strokes.
		for i := range places {
			places[i] = 1
			if st.Match.Winner >= 0 && st.Match.Winner != i {
				places[i] = 2
			}
		}
	}
	g := accounts.Game{
		ID:     r.Code + "-" + strconv.Itoa(r.Round),
		Family: ratings.Family(r.Settings.Variant.Game), Format: string(r.Settings.Format),
		Settings: settings, Commitment: v.Commitment, Seed: v.Seed, Holes: holesJSON, Standings: standings,
		Finished: finished,
	}
	for i, seat := range r.Seats {
		g.Players = append(g.Players, accounts.GamePlayer{Account: accounts.ID(seat.Account), Name: seat.Name, Place: places[i]})
	}
	for _, row := range st.Rows {
		if row.Seat < 0 || row.Seat >= len(g.Players) {
			continue
		}
		p := &g.Players[row.Seat]
		p.Total, p.ToPar = row.Total, row.ToPar
		for _, sc := range row.Scores {
			if sc == nil {
				continue
			}
			p.Holes++
			if *sc <= 0 {
				p.Clears++
			}
		}
	}
	return g, places, nil
}
