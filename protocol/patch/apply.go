package patch

import (
	"bytes"
	"fmt"
	"strconv"
)

// Apply returns the document the patch p makes of old. An error (wrapping
// ErrPatch) means p is malformed or does not fit old: the client's view
// is not the one the server diffed against, and it should ask for a
// snapshot.
func Apply(old, p []byte) ([]byte, error) { return apply(old, p, false) }

// ApplyValid is Apply for an old document and a patch that the caller
// knows to be valid JSON: encoding/json has read them, or an earlier
// Apply made the old one (the Go client's case: the patch comes inside a
// frame that encoding/json has read, onto the view its last frame or
// patch gave it). It checks that the patch fits the old document as Apply
// does, but skips over their values without checking their syntax again,
// which is most of Apply's work; on valid JSON it returns what Apply
// returns (FuzzApplyValid).
func ApplyValid(old, p []byte) ([]byte, error) { return apply(old, p, true) }

func apply(old, p []byte, valid bool) ([]byte, error) {
	o, err := document(old, valid)
	if err != nil {
		return nil, fmt.Errorf("%w: the old document: %v", ErrPatch, err)
	}
	q, err := document(p, valid)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPatch, err)
	}
	a := applier{fast: valid}
	out, err := a.value(make([]byte, 0, len(o)+len(q)), o, q, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPatch, err)
	}
	return out, nil
}

// applier applies a patch; fast walks values without checking their
// syntax (ApplyValid).
type applier struct{ fast bool }

// value appends what patch p makes of o (nil: no old value).
func (a applier) value(dst, o, p []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, fmt.Errorf("nested too deeply")
	}
	switch p[0] {
	case '{':
		switch {
		case o == nil:
			return dst, fmt.Errorf("an edit of a value that is not there")
		case o[0] == '{':
			return a.object(dst, o, p, depth)
		case o[0] == '[':
			return a.array(dst, o, p, depth)
		}
		return dst, fmt.Errorf("an edit of %.20s, which is neither an object nor an array", o)
	case '[':
		it := iter{b: p, depth: depth + 1, array: true, fast: a.fast}
		it.init()
		_, v, ok, err := it.next()
		if err != nil {
			return dst, err
		}
		if !ok {
			return dst, fmt.Errorf("[] is not a patch (a replacement is [value])")
		}
		if _, _, more, err := it.next(); err != nil || more {
			return dst, fmt.Errorf("a replacement holds exactly one value")
		}
		return append(dst, v...), nil
	case 'n':
		return dst, fmt.Errorf("null only removes an object's member")
	}
	return append(dst, p...), nil
}

// members reads the members of a patch object, refusing a repeated name.
func (a applier) members(p []byte, depth int) ([]kv, error) {
	var ms []kv
	it := iter{b: p, depth: depth + 1, fast: a.fast}
	it.init()
	for {
		k, v, ok, err := it.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return ms, nil
		}
		for _, m := range ms {
			if sameKey(m.key, k) {
				return nil, fmt.Errorf("member %s twice", k)
			}
		}
		ms = append(ms, kv{key: k, val: v})
	}
}

func (a applier) object(dst, o, p []byte, depth int) ([]byte, error) {
	ms, err := a.members(p, depth)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '{')
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	it := iter{b: o, depth: depth + 1, fast: a.fast}
	it.init()
	for {
		k, v, ok, err := it.next()
		if err != nil {
			return dst, err
		}
		if !ok {
			break
		}
		var m *kv
		for i := range ms {
			if !ms[i].used && sameKey(ms[i].key, k) {
				m = &ms[i]
				break
			}
		}
		if m == nil {
			sep()
			dst = append(dst, k...)
			dst = append(dst, ':')
			dst = append(dst, v...)
			continue
		}
		m.used = true
		if m.val[0] == 'n' {
			continue // removed
		}
		sep()
		dst = append(dst, k...)
		dst = append(dst, ':')
		if dst, err = a.value(dst, v, m.val, depth+1); err != nil {
			return dst, err
		}
	}
	for _, m := range ms {
		if m.used {
			continue
		}
		if m.val[0] == 'n' {
			return dst, fmt.Errorf("removes member %s, which is not there", m.key)
		}
		sep()
		dst = append(dst, m.key...)
		dst = append(dst, ':')
		if dst, err = a.value(dst, nil, m.val, depth+1); err != nil {
			return dst, fmt.Errorf("member %s: %w", m.key, err)
		}
	}
	return append(dst, '}'), nil
}

func (a applier) array(dst, o, p []byte, depth int) ([]byte, error) {
	ms, err := a.members(p, depth)
	if err != nil {
		return dst, err
	}
	var elems [][]byte
	it := iter{b: o, depth: depth + 1, array: true, fast: a.fast}
	it.init()
	for {
		_, v, ok, err := it.next()
		if err != nil {
			return dst, err
		}
		if !ok {
			break
		}
		elems = append(elems, v)
	}
	var edits map[int][]byte
	var add []byte
	for _, m := range ms {
		name := unquote(m.key)
		switch {
		case name == "-":
			n, err := count(m.val)
			if err != nil || n > len(elems) {
				return dst, fmt.Errorf(`"-" must be a whole number up to the array's length (%d), not %.20s`, len(elems), m.val)
			}
			elems = elems[:len(elems)-n]
		case name == "+":
			if m.val[0] != '[' {
				return dst, fmt.Errorf(`"+" must be an array of the elements to append`)
			}
			add = m.val
		default:
			i, err := count([]byte(name))
			if err != nil {
				return dst, fmt.Errorf("an array edit has only \"-\", \"+\" and indexes, not %s", m.key)
			}
			if edits == nil {
				edits = map[int][]byte{}
			}
			edits[i] = m.val
		}
	}
	for i := range edits {
		if i >= len(elems) {
			return dst, fmt.Errorf("index %d of an array of %d", i, len(elems))
		}
	}
	dst = append(dst, '[')
	for i, v := range elems {
		if i > 0 {
			dst = append(dst, ',')
		}
		if e, ok := edits[i]; ok {
			if dst, err = a.value(dst, v, e, depth+1); err != nil {
				return dst, fmt.Errorf("index %d: %w", i, err)
			}
			continue
		}
		dst = append(dst, v...)
	}
	if add != nil {
		ai := iter{b: add, depth: depth + 1, array: true, fast: a.fast}
		ai.init()
		n := len(elems)
		for {
			_, v, ok, err := ai.next()
			if err != nil {
				return dst, err
			}
			if !ok {
				break
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, v...)
			n++
		}
	}
	return append(dst, ']'), nil
}

// count reads a whole number written without sign, fraction, exponent or
// leading zeros.
func count(b []byte) (int, error) {
	if len(b) == 0 || len(b) > 9 || (b[0] == '0' && len(b) > 1) {
		return 0, fmt.Errorf("not a count")
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not a count")
		}
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	return n, err
}
