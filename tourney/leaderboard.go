package tourney

import (
	"cmp"
	"fmt"
	"slices"

	"golfsolitaire/match"
)

// Row is one line of the stroke-play leaderboard.
type Row struct {
	Entrant   int    `json:"entrant"`
	Name      string `json:"name"`
	Place     int    `json:"place"`
	PlaceText string `json:"placeText"` // "1", "T2"
	Total     int    `json:"total"`
	ToPar     int    `json:"toPar"`
	ToParText string `json:"toParText"` // "+3", "E", "-2"
	Thru      int    `json:"thru"`
	// Today is the hole the entrant plays next ("4"), "F" when finished.
	Today  string `json:"today"`
	Scores []*int `json:"scores"`
}

// Line returns entrant i's row, without its place.
func (t *Tournament) Line(i int) Row {
	e := t.Entrants[i]
	r := Row{Entrant: i, Name: e.Name, Scores: e.Scores}
	for _, s := range e.Scores {
		if s != nil {
			r.Total += *s
			r.Thru++
		}
	}
	r.ToPar = r.Total - 5*r.Thru
	r.ToParText = match.ToParText(r.ToPar)
	r.Today = fmt.Sprint(r.Thru + 1)
	if r.Thru == t.Settings.Holes {
		r.Today = "F"
	}
	return r
}

// The sort key packs, most significant first, the score against par and
// the countback sums of the last 9, 6, 3 and 1 holes into one float64 that
// holds integers exactly (below 2^53), so a Redis sorted set orders the
// leaderboard by itself. Each countback field is its sum plus keyOffset;
// entrants who have not finished (or without countback) get 0 there, so
// among equal scores against par finished entrants come after the others
// and tie only with each other.
const (
	keyParOffset = 2000 // to-par sums stay within ±2000 (18 holes, 64 cards)
	keyParBase   = 4000
	keyOffset    = 600 // nine holes of -40..64 stay within ±600
	keyBase      = 1200
)

// SortKey is entrant i's leaderboard score: lower is better, equal keys
// share a place.
func (t *Tournament) SortKey(i int) float64 {
	r := t.Line(i)
	return sortKey(r, t.Settings.Holes, t.Settings.Countback)
}

func sortKey(r Row, holes int, countback bool) float64 {
	k := int64(min(max(r.ToPar+keyParOffset, 0), keyParBase-1))
	complete := r.Thru == holes
	for _, last := range []int{9, 6, 3, 1} {
		f := int64(0)
		if countback && complete {
			f = int64(min(max(backSum(r.Scores, holes, last)+keyOffset, 1), keyBase-1))
		}
		k = k*keyBase + f
	}
	return float64(k)
}

func backSum(scores []*int, holes, last int) int {
	sum := 0
	for h := max(holes-last, 0); h < holes && h < len(scores); h++ {
		if scores[h] != nil {
			sum += *scores[h]
		}
	}
	return sum
}

// Member is the sorted-set member of entrant i: zero-padded so that equal
// scores list in join order, as Leaderboard does.
func Member(i int) string { return fmt.Sprintf("%07d", i) }

// ParseMember is the inverse of Member; -1 when m is not one.
func ParseMember(m string) int {
	n := 0
	if len(m) != 7 {
		return -1
	}
	for _, c := range m {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// OnBoard reports whether entrant i is on the leaderboard: once they have
// finished a hole.
func (t *Tournament) OnBoard(i int) bool { return t.Thru(i) > 0 }

// Leaderboard is the whole stroke-play leaderboard: every entrant who has
// finished a hole, best first, ties sharing a place.
func (t *Tournament) Leaderboard() []Row {
	type keyed struct {
		row Row
		key float64
	}
	var all []keyed
	for i := range t.Entrants {
		if !t.OnBoard(i) {
			continue
		}
		r := t.Line(i)
		all = append(all, keyed{r, sortKey(r, t.Settings.Holes, t.Settings.Countback)})
	}
	slices.SortFunc(all, func(a, b keyed) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.row.Entrant, b.row.Entrant)
	})
	rows := make([]Row, len(all))
	for i := range all {
		rows[i] = all[i].row
		if i > 0 && all[i-1].key == all[i].key {
			rows[i].Place = rows[i-1].Place
		} else {
			rows[i].Place = i + 1
		}
	}
	for i := range rows {
		tied := (i > 0 && rows[i-1].Place == rows[i].Place) || (i+1 < len(rows) && rows[i+1].Place == rows[i].Place)
		rows[i].PlaceText = PlaceText(rows[i].Place, tied)
	}
	return rows
}

// PlaceText writes a place, "T2" when shared.
func PlaceText(place int, tied bool) string {
	if tied {
		return fmt.Sprintf("T%d", place)
	}
	return fmt.Sprint(place)
}
