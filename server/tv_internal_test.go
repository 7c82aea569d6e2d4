package server

import "testing"

// TestChooseFeatured: the featured game is the highest-rated live game
// (rated games by their players' mean rating, before every unrated one),
// else the most watched; ties go to the lowest code.
func TestChooseFeatured(t *testing.T) {
	t.Parallel()
	r := func(v float64) *float64 { return &v }
	tests := []struct {
		name  string
		games []LiveGame
		want  string
	}{
		{"none", nil, ""},
		{"one", []LiveGame{{Code: "B"}}, "B"},
		{"the most watched", []LiveGame{{Code: "A", Spectators: 1}, {Code: "B", Spectators: 3}, {Code: "C"}}, "B"},
		{"equal watchers: the lowest code", []LiveGame{{Code: "C", Spectators: 2}, {Code: "A", Spectators: 2}, {Code: "B", Spectators: 2}}, "A"},
		{"rated before a more watched unrated one", []LiveGame{{Code: "A", Spectators: 9}, {Code: "B", Rated: true, Rating: r(1200)}}, "B"},
		{"the highest mean rating", []LiveGame{{Code: "A", Rated: true, Rating: r(1500), Spectators: 5}, {Code: "B", Rated: true, Rating: r(1720.5)}, {Code: "C", Rated: true, Rating: r(1720.4), Spectators: 9}}, "B"},
		{"equal ratings: the most watched", []LiveGame{{Code: "A", Rated: true, Rating: r(1600)}, {Code: "B", Rated: true, Rating: r(1600), Spectators: 1}}, "B"},
		{"equal ratings and watchers: the lowest code", []LiveGame{{Code: "D", Rated: true, Rating: r(1600)}, {Code: "C", Rated: true, Rating: r(1600)}, {Code: "E"}}, "C"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := chooseFeatured(tc.games)
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("got %s, want none", got.Code)
			case tc.want != "" && (got == nil || got.Code != tc.want):
				t.Errorf("got %+v, want %s", got, tc.want)
			}
		})
	}
}
