package tourney

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"golfsolitaire/golf"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func newTournament(t *testing.T, s Settings) *Tournament {
	t.Helper()
	seeds := make([]golf.Seed, s.Rounds())
	for i := range seeds {
		seeds[i][0] = byte(i + 1)
	}
	ev := Event{Kind: KindCreate, At: t0, ID: "T1", Settings: &s, Seeds: seeds, Host: hash("host")}
	if s.Invite {
		ev.Invite = hash("invite")
	}
	tr, err := New(ev)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func apply(t *testing.T, tr *Tournament, ev Event) []Notice {
	t.Helper()
	n, err := tr.Apply(ev)
	if err != nil {
		t.Fatalf("%s: %v", ev.Kind, err)
	}
	return n
}

func joinN(t *testing.T, tr *Tournament, n int) {
	t.Helper()
	for i := range n {
		apply(t, tr, Event{Kind: KindJoin, At: t0, Name: fmt.Sprintf("P%d", i), Token: hash(fmt.Sprint("tok", i))})
	}
}

func TestSettingsValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Settings)
		ok   bool
	}{
		{"default", func(*Settings) {}, true},
		{"18 holes", func(s *Settings) { s.Holes = 18 }, true},
		{"10 holes", func(s *Settings) { s.Holes = 10 }, false},
		{"no name", func(s *Settings) { s.Name = "" }, false},
		{"padded name", func(s *Settings) { s.Name = " x" }, false},
		{"long name", func(s *Settings) { s.Name = string(make([]byte, maxName+1)) }, false},
		{"undo", func(s *Settings) { s.Variant.Options.Undo = true }, false},
		{"bad format", func(s *Settings) { s.Format = "x" }, false},
		{"negative limit", func(s *Settings) { s.Limit = -1 }, false},
		{"closes without start", func(s *Settings) { s.Closes = t0 }, false},
		{"closes before start", func(s *Settings) { s.Starts, s.Closes = t0, t0.Add(-time.Hour) }, false},
		{"window", func(s *Settings) { s.Starts, s.Closes = t0, t0.Add(time.Hour) }, true},
		{"knockout", func(s *Settings) { s.Format = Knockout; s.Limit = 8 }, true},
		{"knockout of 1", func(s *Settings) { s.Format = Knockout; s.Limit = 1 }, false},
		{"knockout closing time", func(s *Settings) { s.Format = Knockout; s.Starts, s.Closes = t0, t0.Add(time.Hour) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := DefaultSettings()
			tt.edit(&s)
			err := s.Validate()
			if (err == nil) != tt.ok {
				t.Fatalf("Validate() = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
		})
	}
}

func TestSettingsJSON(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{`{}`, true},
		{`{"name":"Open","game":"tripeaks","holes":18}`, true},
		{`{"name":"Open","options":{"kings":"wrap"},"format":"knockout","limit":16}`, true},
		{`{"name":"Open","options":{"undo":true}}`, false},
		{`{"name":"Open","bogus":1}`, false},
		{`{"name":"Open","options":{"columns":6},"game":"tripeaks"}`, false},
	}
	for _, tt := range tests {
		var s Settings
		err := json.Unmarshal([]byte(tt.in), &s)
		if (err == nil) != tt.ok {
			t.Errorf("Unmarshal(%s) = %v, want ok %v", tt.in, err, tt.ok)
			continue
		}
		if err != nil {
			continue
		}
		b, _ := json.Marshal(s)
		var back Settings
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("round trip of %s: %s -> %+v, %v", tt.in, b, back, err)
		}
	}
}

func TestJoinRules(t *testing.T) {
	s := DefaultSettings()
	s.Limit = 2
	tr := newTournament(t, s)
	tests := []struct {
		name   string
		ev     Event
		want   error
		before func()
	}{
		{"first", Event{Kind: KindJoin, Name: "Ana", Token: hash("a")}, nil, nil},
		{"same token", Event{Kind: KindJoin, Name: "Ana2", Token: hash("a")}, ErrAlreadyEntered, nil},
		{"same name", Event{Kind: KindJoin, Name: "ana", Token: hash("b")}, ErrNameTaken, nil},
		{"bad name", Event{Kind: KindJoin, Name: " ", Token: hash("b")}, ErrInvalid, nil},
		{"second", Event{Kind: KindJoin, Name: "Bo", Token: hash("b")}, nil, nil},
		{"full", Event{Kind: KindJoin, Name: "Cy", Token: hash("c")}, ErrFull, nil},
	}
	for _, tt := range tests {
		_, err := tr.Apply(tt.ev)
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("%s: Apply = %v, want %v", tt.name, err, tt.want)
		}
	}
	if tr.Version != 3 || len(tr.Entrants) != 2 {
		t.Fatalf("version %d, %d entrants; want 3, 2", tr.Version, len(tr.Entrants))
	}
	if _, err := tr.Apply(Event{Kind: KindStart, At: t0, Token: hash("a")}); !errors.Is(err, ErrNotHost) {
		t.Fatalf("start by an entrant: %v", err)
	}
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	s.Limit = 0
	tr2 := newTournament(t, s)
	apply(t, tr2, Event{Kind: KindStart, At: t0, Token: hash("host")})
	if _, err := tr2.Apply(Event{Kind: KindJoin, Name: "Late", Token: hash("l")}); !errors.Is(err, ErrNotOpen) {
		t.Fatalf("join after start: %v, want ErrNotOpen", err)
	}
}

func TestInvitation(t *testing.T) {
	s := DefaultSettings()
	s.Invite = true
	tr := newTournament(t, s)
	if _, err := tr.Apply(Event{Kind: KindJoin, Name: "Ana", Token: hash("a"), Invite: hash("wrong")}); !errors.Is(err, ErrBadInvite) {
		t.Fatalf("wrong invitation: %v", err)
	}
	apply(t, tr, Event{Kind: KindJoin, Name: "Ana", Token: hash("a"), Invite: hash("invite")})
}

func TestResultsOnceAndClosing(t *testing.T) {
	tr := newTournament(t, DefaultSettings())
	joinN(t, tr, 2)
	res := func(e, h, score int) error {
		_, err := tr.Apply(Event{Kind: KindResult, At: t0, Entrant: e, Hole: h, Score: score, End: "stuck"})
		return err
	}
	if err := res(0, 1, 3); !errors.Is(err, ErrNotStarted) {
		t.Fatalf("result before start: %v", err)
	}
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	if err := res(0, 1, 3); err != nil {
		t.Fatal(err)
	}
	if err := res(0, 1, 2); !errors.Is(err, ErrNoChange) {
		t.Fatalf("second result for a hole: %v", err)
	}
	if err := res(0, 3, 2); !errors.Is(err, ErrBadEvent) {
		t.Fatalf("hole 3 before hole 2: %v", err)
	}
	if err := res(5, 1, 2); !errors.Is(err, ErrNoEntrant) {
		t.Fatalf("unknown entrant: %v", err)
	}
	if tr.Safe(1, 1) {
		t.Fatal("hole 1 safe while entrant 1 has not finished it")
	}
	if err := res(1, 1, 4); err != nil {
		t.Fatal(err)
	}
	if !tr.Safe(1, 1) || tr.Safe(1, 2) {
		t.Fatalf("safe holes %v, want [1]", tr.SafeHoles())
	}
	apply(t, tr, Event{Kind: KindClose, At: t0, Token: hash("host")})
	if err := res(0, 2, 3); !errors.Is(err, ErrClosed) {
		t.Fatalf("late result: %v, want ErrClosed", err)
	}
	if got := tr.SafeHoles(); len(got) != 9 {
		t.Fatalf("after closing, safe holes %v", got)
	}
	v := tr.View(0, false)
	if len(v.Seeds) != 1 || v.Seeds[0] != tr.Seeds[0].String() {
		t.Fatalf("seeds not revealed at close: %v", v.Seeds)
	}
}

func TestAutoCloseAndClock(t *testing.T) {
	s := DefaultSettings()
	s.Starts, s.Closes = t0.Add(time.Minute), t0.Add(time.Hour)
	tr := newTournament(t, s)
	joinN(t, tr, 1)
	if _, ok := tr.Due(t0); ok {
		t.Fatal("due before the start time")
	}
	if v := tr.View(-1, false); v.Seeds != nil || len(v.Commitments) != 1 {
		t.Fatalf("view before start: seeds %v, commitments %v", v.Seeds, v.Commitments)
	}
	if _, err := tr.Apply(Event{Kind: KindJoin, At: s.Starts, Name: "Late", Token: hash("late")}); !errors.Is(err, ErrNotOpen) {
		t.Fatalf("join at the start time: %v", err)
	}
	ev, ok := tr.Due(s.Starts)
	if !ok || ev.Kind != KindStart {
		t.Fatalf("Due at start = %v %v", ev, ok)
	}
	apply(t, tr, ev)
	if _, err := tr.Apply(Event{Kind: KindResult, At: s.Closes, Entrant: 0, Hole: 1, Score: 4}); !errors.Is(err, ErrClosed) {
		t.Fatalf("a result at the closing time, before the close event: %v", err)
	}
	for h := 1; h <= 9; h++ {
		n := apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: 0, Hole: h, Score: 4})
		if (len(n) == 1) != (h == 9) {
			t.Fatalf("hole %d notices %v", h, n)
		}
	}
	if tr.Status != Closed {
		t.Fatalf("status %s after everyone finished", tr.Status)
	}
	if _, ok := tr.Due(s.Closes); ok {
		t.Fatal("due after closing")
	}
}

// TestResultGrace: a hole that ended just before the closing time counts
// when its result arrives after it, until the clock closes the tournament
// ResultGrace later; a hole that ended at the closing time does not.
func TestResultGrace(t *testing.T) {
	s := DefaultSettings()
	s.Starts, s.Closes = t0.Add(time.Minute), t0.Add(time.Hour)
	tr := newTournament(t, s)
	joinN(t, tr, 2)
	apply(t, tr, Event{Kind: KindStart, At: s.Starts})
	if _, ok := tr.Due(s.Closes); ok {
		t.Fatal("the clock closes at the closing time: a result on its way is lost")
	}
	if d, _ := tr.NextDeadline(); !d.Equal(s.Closes.Add(ResultGrace)) {
		t.Fatalf("next deadline %v, want the closing time and the grace", d)
	}
	// Ended a millisecond before the closing time, posted a second after.
	apply(t, tr, Event{Kind: KindResult, At: s.Closes.Add(-time.Millisecond), Entrant: 0, Hole: 1, Score: 4})
	if _, err := tr.Apply(Event{Kind: KindResult, At: s.Closes, Entrant: 1, Hole: 1, Score: 3}); !errors.Is(err, ErrClosed) {
		t.Fatalf("a hole that ended at the closing time: %v, want ErrClosed", err)
	}
	ev, ok := tr.Due(s.Closes.Add(ResultGrace))
	if !ok || ev.Kind != KindClose {
		t.Fatalf("Due after the grace = %v %v", ev, ok)
	}
	apply(t, tr, ev)
	if tr.Status != Closed || tr.Entrants[0].Scores[0] == nil || *tr.Entrants[0].Scores[0] != 4 {
		t.Fatalf("status %s, entrant 0's hole 1 %v", tr.Status, tr.Entrants[0].Scores[0])
	}
}

func TestLeaderboard(t *testing.T) {
	s := DefaultSettings()
	tr := newTournament(t, s)
	joinN(t, tr, 5)
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	cards := [][]int{
		{5, 5, 5, 5, 5, 5, 5, 5, 4}, // 44, last hole 4
		{4, 5, 5, 5, 5, 5, 5, 5, 5}, // 44, countback loses on the last 1
		{5, 5, 5, 5},                // E thru 4
		{3},                         // -2 thru 1
		{},                          // not started: last, no place
	}
	for e, c := range cards {
		for h, sc := range c {
			apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: e, Hole: h + 1, Score: sc})
		}
	}
	rows := tr.Leaderboard()
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s %s %s thru %d today %s", r.PlaceText, r.Name, r.ToParText, r.Thru, r.Today))
	}
	want := []string{
		"1 P3 -2 thru 1 today 2",
		"2 P0 -1 thru 9 today F",
		"3 P1 -1 thru 9 today F",
		"4 P2 E thru 4 today 5",
		" P4  thru 0 today 1",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("leaderboard\n%q\nwant\n%q", got, want)
	}
	// Without countback the two finishers tie.
	tr.Settings.Countback = false
	rows = tr.Leaderboard()
	if rows[1].PlaceText != "T2" || rows[2].PlaceText != "T2" {
		t.Fatalf("without countback: %s %s, want T2 T2", rows[1].PlaceText, rows[2].PlaceText)
	}
	// The sort key orders as the leaderboard does.
	for i := 1; i < len(rows); i++ {
		a, b := tr.SortKey(rows[i-1].Entrant), tr.SortKey(rows[i].Entrant)
		if a > b || (a == b && rows[i-1].Place != rows[i].Place) {
			t.Fatalf("sort keys %v, %v for places %d, %d", a, b, rows[i-1].Place, rows[i].Place)
		}
	}
}

// TestLeaderboardCountbackUnfinished: with countback on, an entrant who
// has finished and one who has not, on the same score, are tied;
// countback only separates two finishers.
func TestLeaderboardCountbackUnfinished(t *testing.T) {
	tr := newTournament(t, DefaultSettings())
	joinN(t, tr, 4)
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	cards := [][]int{
		{5, 5, 5, 5, 5, 5, 5, 5, 4}, // -1, finished, better countback
		{4, 5, 5, 5, 5, 5, 5, 5, 5}, // -1, finished
		{4, 5, 5, 5},                // -1 thru 4
		{5, 5},                      // E thru 2
	}
	for e, c := range cards {
		for h, sc := range c {
			apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: e, Hole: h + 1, Score: sc})
		}
	}
	var got []string
	for _, r := range tr.Leaderboard() {
		got = append(got, r.PlaceText+" "+r.Name)
	}
	// P2 has not finished: tied with both finishers (first among them, by
	// key); P0's countback beats P1, who has one entrant ahead: 2nd.
	want := []string{"T1 P2", "T1 P0", "2 P1", "4 P3"}
	if !slices.Equal(got, want) {
		t.Fatalf("leaderboard %q, want %q", got, want)
	}
	k0, k1, k2 := tr.SortKey(0), tr.SortKey(1), tr.SortKey(2)
	if !Better(k0, k1) || Better(k2, k0) || Better(k0, k2) || Better(k2, k1) || Better(k1, k2) {
		t.Fatal("Better does not follow the countback rule")
	}
	if keyLevel(k0) != k2 || keyLevel(k1) != k2 {
		t.Fatal("the unfinished entrant's key is not the level's")
	}
}

func TestSortKeyBounds(t *testing.T) {
	worst, best := 64, -40
	for _, holes := range []int{9, 18} {
		var hi, lo []*int
		for range holes {
			hi, lo = append(hi, &worst), append(lo, &best)
		}
		for _, sc := range [][]*int{hi, lo} {
			r := Row{Scores: sc, Thru: holes}
			for _, x := range sc {
				r.Total += *x
			}
			r.ToPar = r.Total - 5*holes
			k := sortKey(r, holes, true)
			if k >= 1<<53 || k < 0 || float64(int64(k)) != k {
				t.Fatalf("key %v out of exact range", k)
			}
		}
	}
}

func TestMember(t *testing.T) {
	for _, i := range []int{0, 7, 123456} {
		if got := ParseMember(Member(i)); got != i {
			t.Errorf("ParseMember(Member(%d)) = %d", i, got)
		}
	}
	if ParseMember("x") != -1 {
		t.Error("ParseMember(x) != -1")
	}
}

func TestSeedOrder(t *testing.T) {
	tests := []struct {
		size int
		want []int
	}{
		{2, []int{1, 2}},
		{4, []int{1, 4, 2, 3}},
		{8, []int{1, 8, 4, 5, 2, 7, 3, 6}},
	}
	for _, tt := range tests {
		if got := seedOrder(tt.size); !slices.Equal(got, tt.want) {
			t.Errorf("seedOrder(%d) = %v, want %v", tt.size, got, tt.want)
		}
	}
}

func TestBracketByes(t *testing.T) {
	tests := []struct {
		n, size, byes int
	}{
		{2, 2, 0}, {3, 4, 1}, {5, 8, 3}, {8, 8, 0}, {9, 16, 7},
	}
	for _, tt := range tests {
		seeds := make([]int, tt.n)
		for i := range seeds {
			seeds[i] = i
		}
		b := newBracket(seeds)
		byes := 0
		for _, m := range b.Rounds[0] {
			if m.Result == "bye" {
				byes++
				if m.Winner != m.A || b.Seeds[0] != 0 {
					t.Errorf("n=%d: bye winner %d", tt.n, m.Winner)
				}
			}
		}
		if b.Size != tt.size || byes != tt.byes {
			t.Errorf("n=%d: size %d byes %d, want %d %d", tt.n, b.Size, byes, tt.size, tt.byes)
		}
	}
}

func TestKnockout(t *testing.T) {
	s := DefaultSettings()
	s.Format, s.Limit = Knockout, 8
	tr := newTournament(t, s)
	joinN(t, tr, 5)
	n := apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	// 5 entrants in 8: seeds 1-3 have byes, so 4 v 5 plays in round 1
	// while 2 v 3 can already play their round 2 match.
	ready := tr.ReadyMatches()
	if len(ready) != 2 || ready[0].Round != 1 || ready[1].Round != 2 || len(n) != 3 {
		t.Fatalf("ready %v, notices %v", ready, n)
	}
	if tr.Safe(1, 1) {
		t.Fatal("round 1 safe before its match is decided")
	}
	m := ready[0]
	apply(t, tr, Event{Kind: KindMatch, Round: 1, Slot: m.Slot, Room: "ROOM1"})
	if _, err := tr.Apply(Event{Kind: KindDecided, Round: 1, Slot: m.Slot, Entrant: 0}); !errors.Is(err, ErrBadEvent) {
		t.Fatalf("a winner not in the match: %v", err)
	}
	apply(t, tr, Event{Kind: KindDecided, Round: 1, Slot: m.Slot, Entrant: m.B, Result: "2 & 1"})
	if !tr.Safe(1, 1) || tr.Safe(2, 1) {
		t.Fatal("round 1 should be safe, round 2 not")
	}
	if _, err := tr.Apply(Event{Kind: KindDecided, Round: 1, Slot: m.Slot, Entrant: m.B}); !errors.Is(err, ErrNoChange) {
		t.Fatalf("deciding twice: %v", err)
	}
	for round := 2; tr.Status == Live; round++ {
		ready := tr.ReadyMatches()
		if len(ready) == 0 {
			t.Fatalf("round %d: nothing ready", round)
		}
		for k, m := range ready {
			apply(t, tr, Event{Kind: KindMatch, Round: m.Round, Slot: m.Slot, Room: fmt.Sprint("R", round, k)})
			apply(t, tr, Event{Kind: KindDecided, Round: m.Round, Slot: m.Slot, Entrant: tr.BetterSeed(m.A, m.B), Result: "1 UP"})
		}
	}
	if c := tr.Champion(); c != 0 {
		t.Fatalf("champion %d, want the top seed", c)
	}
	v := tr.View(0, false)
	if v.Champion != "P0" || len(v.Bracket.Rounds) != 3 || v.Seeds == nil {
		t.Fatalf("final view: %+v", v)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	tr := newTournament(t, DefaultSettings())
	joinN(t, tr, 3)
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	apply(t, tr, Event{Kind: KindRoom, Entrant: 1, Room: "ABC"})
	apply(t, tr, Event{Kind: KindResult, Entrant: 1, Hole: 1, Score: 2})
	b, err := tr.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.EntrantOfRoom("ABC") != 1 || back.EntrantOf(hash("tok2")) != 2 || back.done[0] != 1 || back.Version != tr.Version {
		t.Fatalf("indexes not rebuilt: %+v", back)
	}
}

func TestKnockoutQualifying(t *testing.T) {
	for _, early := range []bool{false, true} {
		t.Run(fmt.Sprint("host ends qualifying early: ", early), func(t *testing.T) {
			s := DefaultSettings()
			s.Format, s.Qualifying, s.Limit = Knockout, true, 4
			tr := newTournament(t, s)
			if len(tr.Seeds) != 3 {
				t.Fatalf("%d seeds, want a qualifying seed and two rounds", len(tr.Seeds))
			}
			joinN(t, tr, 4)
			apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
			if tr.Phase != Qualifying || tr.Bracket != nil || !tr.StrokePlay() {
				t.Fatalf("phase %q bracket %v", tr.Phase, tr.Bracket)
			}
			// Qualifying totals: P3 best, then P1, P2, P0.
			per := []int{6, 4, 5, 3}
			holes := 9
			if early {
				holes = 2
			}
			for h := 1; h <= holes; h++ {
				for e := range 4 {
					if early && e == 2 && h == 2 {
						continue // P2 has not finished hole 2 when the host moves on
					}
					apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: e, Hole: h, Score: per[e]})
				}
				if !tr.Safe(0, 1) {
					t.Fatal("qualifying hole 1 not safe once everyone finished it")
				}
			}
			if early {
				if tr.Safe(0, 2) {
					t.Fatal("hole 2 safe while P2 still plays it")
				}
				apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
				if !tr.Safe(0, 2) {
					t.Fatal("qualifying holes not safe once qualifying is over")
				}
			}
			if tr.Phase != "" || tr.Bracket == nil {
				t.Fatalf("no bracket after qualifying: phase %q", tr.Phase)
			}
			if want := []int{3, 1, 2, 0}; !slices.Equal(tr.Bracket.Seeds, want) {
				t.Fatalf("seeds %v, want %v", tr.Bracket.Seeds, want)
			}
			if _, err := tr.Apply(Event{Kind: KindResult, At: t0, Entrant: 2, Hole: holes, Score: 1}); !errors.Is(err, ErrClosed) {
				t.Fatalf("a qualifying result after qualifying: %v", err)
			}
			if tr.Seed(1) != tr.Seeds[1] || tr.StrokeSeed() != tr.Seeds[0] {
				t.Fatal("knockout round 1 must not reuse the qualifying seed")
			}
			// 1 v 4 (P3 v P0) and 2 v 3 (P1 v P2).
			r1 := tr.ReadyMatches()
			if len(r1) != 2 || r1[0].A != 3 || r1[0].B != 0 || r1[1].A != 1 || r1[1].B != 2 {
				t.Fatalf("first round %+v %+v", r1[0], r1[1])
			}
		})
	}
}

// TestDealChoiceAndBest: winnableOnly and difficulty reach the rooms'
// settings; the view shows the best score of safe holes only.
func TestDealChoiceAndBest(t *testing.T) {
	var s Settings
	if err := json.Unmarshal([]byte(`{"name":"W","winnableOnly":true,"difficulty":3}`), &s); err != nil {
		t.Fatal(err)
	}
	if rs := s.RoomSettings(); !rs.WinnableOnly || rs.Difficulty != 3 {
		t.Fatalf("room settings %+v", rs)
	}
	if err := json.Unmarshal([]byte(`{"name":"W","difficulty":5}`), &s); err == nil {
		t.Fatal("difficulty 5 accepted")
	}
	s = DefaultSettings()
	s.WinnableOnly = true
	tr := newTournament(t, s)
	joinN(t, tr, 2)
	apply(t, tr, Event{Kind: KindStart, At: t0, Token: hash("host")})
	apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: 0, Hole: 1, Score: 3, End: "stuck"})
	if v := tr.View(-1, false); len(v.Best) != 0 {
		t.Fatalf("best of a hole not yet safe: %+v", v.Best)
	}
	apply(t, tr, Event{Kind: KindResult, At: t0, Entrant: 1, Hole: 1, Score: 4, End: "stuck"})
	v := tr.View(-1, false)
	if len(v.Best) != 1 || v.Best[0].Hole != 1 || v.Best[0].Best > 0 {
		t.Fatalf("best of safe hole 1 of a winnableOnly tournament: %+v (safe %v)", v.Best, v.Safe)
	}
}

// TestOneEntryPerAccount: an account holds one entry whatever the name or
// token; guests (account 0) are not matched with each other.
func TestOneEntryPerAccount(t *testing.T) {
	tr := newTournament(t, DefaultSettings())
	apply(t, tr, Event{Kind: KindJoin, At: t0, Name: "Ana", Token: hash("a"), Account: 7})
	apply(t, tr, Event{Kind: KindJoin, At: t0, Name: "Gus", Token: hash("g")})
	apply(t, tr, Event{Kind: KindJoin, At: t0, Name: "Hal", Token: hash("h")})
	v := tr.Version
	if _, err := tr.Apply(Event{Kind: KindJoin, At: t0, Name: "Zed", Token: hash("z"), Account: 7}); !errors.Is(err, ErrAccountEntered) {
		t.Fatalf("second entry of account 7: %v, want ErrAccountEntered", err)
	}
	if _, err := tr.Apply(Event{Kind: KindJoin, At: t0, Name: "Zed", Token: hash("z"), Account: -1}); !errors.Is(err, ErrBadEvent) {
		t.Fatalf("negative account: %v, want ErrBadEvent", err)
	}
	if tr.Version != v || len(tr.Entrants) != 3 {
		t.Fatalf("refused joins changed the tournament: v%d, %d entrants", tr.Version, len(tr.Entrants))
	}
	if got := tr.EntrantOfAccount(7); got != 0 {
		t.Fatalf("EntrantOfAccount(7) = %d, want 0", got)
	}
	if got := tr.EntrantOfAccount(0); got != -1 {
		t.Fatalf("EntrantOfAccount(0) = %d, want -1 (guests are no one's)", got)
	}
	b, _ := tr.Encode()
	back, err := Decode(b)
	if err != nil || back.Entrants[0].Account != 7 {
		t.Fatalf("the account does not survive a snapshot: %v %+v", err, back.Entrants[0])
	}
}

// TestHeldMark: an entrant is marked held, and the mark shows on their
// leaderboard row (TestHeldMarkAnyTournament: in casual tournaments too).
func TestHeldMark(t *testing.T) {
	s := DefaultSettings()
	s.Accounts, s.Rated = true, true
	tr := newTournament(t, s)
	joinN(t, tr, 2)
	if _, err := tr.Apply(Event{Kind: KindHeld, At: t0, Entrant: 5, Held: true}); !errors.Is(err, ErrNoEntrant) {
		t.Fatalf("held for no entrant: %v", err)
	}
	apply(t, tr, Event{Kind: KindHeld, At: t0, Entrant: 1, Held: true})
	if _, err := tr.Apply(Event{Kind: KindHeld, At: t0, Entrant: 1, Held: true}); !errors.Is(err, ErrNoChange) {
		t.Fatalf("held twice: %v, want ErrNoChange", err)
	}
	if !tr.Line(1).Held || tr.Line(0).Held {
		t.Fatalf("rows: %+v %+v", tr.Line(0), tr.Line(1))
	}
	apply(t, tr, Event{Kind: KindHeld, At: t0, Entrant: 1})
	if tr.Line(1).Held {
		t.Fatal("the mark stayed after it was lifted")
	}
}
