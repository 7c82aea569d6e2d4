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
	// Held: the entrant is held for fair-play review, or confirmed: the
	// scores stand and place them, and they are left out of the leaders
	// (Leaders).
	Held bool `json:"held,omitempty"`
	// NotStarted: the entrant has entered but finished no hole: listed
	// after everyone who has, with no place (0, placeText "") and no
	// score (toParText "").
	NotStarted bool `json:"notStarted,omitempty"`
}

// Line returns entrant i's row, without its place.
func (t *Tournament) Line(i int) Row {
	e := t.Entrants[i]
	r := Row{Entrant: i, Name: e.Name, Scores: e.Scores, Held: e.Held}
	for _, s := range e.Scores {
		if s != nil {
			r.Total += *s
			r.Thru++
		}
	}
	r.ToPar = r.Total - 5*r.Thru
	r.ToParText = match.ToParText(r.ToPar)
	if r.Thru == 0 {
		r.ToParText, r.NotStarted = "", true
	}
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
// among equal scores against par finished entrants come after the others.
// Places follow Better: an entrant who has not finished ties with every
// entrant on their score; countback separates only finished entrants.
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

// notStartedKey is the sort key of every entrant who has finished no
// hole: after every key of an entrant who has (whose score to par is
// clamped below keyParBase), and exact in a float64 (below 2^53).
const notStartedKey = float64(keyParBase) * levelWidth

func sortKey(r Row, holes int, countback bool) float64 {
	if r.Thru == 0 {
		return notStartedKey
	}
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

// OnBoard reports whether entrant i is on the leaderboard: every entrant
// is, from their entry (those who have finished no hole at
// notStartedKey, after everyone who has).
func (t *Tournament) OnBoard(i int) bool { return i >= 0 && i < len(t.Entrants) }

// levelWidth is the width of one score-to-par level of sort keys: keys
// of entrants on the same score to par share keyLevel.
const levelWidth = float64(keyBase * keyBase * keyBase * keyBase)

// keyLevel is the lowest key of k's score-to-par level: the key of every
// entrant on that score who has not finished (or of every entrant without
// countback).
func keyLevel(k float64) float64 {
	w := int64(levelWidth)
	return float64(int64(k) / w * w)
}

// Better reports whether the key a places strictly ahead of the key b: a
// better score to par, or the same score with both entrants finished and
// a's countback better. Countback only separates entrants who have both
// finished: one who has not ties with everyone on their score.
func Better(a, b float64) bool {
	la, lb := keyLevel(a), keyLevel(b)
	if la != lb {
		return la < lb
	}
	return a != la && b != lb && a < b
}

// Leaderboard is the whole stroke-play leaderboard: every entrant who has
// finished a hole, best first, then those who have not (NotStarted, no
// place), in entry order. An entrant's place is one more than the number
// of entrants placed strictly ahead of them (Better), so ties share a
// place.
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
	// Keys sort by level, and within a level the unfinished (the level's
	// own key) first: a row's place is the start of its level plus the
	// finished rows of the level with a lower key.
	levelStart, finishedBefore := 0, 0
	for i := range all {
		rows[i] = all[i].row
		if rows[i].NotStarted {
			continue // no place
		}
		level := keyLevel(all[i].key)
		if i == 0 || keyLevel(all[i-1].key) != level {
			levelStart, finishedBefore = i, 0
		}
		switch {
		case all[i].key == level:
			rows[i].Place = levelStart + 1
		case i > 0 && all[i-1].key == all[i].key:
			rows[i].Place = rows[i-1].Place
			finishedBefore++
		default:
			rows[i].Place = levelStart + finishedBefore + 1
			finishedBefore++
		}
	}
	for i := range rows {
		if rows[i].NotStarted {
			continue
		}
		tied := (i > 0 && rows[i-1].Place == rows[i].Place) || (i+1 < len(rows) && rows[i+1].Place == rows[i].Place)
		rows[i].PlaceText = PlaceText(rows[i].Place, tied)
	}
	return rows
}

// Leaders are the first n rows of the leaderboard that may lead a list
// of leaders (a top list, or a prize): entrants who have finished a hole
// and are not held for fair-play review (or confirmed), in leaderboard
// order, with their leaderboard places.
func (t *Tournament) Leaders(n int) []Row {
	out := []Row{}
	for _, r := range t.Leaderboard() {
		if len(out) == n {
			break
		}
		if !r.NotStarted && !r.Held {
			out = append(out, r)
		}
	}
	return out
}

// PlaceText writes a place, "T2" when shared.
func PlaceText(place int, tied bool) string {
	if tied {
		return fmt.Sprintf("T%d", place)
	}
	return fmt.Sprint(place)
}
