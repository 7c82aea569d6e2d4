package match

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"golfsolitaire/protocol/patch"
)

// sameAsUnmarshal reads b with decodeView and, when decodeView takes it,
// fails unless json.Unmarshal takes it too and reads the same view and
// settings, and the same view with its settings decoded whenever it
// decodes the view whole. It reports whether decodeView took b.
func sameAsUnmarshal(t *testing.T, what string, b []byte) bool {
	t.Helper()
	var v View
	raw, ok := decodeView(b, &v)
	if !ok {
		if !reflect.DeepEqual(v, View{}) || raw != nil {
			t.Fatalf("%s: decodeView declined but left a view or settings: %+v %q", what, v, raw)
		}
		return false
	}
	var w viewWire
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("%s: decodeView took what json.Unmarshal refuses (%v):\n%s", what, err, b)
	}
	if !bytes.Equal(raw, w.Settings) {
		t.Fatalf("%s: settings differ:\n got  %s\n want %s", what, raw, w.Settings)
	}
	if !reflect.DeepEqual(v, w.View) {
		t.Fatalf("%s: decodeView differs from json.Unmarshal:\n got  %#v\n want %#v\n of %s", what, v, w.View, b)
	}
	var whole View
	if json.Unmarshal(b, &whole) == nil {
		if raw != nil { // as ViewDecoder decodes them
			if err := json.Unmarshal(raw, &v.Settings); err != nil {
				t.Fatalf("%s: the view decodes whole but not its settings: %v", what, err)
			}
		}
		if !reflect.DeepEqual(v, whole) {
			t.Fatalf("%s: decodeView and its settings differ from json.Unmarshal of the view:\n got  %#v\n want %#v", what, v, whole)
		}
	}
	return true
}

// decodesAsHeld returns a check, for TestViewAppendJSON, of the views of
// a room as a client holds them (the first as AppendJSON writes it, then
// each as the patch from the one before makes it: a patch appends the
// members it adds, out of AppendJSON's order): decodeView must take every
// one (no fallback to encoding/json) and read what json.Unmarshal reads,
// and a view as held must read as the view AppendJSON writes (so it too
// reads as json.Unmarshal reads it). It counts the views held out of
// AppendJSON's order in reordered.
func decodesAsHeld(t *testing.T, reordered *atomic.Int64) func(what string, seat int, v View) {
	sent, held := map[int][]byte{}, map[int][]byte{}
	n := 0
	return func(what string, seat int, v View) {
		t.Helper()
		// Under -race (byte by byte some thirty times slower, and nothing
		// concurrent to find) and -short (the inner loop: these reads
		// were two thirds of the package's CPU time) a third of the views
		// are read (each viewer's patches then span more events); all of
		// them in .ci/run's property checks, without -race or -short.
		if n++; (raceEnabled || testing.Short()) && n%3 != 1 {
			return
		}
		b := v.AppendJSON(nil)
		if old, ok := sent[seat]; ok {
			p, err := patch.Diff(old, b)
			if err != nil {
				t.Fatal(err)
			}
			if held[seat], err = patch.Apply(held[seat], p); err != nil {
				t.Fatal(err)
			}
		} else {
			held[seat] = b
		}
		sent[seat] = b
		if !sameAsUnmarshal(t, what+", as held", held[seat]) {
			t.Fatalf("%s: decodeView declined the view as held:\n%s", what, held[seat])
		}
		if bytes.Equal(held[seat], b) {
			return
		}
		reordered.Add(1)
		if !raceEnabled && !sameAsUnmarshal(t, what, b) {
			t.Fatalf("%s: decodeView declined AppendJSON's view:\n%s", what, b)
		}
		var x, y View
		decodeView(held[seat], &x)
		if _, ok := decodeView(b, &y); !ok {
			t.Fatalf("%s: decodeView declined AppendJSON's view:\n%s", what, b)
		}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("%s: the view as held is not the view:\n%s\n%s", what, held[seat], b)
		}
	}
}

// viewMutations are changes to a view as AppendJSON writes it (the first
// old replaced by new; new appended when old is empty) that json.Unmarshal
// still takes (most of them) but decodeView declines, and a few it takes
// (decline false): FuzzDecodeView's seeds too.
var viewMutations = []viewMutation{
	{"space", `"v":`, `"v": `, true},
	{"newline in the settings", `}`, "}\n", true},
	{"newline at the end", ``, "\n", true},
	{"more at the end", ``, "{}", true},
	{"key case", `"code":`, `"Code":`, true},
	{"key escaped", `"code":`, `"\u0063ode":`, true},
	{"keys swapped", `{"v":5,"code":"BENCH"`, `{"code":"BENCH","v":5`, false},
	{"key missing", `{"v":5,`, `{`, false},
	{"key twice", `,"you":0`, `,"you":0,"you":0`, true},
	{"empty key", `,"you":0`, `,"":0,"you":0`, true},
	{"empty object", `"wait":{"seat":0,"card":1}`, `"wait":{}`, false},
	{"standings twice", `"revealed":[]`, `"revealed":[],"standings":{}`, true},
	{"unknown key", `,"you":`, `,"x":1,"you":`, true},
	{"minus zero", `"run":0`, `"run":-0`, true},
	{"fraction", `"round":1`, `"round":1.0`, true},
	{"exponent", `"round":1`, `"round":1e0`, true},
	{"plus", `"round":1`, `"round":+1`, true},
	{"leading zero", `"round":1`, `"round":01`, true},
	{"too long", `"round":1`, `"round":1234567890123456789`, true},
	{"overflow", `"round":1`, `"round":99999999999999999999`, true},
	{"negative", `"round":1`, `"round":-123456789012345678`, false},
	{"null string", `,"progress":`, `,"seed":null,"progress":`, true},
	{"null standings", `,"revealed":[]`, `,"revealed":[],"x":null`, true},
	{"null seats", `"seats":[`, `"seats":null,"x":[`, true},
	{"surrogate pair", `"BENCH"`, `"\ud83d\ude00"`, true},
	{"lone surrogate", `"BENCH"`, `"\ud83d"`, true},
	{"invalid UTF-8", `"BENCH"`, "\"\xff\"", true},
	{"control character", `"BENCH"`, "\"a\tb\"", true},
	{"bad escape", `"BENCH"`, `"\x41"`, true},
	{"bad hex", `"BENCH"`, `"\u00zz"`, true},
	{"short hex", `"BENCH"`, `"\u00"`, true},
	{"clock", `,"commitment":`, `,"clock":{"started":"2026-12-02T10:00:00.5Z","deadline":"2026-12-02T10:01:00.5Z"},"commitment":`, false},
	{"clock with offsets", `,"commitment":`, `,"clock":{"started":"2026-12-02T10:00:00+02:00","deadline":"2026-12-02T10:01:00-00:30"},"commitment":`, false},
	{"clock null", `,"commitment":`, `,"clock":null,"commitment":`, false},
	{"time null", `,"commitment":`, `,"clock":{"started":null,"deadline":"2026-12-02T10:01:00Z"},"commitment":`, true},
	{"time with space", `,"commitment":`, `,"clock":{"started":" 2026-12-02T10:00:00Z","deadline":"2026-12-02T10:01:00Z"},"commitment":`, true},
	{"time escaped", `,"commitment":`, `,"clock":{"started":"\u00326-12-02T10:00:00Z","deadline":"2026-12-02T10:01:00Z"},"commitment":`, true},
	{"time invalid", `,"commitment":`, `,"clock":{"started":"2026-13-02T10:00:00Z","deadline":"2026-12-02T10:01:00Z"},"commitment":`, true},
	{"settings not an object", `"settings":{`, `"settings":[{`, true},
	{"settings with space", `"settings":{"game":`, `"settings":{"game": `, true},
	{"true as string", `"ready":true`, `"ready":"true"`, true},
	{"escapes", `"BENCH"`, `"\"\\\/\b\f\n\r\t\u00e9\u2028"`, false},
	{"UTF-8", `"BENCH"`, `"Zoë 李"`, false},
	{"empty deals", `,"you":`, `,"deals":[],"you":`, false},
	{"settings with floats", `"settings":{`, `"settings":{"x":[1.5e-3,-0,null,{}],`, false},
	{"settings deep", `"settings":{`, `"settings":{"x":[[[[[[[[[[1]]]]]]]]]],`, true},
}

type viewMutation struct {
	name, old, new string
	decline        bool
}

func (m viewMutation) apply(tb testing.TB, b string) string {
	if m.old == "" {
		return b + m.new
	}
	if !strings.Contains(b, m.old) {
		tb.Fatalf("%s: no %s in %s", m.name, m.old, b)
	}
	return strings.Replace(b, m.old, m.new, 1)
}

// TestDecodeViewDeclines: decodeView declines views that are not in
// AppendJSON's form, and reads a few that are not but that it can read as
// json.Unmarshal does.
func TestDecodeViewDeclines(t *testing.T) {
	t.Parallel()
	v := benchMatch(t).View(0)
	b := string(v.AppendJSON(nil))
	if !sameAsUnmarshal(t, "as written", []byte(b)) {
		t.Fatal("decodeView declined AppendJSON's view")
	}
	for _, m := range viewMutations {
		mb := []byte(m.apply(t, b))
		if got := sameAsUnmarshal(t, m.name, mb); got == m.decline {
			t.Errorf("%s: decodeView took it %v, want %v:\n%s", m.name, got, !m.decline, mb)
		}
	}
	for i := range len(b) {
		if sameAsUnmarshal(t, "cut", []byte(b[:i])) {
			t.Fatalf("decodeView took the view cut at %d", i)
		}
	}
}

// FuzzDecodeView: whatever decodeView takes, json.Unmarshal takes and reads
// alike (sameAsUnmarshal).
func FuzzDecodeView(f *testing.F) {
	r := benchMatch(f)
	for _, seat := range []int{0, SpectatorSeat} {
		v := r.View(seat)
		b := string(v.AppendJSON(nil))
		f.Add([]byte(b))
		for _, m := range viewMutations {
			if strings.Contains(b, m.old) { // all do in the player's view
				f.Add([]byte(m.apply(f, b)))
			}
		}
	}
	f.Add([]byte("{}"))
	for _, v := range randomViews()[:20] {
		f.Add(v.AppendJSON(nil))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsUnmarshal(t, "fuzzed", b)
	})
}
