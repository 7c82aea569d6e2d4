package match

import (
	"fmt"
	"sort"
)

// Standings is the state of the competition: stroke-play rows (always, for
// the scorecard) and, in match play, the match status.
type Standings struct {
	Format Format       `json:"format"`
	Holes  int          `json:"holes"` // holes scheduled
	Par    int          `json:"par"`   // par of the round
	Rows   []Row        `json:"rows"`  // in order of place
	Match  *MatchStatus `json:"match,omitempty"`
	// Over is true once the round is decided.
	Over bool `json:"over"`
}

// Row is one player's line: place, total, to par, thru and the scorecard.
type Row struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name"`
	Place     int    `json:"place"`
	PlaceText string `json:"placeText"` // "1", "T2"
	Total     int    `json:"total"`
	ToPar     int    `json:"toPar"`
	ToParText string `json:"toParText"` // "+3", "E", "-2"
	Thru      int    `json:"thru"`
	// Scores holds the strokes of each hole by number (index 0 is hole 1);
	// nil where the player has not finished that hole.
	Scores []*int `json:"scores"`
	// VsBest holds, for each hole over for everyone whose best score is
	// known (HoleBest), the strokes minus that best; nil elsewhere. Absent
	// in tournament rooms.
	VsBest []*int `json:"vsBest,omitempty"`
	// Held: the player's results are held for fair-play review (rated
	// rooms only): the scores stand, the rating waits.
	Held bool `json:"held,omitempty"`
}

// MatchStatus is a two-sided match's standing.
type MatchStatus struct {
	Leader    int    `json:"leader"` // seat ahead, -1 when all square
	Up        int    `json:"up"`
	Thru      int    `json:"thru"`
	HolesLeft int    `json:"holesLeft"`
	Dormie    bool   `json:"dormie"`
	Decided   bool   `json:"decided"`
	Winner    int    `json:"winner"`           // -1 unless decided with a winner
	Result    string `json:"result,omitempty"` // "3 & 2", "1 UP", "Halved"
	Text      string `json:"text"`             // "Ana 2 UP thru 7"
	Extra     int    `json:"extra,omitempty"`  // sudden-death holes played
	// Holes holds each completed hole's winner seat, or -1 when halved.
	Holes []int `json:"holes"`
}

// maxExtraHoles bounds sudden death; a match still level after them is
// halved.
const maxExtraHoles = 9

// ToParText formats a score against par: "+3", "E", "-2".
func ToParText(n int) string {
	switch {
	case n == 0:
		return "E"
	case n > 0:
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprintf("%d", n)
}

// Standings computes the standings of the current round from the games
// finished so far.
func (r *Room) Standings() Standings {
	return standings(r.Settings, r.Seats, r.Holes)
}

func standings(set Settings, seats []*Seat, holes []*Hole) Standings {
	st := Standings{Format: set.Format, Holes: set.Holes, Par: set.Par()}
	n := len(holes)
	if n < set.Holes {
		n = set.Holes
	}
	for i, s := range seats {
		row := Row{Seat: i, Name: s.Name, Scores: make([]*int, n), Held: s.Held}
		for _, h := range holes {
			if i < len(h.Games) && h.Games[i].Done {
				v := h.Games[i].Score
				row.Scores[h.Number-1] = &v
				row.Total += v
				row.Thru++
				if h.Done && h.Best != nil {
					if row.VsBest == nil {
						row.VsBest = make([]*int, n)
					}
					d := v - *h.Best
					row.VsBest[h.Number-1] = &d
				}
			}
		}
		row.ToPar = row.Total - 5*row.Thru
		row.ToParText = ToParText(row.ToPar)
		st.Rows = append(st.Rows, row)
	}
	allDone := len(holes) > 0
	for _, h := range holes {
		allDone = allDone && h.Done
	}
	complete := allDone && len(holes) >= set.Holes
	rankRows(st.Rows, set.Countback && complete, set.Holes)
	if set.Format == Matchplay && len(seats) == 2 {
		st.Match = matchStatus(set, seats, holes)
		st.Over = st.Match.Decided
	} else {
		st.Over = complete
	}
	return st
}

// rankRows sorts rows by score against par and gives places, ties sharing
// a place ("T2") unless countback separates them.
func rankRows(rows []Row, countback bool, holes int) {
	less := func(a, b Row) int {
		if a.ToPar != b.ToPar {
			return a.ToPar - b.ToPar
		}
		if countback {
			for _, last := range []int{9, 6, 3, 1} {
				if d := backSum(a, holes, last) - backSum(b, holes, last); d != 0 {
					return d
				}
			}
		}
		return 0
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if c := less(rows[i], rows[j]); c != 0 {
			return c < 0
		}
		return rows[i].Seat < rows[j].Seat
	})
	for i := range rows {
		if i > 0 && less(rows[i-1], rows[i]) == 0 {
			rows[i].Place = rows[i-1].Place
		} else {
			rows[i].Place = i + 1
		}
	}
	for i := range rows {
		tied := (i > 0 && rows[i-1].Place == rows[i].Place) || (i+1 < len(rows) && rows[i+1].Place == rows[i].Place)
		rows[i].PlaceText = fmt.Sprint(rows[i].Place)
		if tied {
			rows[i].PlaceText = "T" + rows[i].PlaceText
		}
	}
}

// backSum is the total of the last holes of the round (countback).
func backSum(r Row, holes, last int) int {
	sum := 0
	for h := max(holes-last, 0); h < holes && h < len(r.Scores); h++ {
		if r.Scores[h] != nil {
			sum += *r.Scores[h]
		}
	}
	return sum
}

func matchStatus(set Settings, seats []*Seat, holes []*Hole) *MatchStatus {
	m := &MatchStatus{Leader: -1, Winner: -1, Holes: []int{}}
	up := 0 // seat 0's lead
	for _, h := range holes {
		if !h.Done {
			continue
		}
		a, b := h.Games[0].Score, h.Games[1].Score
		switch {
		case a < b:
			up++
			m.Holes = append(m.Holes, 0)
		case b < a:
			up--
			m.Holes = append(m.Holes, 1)
		default:
			m.Holes = append(m.Holes, -1)
		}
		m.Thru++
	}
	m.Up = up
	if up < 0 {
		m.Up = -up
	}
	if up > 0 {
		m.Leader = 0
	} else if up < 0 {
		m.Leader = 1
	}
	m.HolesLeft = max(set.Holes-m.Thru, 0)
	m.Extra = max(m.Thru-set.Holes, 0)
	name := func(i int) string { return seats[i].Name }
	switch {
	case m.Up > m.HolesLeft && m.HolesLeft > 0:
		m.Decided, m.Winner = true, m.Leader
		m.Result = fmt.Sprintf("%d & %d", m.Up, m.HolesLeft)
	case m.HolesLeft == 0 && m.Thru >= set.Holes && m.Up > 0:
		m.Decided, m.Winner = true, m.Leader
		m.Result = fmt.Sprintf("%d UP", m.Up)
	case m.HolesLeft == 0 && m.Thru >= set.Holes && (!set.SuddenDeath || m.Extra >= maxExtraHoles):
		m.Decided = true
		m.Result = "Halved"
	}
	switch {
	case m.Decided && m.Winner >= 0:
		m.Text = fmt.Sprintf("%s wins %s", name(m.Winner), m.Result)
		if m.Extra > 0 {
			m.Text += fmt.Sprintf(" (sudden death, hole %d)", m.Thru)
		}
	case m.Decided:
		m.Text = "Halved"
	case m.Thru == 0:
		m.Text = "All square"
	case m.Up == 0:
		m.Text = fmt.Sprintf("All square thru %d", m.Thru)
	default:
		m.Text = fmt.Sprintf("%s %d UP thru %d", name(m.Leader), m.Up, m.Thru)
	}
	if !m.Decided && m.HolesLeft > 0 && m.Up == m.HolesLeft {
		m.Dormie = true
		m.Text += " (dormie)"
	}
	if !m.Decided && m.HolesLeft == 0 && m.Thru >= set.Holes {
		m.Text = fmt.Sprintf("All square after %d: sudden death", m.Thru)
	}
	return m
}
