package templates

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Profile is what the profile page /@/{name} shows; the web package fills
// it from the account store.
type Profile struct {
	Name    string
	Created time.Time
	// NameNote is set on a name kept from before the name rules
	// ("reserved", "look-alike of NAME"): its owner is offered a new one.
	NameNote string
	// Families are the player's ratings, one per game played rated.
	Families []ProfileFamily
	// Recent are the latest rated games, newest first.
	Recent []ProfileGame
}

// ProfileFamily is one game's rating with its history for the chart.
type ProfileFamily struct {
	Game        string // the game's name ("golf")
	Display     string // "1632" or "1500?"
	Provisional bool
	Games       int
	// The record: rounds won (first alone), holes finished and cleared,
	// the average and best rounds to par ("+1.5", "E", "−6") and the
	// best round's archive id.
	Won, Holes, Clears      int
	AverageToPar, BestToPar string
	BestGame                string
	// History is the starting rating then the rating after each rated
	// game, oldest first.
	History []float64
}

// ProfileGame is one recent rated game.
type ProfileGame struct {
	ID       string
	Game     string
	Finished time.Time
	Place    int
	Players  []string
	Before   int
	After    int
}

// TotalGames is the number of rated games over every family.
func (p Profile) TotalGames() int {
	n := 0
	for _, f := range p.Families {
		n += f.Games
	}
	return n
}

// Chart geometry of the rating charts, in SVG user units.
const (
	chartW   = 320
	chartH   = 120
	chartPad = 10
)

// chartPoints maps a rating history to the SVG polyline's points: x by
// game, y by rating between the history's lowest and highest (with a
// 50-point margin, so a flat history is a flat line in the middle).
func chartPoints(h []float64) string {
	if len(h) == 0 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range h {
		lo, hi = min(lo, r), max(hi, r)
	}
	lo, hi = lo-50, hi+50
	var b strings.Builder
	for i, r := range h {
		x := float64(chartPad)
		if len(h) > 1 {
			x += float64(i) * float64(chartW-2*chartPad) / float64(len(h)-1)
		} else {
			x = chartW / 2
		}
		y := float64(chartPad) + (hi-r)*float64(chartH-2*chartPad)/(hi-lo)
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.1f,%.1f", x, y)
	}
	return b.String()
}

// chartDots are the polyline's points as pairs, for a marker on each game.
func chartDots(h []float64) [][2]string {
	var out [][2]string
	for _, pt := range strings.Fields(chartPoints(h)) {
		x, y, _ := strings.Cut(pt, ",")
		out = append(out, [2]string{x, y})
	}
	return out
}

func roundRating(r float64) string { return fmt.Sprint(int(math.Round(r))) }

func chartLabel(p Page, f ProfileFamily) string {
	if len(f.History) == 0 {
		return ""
	}
	return p.T("acct.chart", "game", p.T("game."+f.Game), "from", roundRating(f.History[0]), "to", roundRating(f.History[len(f.History)-1]), "n", len(f.History)-1)
}

func dateOf(t time.Time) string { return t.UTC().Format("2006-01-02") }

func signedDiff(before, after int) string {
	d := after - before
	switch {
	case d > 0:
		return fmt.Sprintf("%d (+%d)", after, d)
	case d < 0:
		return fmt.Sprintf("%d (−%d)", after, -d)
	}
	return fmt.Sprintf("%d (±0)", after)
}

func joinNames(names []string) string { return strings.Join(names, ", ") }

// Archive is the page of an archived rated round, /g/{id}.
type Archive struct {
	ID         string
	Game       string
	Format     string
	Finished   time.Time
	Result     string // match play: "3 & 2", "1 UP", "Halved"
	Commitment string
	Seed       string
	Holes      []int // hole numbers, in order
	Players    []ArchivePlayer
}

// ArchivePlayer is one seat of an archived round.
type ArchivePlayer struct {
	Name          string
	Place         int
	Total         int
	ToPar         string
	Scores        []string // by hole, "" when not played
	Before, After string   // ratings, "1500?" style
	Change        string   // "+162", "−162", "±0"
}

// Leader is one row of a rating leaderboard page.
type Leader struct {
	Name    string
	Display string // "1632" or "1500?"
	Games   int
}
