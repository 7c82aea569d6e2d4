// Package fairplaytest is the contract suite every fair-play evidence
// store passes (the memory store, fairplay/postgres).
package fairplaytest

import (
	"context"
	"errors"
	"testing"
	"time"

	"golfsolitaire/fairplay"
	"golfsolitaire/golf"
)

// Store is what the suite tests.
type Store = fairplay.Store

// Run runs the contract on stores from newStore (a fresh, empty store for
// each part, the parts in parallel).
func Run(t *testing.T, newStore func(t *testing.T) Store) {
	for _, part := range []struct {
		name string
		run  func(t *testing.T, ctx context.Context, s Store)
	}{
		{"AddHoleAggregates", testAddHoleAggregates},
		{"PlayersApart", testPlayersApart},
		{"BadInputChangesNothing", testBadInputChangesNothing},
		{"Flags", testFlags},
		{"ReportsKeptAndTrimmed", testReportsKeptAndTrimmed},
		{"Review", testReview},
		{"HeldResults", testHeldResults},
	} {
		t.Run(part.name, func(t *testing.T) {
			t.Parallel()
			part.run(t, context.Background(), newStore(t))
		})
	}
}

// hole is a report of one hole of player's with one segment.
func hole(player string, n int, least bool, p float64) fairplay.HoleReport {
	return fairplay.HoleReport{
		Player: player, Name: "Ana", Room: "ABCD", Round: 1, Hole: n, Replay: "/api/rooms/ABCD/holes/1/replay",
		At:       time.Date(2026, 1, 1, 0, 0, n, 0, time.UTC),
		Analysis: fairplay.Hole{Decisions: 3, Segments: []fairplay.Segment{{Decisions: 3, Least: least, P: p}}},
	}
}

func testAddHoleAggregates(t *testing.T, ctx context.Context, s Store) {
	var want fairplay.Evidence
	for n, tc := range []struct {
		least bool
		p     float64
	}{{true, 0.25}, {false, 0.5}, {true, 0.125}} {
		h := hole("p1", n+1, tc.least, tc.p)
		want.Add(h.Analysis)
		got, err := s.AddHole(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		if got.Holes != want.Holes || got.Segments != want.Segments || got.Least != want.Least || got.Score() != want.Score() {
			t.Fatalf("after hole %d: evidence %+v, want %+v", n+1, got, want)
		}
	}
	ev, reps, err := s.Player(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Holes != 3 || len(reps) != 3 || reps[0].Hole != 1 || reps[2].Hole != 3 {
		t.Fatalf("player: %+v, %d reports", ev, len(reps))
	}
	if _, _, err := s.Player(ctx, "p2"); !errors.Is(err, fairplay.ErrNotFound) {
		t.Fatalf("unknown player: %v, want ErrNotFound", err)
	}
}

func testPlayersApart(t *testing.T, ctx context.Context, s Store) {
	if _, err := s.AddHole(ctx, hole("a", 1, true, 0.25)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddHole(ctx, hole("b", 1, false, 0.25)); err != nil {
		t.Fatal(err)
	}
	a, _, _ := s.Player(ctx, "a")
	b, _, _ := s.Player(ctx, "b")
	if a.Least != 1 || b.Least != 0 || a.Holes != 1 || b.Holes != 1 {
		t.Fatalf("a %+v b %+v", a, b)
	}
}

func testBadInputChangesNothing(t *testing.T, ctx context.Context, s Store) {
	if _, err := s.AddHole(ctx, hole("", 1, true, 0.5)); err == nil {
		t.Fatal("a report without a player was accepted")
	}
	if err := s.SetFlag(ctx, fairplay.Flag{}); err == nil {
		t.Fatal("a flag without a player was accepted")
	}
	if fl, _ := s.Flags(ctx); len(fl) != 0 {
		t.Fatalf("flags after bad input: %v", fl)
	}
}

func testFlags(t *testing.T, ctx context.Context, s Store) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := s.SetFlag(ctx, fairplay.Flag{Player: "b", Name: "Bo", FlaggedAt: t0.Add(time.Minute), Held: true, Score: 7}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetFlag(ctx, fairplay.Flag{Player: "a", Name: "Ana", FlaggedAt: t0, Held: true, Score: 8,
		Holes: []fairplay.HoleReport{hole("a", 1, true, 0.25)}}); err != nil {
		t.Fatal(err)
	}
	// Flagging again keeps the first time, takes the new evidence.
	if err := s.SetFlag(ctx, fairplay.Flag{Player: "b", Name: "Bo", FlaggedAt: t0.Add(time.Hour), Held: true, Score: 9}); err != nil {
		t.Fatal(err)
	}
	fl, err := s.Flags(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(fl) != 2 || fl[0].Player != "a" || fl[1].Player != "b" {
		t.Fatalf("flags %+v, want a then b", fl)
	}
	if !fl[1].FlaggedAt.Equal(t0.Add(time.Minute)) || fl[1].Score != 9 || !fl[1].Held {
		t.Fatalf("re-flag: %+v", fl[1])
	}
	if len(fl[0].Holes) != 1 || fl[0].Holes[0].Replay == "" {
		t.Fatalf("flag evidence lost: %+v", fl[0])
	}
}

func testReportsKeptAndTrimmed(t *testing.T, ctx context.Context, s Store) {
	h := hole("p", 1, true, 0.25)
	h.Analysis.Discriminating = []fairplay.Decision{{Move: 4, Segment: 0, Pick: fairplay.PickClairvoyant,
		Legal: []golf.Move{golf.PlayPile(2), golf.PlayPile(5)}, Chosen: golf.PlayPile(5), Visible: golf.PlayPile(2), Clairvoyant: []golf.Move{golf.PlayPile(5)}, Mean: []float64{1.5, 2.25}, Real: []int{3, 1}, RealMargin: 2, VisibleMargin: 0.75}}
	h.LogLR = 1.25
	for n := 1; n <= fairplay.MaxReports+3; n++ {
		h.Hole = n
		if _, err := s.AddHole(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	ev, reps, err := s.Player(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Holes != fairplay.MaxReports+3 || len(reps) != fairplay.MaxReports || reps[0].Hole != 4 || reps[len(reps)-1].Hole != fairplay.MaxReports+3 {
		t.Fatalf("evidence over %d holes, %d reports from hole %d", ev.Holes, len(reps), reps[0].Hole)
	}
	got := reps[0]
	if !got.At.Equal(h.At) || got.LogLR != 1.25 || len(got.Analysis.Discriminating) != 1 || got.Analysis.Discriminating[0].Mean[1] != 2.25 || got.Analysis.Discriminating[0].Chosen != golf.PlayPile(5) || got.Replay != h.Replay {
		t.Fatalf("report not kept as given: %+v", got)
	}
}

func testReview(t *testing.T, ctx context.Context, s Store) {
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	if st, held, err := s.Held(ctx, "a"); err != nil || held || st != "" {
		t.Fatalf("unflagged player: %q %v %v", st, held, err)
	}
	if _, err := s.Review(ctx, "a", fairplay.StatusCleared, t0); !errors.Is(err, fairplay.ErrNotFound) {
		t.Fatalf("review without a flag: %v, want ErrNotFound", err)
	}
	if err := s.SetFlag(ctx, fairplay.Flag{Player: "a", Name: "Ana", FlaggedAt: t0, Held: true, Score: 8}); err != nil {
		t.Fatal(err)
	}
	if st, held, err := s.Held(ctx, "a"); err != nil || !held || st != fairplay.StatusHeld {
		t.Fatalf("flagged player: %q %v %v", st, held, err)
	}
	if _, err := s.Review(ctx, "a", fairplay.StatusHeld, t0); !errors.Is(err, fairplay.ErrBadStatus) {
		t.Fatalf("review to held: %v, want ErrBadStatus", err)
	}
	if _, err := s.Review(ctx, "a", "maybe", t0); !errors.Is(err, fairplay.ErrBadStatus) {
		t.Fatalf("review to maybe: %v, want ErrBadStatus", err)
	}
	if st, held, _ := s.Held(ctx, "a"); !held || st != fairplay.StatusHeld {
		t.Fatalf("a bad review changed the flag: %q %v", st, held)
	}
	f, err := s.Review(ctx, "a", fairplay.StatusCleared, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if f.Held || f.Status != fairplay.StatusCleared || !f.ReviewedAt.Equal(t0.Add(time.Hour)) || f.Score != 8 {
		t.Fatalf("cleared flag: %+v", f)
	}
	// More evidence does not hold a cleared player again.
	if err := s.SetFlag(ctx, fairplay.Flag{Player: "a", Name: "Ana", FlaggedAt: t0.Add(2 * time.Hour), Held: true, Score: 9}); err != nil {
		t.Fatal(err)
	}
	if st, held, _ := s.Held(ctx, "a"); held || st != fairplay.StatusCleared {
		t.Fatalf("re-flagged after clearing: %q %v", st, held)
	}
	fl, _ := s.Flags(ctx)
	if len(fl) != 1 || fl[0].Score != 9 || fl[0].Status != fairplay.StatusCleared || !fl[0].FlaggedAt.Equal(t0) {
		t.Fatalf("flags after clearing and more evidence: %+v", fl)
	}
	if _, err := s.Review(ctx, "a", fairplay.StatusConfirmed, t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if st, held, _ := s.Held(ctx, "a"); !held || st != fairplay.StatusConfirmed {
		t.Fatalf("confirmed: %q %v", st, held)
	}
}

func testHeldResults(t *testing.T, ctx context.Context, s Store) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if err := s.HoldResult(ctx, fairplay.HeldResult{Key: "", Players: []string{"a"}}); err == nil {
		t.Fatal("a held result without a key was accepted")
	}
	if err := s.HoldResult(ctx, fairplay.HeldResult{Key: "k0", Players: []string{"a", ""}}); err == nil {
		t.Fatal("a held result with an empty player was accepted")
	}
	for i, r := range []fairplay.HeldResult{
		{Key: "k1", Players: []string{"a", "b"}, At: t0, Payload: []byte(`{"round":1}`)},
		{Key: "k2", Players: []string{"b", "c"}, At: t0.Add(time.Minute), Payload: []byte(`{"round":2}`)},
		{Key: "k1", Players: []string{"a", "z"}, At: t0.Add(time.Hour), Payload: []byte(`{"round":9}`)}, // ignored
	} {
		if err := s.HoldResult(ctx, r); err != nil {
			t.Fatalf("result %d: %v", i, err)
		}
	}
	got, err := s.Results(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Key != "k1" || got[1].Key != "k2" || string(got[0].Payload) != `{"round":1}` || !got[0].At.Equal(t0) || len(got[0].Players) != 2 {
		t.Fatalf("results of b: %+v", got)
	}
	if got, _ := s.Results(ctx, "z"); len(got) != 0 {
		t.Fatalf("a second result with the same key was kept: %+v", got)
	}
	if err := s.DropResult(ctx, "k1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DropResult(ctx, "nope"); err != nil {
		t.Fatalf("dropping an unknown result: %v", err)
	}
	if got, _ := s.Results(ctx, "a"); len(got) != 0 {
		t.Fatalf("dropped result still listed: %+v", got)
	}
	if got, _ := s.Results(ctx, "c"); len(got) != 1 || got[0].Key != "k2" {
		t.Fatalf("results of c: %+v", got)
	}
}
