package templates

import "golfsolitaire/match"

// exampleBoard is the how-to-play diagram: a small Golf position with the
// 7 of hearts on the waste.
func exampleBoard() *match.Board {
	return &match.Board{
		Seat: 0, Hole: 1, Layout: "columns",
		Piles: [][]string{
			{"KS", "4D", "6C"},
			{"9H", "2S"},
			{"QC", "JD", "8D"},
		},
		Waste: []string{"3C", "7H"}, StockLeft: 12, CardsLeft: 8,
		Playable: []int{1, 3}, CanTurn: true, Run: 1,
	}
}

// exampleStandings is the how-to-play scorecard.
func exampleStandings() match.Standings {
	n := func(v int) *int { return &v }
	return match.Standings{
		Format: match.Stroke, Holes: 3, Par: 15,
		Rows: []match.Row{
			{Seat: 0, Name: "Ana", Place: 1, PlaceText: "1", Total: 12, ToPar: -3, ToParText: "-3", Thru: 3, Scores: []*int{n(3), n(-2), n(11)}},
			{Seat: 1, Name: "Bo", Place: 2, PlaceText: "2", Total: 16, ToPar: 1, ToParText: "+1", Thru: 3, Scores: []*int{n(6), n(5), n(5)}},
		},
	}
}

// diagram is a row of cards with a caption (a catalogue key), for the
// rules.
type diagram struct {
	Cards []string `json:"cards"`
	Key   string   `json:"key"`
}

var kingsDiagrams = []diagram{
	{[]string{"QH", "KS"}, "set.kings.strict"},
	{[]string{"KS", "QH"}, "set.kings.queen-on-king"},
	{[]string{"KS", "AD", "2C"}, "set.kings.wrap"},
}

// howtoExamples is what howto.js draws: a board as the room's view has it,
// the kings diagrams and a scorecard's standings.
func howtoExamples() map[string]any {
	return map[string]any{"board": exampleBoard(), "kings": kingsDiagrams, "standings": exampleStandings()}
}
