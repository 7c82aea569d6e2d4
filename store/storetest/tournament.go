package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"golfsolitaire/store"
)

// tournamentStore is the two parts a tournament keeps beside its log:
// its listing and due time, and its leaderboard (which CloseTournament
// ends with it).
type tournamentStore interface {
	store.Tournaments
	store.Leaderboards
}

// RunTournaments runs the contracts of store.Tournaments and
// store.Leaderboards on stores from b, which must implement them.
func RunTournaments(t *testing.T, b Backend) {
	tests := []struct {
		name string
		run  func(t *testing.T, ctx context.Context, s tournamentStore, b Backend)
	}{
		{"List", testTournamentList},
		{"ListOtherInstance", testTournamentListShared},
		{"Due", testTournamentDue},
		{"Close", testTournamentClose},
		{"CloseNow", testTournamentCloseNow},
		{"BoardRankRange", testBoardRankRange},
		{"BoardUpdate", testBoardUpdate},
		{"BoardCount", testBoardCount},
		{"BoardExactScores", testBoardExactScores},
		{"BoardConcurrent", testBoardConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s := newTournaments(t, b)
			tt.run(t, ctx, s, b)
		})
	}
}

func newTournaments(t *testing.T, b Backend) tournamentStore {
	t.Helper()
	s := b.New(t, Config{Now: time.Now})
	t.Cleanup(func() { s.Close() })
	return s
}

func tournamentsListed(t *testing.T, ctx context.Context, s tournamentStore, limit int) []string {
	t.Helper()
	ls, err := s.TournamentList(ctx, limit)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range ls {
		out = append(out, l.Room+"="+string(l.Data))
	}
	return out
}

func testTournamentList(t *testing.T, ctx context.Context, s tournamentStore, _ Backend) {
	if got := tournamentsListed(t, ctx, s, 10); len(got) != 0 {
		t.Fatalf("empty list: %q", got)
	}
	for _, id := range []string{"T-B", "T-A", "T-C"} {
		if err := s.SetTournament(ctx, id, []byte("v1")); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetTournament(ctx, "T-B", []byte("v2")); err != nil {
		t.Fatal(err)
	}
	if got, want := tournamentsListed(t, ctx, s, 10), []string{"T-C=v1", "T-A=v1", "T-B=v2"}; !slices.Equal(got, want) {
		t.Fatalf("list %q, want %q (newest first, data updated in place)", got, want)
	}
	if got, want := tournamentsListed(t, ctx, s, 2), []string{"T-C=v1", "T-A=v1"}; !slices.Equal(got, want) {
		t.Fatalf("limit 2: %q, want the newest two %q", got, want)
	}
	if got := tournamentsListed(t, ctx, s, 0); len(got) != 0 {
		t.Fatalf("limit 0: %q", got)
	}
	if err := s.SetTournament(ctx, "T-A", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTournament(ctx, "T-X", nil); err != nil {
		t.Fatalf("hiding an unlisted tournament: %v", err)
	}
	if got, want := tournamentsListed(t, ctx, s, 10), []string{"T-C=v1", "T-B=v2"}; !slices.Equal(got, want) {
		t.Fatalf("after hiding: %q, want %q", got, want)
	}
}

func testTournamentListShared(t *testing.T, ctx context.Context, s tournamentStore, b Backend) {
	if !b.Shared {
		t.Skip("one instance")
	}
	other := newTournaments(t, b)
	if err := s.SetTournament(ctx, "T-1", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if got := tournamentsListed(t, ctx, other, 10); !slices.Equal(got, []string{"T-1=x"}) {
		t.Fatalf("other instance sees %q", got)
	}
}

func testBoardRankRange(t *testing.T, ctx context.Context, s tournamentStore, _ Backend) {
	if got, err := s.Range(ctx, "T-R", 0, 9); err != nil || len(got) != 0 {
		t.Fatalf("empty board: %v %v", got, err)
	}
	if _, _, err := s.Rank(ctx, "T-R", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rank on an empty board: %v, want ErrNotFound", err)
	}
	var all []store.Scored
	for i := range 25 {
		all = append(all, store.Scored{Member: fmt.Sprintf("%07d", i), Score: float64((i * 7) % 10)})
	}
	if err := s.SetScores(ctx, "T-R", all...); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(all)
	slices.SortFunc(want, func(a, b store.Scored) int {
		if a.Score != b.Score {
			return int(a.Score - b.Score)
		}
		return map[bool]int{true: -1, false: 1}[a.Member < b.Member]
	})
	for _, page := range []struct{ start, stop int64 }{{0, 9}, {10, 19}, {20, 29}, {24, 24}, {30, 39}} {
		got, err := s.Range(ctx, "T-R", page.start, page.stop)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := min(int(page.start), len(want)), min(int(page.stop)+1, len(want))
		if !slices.Equal(got, want[lo:hi]) {
			t.Fatalf("Range(%d, %d) = %v, want %v", page.start, page.stop, got, want[lo:hi])
		}
	}
	for i, m := range want {
		r, sc, err := s.Rank(ctx, "T-R", m.Member)
		if err != nil || r != int64(i) || sc != m.Score {
			t.Fatalf("Rank(%s) = %d %v %v, want %d %v", m.Member, r, sc, err, i, m.Score)
		}
	}
	if _, _, err := s.Rank(ctx, "T-R", "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rank of a stranger: %v, want ErrNotFound", err)
	}
	if got, _ := s.Range(ctx, "T-OTHER", 0, 9); len(got) != 0 {
		t.Fatalf("boards are separate: %v", got)
	}
}

func testBoardUpdate(t *testing.T, ctx context.Context, s tournamentStore, _ Backend) {
	set := func(m string, sc float64) {
		t.Helper()
		if err := s.SetScores(ctx, "T-U", store.Scored{Member: m, Score: sc}); err != nil {
			t.Fatal(err)
		}
	}
	set("a", 5)
	set("b", 3)
	set("c", 4)
	set("b", 9) // b drops to last
	got, err := s.Range(ctx, "T-U", 0, -1+100)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Scored{{Member: "c", Score: 4}, {Member: "a", Score: 5}, {Member: "b", Score: 9}}
	if !slices.Equal(got, want) {
		t.Fatalf("after update: %v, want %v", got, want)
	}
	if err := s.SetScores(ctx, "T-U"); err != nil {
		t.Fatalf("no scores: %v", err)
	}
}

func testBoardCount(t *testing.T, ctx context.Context, s tournamentStore, _ Backend) {
	for i, sc := range []float64{1, 2, 2, 2, 5} {
		if err := s.SetScores(ctx, "T-C", store.Scored{Member: fmt.Sprint(i), Score: sc}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		lo, hi float64
		want   int64
	}{
		{math.Inf(-1), math.Inf(1), 5},
		{2, 2, 3},
		{math.Inf(-1), 1, 1},
		{3, 4, 0},
		{2, math.Inf(1), 4},
	}
	for _, tt := range tests {
		if n, err := s.Count(ctx, "T-C", tt.lo, tt.hi); err != nil || n != tt.want {
			t.Errorf("Count(%v, %v) = %d %v, want %d", tt.lo, tt.hi, n, err, tt.want)
		}
	}
	if n, err := s.Count(ctx, "T-NONE", math.Inf(-1), math.Inf(1)); err != nil || n != 0 {
		t.Errorf("Count on no board = %d %v", n, err)
	}
}

// testBoardExactScores checks that scores near 2^53 (the tourney sort
// keys) keep their order and value.
func testBoardExactScores(t *testing.T, ctx context.Context, s tournamentStore, _ Backend) {
	base := float64(int64(1) << 52)
	ms := []store.Scored{{Member: "a", Score: base + 3}, {Member: "b", Score: base + 1}, {Member: "c", Score: base + 2}}
	if err := s.SetScores(ctx, "T-X", ms...); err != nil {
		t.Fatal(err)
	}
	got, err := s.Range(ctx, "T-X", 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []store.Scored{{Member: "b", Score: base + 1}, {Member: "c", Score: base + 2}, {Member: "a", Score: base + 3}}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if n, _ := s.Count(ctx, "T-X", base+2, base+2); n != 1 {
		t.Fatalf("count of one exact score: %d", n)
	}
}

func testBoardConcurrent(t *testing.T, ctx context.Context, s tournamentStore, _ Backend) {
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 25 {
				m := fmt.Sprintf("%d-%d", w, i)
				if err := s.SetScores(ctx, "T-P", store.Scored{Member: m, Score: float64(i)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n, err := s.Count(ctx, "T-P", math.Inf(-1), math.Inf(1)); err != nil || n != 200 {
		t.Fatalf("after concurrent updates: %d %v, want 200", n, err)
	}
}

// testTournamentDue: ids come back by due time, up to until, soonest
// first; moving a due time moves the id; a zero time forgets it; another
// instance sees the same.
func testTournamentDue(t *testing.T, ctx context.Context, s tournamentStore, b Backend) {
	base := time.Now().Truncate(time.Millisecond)
	other := s
	if b.Shared {
		other = newTournaments(t, b)
	}
	due := func(until time.Duration, limit int) []string {
		t.Helper()
		ids, err := other.Due(ctx, base.Add(until), limit)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	for _, d := range []struct {
		id string
		at time.Duration
	}{{"T-late", time.Hour}, {"T-soon", time.Minute}, {"T-now", 0}, {"T-past", -time.Hour}} {
		if err := s.SetDue(ctx, d.id, base.Add(d.at)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := due(0, 10), []string{"T-past", "T-now"}; !slices.Equal(got, want) {
		t.Fatalf("due now: %q, want %q", got, want)
	}
	if got, want := due(2*time.Minute, 10), []string{"T-past", "T-now", "T-soon"}; !slices.Equal(got, want) {
		t.Fatalf("due within 2 minutes: %q, want %q", got, want)
	}
	if got, want := due(2*time.Hour, 2), []string{"T-past", "T-now"}; !slices.Equal(got, want) {
		t.Fatalf("limit 2: %q, want %q", got, want)
	}
	if got := due(2*time.Hour, 0); len(got) != 0 {
		t.Fatalf("limit 0: %q", got)
	}
	// T-soon started: now it is due at its close; T-past finished.
	if err := s.SetDue(ctx, "T-soon", base.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDue(ctx, "T-past", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDue(ctx, "T-never", time.Time{}); err != nil {
		t.Fatalf("forgetting an unknown tournament: %v", err)
	}
	if got, want := due(2*time.Hour, 10), []string{"T-now", "T-late"}; !slices.Equal(got, want) {
		t.Fatalf("after moving and forgetting: %q, want %q", got, want)
	}
}

// closedWait makes d pass: for real (the stores prune by the real clock)
// and, where the backend keeps its own (miniredis), for it too.
func closedWait(t *testing.T, b Backend, d time.Duration) {
	time.Sleep(d)
	if b.Advance != nil {
		b.Advance(t, d)
	}
}

// testTournamentClose: a closed tournament's listing, due time and board
// stay until the time given and then go, on every instance, even if its
// board is updated meanwhile; an open one stays.
func testTournamentClose(t *testing.T, ctx context.Context, s tournamentStore, b Backend) {
	other := s
	if b.Shared {
		other = newTournaments(t, b)
	}
	for _, id := range []string{"T-closed", "T-open"} {
		if err := s.SetTournament(ctx, id, []byte(id)); err != nil {
			t.Fatal(err)
		}
		if err := s.SetDue(ctx, id, time.Now().Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.SetScores(ctx, id, store.Scored{Member: "a", Score: 1}); err != nil {
			t.Fatal(err)
		}
	}
	const ttl = 400 * time.Millisecond
	if err := s.CloseTournament(ctx, "T-closed", ttl); err != nil {
		t.Fatal(err)
	}
	if err := s.SetScores(ctx, "T-closed", store.Scored{Member: "b", Score: 2}); err != nil {
		t.Fatal(err)
	}
	check := func(when string, closedThere bool) {
		t.Helper()
		want := []string{"T-open=T-open"}
		wantDue := []string{"T-open"}
		if closedThere {
			want = []string{"T-open=T-open", "T-closed=T-closed"} // newest first
			wantDue = []string{"T-closed", "T-open"}
		}
		if got := tournamentsListed(t, ctx, other, 10); !slices.Equal(got, want) {
			t.Fatalf("%s: list %q, want %q", when, got, want)
		}
		due, err := other.Due(ctx, time.Now().Add(time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(due)
		if !slices.Equal(due, wantDue) {
			t.Fatalf("%s: due %q, want %q", when, due, wantDue)
		}
		n, err := other.Count(ctx, "T-closed", math.Inf(-1), math.Inf(1))
		if err != nil || (n == 2) != closedThere || (n == 0) == closedThere {
			t.Fatalf("%s: the closed board holds %d (%v)", when, n, err)
		}
		if n, err := other.Count(ctx, "T-open", math.Inf(-1), math.Inf(1)); err != nil || n != 1 {
			t.Fatalf("%s: the open board holds %d (%v), want 1", when, n, err)
		}
	}
	check("just closed", true)
	closedWait(t, b, ttl+200*time.Millisecond)
	check("after its time", false)
}

// testTournamentCloseNow: a ttl <= 0 removes the tournament's listing,
// due time and board at once.
func testTournamentCloseNow(t *testing.T, ctx context.Context, s tournamentStore, _ Backend) {
	if err := s.SetTournament(ctx, "T-gone", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDue(ctx, "T-gone", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.SetScores(ctx, "T-gone", store.Scored{Member: "a", Score: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseTournament(ctx, "T-gone", 0); err != nil {
		t.Fatal(err)
	}
	if got := tournamentsListed(t, ctx, s, 10); len(got) != 0 {
		t.Fatalf("list %q, want none", got)
	}
	if due, err := s.Due(ctx, time.Now().Add(time.Hour), 10); err != nil || len(due) != 0 {
		t.Fatalf("due %q %v, want none", due, err)
	}
	if n, err := s.Count(ctx, "T-gone", math.Inf(-1), math.Inf(1)); err != nil || n != 0 {
		t.Fatalf("board holds %d %v, want 0", n, err)
	}
}
