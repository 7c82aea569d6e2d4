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

// RunTournaments runs the contract of store.Tournaments on stores from b,
// which must implement it.
func RunTournaments(t *testing.T, b Backend) {
	tests := []struct {
		name string
		run  func(t *testing.T, ctx context.Context, s store.Tournaments, b Backend)
	}{
		{"List", testTournamentList},
		{"ListOtherInstance", testTournamentListShared},
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

func newTournaments(t *testing.T, b Backend) store.Tournaments {
	t.Helper()
	s := b.New(t, Config{Now: time.Now})
	t.Cleanup(func() { s.Close() })
	ts, ok := s.(store.Tournaments)
	if !ok {
		t.Fatalf("%T does not implement store.Tournaments", s)
	}
	return ts
}

func tournamentsListed(t *testing.T, ctx context.Context, s store.Tournaments, limit int) []string {
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

func testTournamentList(t *testing.T, ctx context.Context, s store.Tournaments, _ Backend) {
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
	if got, want := tournamentsListed(t, ctx, s, 10), []string{"T-B=v2", "T-A=v1", "T-C=v1"}; !slices.Equal(got, want) {
		t.Fatalf("list %q, want %q (first listed first, data updated in place)", got, want)
	}
	if got := tournamentsListed(t, ctx, s, 2); len(got) != 2 {
		t.Fatalf("limit 2: %q", got)
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
	if got, want := tournamentsListed(t, ctx, s, 10), []string{"T-B=v2", "T-C=v1"}; !slices.Equal(got, want) {
		t.Fatalf("after hiding: %q, want %q", got, want)
	}
}

func testTournamentListShared(t *testing.T, ctx context.Context, s store.Tournaments, b Backend) {
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

func testBoardRankRange(t *testing.T, ctx context.Context, s store.Tournaments, _ Backend) {
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

func testBoardUpdate(t *testing.T, ctx context.Context, s store.Tournaments, _ Backend) {
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

func testBoardCount(t *testing.T, ctx context.Context, s store.Tournaments, _ Backend) {
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
func testBoardExactScores(t *testing.T, ctx context.Context, s store.Tournaments, _ Backend) {
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

func testBoardConcurrent(t *testing.T, ctx context.Context, s store.Tournaments, _ Backend) {
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
