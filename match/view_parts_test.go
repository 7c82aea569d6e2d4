package match

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/protocol/patch"
)

// TestViewDocs plays rooms of every game and form with random moves and,
// at every version, checks for every viewer (each seat and a spectator)
// that the ViewCache's Doc encodes exactly as View.AppendJSON, and that
// a Differ's patch from the viewer's Doc of an earlier version (the one
// before, or one a few versions back, as a connection held back by a
// spectator delay or a lost frame would have) is patch.Diff's, byte for
// byte.
func TestViewDocs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		game    string
		options map[string]any
		seats   int
		format  Format
		mod     func(*Settings)
		tour    string
	}{
		{name: "golf match play", game: "golf", seats: 2, format: Matchplay},
		{name: "golf stroke play, three seats", game: "golf", seats: 3, format: Stroke},
		{name: "golf, eight seats", game: "golf", seats: 8, format: Stroke},
		{name: "golf with a redeal", game: "golf", options: map[string]any{"redeals": 1}, seats: 2, format: Stroke},
		{name: "golf with undo, solo", game: "golf", options: map[string]any{"undo": true}, seats: 1, format: Stroke},
		{name: "tripeaks", game: "tripeaks", seats: 2, format: Stroke},
		{name: "pyramid", game: "pyramid-golf", seats: 3, format: Stroke},
		{name: "black hole", game: "black-hole", seats: 2, format: Stroke},
		{name: "all in a row", game: "all-in-a-row", seats: 2, format: Stroke},
		{name: "double golf", game: "double-golf", seats: 4, format: Stroke},
		{name: "hole clock and countback", game: "golf", seats: 2, format: Stroke, mod: func(s *Settings) { s.HoleClock = 300; s.Countback = true }},
		{name: "no spectators", game: "golf", seats: 2, format: Matchplay, mod: func(s *Settings) { s.Spectators = false }},
		{name: "tournament room", game: "golf", seats: 2, format: Stroke, mod: func(s *Settings) { s.Spectators, s.Public, s.HoleClock = false, false, 0 }, tour: "T1"},
	}
	for n, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := golf.NewVariant(tt.game, tt.options)
			if err != nil {
				t.Fatal(err)
			}
			set := DefaultSettings()
			set.Variant, set.Seats, set.Format, set.Holes, set.Spectators = v, tt.seats, tt.format, 3, true
			if tt.mod != nil {
				tt.mod(&set)
			}
			r, err := NewRoom(Event{Kind: KindCreate, At: t0, Code: "DOC-TES-T00", Settings: &set, Tournament: tt.tour})
			if err != nil {
				t.Fatal(err)
			}
			viewers := []int{SpectatorSeat}
			for i := range tt.seats {
				viewers = append(viewers, i)
			}
			rng := rand.New(rand.NewPCG(uint64(n), 7))
			var cache ViewCache
			// Each viewer's docs and encodings of every version so far.
			type sent struct {
				doc  patch.Doc
				json []byte
			}
			history := map[int][]sent{}
			check := func() {
				t.Helper()
				var d patch.Differ
				for _, s := range viewers {
					doc := cache.Doc(r, s)
					view := r.View(s)
					want := view.AppendJSON(nil)
					got := doc.AppendJSON(nil)
					if !bytes.Equal(got, want) {
						t.Fatalf("v%d, viewer %d: the doc is\n%s\nthe view\n%s", r.Version, s, got, want)
					}
					if doc.Len() != len(want) {
						t.Fatalf("v%d, viewer %d: doc length %d, encoding %d bytes", r.Version, s, doc.Len(), len(want))
					}
					hs := history[s]
					for _, back := range []int{1, 2, 1 + rng.IntN(8)} {
						if back > len(hs) {
							continue
						}
						base := hs[len(hs)-back]
						wantP, err := patch.Diff(base.json, want)
						if err != nil {
							t.Fatal(err)
						}
						gotP, err := d.AppendDiff(nil, base.doc, doc)
						if err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(gotP, wantP) {
							t.Fatalf("v%d, viewer %d, base %d versions back: patch\n%s\nwant (patch.Diff)\n%s", r.Version, s, back, gotP, wantP)
						}
					}
					history[s] = append(hs, sent{doc, want})
				}
				// The caches of settled boards keep what this version and
				// the one before used: at most a board of every seat for
				// every viewer, twice (they once kept a whole hole's).
				most := 2 * len(viewers) * tt.seats
				if n := r.shownCache.len(); n > most {
					t.Fatalf("v%d: the room keeps %d settled boards, want at most %d", r.Version, n, most)
				}
				if n, m := cache.boards.len(), cache.encoded.len(); n > most || m > most {
					t.Fatalf("v%d: the view cache keeps %d boards and %d encodings, want at most %d", r.Version, n, m, most)
				}
			}
			at := t0
			events := 0
			apply := func(ev Event) bool {
				t.Helper()
				at = at.Add(time.Second)
				ev.At = at
				if _, err := r.Apply(ev); err != nil {
					return false
				}
				// Under -race (single-goroutine code, ten times slower)
				// every fourth version is checked: the cache and the
				// patches then span gaps of versions, as for a connection
				// held back; without -race every version is.
				if events++; !raceEnabled || events%4 == 0 || r.Status != Playing {
					check()
				}
				return true
			}
			check()
			for i := range tt.seats {
				if !apply(Event{Kind: KindJoin, Name: fmt.Sprintf("P%d", i), Token: tokenHash(fmt.Sprint(i))}) {
					t.Fatalf("join %d refused", i)
				}
			}
			for i := range tt.seats {
				if !apply(Event{Kind: KindReady, Seat: i, Ready: true, Seed: seedOf(byte(n + 1))}) {
					t.Fatalf("ready %d refused", i)
				}
			}
			if r.Status == Waiting {
				apply(Event{Kind: KindStart, Seat: 0})
			}
			for steps := 0; r.Status == Playing && steps < 3000; steps++ {
				h := r.CurrentHole()
				// A best score for a finished hole, as the server records.
				for _, hn := range r.NeedsBest() {
					best := 20 + hn
					apply(Event{Kind: KindBest, Hole: hn, Best: &best})
				}
				seat := rng.IntN(tt.seats)
				if h.Games[seat].Done {
					continue
				}
				switch x := rng.IntN(40); {
				case x == 0:
					apply(Event{Kind: KindAway, Seat: seat})
					apply(Event{Kind: KindBack, Seat: seat})
					continue
				case x == 1 && tt.seats > 1:
					apply(Event{Kind: KindStand, Seat: seat, Hole: h.Number})
					continue
				}
				legal := h.State(r.Settings.Variant, seat).Legal()
				if len(legal) == 0 {
					apply(Event{Kind: KindStand, Seat: seat, Hole: h.Number})
					continue
				}
				m := legal[rng.IntN(len(legal))]
				if r.Settings.Variant.Options.Undo && len(h.Games[seat].Moves) > 0 && rng.IntN(6) == 0 {
					m = golf.Move{Action: golf.Undo}
				}
				apply(Event{Kind: KindMove, Seat: seat, Hole: h.Number, Move: m})
			}
			if r.Status != Finished {
				t.Fatalf("the round did not finish: %s", r.Status)
			}
		})
	}
}
