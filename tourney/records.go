package tourney

import (
	"fmt"
	"strconv"
	"strings"

	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// Records is GET /api/tournaments/{id}/records: the records of every safe
// hole, the commitments, and the seeds once closed.
type Records struct {
	ID          string        `json:"id"`
	Status      Status        `json:"status"`
	Commitments []string      `json:"commitments"`
	Seeds       []string      `json:"seeds,omitempty"`
	Players     []string      `json:"players"`
	Holes       []HoleRecords `json:"holes"`
}

// HoleRecords are the records of one safe hole (of one round in a
// knockout), by entrant.
type HoleRecords struct {
	Round   int           `json:"round"`
	Number  int           `json:"number"`
	Seed    string        `json:"seed"`
	Records []EntrantGame `json:"records"`
}

// EntrantGame is one entrant's game of a hole.
type EntrantGame struct {
	Entrant int         `json:"entrant"`
	Room    string      `json:"room"`
	Score   int         `json:"score"`
	Record  golf.Record `json:"record"`
}

// RecordSources gather a tournament's Records: what the tournament says
// of its rooms, read on its loop (RecordSources), then the rooms, loaded
// off it (Rooms, Add).
type RecordSources struct {
	id    string
	view  View
	rooms map[string][]int // "round:room" -> entrants by seat
	names []string
	safe  func(round, hole int) bool
	// thru: the holes of each entrant's stroke room that count.
	thru   map[int]int
	byHole map[[2]int]*HoleRecords
}

// RecordRoom is a room whose records a tournament's Records may hold, and
// its round (0: the qualifying round of a knockout).
type RecordRoom struct {
	Round int
	Code  string
	key   string
}

// RecordSources reads what the tournament's Records need of it.
func (t *Tournament) RecordSources() *RecordSources {
	sn := &RecordSources{id: t.ID, view: t.View(-1, false), rooms: map[string][]int{}, thru: map[int]int{}, byHole: map[[2]int]*HoleRecords{}}
	for i, e := range t.Entrants {
		sn.names = append(sn.names, e.Name)
		sn.thru[i] = t.Thru(i)
		if e.Room != "" {
			sn.rooms[e.Room] = []int{i}
		}
	}
	rounds := map[string]int{}
	if t.Bracket != nil {
		for _, round := range t.Bracket.Rounds {
			for _, m := range round {
				if m.Room != "" {
					sn.rooms[m.Room] = []int{m.A, m.B}
					rounds[m.Room] = m.Round
				}
			}
		}
	}
	safe := map[[2]int]bool{}
	for r := 0; r <= len(t.Seeds); r++ {
		for n := 1; n <= 2*t.Settings.Holes; n++ {
			safe[[2]int{r, n}] = t.Safe(r, n)
		}
	}
	sn.safe = func(round, hole int) bool { return safe[[2]int{round, hole}] }
	rooms := sn.rooms
	sn.rooms = map[string][]int{}
	for code, es := range rooms {
		key := code
		switch rd, ok := rounds[code]; {
		case ok:
			key = fmt.Sprint(rd, ":", code)
		case t.Settings.Format == Knockout:
			key = "0:" + code // the qualifying round
		default:
			key = "1:" + code
		}
		sn.rooms[key] = es
	}
	return sn
}

// Rooms are the rooms to load and Add.
func (sn *RecordSources) Rooms() []RecordRoom {
	var out []RecordRoom
	for key := range sn.rooms {
		round, code, _ := strings.Cut(key, ":")
		rd, _ := strconv.Atoi(round)
		out = append(out, RecordRoom{Round: rd, Code: code, key: key})
	}
	return out
}

// Add takes the records of the room's safe holes.
func (sn *RecordSources) Add(rr RecordRoom, room *match.Room) {
	rd, code, es := rr.Round, rr.Code, sn.rooms[rr.key]
	for _, hole := range room.Holes {
		if !sn.safe(rd, hole.Number) {
			continue
		}
		k := [2]int{rd, hole.Number}
		hr := sn.byHole[k]
		if hr == nil {
			hr = &HoleRecords{Round: rd, Number: hole.Number, Seed: hole.Seed.String()}
			sn.byHole[k] = hr
		}
		for seat, g := range hole.Games {
			// Only games whose result counts: finished, and in stroke
			// play posted before the tournament closed.
			if !g.Done || (room.Settings.Format == match.Stroke && hole.Number > sn.thru[es[seat]]) {
				continue
			}
			// A safe hole is whole for anyone (match.Room.RecordAt).
			rec, ok := room.RecordAt(hole, seat, match.Whole)
			if !ok {
				continue
			}
			hr.Records = append(hr.Records, EntrantGame{Entrant: es[seat], Room: code, Score: g.Score, Record: rec})
		}
	}
}

// Records are the records gathered, by round and hole, each hole's by
// entrant.
func (sn *RecordSources) Records() Records {
	out := Records{ID: sn.id, Status: sn.view.Status, Commitments: sn.view.Commitments, Seeds: sn.view.Seeds, Players: sn.names, Holes: []HoleRecords{}}
	for _, hr := range sn.byHole {
		if len(hr.Records) > 0 {
			out.Holes = append(out.Holes, *hr)
		}
	}
	sortHoleRecords(out.Holes)
	return out
}

func sortHoleRecords(hs []HoleRecords) {
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && (hs[j].Round < hs[j-1].Round || hs[j].Round == hs[j-1].Round && hs[j].Number < hs[j-1].Number); j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
	for _, h := range hs {
		rs := h.Records
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0 && rs[j].Entrant < rs[j-1].Entrant; j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
	}
}
