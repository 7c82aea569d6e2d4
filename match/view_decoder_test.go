package match

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestViewDecoder: a view decoded with the settings of the last one kept
// equals the view decoded in full by json.Unmarshal, when the settings
// stay, when they change, and when a view has none, read by decodeView
// or, when it declines the view, by encoding/json.
func TestViewDecoder(t *testing.T) {
	t.Parallel()
	view := func(holes int, v int64) []byte {
		s := DefaultSettings()
		s.Holes = holes
		b, err := json.Marshal(View{V: v, Status: "playing", Settings: s, Hole: 1})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// indented is a view that decodeView declines: encoding/json
	// decodes it.
	indented := func(b []byte) []byte {
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", "  "); err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeView(out.Bytes(), new(View)); ok {
			t.Fatalf("decodeView took an indented view")
		}
		return out.Bytes()
	}
	var d ViewDecoder
	for i, b := range [][]byte{
		view(3, 1), view(3, 2), view(9, 3), indented(view(9, 4)), view(9, 5),
		[]byte(`{"v":6,"status":"waiting"}`), indented(view(3, 7)), view(3, 8), view(3, 9),
	} {
		var want, got View
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if err := d.Decode(b, &got); err != nil {
			t.Fatalf("view %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("view %d: decoded %+v, want %+v", i, got, want)
		}
	}
	var v View
	if err := d.Decode([]byte(`{"v":7,"settings":{"holes":"x"}}`), &v); err == nil {
		t.Error("bad settings accepted")
	}
}
