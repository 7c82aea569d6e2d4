package tourney_test

import (
	"testing"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/tourney"
)

// TestResultAtFinish: a stroke room's result carries the time its hole
// ended, not the time the outbox posts it, so a hole that ended before the
// closing time counts however late it arrives (tourney.ResultGrace).
func TestResultAtFinish(t *testing.T) {
	ended := time.Date(2026, 12, 1, 21, 59, 59, 0, time.UTC)
	room := &match.Room{Code: "ABCD", Tournament: "T1", Settings: match.Settings{Format: match.Stroke},
		Holes: []*match.Hole{{Number: 1, Games: []*match.Game{{Done: true, Score: 4, Finished: ended}}}}}
	p := tourney.RoomPosting(room, []match.Notice{{Kind: match.NoticeSeatDone, Seat: 0, Hole: 1, Score: 4, End: match.EndCleared}})
	if len(p.Results) != 1 || !p.Results[0].At.Equal(ended) {
		t.Fatalf("results %+v, want one at %v", p.Results, ended)
	}
	if evs := tourney.RoomResults(room); len(evs) != 1 || !evs[0].At.Equal(ended) {
		t.Fatalf("the sweep's results %+v, want one at %v", evs, ended)
	}
}
