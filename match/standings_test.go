package match

import (
	"strconv"
	"strings"
	"testing"
)

// holesOf builds finished holes from per-hole scores, one slice per seat;
// a negative score below -100 marks a game not yet finished.
func holesOf(scores ...[]int) []*Hole {
	var holes []*Hole
	for h := range scores[0] {
		hole := &Hole{Number: h + 1, Done: true}
		for _, s := range scores {
			g := &Game{Score: s[h], Done: s[h] > -100}
			hole.Done = hole.Done && g.Done
			hole.Games = append(hole.Games, g)
		}
		holes = append(holes, hole)
	}
	return holes
}

func seatsOf(names ...string) []*Seat {
	var seats []*Seat
	for _, n := range names {
		seats = append(seats, &Seat{Name: n})
	}
	return seats
}

const notYet = -1000

func TestStrokeStandings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		holes     int
		countback bool
		scores    [][]int
		want      string // "name place toPar thru" rows in order
		over      bool
	}{
		{
			name: "to par and thru", holes: 9,
			scores: [][]int{{3, 7}, {5, 5}, {9, notYet}},
			want:   "Ana T1 E 2|Bo T1 E 2|Cy 3 +4 1",
		},
		{
			name: "ties share a place", holes: 2,
			scores: [][]int{{4, 4}, {2, 6}, {6, 6}},
			want:   "Ana T1 -2 2|Bo T1 -2 2|Cy 3 +2 2", over: true,
		},
		{
			name: "countback breaks a tie on the last holes", holes: 3, countback: true,
			scores: [][]int{{2, 4, 6}, {6, 4, 2}, {7, 7, 7}},
			want:   "Bo 1 -3 3|Ana 2 -3 3|Cy 3 +6 3", over: true,
		},
		{
			name: "countback waits for the end of the round", holes: 4, countback: true,
			scores: [][]int{{2, 4, 6}, {6, 4, 2}},
			want:   "Ana T1 -3 3|Bo T1 -3 3",
		},
		{
			name: "countback that cannot separate leaves the tie", holes: 2, countback: true,
			scores: [][]int{{3, 3}, {3, 3}},
			want:   "Ana T1 -4 2|Bo T1 -4 2", over: true,
		},
		{
			name: "negative scores", holes: 1,
			scores: [][]int{{-4}, {0}},
			want:   "Ana 1 -9 1|Bo 2 -5 1", over: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := DefaultSettings()
			set.Format, set.Seats, set.Holes, set.Countback = Stroke, len(tt.scores), tt.holes, tt.countback
			names := []string{"Ana", "Bo", "Cy"}[:len(tt.scores)]
			st := standings(set, seatsOf(names...), holesOf(tt.scores...))
			var rows []string
			for _, r := range st.Rows {
				rows = append(rows, strings.Join([]string{r.Name, r.PlaceText, r.ToParText, strconv.Itoa(r.Thru)}, " "))
			}
			if got := strings.Join(rows, "|"); got != tt.want {
				t.Errorf("rows = %s, want %s", got, tt.want)
			}
			if st.Over != tt.over {
				t.Errorf("over = %v, want %v", st.Over, tt.over)
			}
		})
	}
}

func TestMatchStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		holes       int
		suddenDeath bool
		ana, bo     []int
		text        string
		result      string
		dormie      bool
		decided     bool
	}{
		{name: "before the first hole", holes: 9, text: "All square"},
		{name: "all square", holes: 9, ana: []int{3, 5, 4, 4}, bo: []int{5, 3, 4, 4}, text: "All square thru 4"},
		{name: "up", holes: 9, ana: []int{3, 3, 5, 2, 2}, bo: []int{4, 4, 5, 2, 2}, text: "Ana 2 UP thru 5"},
		{name: "dormie", holes: 9, ana: []int{3, 3, 5, 5, 5, 5, 5}, bo: []int{4, 4, 5, 5, 5, 5, 5}, text: "Ana 2 UP thru 7 (dormie)", dormie: true},
		{name: "decided early", holes: 9, ana: []int{9, 9, 9, 5, 5, 5, 5}, bo: []int{1, 1, 1, 5, 5, 5, 5}, text: "Bo wins 3 & 2", result: "3 & 2", decided: true},
		{name: "one up on the last hole", holes: 3, ana: []int{2, 5, 4}, bo: []int{3, 5, 6}, text: "Ana wins 2 UP", result: "2 UP", decided: true},
		{name: "halved", holes: 2, ana: []int{2, 5}, bo: []int{5, 2}, text: "Halved", result: "Halved", decided: true},
		{name: "level after regulation goes to sudden death", holes: 2, suddenDeath: true, ana: []int{2, 5}, bo: []int{5, 2}, text: "All square after 2: sudden death"},
		{name: "sudden death halved hole goes on", holes: 2, suddenDeath: true, ana: []int{2, 5, 4}, bo: []int{5, 2, 4}, text: "All square after 3: sudden death"},
		{name: "sudden death won", holes: 2, suddenDeath: true, ana: []int{2, 5, 4}, bo: []int{5, 2, 3}, text: "Bo wins 1 UP (sudden death, hole 3)", result: "1 UP", decided: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := DefaultSettings()
			set.Holes, set.SuddenDeath = tt.holes, tt.suddenDeath
			var holes []*Hole
			if len(tt.ana) > 0 {
				holes = holesOf(tt.ana, tt.bo)
			}
			st := standings(set, seatsOf("Ana", "Bo"), holes)
			m := st.Match
			if m.Text != tt.text || m.Result != tt.result || m.Dormie != tt.dormie || m.Decided != tt.decided || st.Over != tt.decided {
				t.Errorf("got text %q result %q dormie %v decided %v over %v\nwant text %q result %q dormie %v decided %v",
					m.Text, m.Result, m.Dormie, m.Decided, st.Over, tt.text, tt.result, tt.dormie, tt.decided)
			}
		})
	}
}
