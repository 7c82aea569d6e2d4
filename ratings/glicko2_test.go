package ratings

import (
	"errors"
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestPaperExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a 1500/200/0.06 player beats a 1400/30 player and
// loses to 1550/100 and 1700/300, with τ = 0.5.
func TestPaperExample(t *testing.T) {
	c := Config{Tau: 0.5}
	got, err := c.Update(Rating{1500, 200, 0.06}, []Result{
		{Opponent: Rating{1400, 30, 0.06}, Score: 1},
		{Opponent: Rating{1550, 100, 0.06}, Score: 0},
		{Opponent: Rating{1700, 300, 0.06}, Score: 0},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !near(got.Rating, 1464.06, 0.01) || !near(got.RD, 151.52, 0.01) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Errorf("Update = %+v, want 1464.06 / 151.52 / 0.05999", got)
	}
}

func TestUpdateVectors(t *testing.T) {
	tests := []struct {
		name    string
		r       Rating
		results []Result
		want    Rating
		tol     float64
	}{
		// The paper: a player who does not compete keeps rating and
		// volatility; RD' = sqrt(φ² + σ²) on the Glicko-2 scale:
		// 173.7178·sqrt((200/173.7178)² + 0.06²) = 200.2714.
		{"idle", Rating{1500, 200, 0.06}, nil, Rating{1500, 200.2714, 0.06}, 0.0001},
		// RD never exceeds an unrated player's 350.
		{"idle at the ceiling", Rating{1500, 350, 0.06}, nil, Rating{1500, 350, 0.06}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Config{}.Update(tt.r, tt.results)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got.Rating, tt.want.Rating, tt.tol) || !near(got.RD, tt.want.RD, tt.tol) || !near(got.Volatility, tt.want.Volatility, tt.tol) {
				t.Errorf("Update(%+v, %v) = %+v, want %+v", tt.r, tt.results, got, tt.want)
			}
		})
	}
}

// TestRoundStrokeReproducesPaper: four players in a stroke-play round,
// where the paper's player finished third behind 1700 and 1550 and ahead
// of 1400, gets exactly the paper's update (three pairwise results).
func TestRoundStrokeReproducesPaper(t *testing.T) {
	before := []Rating{{1500, 200, 0.06}, {1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}}
	after, err := Config{Tau: 0.5}.Round(before, []int{3, 4, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := after[0]; !near(got.Rating, 1464.06, 0.01) || !near(got.RD, 151.52, 0.01) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Errorf("player 0 after the round = %+v, want 1464.06 / 151.52 / 0.05999", got)
	}
	// The winner went up, the last went down.
	if after[3].Rating <= before[3].Rating || after[1].Rating >= before[1].Rating {
		t.Errorf("winner %v → %v, last %v → %v", before[3], after[3], before[1], after[1])
	}
}

func TestRoundMatchPlay(t *testing.T) {
	a, b := New(), New()
	tests := []struct {
		name   string
		places []int
		check  func(t *testing.T, after []Rating)
	}{
		{"win", []int{1, 2}, func(t *testing.T, after []Rating) {
			// Two new players: the winner gains exactly what the loser
			// loses, and both become more certain.
			if after[0].Rating <= 1500 || !near(after[0].Rating-1500, 1500-after[1].Rating, 1e-9) {
				t.Errorf("after = %v", after)
			}
			if after[0].RD >= 350 || after[1].RD >= 350 {
				t.Errorf("RD did not shrink: %v", after)
			}
		}},
		{"halved", []int{1, 1}, func(t *testing.T, after []Rating) {
			if after[0].Rating != 1500 || after[1].Rating != 1500 {
				t.Errorf("a halved match between equals moved ratings: %v", after)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after, err := Config{}.Round([]Rating{a, b}, tt.places)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, after)
		})
	}
}

// TestRoundTwoNewPlayers is a vector for the first rated match between two
// new accounts (the server test checks the same numbers through sockets):
// both 1500/350/0.06, the first wins.
func TestRoundTwoNewPlayers(t *testing.T) {
	after, err := Config{}.Round([]Rating{New(), New()}, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	// The paper's formulas, computed apart (Python): μ = 0,
	// φ = 350/173.7178 = 2.014762, g(φ) = 1/sqrt(1+3φ²/π²) = 0.669069,
	// E = 0.5, v = 1/(g²·0.25) = 8.935475, Δ = v·g·0.5 = 2.989226,
	// σ' = 0.0599997 (step 5), φ* = sqrt(φ²+σ'²) = 2.015655,
	// φ' = 1/sqrt(1/φ*² + 1/v) = 1.671210 → RD 290.32,
	// μ' = φ'²·g·0.5 = 0.934337 → 1662.31, and 1337.69 for the loser.
	if !near(after[0].Rating, 1662.31, 0.01) || !near(after[1].Rating, 1337.69, 0.01) || !near(after[0].RD, 290.32, 0.01) || !near(after[1].RD, 290.32, 0.01) {
		t.Errorf("after = %+v, want 1662.31 / 1337.69, RD 290.32", after)
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
	}{
		{"score 2", func() error {
			_, err := Config{}.Update(New(), []Result{{Opponent: New(), Score: 2}})
			return err
		}},
		{"zero RD", func() error {
			_, err := Config{}.Update(Rating{1500, 0, 0.06}, nil)
			return err
		}},
		{"NaN opponent", func() error {
			_, err := Config{}.Update(New(), []Result{{Opponent: Rating{math.NaN(), 100, 0.06}, Score: 1}})
			return err
		}},
		{"one player", func() error {
			_, err := Config{}.Round([]Rating{New()}, []int{1})
			return err
		}},
		{"place 0", func() error {
			_, err := Config{}.Round([]Rating{New(), New()}, []int{0, 1})
			return err
		}},
		{"lengths differ", func() error {
			_, err := Config{}.Round([]Rating{New(), New()}, []int{1})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); !errors.Is(err, ErrBadInput) {
				t.Errorf("err = %v, want ErrBadInput", err)
			}
		})
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		r    Rating
		want string
	}{
		{New(), "1500?"},
		{Rating{1632.4, 110, 0.06}, "1632"},
		{Rating{1632.5, 110.01, 0.06}, "1633?"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.r, got, tt.want)
		}
	}
}
