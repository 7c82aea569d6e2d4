package match

import (
	"encoding/json"
	"errors"
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
// (benchMatch): with json.Unmarshal, whole ("unmarshal") and with its
// settings as sent ("wire", as the client did: it decoded the settings
// only when they changed); with decodeView ("decode"); with a ViewDecoder
// whose settings are kept ("decoder", as the client does).
func BenchmarkViewDecode(b *testing.B) {
	v := benchMatch(b).View(0)
	data := v.AppendJSON(nil)
	run := func(name string, decode func() error) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := decode(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("unmarshal", func() error {
		var w View
		return json.Unmarshal(data, &w)
	})
	run("wire", func() error {
		var w viewWire
		return json.Unmarshal(data, &w)
	})
	run("decode", func() error {
		var w View
		if _, ok := decodeView(data, &w); !ok {
			return errors.New("decodeView declined the view")
		}
		return nil
	})
	var d ViewDecoder
	run("decoder", func() error {
		var w View
		return d.Decode(data, &w)
	})
}
