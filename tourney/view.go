package tourney

import (
	"time"

	"golfsolitaire/match"
)

// View is what anyone may know of a tournament, for a viewer who may be
// one of its entrants (You). It never holds a seed before the tournament
// closes, and boards or records only of safe holes (those are served
// separately; Safe lists them).
type View struct {
	V           int64     `json:"v"`
	ID          string    `json:"id"`
	Phase       string    `json:"phase,omitempty"`
	Settings    Settings  `json:"settings"`
	Status      Status    `json:"status"`
	Created     time.Time `json:"created"`
	Started     time.Time `json:"started,omitzero"`
	Closed      time.Time `json:"closed,omitzero"`
	Reason      string    `json:"reason,omitempty"`
	Entrants    int       `json:"entrants"`
	Commitments []string  `json:"commitments"`
	// Seeds are revealed when the tournament closes.
	Seeds []string `json:"seeds,omitempty"`
	// Safe lists the holes (stroke play) whose records anyone may see.
	Safe []int `json:"safe"`
	// Best is the best possible score of each safe stroke hole (the
	// solver's, as in rooms: match.Analyzer.Solve), never of a hole that is not
	// safe.
	Best []match.HoleBest `json:"best,omitempty"`
	// SafeRounds lists the knockout rounds whose records anyone may see.
	SafeRounds []int        `json:"safeRounds,omitempty"`
	You        *YouView     `json:"you,omitempty"`
	Bracket    *BracketView `json:"bracket,omitempty"`
	Champion   string       `json:"champion,omitempty"`
}

// YouView is the viewer's own place in the tournament.
type YouView struct {
	Entrant int    `json:"entrant"`
	Name    string `json:"name"`
	Host    bool   `json:"host,omitempty"`
	Row     Row    `json:"row"`
	// Room is where the viewer plays: their stroke room, or their current
	// knockout match.
	Room string `json:"room,omitempty"`
	// Next is the next hole to play, 0 when there is none.
	Next int  `json:"next"`
	Out  bool `json:"out,omitempty"`
}

// BracketView is the bracket with names.
type BracketView struct {
	Size   int           `json:"size"`
	Rounds [][]MatchView `json:"rounds"`
}

// MatchView is one match as shown in the bracket.
type MatchView struct {
	Round   int    `json:"round"`
	Slot    int    `json:"slot"`
	A       string `json:"a"`
	B       string `json:"b"`
	SeedA   int    `json:"seedA,omitempty"`
	SeedB   int    `json:"seedB,omitempty"`
	Room    string `json:"room,omitempty"`
	Decided bool   `json:"decided"`
	Winner  string `json:"winner,omitempty"`
	Result  string `json:"result,omitempty"`
	// Status is the live match text ("Ana 2 UP thru 5"), filled by the
	// server from the room; Live is the same standing as fields (seat 0
	// is A, seat 1 B), for a page to put in its own language.
	Status string             `json:"status,omitempty"`
	Live   *match.MatchStatus `json:"live,omitempty"`
}

// View returns what the viewer (an entrant, or -1) may know now; host says
// whether the viewer is the host.
func (t *Tournament) View(viewer int, host bool) View {
	v := View{
		V: t.Version, ID: t.ID, Phase: t.Phase, Settings: t.Settings, Status: t.Status, Created: t.Created,
		Started: t.Started, Closed: t.Closed, Reason: t.Reason, Entrants: len(t.Entrants),
		Commitments: t.Commitments(), Safe: t.SafeHoles(),
	}
	if t.HasLeaderboard() && len(t.Seeds) > 0 {
		set := t.Settings.StrokeRoomSettings()
		for _, n := range v.Safe {
			seed, _ := t.analyzer().HoleDealSeed(set, t.StrokeSeed(), n)
			sol := t.analyzer().Solve(set.Variant, seed)
			v.Best = append(v.Best, match.HoleBest{Hole: n, Best: sol.Best, Exact: sol.Exact})
		}
	}
	if t.Status == Closed {
		for _, s := range t.Seeds {
			v.Seeds = append(v.Seeds, s.String())
		}
	}
	if t.Settings.Format == Knockout {
		if t.Bracket != nil {
			for r := 1; r <= len(t.Bracket.Rounds); r++ {
				if t.Safe(r, 1) {
					v.SafeRounds = append(v.SafeRounds, r)
				}
			}
			v.Bracket = t.bracketView()
		}
		if c := t.Champion(); c >= 0 {
			v.Champion = t.Entrants[c].Name
		}
	}
	if viewer >= 0 && viewer < len(t.Entrants) {
		e := t.Entrants[viewer]
		y := &YouView{Entrant: viewer, Name: e.Name, Host: host, Row: t.Line(viewer), Room: e.Room, Out: e.Out}
		if t.Status == Live && t.StrokePlay() && y.Row.Thru < t.Settings.Holes {
			y.Next = y.Row.Thru + 1
		}
		if m := t.currentMatch(viewer); m != nil {
			y.Room = m.Room
		} else if !t.StrokePlay() {
			y.Room = ""
		}
		v.You = y
	} else if host {
		v.You = &YouView{Entrant: -1, Host: true}
	}
	return v
}

// currentMatch is the undecided knockout match of entrant i, or nil.
func (t *Tournament) currentMatch(i int) *Match {
	if t.Bracket == nil {
		return nil
	}
	for _, round := range t.Bracket.Rounds {
		for _, m := range round {
			if !m.Decided && (m.A == i || m.B == i) {
				return m
			}
		}
	}
	return nil
}

func (t *Tournament) bracketView() *BracketView {
	name := func(i int) (string, int) {
		if i < 0 {
			return "", 0
		}
		return t.Entrants[i].Name, t.Entrants[i].Seed
	}
	bv := &BracketView{Size: t.Bracket.Size}
	for _, round := range t.Bracket.Rounds {
		var rv []MatchView
		for _, m := range round {
			mv := MatchView{Round: m.Round, Slot: m.Slot, Room: m.Room, Decided: m.Decided, Result: m.Result}
			mv.A, mv.SeedA = name(m.A)
			mv.B, mv.SeedB = name(m.B)
			if m.Decided {
				mv.Winner, _ = name(m.Winner)
			}
			rv = append(rv, mv)
		}
		bv.Rounds = append(bv.Rounds, rv)
	}
	return bv
}
