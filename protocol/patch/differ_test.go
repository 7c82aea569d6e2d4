package patch_test

import (
	"strings"
	"testing"

	"golfsolitaire/protocol/patch"
)

// TestDifferReset: one Differ over many events, Reset between them (as a
// server's fan-out reuses it), gives Diff's bytes for every pair. Each
// event's documents have every diffTests object pair as a member, padded
// so that the patches fill the arena's arrays several times over; the
// third event compares the first's documents again (the same Values),
// after the second's patches were written where the first's were.
func TestDifferReset(t *testing.T) {
	t.Parallel()
	type event struct {
		old, new patch.Doc
		want     []byte
	}
	build := func(n int) event {
		var ev event
		var oldJSON, newJSON []string
		for i, tt := range diffTests {
			if tt.old[0] != '{' || tt.new[0] != '{' || tt.old == `{}` || tt.new == `{}` {
				continue
			}
			// Keys are written as they are: quoted.
			key := `"` + string(rune('a'+i)) + `"`
			pad := strings.Repeat("x", 50*n+30*i)
			o := tt.old[:len(tt.old)-1] + `,"pad":"` + pad + `"}`
			nw := tt.new[:len(tt.new)-1] + `,"pad":"` + pad + `y"}`
			ev.old = append(ev.old, patch.Member{Key: key, Val: patch.Raw([]byte(o))})
			ev.new = append(ev.new, patch.Member{Key: key, Val: patch.Raw([]byte(nw))})
			oldJSON = append(oldJSON, key+`:`+o)
			newJSON = append(newJSON, key+`:`+nw)
		}
		var err error
		ev.want, err = patch.Diff([]byte("{"+strings.Join(oldJSON, ",")+"}"), []byte("{"+strings.Join(newJSON, ",")+"}"))
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	first := build(0)
	var d patch.Differ
	for i, ev := range []event{first, build(1), first} {
		// Twice in an event: the second from the memo, whose patches
		// must be as written.
		for try := range 2 {
			got, err := d.AppendDiff(nil, ev.old, ev.new)
			if err != nil || string(got) != string(ev.want) {
				t.Fatalf("event %d, try %d: %s, %v\nwant %s", i, try, got, err, ev.want)
			}
		}
		d.Reset()
	}
}
