package match

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"golfsolitaire/protocol/patch"
)

// BenchmarkMoveViews is the per-move work a room's hub does for a
// two-seat match with a spectator: apply the move, then build, encode (as
// the hub does, View.AppendJSON) and
// diff each viewer's view against the one it was sent before.
func BenchmarkMoveViews(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var r *Room
	var last [3][]byte
	viewers := []int{0, 1, SpectatorSeat}
	fresh := func() {
		r = benchMatch(b)
		for k, s := range viewers {
			last[k], _ = json.Marshal(r.View(s))
		}
	}
	fresh()
	at := t0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if r.Status != Playing {
			b.StopTimer()
			fresh()
			b.StartTimer()
		}
		h := r.CurrentHole()
		seat := rng.IntN(2)
		if h.Games[seat].Done {
			seat = 1 - seat
		}
		legal := h.State(r.Settings.Variant, seat).Legal()
		ev := Event{Kind: KindMove, At: at, Seat: seat, Hole: h.Number}
		if len(legal) == 0 {
			ev = Event{Kind: KindStand, At: at, Seat: seat, Hole: h.Number}
		} else {
			m := legal[rng.IntN(len(legal))]
			ev.Move = m
		}
		at = at.Add(time.Second)
		if _, err := r.Apply(ev); err != nil {
			b.Fatal(err)
		}
		for k, s := range viewers {
			v := r.View(s)
			j := v.AppendJSON(make([]byte, 0, len(last[k])+256))
			if _, err := patch.Diff(last[k], j); err != nil {
				b.Fatal(err)
			}
			last[k] = j
		}
	}
}

// BenchmarkMoveDocs is BenchmarkMoveViews as the hub does it now: each
// viewer's view as a Doc of shared parts (ViewCache) and its patch from
// the parts that changed (patch.Differ), the same bytes as
// BenchmarkMoveViews's diffs.
func BenchmarkMoveDocs(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var r *Room
	var cache ViewCache
	var last [3]patch.Doc
	viewers := []int{0, 1, SpectatorSeat}
	fresh := func() {
		r = benchMatch(b)
		for k, s := range viewers {
			last[k] = cache.Doc(r, s)
		}
	}
	fresh()
	at := t0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if r.Status != Playing {
			b.StopTimer()
			fresh()
			b.StartTimer()
		}
		h := r.CurrentHole()
		seat := rng.IntN(2)
		if h.Games[seat].Done {
			seat = 1 - seat
		}
		legal := h.State(r.Settings.Variant, seat).Legal()
		ev := Event{Kind: KindMove, At: at, Seat: seat, Hole: h.Number}
		if len(legal) == 0 {
			ev = Event{Kind: KindStand, At: at, Seat: seat, Hole: h.Number}
		} else {
			ev.Move = legal[rng.IntN(len(legal))]
		}
		at = at.Add(time.Second)
		if _, err := r.Apply(ev); err != nil {
			b.Fatal(err)
		}
		var d patch.Differ
		for k, s := range viewers {
			doc := cache.Doc(r, s)
			if _, err := d.AppendDiff(nil, last[k], doc); err != nil {
				b.Fatal(err)
			}
			last[k] = doc
		}
	}
}

// benchMatch is an eighteen-hole, two-seat match with spectators, its
// first hole just dealt.
func benchMatch(tb testing.TB) *Room {
	set := DefaultSettings()
	set.Format, set.Seats, set.Holes, set.Spectators = Matchplay, 2, 18, true
	r, err := NewRoom(Event{Kind: KindCreate, At: t0, Code: "BENCH", Settings: &set})
	if err != nil {
		tb.Fatal(err)
	}
	for i, n := range []string{"Ana", "Bo"} {
		if _, err := r.Apply(Event{Kind: KindJoin, At: t0, Name: n, Token: tokenHash(string(rune('a' + i)))}); err != nil {
			tb.Fatal(err)
		}
	}
	for seat := range 2 {
		if _, err := r.Apply(Event{Kind: KindReady, At: t0, Seat: seat, Ready: true, Seed: seedOf(7)}); err != nil {
			tb.Fatal(err)
		}
	}
	return r
}
