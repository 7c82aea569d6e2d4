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

// BenchmarkViewDecode decodes a player's view of a two-seat match in play
// (benchMatch) with json.Unmarshal, with its settings as sent (as the
// client did), and with DecodeView (as the client does).
func BenchmarkViewDecode(b *testing.B) {
	v := benchMatch(b).View(0)
	data := v.AppendJSON(nil)
	b.Run("unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for range b.N {
			var w viewWire
			if err := json.Unmarshal(data, &w); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for range b.N {
			var w View
			if _, ok := DecodeView(data, &w); !ok {
				b.Fatal("DecodeView declined the view")
			}
		}
	})
}
