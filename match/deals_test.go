package match

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"golfsolitaire/golf"
)

// pooledDeals is a fixed "pool" for tests: the fold trusts the server's
// choice of deals and checks only how they relate to the round seed, so
// any seeds do.
func pooledDeals(n int, from int) ([]golf.Seed, *golf.Seed) {
	deals := make([]golf.Seed, n)
	for i := range deals {
		deals[i] = golf.NumberedSeed(from + i)
	}
	round := golf.PooledRoundSeed(deals)
	return deals, &round
}

// playWith plays the room out with random legal moves, reloading it from
// its snapshot now and then (as a server does), with the analyzer set on
// every copy.
func playWith(t *testing.T, r *Room, an *Analyzer, rng *rand.Rand) *Room {
	t.Helper()
	at := t0
	for steps := 0; r.Status == Playing; steps++ {
		if steps > 100000 {
			t.Fatal("round does not end")
		}
		h := r.CurrentHole()
		for i, g := range h.Games {
			if g.Done {
				continue
			}
			legal := h.State(r.Settings.Variant, i).Legal()
			at = at.Add(time.Second)
			mustApply(t, r, Event{Kind: KindMove, At: at, Seat: i, Hole: h.Number, Move: legal[rng.IntN(len(legal))]})
			break
		}
		if steps%50 == 0 {
			b, err := r.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if r, err = DecodeRoom(b); err != nil {
				t.Fatal(err)
			}
			r.SetAnalyzer(an)
		}
	}
	return r
}

// TestApplyNeverSolves: with the deals in the events, a whole winnableOnly
// or difficulty round (practice, stroke, match play with sudden death, a
// rematch) folds without a single solver run, and plays exactly the deals
// the events carry.
func TestApplyNeverSolves(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		set  func(*Settings)
		seat []string
	}{
		{"practice, All in a Row, difficulty, 18 holes", func(s *Settings) {
			s.Format, s.Seats, s.Holes, s.Difficulty = Stroke, 1, 18, int(golf.Hard)
			s.Variant = golf.Variant{Game: golf.AllInARow, Options: golf.AllInARow.Defaults()}
		}, []string{"Ana"}},
		{"stroke, winnableOnly", func(s *Settings) {
			s.Format, s.Seats, s.Holes, s.WinnableOnly = Stroke, 3, 4, true
		}, []string{"Ana", "Bo", "Cy"}},
		{"match play, sudden death, difficulty", func(s *Settings) {
			s.Holes, s.SuddenDeath, s.Difficulty = 2, true, int(golf.Fair)
		}, []string{"Ana", "Bo"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			set := DefaultSettings()
			tt.set(&set)
			if err := set.Validate(); err != nil {
				t.Fatal(err)
			}
			an := NewAnalyzer(testSolveNodes, testRateNodes)
			r := newTestRoom(t, set, tt.seat...)
			r.SetAnalyzer(an)
			deals, round := pooledDeals(set.DealsNeeded(), 100*i+1)
			for s := 1; s < len(tt.seat); s++ {
				mustApply(t, r, Event{Kind: KindReady, At: t0, Seat: s, Ready: true})
			}
			mustApply(t, r, Event{Kind: KindStart, At: t0, Seat: 0, Seed: round, Deals: deals})
			r = playWith(t, r, an, rand.New(rand.NewPCG(uint64(i), 9)))
			for _, h := range r.Holes {
				if h.Seed != deals[h.Number-1] || h.Replaced != 0 {
					t.Fatalf("hole %d plays %s (replaced %d), want deal %s", h.Number, h.Seed, h.Replaced, deals[h.Number-1])
				}
			}
			// Records of the round replay, and the revealed round seed
			// checks against the commitment and the revealed deals.
			v := r.View(0)
			if v.Seed != round.String() || !round.Verify(v.Commitment) || len(v.Deals) != len(deals) {
				t.Fatalf("reveal: seed %s, commitment %s, %d deals", v.Seed, v.Commitment, len(v.Deals))
			}
			revealed := make([]golf.Seed, len(v.Deals))
			for j, d := range v.Deals {
				var err error
				if revealed[j], err = golf.ParseSeed(d); err != nil {
					t.Fatal(err)
				}
			}
			if golf.PooledRoundSeed(revealed) != *round {
				t.Fatal("the revealed deals do not give the round seed")
			}
			for _, h := range r.Holes {
				for s := range h.Games {
					rec := h.Record(set.Variant, s)
					st, err := rec.Replay()
					if err != nil || st.Score() != h.Games[s].Score {
						t.Fatalf("hole %d seat %d: record replays to %v, %v; scored %d", h.Number, s, st, err, h.Games[s].Score)
					}
				}
			}
			if set.Seats > 1 {
				// A rematch with new deals: still no solver.
				next, nround := pooledDeals(set.DealsNeeded(), 100*i+50)
				mustApply(t, r, Event{Kind: KindRematch, At: t0, Seat: 0, Seed: nround, Deals: next})
				for s := 1; s < len(tt.seat); s++ {
					if !r.StartsRound(Event{Kind: KindRematch, Seat: s}) && s == len(tt.seat)-1 && set.AutoStart {
						t.Fatal("StartsRound: the last rematch does not start the round")
					}
					ev := Event{Kind: KindRematch, At: t0, Seat: s, Seed: nround, Deals: next}
					mustApply(t, r, ev)
				}
				if r.Status != Playing || r.CurrentHole().Seed != next[0] || r.Past[0].Deals[0] != deals[0] {
					t.Fatalf("rematch: status %s, hole 1 %s", r.Status, r.CurrentHole().Seed)
				}
			}
			if an.Runs() != 0 {
				t.Fatalf("folding the round ran the solver %d times", an.Runs())
			}
		})
	}
}

// TestDealsChecked: deals that do not follow from the round seed, the
// wrong number of them, or deals for a room that does not choose deals,
// are bad events and change nothing.
func TestDealsChecked(t *testing.T) {
	t.Parallel()
	set := DefaultSettings()
	set.Format, set.Seats, set.Holes, set.WinnableOnly = Stroke, 1, 3, true
	deals, round := pooledDeals(3, 7)
	other := *round
	other[0] ^= 1
	derived := []golf.Seed{round.HoleSeed(1), round.HoleSeed(2).AgainSeed(4), round.HoleSeed(3)}
	plain := DefaultSettings()
	plain.Format, plain.Seats, plain.Holes = Stroke, 1, 3
	tests := []struct {
		name string
		set  Settings
		ev   Event
	}{
		{"too few", set, Event{Kind: KindStart, Seed: round, Deals: deals[:2]}},
		{"not the pooled seed", set, Event{Kind: KindStart, Seed: &other, Deals: deals}},
		{"swapped", set, Event{Kind: KindStart, Seed: round, Deals: []golf.Seed{deals[1], deals[0], deals[2]}}},
		{"wrong replacement", set, Event{Kind: KindStart, Seed: round, Deals: derived, Replaced: []int{0, 3, 0}}},
		{"replacement out of range", set, Event{Kind: KindStart, Seed: round, Deals: derived, Replaced: []int{0, 4, -1}}},
		{"replacements without deals", set, Event{Kind: KindStart, Seed: round, Replaced: []int{0, 4, 0}}},
		{"no seed", set, Event{Kind: KindStart, Deals: deals}},
		{"room without chosen deals", plain, Event{Kind: KindStart, Seed: round, Deals: deals}},
		{"deals in a move", set, Event{Kind: KindMove, Hole: 1, Move: golf.TurnMove, Deals: deals}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRoom(t, tt.set, "Ana")
			before, _ := r.Encode()
			if _, err := r.Apply(tt.ev); !errors.Is(err, ErrBadEvent) {
				t.Fatalf("Apply: %v, want ErrBadEvent", err)
			}
			if after, _ := r.Encode(); string(after) != string(before) {
				t.Fatal("a bad event changed the room")
			}
		})
	}
	// Deals chosen from the round seed's own replacements are accepted.
	r := newTestRoom(t, set, "Ana")
	mustApply(t, r, Event{Kind: KindStart, At: t0, Seed: round, Deals: derived, Replaced: []int{0, 4, 0}})
	mustApply(t, r, Event{Kind: KindStand, At: t0, Hole: 1})
	if h := r.CurrentHole(); h.Seed != derived[1] || h.Replaced != 4 {
		t.Fatalf("hole 2: %s replaced %d", h.Seed, h.Replaced)
	}
}

// TestStartsRound: the server's question "would this event start a
// round?" agrees with what applying it does, over random sequences of
// ready, start and rematch events.
func TestStartsRound(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 40; trial++ {
		set := DefaultSettings()
		set.Holes = 1
		set.Format, set.Seats = Stroke, 1+rng.IntN(3)
		set.AutoStart = rng.IntN(2) == 0
		names := []string{"Ana", "Bo", "Cy"}[:1+rng.IntN(set.Seats)]
		r := newTestRoom(t, set, names...)
		for step := 0; step < 30; step++ {
			var ev Event
			seat := rng.IntN(len(names) + 1)
			switch rng.IntN(4) {
			case 0:
				ev = Event{Kind: KindStart, Seat: seat}
			case 1, 2:
				ev = Event{Kind: KindReady, Seat: seat, Ready: rng.IntN(3) > 0}
			case 3:
				ev = Event{Kind: KindRematch, Seat: seat}
			}
			if r.Status == Playing {
				for i := range r.Seats {
					mustApply(t, r, Event{Kind: KindStand, At: t0, Seat: i, Hole: r.CurrentHole().Number})
				}
				continue
			}
			ev.At, ev.Seed = t0, seedOf(byte(step))
			want := r.StartsRound(ev)
			notices, err := r.Apply(ev)
			started := false
			for _, n := range notices {
				started = started || n.Kind == "started"
			}
			if started != want {
				t.Fatalf("trial %d step %d: %+v: StartsRound %v, Apply started %v (err %v)", trial, step, ev, want, started, err)
			}
		}
	}
}
