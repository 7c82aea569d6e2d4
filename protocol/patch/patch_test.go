package patch_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol/patch"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// diffTests are old, new and the patch Diff must give.
var diffTests = []struct{ old, new, patch string }{
	{`{"a":1}`, `{"a":1}`, `{}`},
	{`{"a":1,"b":"x"}`, `{"a":2,"b":"x"}`, `{"a":2}`},
	{`{"a":1}`, `{"a":1,"b":true}`, `{"b":true}`},
	{`{"a":1,"long":"xxxxxxxx","b":true}`, `{"a":1,"long":"xxxxxxxx"}`, `{"b":null}`},
	{`{"a":1,"b":true}`, `{"a":1}`, `[{"a":1}]`}, // the whole value is shorter
	{`{"a":1}`, `{"a":null}`, `{"a":[null]}`},
	{`{"a":null}`, `{"a":1}`, `{"a":1}`},
	{`{"a":1}`, `{"a":{"x":1}}`, `{"a":[{"x":1}]}`},
	{`{"a":{"x":1,"y":2,"z":3}}`, `{"a":{"x":1,"y":5,"z":3}}`, `{"a":{"y":5}}`},
	{`{"w":["AC","2D"]}`, `{"w":["AC","2D","3H"]}`, `{"w":{"+":["3H"]}}`},
	{`{"w":["AC","2D","3H"]}`, `{"w":[]}`, `{"w":[[]]}`},
	{`{"p":[["AC","2D","3H","4S"],["5C"]]}`, `{"p":[["AC","2D","3H"],["5C"]]}`, `{"p":{"0":{"-":1}}}`},
	{`{"p":["alpha","beta","gamma"]}`, `{"p":["alpha","delta","gamma","eps"]}`, `{"p":{"1":"delta","+":["eps"]}}`},
	{`{"p":[1,2,3,4,5,6,7,8]}`, `{"p":[2,3,4,5,6,7,8]}`, `{"p":[[2,3,4,5,6,7,8]]}`},
	{`{"b":"x","a":1}`, `{"a":2,"b":"x"}`, `{"a":2}`},
	{`[1,2]`, `{"a":1}`, `[{"a":1}]`},
	{`"x"`, `"y"`, `"y"`},
	{`{"a\u0062":1}`, `{"ab":2}`, `{"ab":2}`},
	{`{"s":[null,1]}`, `{"s":[null,1,null]}`, `{"s":{"+":[null]}}`},
	{`{"s":[1,null]}`, `{"s":[1,2]}`, `{"s":{"1":2}}`},
}

func TestDiff(t *testing.T) {
	for _, tt := range diffTests {
		got, err := patch.Diff([]byte(tt.old), []byte(tt.new))
		if err != nil {
			t.Errorf("Diff(%s, %s): %v", tt.old, tt.new, err)
			continue
		}
		if string(got) != tt.patch {
			t.Errorf("Diff(%s, %s) = %s, want %s", tt.old, tt.new, got, tt.patch)
		}
		applied, err := patch.Apply([]byte(tt.old), got)
		if err != nil {
			t.Errorf("Apply(%s, %s): %v", tt.old, got, err)
			continue
		}
		if !sameJSON(t, applied, []byte(tt.new)) {
			t.Errorf("Apply(%s, %s) = %s, want %s", tt.old, got, applied, tt.new)
		}
	}
}

// badPatches do not fit their old document.
var badPatches = []struct{ old, patch, why string }{
	{`{"a":1}`, `null`, "null only removes"},
	{`{"a":1}`, `{"b":null}`, "not there"},
	{`{"a":1}`, `{"a":{"x":1}}`, "neither an object nor an array"},
	{`{"a":1}`, `{"b":{"x":1}}`, "not there"},
	{`[1,2]`, `{"2":5}`, "index 2 of an array of 2"},
	{`[1,2]`, `{"-":3}`, `"-" must be`},
	{`[1,2]`, `{"-":1,"1":5}`, "index 1 of an array of 1"},
	{`[1,2]`, `{"01":5}`, "only"},
	{`[1,2]`, `{"x":5}`, "only"},
	{`[1,2]`, `{"+":5}`, `"+" must be`},
	{`{"a":1}`, `[]`, "[] is not a patch"},
	{`{"a":1}`, `[1,2]`, "exactly one"},
	{`{"a":1}`, `{"a":2,"a":3}`, "twice"},
	{`{"a":1}`, `{"a":2`, "not valid JSON"},
	{`{"a":1}`, `{"a":2} x`, "after the value"},
	{`{"a":1}`, ``, "missing"},
}

func TestApplyRefuses(t *testing.T) {
	for _, tt := range badPatches {
		got, err := patch.Apply([]byte(tt.old), []byte(tt.patch))
		if err == nil {
			t.Errorf("Apply(%s, %s) = %s, want an error", tt.old, tt.patch, got)
			continue
		}
		if !errors.Is(err, patch.ErrPatch) || !bytes.Contains([]byte(err.Error()), []byte(tt.why)) {
			t.Errorf("Apply(%s, %s): %v, want ErrPatch saying %q", tt.old, tt.patch, err, tt.why)
		}
	}
}

// TestApplyValid: on valid JSON, ApplyValid returns what Apply returns:
// every patch of the played views and of diffTests, and a refusal of
// every bad patch that is valid JSON (with the same words). AppendValid
// writes the same bytes after what its buffer holds, in the buffer when
// it has room (a client reusing the buffer of an earlier view).
func TestApplyValid(t *testing.T) {
	type pair struct{ old, patch []byte }
	var pairs []pair
	for _, tt := range diffTests {
		pairs = append(pairs, pair{[]byte(tt.old), []byte(tt.patch)})
	}
	for _, seats := range []int{1, 2} {
		for _, views := range playViews(t, seats, 40) {
			for i := 1; i < len(views); i++ {
				p, err := patch.Diff(views[i-1], views[i])
				if err != nil {
					t.Fatal(err)
				}
				pairs = append(pairs, pair{views[i-1], p})
				// A patch onto a view it was not made for: both must
				// refuse it, or both make the same document.
				pairs = append(pairs, pair{views[0], p})
			}
		}
	}
	refused := 0
	for _, tt := range badPatches {
		if json.Valid([]byte(tt.old)) && json.Valid([]byte(tt.patch)) {
			pairs = append(pairs, pair{[]byte(tt.old), []byte(tt.patch)})
			refused++
		}
	}
	if refused < 5 {
		t.Fatalf("only %d bad patches are valid JSON", refused)
	}
	for _, pr := range pairs {
		want, werr := patch.Apply(pr.old, pr.patch)
		got, gerr := patch.ApplyValid(pr.old, pr.patch)
		switch {
		case (werr == nil) != (gerr == nil):
			t.Errorf("Apply(%.60s, %.60s): %v; ApplyValid: %v", pr.old, pr.patch, werr, gerr)
		case werr != nil && werr.Error() != gerr.Error():
			t.Errorf("Apply(%.60s, %.60s) refuses %q, ApplyValid %q", pr.old, pr.patch, werr, gerr)
		case !bytes.Equal(got, want):
			t.Errorf("Apply(%.60s, %.60s) = %s, ApplyValid %s", pr.old, pr.patch, want, got)
		}
		buf := make([]byte, 3, 3+len(want))
		copy(buf, "ab,")
		appended, aerr := patch.AppendValid(buf, pr.old, pr.patch)
		switch {
		case (aerr == nil) != (gerr == nil) || aerr != nil && aerr.Error() != gerr.Error():
			t.Errorf("ApplyValid(%.60s, %.60s): %v; AppendValid: %v", pr.old, pr.patch, gerr, aerr)
		case aerr == nil && string(appended) != "ab,"+string(want):
			t.Errorf("AppendValid(\"ab,\", %.60s, %.60s) = %s, want ab,%s", pr.old, pr.patch, appended, want)
		case aerr == nil && &appended[0] != &buf[0]:
			t.Errorf("AppendValid(%.60s, %.60s) did not write into a buffer with room", pr.old, pr.patch)
		}
	}
}

// TestViewsGolden plays a two-seat match and a solo room, diffs each
// viewer's consecutive views (both players and a spectator), checks
// every patch applies, and compares the patches with the golden files.
func TestViewsGolden(t *testing.T) {
	for _, seats := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d seats", seats), func(t *testing.T) {
			frames := playViews(t, seats, 24)
			var out bytes.Buffer
			var sizes, fulls int
			for viewer, views := range frames {
				for i := 1; i < len(views); i++ {
					p, err := patch.Diff(views[i-1], views[i])
					if err != nil {
						t.Fatal(err)
					}
					got, err := patch.Apply(views[i-1], p)
					if err != nil {
						t.Fatalf("viewer %d step %d: %v\npatch %s", viewer, i, err, p)
					}
					if !sameJSON(t, got, views[i]) {
						t.Fatalf("viewer %d step %d: patched view differs\n got %s\nwant %s", viewer, i, got, views[i])
					}
					sizes += len(p)
					fulls += len(views[i])
					fmt.Fprintf(&out, "viewer %d v%d: %s\n", viewer, i, p)
				}
			}
			t.Logf("patches %d bytes, views %d bytes (%.2f)", sizes, fulls, float64(sizes)/float64(fulls))
			golden := filepath.Join("testdata", fmt.Sprintf("views-%d.golden", seats))
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("patches differ from %s (run with -update if the change is meant):\n%s", golden, out.Bytes())
			}
		})
	}
}

// playViews plays moves (the first legal one of each seat in turn) in a
// room of seats seats on numbered deal 7, and returns the encoded views of
// every viewer (seat 0.., then a spectator) after every event.
func playViews(t *testing.T, seats, moves int) [][][]byte {
	t.Helper()
	set := match.DefaultSettings()
	set.Seats, set.Holes = seats, 2
	if seats == 1 {
		set.Format = match.Stroke
	}
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	room, err := match.NewRoom(match.Event{Kind: match.KindCreate, At: at, Code: "PAT-CHG-LD0", Settings: &set})
	if err != nil {
		t.Fatal(err)
	}
	out := make([][][]byte, seats+1)
	snap := func() {
		for i := range out {
			seat := i
			if i == seats {
				seat = match.SpectatorSeat
			}
			b, err := json.Marshal(room.View(seat))
			if err != nil {
				t.Fatal(err)
			}
			out[i] = append(out[i], b)
		}
	}
	apply := func(ev match.Event) {
		t.Helper()
		ev.At = at
		at = at.Add(time.Second)
		if _, err := room.Apply(ev); err != nil {
			t.Fatalf("%+v: %v", ev, err)
		}
		snap()
	}
	seed := golf.NumberedSeed(7)
	for i := range seats {
		apply(match.Event{Kind: match.KindJoin, Name: fmt.Sprintf("p%d", i), Token: fmt.Sprintf("%064x", i+1)})
	}
	for i := range seats {
		apply(match.Event{Kind: match.KindReady, Seat: i, Ready: true, Seed: &seed})
	}
	for k := 0; k < moves && room.Status == match.Playing; k++ {
		seat := k % seats
		b := room.View(seat).Board
		if b == nil || b.Done {
			continue
		}
		mv := golf.Move{Action: golf.Turn}
		switch {
		case len(b.Playable) > 0:
			mv = golf.PlayPile(b.Playable[0])
		case b.CanTurn:
		case b.CanRedeal:
			mv = golf.Move{Action: golf.Redeal}
		default:
			apply(match.Event{Kind: match.KindStand, Seat: seat, Hole: b.Hole})
			continue
		}
		apply(match.Event{Kind: match.KindMove, Seat: seat, Hole: b.Hole, Move: mv})
	}
	return out
}

// sameJSON compares two documents by value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// canonical re-encodes a JSON document (sorted members, no space), or
// returns nil when it is not one JSON value.
func canonical(b []byte) []byte {
	var x any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if d.Decode(&x) != nil || d.More() {
		return nil
	}
	out, err := json.Marshal(x)
	if err != nil {
		return nil
	}
	return out
}

// FuzzRoundTrip: for any two JSON documents, Apply(old, Diff(old, new))
// is new, and the patch is at most two bytes longer than new; Diff of
// anything else returns (an error, or a patch) without panicking.
func FuzzRoundTrip(f *testing.F) {
	for _, tt := range diffTests {
		f.Add([]byte(tt.old), []byte(tt.new))
	}
	f.Add([]byte(`{"a":[1,[2,3],{"b":[4]}]}`), []byte(`{"a":[1,[2],{"b":[4,5]},6],"c":null}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		patch.Diff(a, b) // whatever the input: no panic
		old, new := canonical(a), canonical(b)
		if old == nil || new == nil {
			return
		}
		p, err := patch.Diff(old, new)
		if err != nil {
			if bytes.Contains([]byte(err.Error()), []byte("nested too deeply")) {
				return
			}
			t.Fatalf("Diff(%s, %s): %v", old, new, err)
		}
		if len(p) > len(new)+2 {
			t.Errorf("Diff(%s, %s) = %s: longer than the new document", old, new, p)
		}
		got, err := patch.Apply(old, p)
		if err != nil {
			t.Fatalf("Apply(%s, %s): %v", old, p, err)
		}
		if c := canonical(got); !bytes.Equal(c, new) {
			t.Fatalf("Apply(%s, Diff(.., %s) = %s) = %s", old, new, p, got)
		}
	})
}

// addPatchSeeds gives a fuzz target of (old, patch) every pair of
// diffTests and badPatches.
func addPatchSeeds(f *testing.F) {
	for _, tt := range diffTests {
		f.Add([]byte(tt.old), []byte(tt.patch))
	}
	for _, tt := range badPatches {
		f.Add([]byte(tt.old), []byte(tt.patch))
	}
}

// FuzzApply: Apply never panics, and what it returns is valid JSON.
func FuzzApply(f *testing.F) {
	addPatchSeeds(f)
	f.Fuzz(func(t *testing.T, old, p []byte) {
		got, err := patch.Apply(old, p)
		if err != nil {
			return
		}
		if !json.Valid(got) {
			t.Fatalf("Apply(%q, %q) = %q: not valid JSON", old, p, got)
		}
		if !json.Valid(old) {
			t.Fatalf("Apply took an old document that is not JSON: %q", old)
		}
	})
}

// FuzzApplyValid: on an old document and a patch that are valid JSON,
// ApplyValid agrees with Apply: both refuse, or both return the same
// bytes.
func FuzzApplyValid(f *testing.F) {
	addPatchSeeds(f)
	f.Fuzz(func(t *testing.T, old, p []byte) {
		if !json.Valid(old) || !json.Valid(p) {
			return
		}
		want, werr := patch.Apply(old, p)
		got, gerr := patch.ApplyValid(old, p)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("Apply(%q, %q) = %q, %v; ApplyValid: %q, %v", old, p, want, werr, got, gerr)
		}
	})
}

// BenchmarkDiffView diffs consecutive views of a played two-seat match.
func BenchmarkDiffView(b *testing.B) {
	t := &testing.T{}
	frames := playViews(t, 2, 24)[1]
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := 1 + i%(len(frames)-1)
		if _, err := patch.Diff(frames[k-1], frames[k]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyView applies the patches of consecutive views, with
// Apply, with ApplyValid, and with AppendValid into one reused buffer
// (the Go client's way).
func BenchmarkApplyView(b *testing.B) {
	t := &testing.T{}
	frames := playViews(t, 2, 24)[1]
	var patches [][]byte
	for k := 1; k < len(frames); k++ {
		p, _ := patch.Diff(frames[k-1], frames[k])
		patches = append(patches, p)
	}
	for _, fn := range []struct {
		name  string
		apply func(old, p []byte) ([]byte, error)
	}{{"checked", patch.Apply}, {"valid", patch.ApplyValid}, {"append", func() func(old, p []byte) ([]byte, error) {
		var buf []byte
		return func(old, p []byte) (b []byte, err error) {
			b, err = patch.AppendValid(buf[:0], old, p)
			buf = b
			return b, err
		}
	}()}} {
		b.Run(fn.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				k := i % len(patches)
				if _, err := fn.apply(frames[k], patches[k]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestApplyAllocs: applying a patch of a played view into a reused
// buffer allocates the applier's two stacks, and once more where an
// edited array (a long waste) has more than 16 elements: each object and
// array of the patch takes what it pushed on them off again (without
// that, 4 allocations).
func TestApplyAllocs(t *testing.T) {
	views := playViews(t, 2, 40)[1]
	var buf []byte
	for k := 1; k < len(views); k++ {
		p, err := patch.Diff(views[k-1], views[k])
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(10, func() {
			if buf, err = patch.AppendValid(buf[:0], views[k-1], p); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 3 {
			t.Errorf("applying %s took %.0f allocations into a reused buffer, want at most 3", p, allocs)
		}
	}
}
