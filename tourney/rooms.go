package tourney

import (
	"time"

	"golfsolitaire/match"
)

// A tournament's rooms are match rooms; what they give the tournament
// (results, the live status of a match, how long to keep them) is read
// here, off their notices or their state, for the server to post.

// RoomPosting is what a tournament room's notices give its tournament.
func RoomPosting(room *match.Room, notices []match.Notice) Posting {
	p := Posting{Room: room.Code}
	for _, n := range notices {
		if n.Kind == match.NoticeHoleEnded && room.Settings.Format == match.Matchplay {
			if st := room.Standings(); st.Match != nil {
				p.Status = st.Match
			}
		}
		if n.Kind == match.NoticeRoundEnded {
			// The hub has just given the finished room the short time to
			// live of finished rooms; a tournament's records need it until
			// the tournament is long over.
			p.Keep = true
		}
		switch {
		case n.Kind == match.NoticeSeatDone && room.Settings.Format == match.Stroke:
			p.Results = append(p.Results, Event{Kind: KindResult, At: holeFinished(room, n.Hole, n.Seat), Hole: n.Hole, Score: n.Score, End: n.End})
		case n.Kind == match.NoticeRoundEnded && room.Settings.Format == match.Matchplay:
			st := room.Standings()
			if st.Match == nil {
				continue
			}
			p.Results = append(p.Results, Event{Kind: KindDecided, Entrant: st.Match.Winner, Result: st.Match.Result})
		}
	}
	return p
}

// holeFinished is when the seat's game of the hole ended (zero if it has
// not): a result counts if that was before the tournament's closing time,
// however late the outbox posts it (ResultGrace).
func holeFinished(room *match.Room, hole, seat int) time.Time {
	for _, h := range room.Holes {
		if h.Number == hole && seat >= 0 && seat < len(h.Games) && h.Games[seat] != nil {
			return h.Games[seat].Finished
		}
	}
	return time.Time{}
}

// Posting is what a tournament room's change gives its tournament.
type Posting struct {
	Room    string
	Results []Event
	Status  *match.MatchStatus // the match's live standing, when it changed
	Keep    bool               // the room finished: give it the tournament's time to live
}

// RoomResults are the results a tournament room holds: each finished hole
// of a stroke room, or a finished match's winner (its seat in Entrant).
func RoomResults(room *match.Room) []Event {
	var evs []Event
	switch room.Settings.Format {
	case match.Stroke:
		for _, hole := range room.Holes {
			if len(hole.Games) > 0 && hole.Games[0].Done {
				g := hole.Games[0]
				// At: when the hole ended, which decides whether it
				// counts (before the closing time), however late the
				// result is posted (ResultGrace).
				evs = append(evs, Event{Kind: KindResult, At: g.Finished, Hole: hole.Number, Score: g.Score, End: g.End})
			}
		}
	case match.Matchplay:
		if st := room.Standings(); room.Status == match.Finished && st.Match != nil {
			evs = append(evs, Event{Kind: KindDecided, Entrant: st.Match.Winner, Result: st.Match.Result})
		}
	}
	return evs
}

// SweepTarget is a room whose results the tournament may lack: a stroke
// room (Thru: the holes counted) or an undecided knockout match's room.
type SweepTarget struct {
	Room string
	Thru int
}

// sweepRooms is how many rooms one sweep looks at, at most: a large
// field is swept a slice at a time.
const sweepRooms = 200

// SweepTargets lists the rooms of the tournament whose results may be
// missing, from the cursor on (at most sweepRooms), and the next cursor.
func (t *Tournament) SweepTargets(cursor int) ([]SweepTarget, int) {
	var all []SweepTarget
	if t.Status != Live {
		return nil, 0
	}
	if t.StrokePlay() {
		for i, e := range t.Entrants {
			if e.Room != "" && t.Thru(i) < t.Settings.Holes {
				all = append(all, SweepTarget{Room: e.Room, Thru: t.Thru(i)})
			}
		}
	} else if t.Bracket != nil {
		for _, round := range t.Bracket.Rounds {
			for _, m := range round {
				if m.Room != "" && !m.Decided {
					all = append(all, SweepTarget{Room: m.Room, Thru: -1})
				}
			}
		}
	}
	if cursor >= len(all) {
		cursor = 0
	}
	end := min(cursor+sweepRooms, len(all))
	next := end
	if next >= len(all) {
		next = 0
	}
	return all[cursor:end], next
}
