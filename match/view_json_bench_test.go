package match

import (
	"encoding/json"
	"testing"
)

// BenchmarkViewJSON encodes a player's view of a two-seat match in play
// (benchMatch) with json.Marshal and with View.AppendJSON (as the hub
// does).
func BenchmarkViewJSON(b *testing.B) {
	r := benchMatch(b)
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
