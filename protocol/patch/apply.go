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
func Apply(old, p []byte) ([]byte, error) { return apply(nil, old, p, false) }

// ApplyValid is Apply for an old document and a patch that the caller
// knows to be valid JSON: encoding/json has read them, or an earlier
// Apply made the old one (the Go client's case: the patch comes inside a
// frame that encoding/json has read, onto the view its last frame or
// patch gave it). It checks that the patch fits the old document as Apply
// does, but skips over their values without checking their syntax again,
// which is most of Apply's work; on valid JSON it returns what Apply
// returns (FuzzApplyValid).
func ApplyValid(old, p []byte) ([]byte, error) { return apply(nil, old, p, true) }

// AppendValid is ApplyValid writing the new document after dst (which
// must not share memory with old or p): a client that keeps its view
// as bytes reuses the buffer of the view before the last one.
func AppendValid(dst, old, p []byte) ([]byte, error) { return apply(dst, old, p, true) }

func apply(dst, old, p []byte, valid bool) ([]byte, error) {
	o, err := document(old, valid)
	if err != nil {
		return nil, fmt.Errorf("%w: the old document: %v", ErrPatch, err)
	}
	q, err := document(p, valid)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPatch, err)
	}
	var kvs [16]kv
	var elems [16][]byte
	a := &applier{fast: valid, kvs: kvs[:0], elems: elems[:0]}
	if dst == nil {
		dst = make([]byte, 0, len(o)+len(q))
	}
	out, err := a.value(dst, o, q, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPatch, err)
	}
	return out, nil
}

// applier applies a patch; fast walks values without checking their
// syntax (ApplyValid). The members of the patch objects being applied,
// and the elements of the arrays they edit, are held on two stacks, one
// array each for the whole patch rather than one for every object and
// array in it (each call takes what it pushed off again when it
// returns).
type applier struct {
	fast  bool
	kvs   []kv
	elems [][]byte
}

// value appends what patch p makes of o (nil: no old value).
func (a *applier) value(dst, o, p []byte, depth int) ([]byte, error) {
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

// members reads the members of a patch object, refusing a repeated name,
// onto the applier's stack: the caller takes them off again (pop).
func (a *applier) members(p []byte, depth int) ([]kv, error) {
	start := len(a.kvs)
	it := iter{b: p, depth: depth + 1, fast: a.fast}
	it.init()
	for {
		k, v, ok, err := it.next()
		if err != nil {
			a.kvs = a.kvs[:start]
			return nil, err
		}
		if !ok {
			return a.kvs[start:len(a.kvs):len(a.kvs)], nil
		}
		for _, m := range a.kvs[start:] {
			if sameKey(m.key, k) {
				a.kvs = a.kvs[:start]
				return nil, fmt.Errorf("member %s twice", k)
			}
		}
		a.kvs = append(a.kvs, kv{key: k, val: v})
	}
}

// pop takes the members ms that members pushed off the stack.
func (a *applier) pop(ms []kv) { a.kvs = a.kvs[:len(a.kvs)-len(ms)] }

func (a *applier) object(dst, o, p []byte, depth int) ([]byte, error) {
	ms, err := a.members(p, depth)
	if err != nil {
		return dst, err
	}
	defer a.pop(ms)
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

func (a *applier) array(dst, o, p []byte, depth int) ([]byte, error) {
	ms, err := a.members(p, depth)
	if err != nil {
		return dst, err
	}
	defer a.pop(ms)
	start := len(a.elems)
	defer func() { a.elems = a.elems[:start] }()
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
		a.elems = append(a.elems, v)
	}
	elems := a.elems[start:len(a.elems):len(a.elems)]
	// edits are the members that edit an element: their index in idx
	// (the members' own order), -1 for "-" and "+".
	var edits int
	var add []byte
	for i := range ms {
		m := &ms[i]
		m.idx = -1
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
			m.idx = i
			edits++
		}
	}
	for _, m := range ms {
		if m.idx >= len(elems) {
			return dst, fmt.Errorf("index %d of an array of %d", m.idx, len(elems))
		}
	}
	dst = append(dst, '[')
	for i, v := range elems {
		if i > 0 {
			dst = append(dst, ',')
		}
		if e := editOf(ms, i, edits); e != nil {
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

// editOf is the edit of element i among the members ms of an array's
// patch (nil: none); edits is how many of them edit an element. A patch
// names an index once (members refuses a name twice, and count a
// leading zero).
func editOf(ms []kv, i, edits int) []byte {
	if edits == 0 {
		return nil
	}
	for _, m := range ms {
		if m.idx == i {
			return m.val
		}
	}
	return nil
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
