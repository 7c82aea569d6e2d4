package patch_test

import (
	"bytes"
	"testing"

	"golfsolitaire/protocol/patch"
)

// TestArrayEditBounds settles what docs/protocol.md says of an array
// edit's "-" and "+": "-" is a whole number from 0 to the array's length
// (0 drops nothing), "+" an array, possibly empty (appends nothing); a
// client accepts all of them, though the server never writes "-": 0 or
// "+": [] (TestDiffNeverWritesEmptyEdits).
func TestArrayEditBounds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ old, patch, want string }{
		{`[1,2,3]`, `{"-":0}`, `[1,2,3]`},
		{`[1,2,3]`, `{"-":3}`, `[]`},
		{`[1,2,3]`, `{"+":[]}`, `[1,2,3]`},
		{`[]`, `{"-":0,"+":[]}`, `[]`},
		{`[1,2,3]`, `{"+":[],"-":2,"0":[9]}`, `[9]`},
	} {
		got, err := patch.Apply([]byte(tt.old), []byte(tt.patch))
		if err != nil || string(got) != tt.want {
			t.Errorf("Apply(%s, %s) = %s, %v; want %s", tt.old, tt.patch, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ old, patch string }{
		{`[1,2,3]`, `{"-":4}`},
		{`[]`, `{"-":1}`},
		{`[1,2,3]`, `{"-":-1}`},
		{`[1,2,3]`, `{"-":1.5}`},
		{`[1,2,3]`, `{"-":"1"}`},
		{`[1,2,3]`, `{"-":01}`},
		{`[1,2,3]`, `{"+":4}`},
		{`[1,2,3]`, `{"+":{}}`},
	} {
		if got, err := patch.Apply([]byte(tt.old), []byte(tt.patch)); err == nil {
			t.Errorf("Apply(%s, %s) = %s, want an error", tt.old, tt.patch, got)
		}
	}
}

// TestDiffNeverWritesEmptyEdits: the server's patches drop at least one
// element and append at least one, or say nothing of either.
func TestDiffNeverWritesEmptyEdits(t *testing.T) {
	t.Parallel()
	pairs := [][2]string{
		{`[1,2,3]`, `[1,2,3]`}, {`[1,2,3]`, `[1,2]`}, {`[1]`, `[1,2]`}, {`[]`, `[]`},
		{`{"a":[[1,2],[3]]}`, `{"a":[[1,2],[3,4]]}`}, {`{"a":[1,2,3,4,5,6,7,8]}`, `{"a":[1,2,3,4,5,6,7]}`},
	}
	for _, tt := range diffTests {
		pairs = append(pairs, [2]string{tt.old, tt.new})
	}
	for _, p := range pairs {
		d, err := patch.Diff([]byte(p[0]), []byte(p[1]))
		if err != nil {
			t.Fatalf("Diff(%s, %s): %v", p[0], p[1], err)
		}
		if bytes.Contains(d, []byte(`"-":0`)) || bytes.Contains(d, []byte(`"+":[]`)) {
			t.Errorf("Diff(%s, %s) = %s: an empty drop or append", p[0], p[1], d)
		}
	}
}
