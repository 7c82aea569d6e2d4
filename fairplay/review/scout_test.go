package review

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/golf"
)

func TestScouting(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	play := func(acct accounts.ID, deal string, begun, finished int, counts bool) accounts.Play {
		return accounts.Play{Account: acct, Deal: deal, Room: "R" + string(rune('A'+acct)), Hole: len(deal), Counts: counts, Begun: at(begun), Finished: at(finished)}
	}
	names := map[accounts.ID]string{2: "Ana", 3: "Cy"}
	tests := []struct {
		name   string
		plays  []accounts.Play
		others []accounts.Play
		want   []Scouted
	}{
		{"begun after a linked account finished", []accounts.Play{play(1, "d1", 10, 12, true)}, []accounts.Play{play(2, "d1", 0, 5, true)},
			[]Scouted{{Room: "RB", Hole: 2, Begun: at(10), By: "Ana", ByRoom: "RC", ByHole: 2, ByFinished: at(5)}}},
		{"begun before it finished: played together", []accounts.Play{play(1, "d1", 4, 12, true)}, []accounts.Play{play(2, "d1", 0, 5, true)}, []Scouted{}},
		{"begun as it finished", []accounts.Play{play(1, "d1", 5, 12, true)}, []accounts.Play{play(2, "d1", 0, 5, true)}, []Scouted{}},
		{"another deal", []accounts.Play{play(1, "d1", 10, 12, true)}, []accounts.Play{play(2, "d22", 0, 5, true)}, []Scouted{}},
		{"a hole whose result does not count", []accounts.Play{play(1, "d1", 10, 12, false)}, []accounts.Play{play(2, "d1", 0, 5, true)}, []Scouted{}},
		{"the scout's hole need not count", []accounts.Play{play(1, "d1", 10, 12, true)}, []accounts.Play{play(2, "d1", 0, 5, false)},
			[]Scouted{{Room: "RB", Hole: 2, Begun: at(10), By: "Ana", ByRoom: "RC", ByHole: 2, ByFinished: at(5)}}},
		{"the earliest finisher is named", []accounts.Play{play(1, "d1", 10, 12, true)}, []accounts.Play{play(2, "d1", 0, 8, true), play(3, "d1", 1, 3, true)},
			[]Scouted{{Room: "RB", Hole: 2, Begun: at(10), By: "Cy", ByRoom: "RD", ByHole: 2, ByFinished: at(3)}}},
		{"its own plays are not others'", []accounts.Play{play(1, "d1", 10, 12, true)}, []accounts.Play{play(1, "d1", 0, 5, true)}, []Scouted{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Scouting(tt.plays, tt.others, names); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Scouting = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestScoutSuspects: a new play can make its own account a suspect (a
// linked one had finished the deal before it began) or a linked
// account's (its counted play began after this one finished: analysed
// first).
func TestScoutSuspects(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	p := func(acct accounts.ID, begun, finished int, counts bool) accounts.Play {
		return accounts.Play{Account: acct, Deal: "d", Counts: counts, Begun: t0.Add(time.Duration(begun) * time.Minute), Finished: t0.Add(time.Duration(finished) * time.Minute)}
	}
	tests := []struct {
		name   string
		play   accounts.Play
		others []accounts.Play
		want   []accounts.ID
	}{
		{"after", p(1, 10, 12, true), []accounts.Play{p(2, 0, 5, true)}, []accounts.ID{1}},
		{"after, not counted", p(1, 10, 12, false), []accounts.Play{p(2, 0, 5, true)}, nil},
		{"before", p(1, 0, 5, true), []accounts.Play{p(2, 10, 12, true)}, []accounts.ID{2}},
		{"before, theirs not counted", p(1, 0, 5, true), []accounts.Play{p(2, 10, 12, false)}, nil},
		{"together", p(1, 0, 5, true), []accounts.Play{p(2, 1, 6, true)}, nil},
		{"both", p(1, 10, 12, true), []accounts.Play{p(2, 0, 5, true), p(3, 20, 25, true), p(2, 0, 6, true)}, []accounts.ID{1, 3}},
	}
	for _, tt := range tests {
		if got := scoutSuspects(tt.play, tt.others); !slices.Equal(got, tt.want) {
			t.Errorf("%s: scoutSuspects = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDealKey: the same variant and seed name the same deal; another
// seed, game or option another; the key does not carry the seed.
func TestDealKey(t *testing.T) {
	t.Parallel()
	v := golf.DefaultVariant()
	s1, s2 := golf.NumberedSeed(1), golf.NumberedSeed(2)
	k := DealKey(v, s1)
	if k != DealKey(v, s1) || k == DealKey(v, s2) {
		t.Errorf("DealKey is not a function of the seed alone: %s %s %s", k, DealKey(v, s1), DealKey(v, s2))
	}
	w := v
	w.Options.Jokers++
	if DealKey(w, s1) == k {
		t.Errorf("DealKey ignores the options")
	}
	if len(k) != 32 || k == s1.String()[:32] {
		t.Errorf("DealKey = %q", k)
	}
}
