package patch

import (
	"bytes"
	"strconv"
)

// Value is an encoded JSON value held so that documents can share it: two
// documents holding the same *Value hold the same bytes, and Differ knows
// them equal without comparing. A Value with Elems is an array of them
// (its bytes are the elements joined by commas in brackets, built only
// when asked for).
type Value struct {
	json  []byte
	elems []*Value
	size  int
}

// Raw returns a value of the encoded bytes b (valid JSON without spaces
// around it, as encoding/json writes it). b must not change afterwards.
func Raw(b []byte) *Value { return &Value{json: b, size: len(b)} }

// Array returns the array value of the elements.
func Array(elems []*Value) *Value {
	v := &Value{elems: elems, size: 2}
	for i, e := range elems {
		if i > 0 {
			v.size++
		}
		v.size += e.size
	}
	return v
}

// Len is the length of the value's encoding.
func (v *Value) Len() int { return v.size }

// AppendJSON appends the value's encoding.
func (v *Value) AppendJSON(b []byte) []byte {
	if v.elems == nil {
		return append(b, v.json...)
	}
	b = append(b, '[')
	for i, e := range v.elems {
		if i > 0 {
			b = append(b, ',')
		}
		b = e.AppendJSON(b)
	}
	return append(b, ']')
}

// Is reports whether the value's encoding is b.
func (v *Value) Is(b []byte) bool { return v.size == len(b) && bytes.Equal(v.bytes(), b) }

// bytes is the value's encoding, built once for an array.
func (v *Value) bytes() []byte {
	if v.json == nil {
		v.json = v.AppendJSON(make([]byte, 0, v.size))
	}
	return v.json
}

// Member is a member of a Doc: Key is the member's name as encoded, with
// its quotes ("v"), Val its value.
type Member struct {
	Key string
	Val *Value
}

// Doc is a JSON object held as its members, in order, their names unique.
type Doc []Member

// AppendJSON appends the document's encoding.
func (d Doc) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, m := range d {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m.Key...)
		b = append(b, ':')
		b = m.Val.AppendJSON(b)
	}
	return append(b, '}')
}

// Len is the length of the document's encoding.
func (d Doc) Len() int {
	n := 2
	for i, m := range d {
		if i > 0 {
			n++
		}
		n += len(m.Key) + 1 + m.Val.size
	}
	return n
}

// Differ computes the patches between Docs, remembering the patch between
// each pair of Values it has compared, so that documents sharing their
// values (the views of one event for many viewers) are compared once. Its
// patches are Diff's, byte for byte. A Differ is for one goroutine; drop
// or Reset it when its Values are no longer shared (after an event's
// fan-out).
type Differ struct {
	memo map[[2]*Value][]byte
	// arena's spare capacity is where the next patch of two encodings
	// is written (the memo keeps the patches before it); first is its
	// first array, where Reset starts again.
	arena, first []byte
}

// arenaChunk is the size of an arena's array, and arenaMin the room
// below which a patch starts a new one.
const (
	arenaChunk = 8 << 10
	arenaMin   = 512
)

// room is the arena's spare capacity, as an empty slice.
func (d *Differ) room() []byte {
	if cap(d.arena)-len(d.arena) < arenaMin {
		d.arena = make([]byte, 0, arenaChunk)
		if d.first == nil {
			d.first = d.arena
		}
	}
	return d.arena[len(d.arena):]
}

// Reset forgets the pairs compared (and lets their Values go), keeping
// the memo's and the arena's room for the next event: the patches it
// returned before must no longer be used.
func (d *Differ) Reset() {
	clear(d.memo)
	d.arena = d.first[:0]
}

// unchanged is the memo's mark of two equal values.
var unchanged = []byte{}

// AppendDiff appends the patch from old to new: Diff(old's encoding,
// new's encoding).
func (d *Differ) AppendDiff(dst []byte, old, new Doc) ([]byte, error) {
	start := len(dst)
	dst = append(dst, '{')
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	var usedBuf [32]bool
	var used []bool
	if len(old) <= len(usedBuf) {
		used = usedBuf[:len(old)]
	} else {
		used = make([]bool, len(old))
	}
	next := 0
	for _, m := range new {
		j := -1
		for k := range old {
			i := (next + k) % len(old)
			if !used[i] && old[i].Key == m.Key {
				j = i
				break
			}
		}
		if j < 0 {
			sep()
			dst = append(dst, m.Key...)
			dst = append(dst, ':')
			dst = replaceValue(dst, m.Val)
			continue
		}
		used[j], next = true, j+1
		p, err := d.diff(old[j].Val, m.Val, 1)
		if err != nil {
			return dst[:start], err
		}
		if len(p) == 0 {
			continue
		}
		sep()
		dst = append(dst, m.Key...)
		dst = append(dst, ':')
		dst = append(dst, p...)
	}
	for i, m := range old {
		if !used[i] {
			sep()
			dst = append(dst, m.Key...)
			dst = append(dst, ":null"...)
		}
	}
	dst = append(dst, '}')
	if n := new.Len(); len(dst)-start > n+2 {
		dst = append(dst[:start], '[')
		dst = new.AppendJSON(dst)
		dst = append(dst, ']')
	}
	return dst, nil
}

// replaceValue appends the patch that sets v whatever was there.
func replaceValue(dst []byte, v *Value) []byte {
	if v.elems != nil {
		dst = append(dst, '[')
		dst = v.AppendJSON(dst)
		return append(dst, ']')
	}
	return replace(dst, v.json)
}

// diff is the patch from o to n at depth, empty when they are equal.
func (d *Differ) diff(o, n *Value, depth int) ([]byte, error) {
	if o == n {
		return unchanged, nil
	}
	key := [2]*Value{o, n}
	if p, ok := d.memo[key]; ok {
		return p, nil
	}
	var p []byte
	var err error
	switch {
	case o.elems != nil && n.elems != nil:
		p, err = d.diffElems(o, n, depth)
	case o.size == n.size && bytes.Equal(o.bytes(), n.bytes()):
		p = unchanged
	default:
		// Into the arena: p's spare capacity (the arena's, or a new
		// array's if p outgrew it) is where the next patch goes.
		p, err = diffValue(d.room(), o.bytes(), n.bytes(), depth)
		d.arena, p = p, p[:len(p):len(p)]
	}
	if err != nil {
		return nil, err
	}
	if d.memo == nil {
		d.memo = map[[2]*Value][]byte{}
	}
	d.memo[key] = p
	return p, nil
}

// diffElems is diffArray (with diffValue's choice of the shorter) for two
// arrays of Values, unchanged when they are equal.
func (d *Differ) diffElems(o, n *Value, depth int) ([]byte, error) {
	dst := []byte{'{'}
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	common := min(len(o.elems), len(n.elems))
	for i := range common {
		p, err := d.diff(o.elems[i], n.elems[i], depth+1)
		if err != nil {
			return nil, err
		}
		if len(p) == 0 {
			continue
		}
		sep()
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, `":`...)
		dst = append(dst, p...)
	}
	switch {
	case len(o.elems) > common:
		sep()
		dst = append(dst, `"-":`...)
		dst = strconv.AppendInt(dst, int64(len(o.elems)-common), 10)
	case len(n.elems) > common:
		sep()
		dst = append(dst, `"+":[`...)
		for i, e := range n.elems[common:] {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.AppendJSON(dst)
		}
		dst = append(dst, ']')
	}
	if first {
		return unchanged, nil
	}
	dst = append(dst, '}')
	if len(dst) > n.size+2 {
		dst = replaceValue(dst[:0], n)
	}
	return dst, nil
}
