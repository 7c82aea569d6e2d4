package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"golfsolitaire/match"
)

// TestViewDecoder: a view decoded with the settings of the last one kept
// equals the view decoded in full, when the settings stay, when they
// change, and when a view has none, read by match.DecodeView or, when it
// declines the view, by encoding/json.
func TestViewDecoder(t *testing.T) {
	t.Parallel()
	view := func(holes int, v int64) []byte {
		s := match.DefaultSettings()
		s.Holes = holes
		b, err := json.Marshal(match.View{V: v, Status: "playing", Settings: s, Hole: 1})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// indented is a view that match.DecodeView declines: encoding/json
	// decodes it.
	indented := func(b []byte) []byte {
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", "  "); err != nil {
			t.Fatal(err)
		}
		if _, ok := match.DecodeView(out.Bytes(), new(match.View)); ok {
			t.Fatalf("match.DecodeView took an indented view")
		}
		return out.Bytes()
	}
	var d viewDecoder
	for i, b := range [][]byte{
		view(3, 1), view(3, 2), view(9, 3), indented(view(9, 4)), view(9, 5),
		[]byte(`{"v":6,"status":"waiting"}`), indented(view(3, 7)), view(3, 8), view(3, 9),
	} {
		var want, got match.View
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if err := d.decode(b, &got); err != nil {
			t.Fatalf("view %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("view %d: decoded %+v, want %+v", i, got, want)
		}
	}
	var v match.View
	if err := d.decode([]byte(`{"v":7,"settings":{"holes":"x"}}`), &v); err == nil {
		t.Error("bad settings accepted")
	}
}

// BenchmarkViewDecode: decoding the same room's views, in full and with
// the settings kept.
func BenchmarkViewDecode(b *testing.B) {
	s := match.DefaultSettings()
	raw, err := json.Marshal(match.View{V: 1, Status: "playing", Settings: s, Hole: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			var v match.View
			if err := json.Unmarshal(raw, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kept", func(b *testing.B) {
		var d viewDecoder
		for b.Loop() {
			var v match.View
			if err := d.decode(raw, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
