package match

import (
	"encoding/json"
	"testing"
)

// BenchmarkViewJSON encodes a player's view of a two-seat match in play
// with json.Marshal and with View.AppendJSON (as the hub does).
func BenchmarkViewJSON(b *testing.B) {
	set := DefaultSettings()
	r, err := NewRoom(Event{Kind: KindCreate, At: t0, Code: "BENCH", Settings: &set})
	if err != nil {
		b.Fatal(err)
	}
	for i, n := range []string{"Ana", "Bo"} {
		if _, err := r.Apply(Event{Kind: KindJoin, At: t0, Name: n, Token: tokenHash(string(rune('a' + i)))}); err != nil {
			b.Fatal(err)
		}
	}
	for seat := range 2 {
		if _, err := r.Apply(Event{Kind: KindReady, At: t0, Seat: seat, Ready: true, Seed: seedOf(7)}); err != nil {
			b.Fatal(err)
		}
	}
	v := r.View(0)
	size := len(v.AppendJSON(nil))
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = v.AppendJSON(make([]byte, 0, size+256))
		}
	})
}
