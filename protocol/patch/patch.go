// Package patch computes and applies the patches of the wire protocol: a
// patch is a JSON value that turns one JSON document (the view a client
// was sent last) into another (its view now). docs/protocol.md ("View
// patches") defines the format; in short, read a patch by its type:
//
//   - a string, number, true or false: the new value is that value;
//   - [x], an array of exactly one element: the new value is x, whatever
//     it is (how a whole object, array or null is set);
//   - an object: an edit of the old value, which must be an object (each
//     member of the patch names a member: null removes it, anything else
//     is a patch of its value) or an array ("-": n drops the last n
//     elements, then "i": patch edits element i, then "+": [x, ...]
//     appends).
//
// Both functions work on the encoded bytes, without decoding values into
// Go types: the server diffs each connection's view against the one it
// sent last, so Diff must be cheap. Documents must not repeat a member
// name within an object (encoding/json never does).
package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// maxDepth bounds nesting, so a hostile document cannot exhaust the stack.
const maxDepth = 256

// ErrPatch is wrapped by every error of Apply: the patch is malformed or
// does not fit the old value (the client's view is not the server's).
var ErrPatch = errors.New("patch: does not apply")

// errSyntax is a document that is not JSON.
var errSyntax = errors.New("patch: not valid JSON")

// Diff returns a patch that turns old into new (two JSON documents).
func Diff(old, new []byte) ([]byte, error) {
	return AppendDiff(nil, old, new)
}

// AppendDiff appends to dst a patch that turns old into new (valid JSON,
// as encoding/json writes it: for speed, only the parts that differ are
// checked closely). Where an
// object or array changed, it writes the shorter of an edit and the whole
// new value, so a patch is at most two bytes longer than new. Two equal
// objects (or arrays) give the empty edit {}.
func AppendDiff(dst, old, new []byte) ([]byte, error) {
	o, err := document(old, true)
	if err != nil {
		return dst, err
	}
	n, err := document(new, true)
	if err != nil {
		return dst, err
	}
	if bytes.Equal(o, n) {
		if o[0] == '{' || o[0] == '[' {
			return append(dst, "{}"...), nil
		}
		return replace(dst, n), nil
	}
	return diffValue(dst, o, n, 0)
}

// document returns the one value b holds, without surrounding space;
// fast skips over the value without checking it closely.
func document(b []byte, fast bool) ([]byte, error) {
	i := skipSpace(b, 0)
	if fast {
		// Trim only: the walk reads what it compares.
		v := bytes.TrimRight(b[i:], " \t\r\n")
		if len(v) == 0 {
			return nil, fmt.Errorf("%w: a value is missing", errSyntax)
		}
		if (v[0] == '{' && v[len(v)-1] != '}') || (v[0] == '[' && v[len(v)-1] != ']') {
			return nil, fmt.Errorf("%w: unterminated %c", errSyntax, v[0])
		}
		return v, nil
	}
	end, err := valueEnd(b, i, 0)
	if err != nil {
		return nil, err
	}
	if skipSpace(b, end) != len(b) {
		return nil, fmt.Errorf("%w: data after the value", errSyntax)
	}
	return b[i:end], nil
}

// diffValue appends the patch from o to n (both single values, different).
func diffValue(dst, o, n []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, fmt.Errorf("%w: nested too deeply", errSyntax)
	}
	start := len(dst)
	var err error
	switch {
	case o[0] == '{' && n[0] == '{':
		dst, err = diffObject(dst, o, n, depth)
	case o[0] == '[' && n[0] == '[':
		dst, err = diffArray(dst, o, n, depth)
	default:
		return replace(dst, n), nil
	}
	if err != nil {
		return dst, err
	}
	if len(dst)-start > len(n)+2 {
		dst = replace(dst[:start], n)
	}
	return dst, nil
}

// replace appends the patch that sets n whatever was there.
func replace(dst, n []byte) []byte {
	switch n[0] {
	case '{', '[', 'n':
		dst = append(dst, '[')
		dst = append(dst, n...)
		return append(dst, ']')
	}
	return append(dst, n...)
}

// kv is a member of an object (of a view or a patch), its name quoted;
// used marks one already matched; idx is the element an array's patch
// member edits (-1: none).
type kv struct {
	key, val []byte
	used     bool
	idx      int
}

func diffObject(dst, o, n []byte, depth int) ([]byte, error) {
	// The old members, read once; an object of a view has a few dozen.
	var buf [48]kv
	olds := buf[:0]
	oi := iter{b: o, depth: depth + 1, fast: true}
	oi.init()
	for {
		k, v, ok, err := oi.next()
		if err != nil {
			return dst, err
		}
		if !ok {
			break
		}
		olds = append(olds, kv{key: k, val: v})
	}
	dst = append(dst, '{')
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	ni := iter{b: n, depth: depth + 1, fast: true}
	ni.init()
	next := 0 // members usually come in the same order: look there first
	for {
		key, val, ok, err := ni.next()
		if err != nil {
			return dst, err
		}
		if !ok {
			break
		}
		j := -1
		for d := range olds {
			i := (next + d) % len(olds)
			if !olds[i].used && sameKey(olds[i].key, key) {
				j = i
				break
			}
		}
		sep()
		dst = append(dst, key...)
		dst = append(dst, ':')
		if j < 0 {
			dst = replace(dst, val)
			continue
		}
		olds[j].used, next = true, j+1
		if bytes.Equal(olds[j].val, val) {
			// Unchanged: take back the name just written.
			dst = dst[:len(dst)-len(key)-1]
			if dst[len(dst)-1] == ',' {
				dst = dst[:len(dst)-1]
			} else {
				first = true
			}
			continue
		}
		if dst, err = diffValue(dst, olds[j].val, val, depth+1); err != nil {
			return dst, err
		}
	}
	for _, m := range olds {
		if !m.used {
			// Gone: remove it.
			sep()
			dst = append(dst, m.key...)
			dst = append(dst, ":null"...)
		}
	}
	return append(dst, '}'), nil
}

func diffArray(dst, o, n []byte, depth int) ([]byte, error) {
	dst = append(dst, '{')
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	oi := iter{b: o, depth: depth + 1, array: true, fast: true}
	oi.init()
	ni := iter{b: n, depth: depth + 1, array: true, fast: true}
	ni.init()
	i := 0
	for {
		restAt := ni.i
		_, nv, nok, err := ni.next()
		if err != nil {
			return dst, err
		}
		_, ov, ook, err := oi.next()
		if err != nil {
			return dst, err
		}
		switch {
		case nok && ook:
			if !bytes.Equal(ov, nv) {
				sep()
				dst = append(dst, '"')
				dst = strconv.AppendInt(dst, int64(i), 10)
				dst = append(dst, `":`...)
				if dst, err = diffValue(dst, ov, nv, depth+1); err != nil {
					return dst, err
				}
			}
			i++
			continue
		case ook:
			// The old array is longer: drop its tail.
			drop := 1
			for {
				_, _, ok, err := oi.next()
				if err != nil {
					return dst, err
				}
				if !ok {
					break
				}
				drop++
			}
			sep()
			dst = append(dst, `"-":`...)
			dst = strconv.AppendInt(dst, int64(drop), 10)
		case nok:
			// The new array is longer: append its tail, as written.
			for {
				_, _, ok, err := ni.next()
				if err != nil {
					return dst, err
				}
				if !ok {
					break
				}
			}
			sep()
			dst = append(dst, `"+":[`...)
			rest := bytes.TrimSpace(n[restAt : ni.i-1])
			if len(rest) > 0 && rest[0] == ',' {
				rest = rest[1:]
			}
			dst = append(dst, bytes.TrimSpace(rest)...)
			dst = append(dst, ']')
		}
		return append(dst, '}'), nil
	}
}

// sameKey compares two quoted member names by what they say.
func sameKey(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if bytes.IndexByte(a, '\\') < 0 && bytes.IndexByte(b, '\\') < 0 {
		return false
	}
	return unquote(a) == unquote(b)
}

func unquote(k []byte) string {
	if bytes.IndexByte(k, '\\') < 0 {
		return string(k[1 : len(k)-1])
	}
	var s string
	if json.Unmarshal(k, &s) != nil {
		return string(k)
	}
	return s
}

// iter walks the members of an object or the elements of an array.
type iter struct {
	b     []byte // the whole object or array, from its bracket
	i     int    // next position to read
	depth int
	array bool
	done  bool
	n     int // members read
	// fast skips values without checking them closely (Diff's input).
	fast bool
}

func (it *iter) init() { it.i = 1 }

// next returns the next member (key quoted, nil in an array) and value.
func (it *iter) next() (key, val []byte, ok bool, err error) {
	if it.done {
		return nil, nil, false, nil
	}
	if it.depth > maxDepth {
		return nil, nil, false, fmt.Errorf("%w: nested too deeply", errSyntax)
	}
	b := it.b
	i := skipSpace(b, it.i)
	closer := byte('}')
	if it.array {
		closer = ']'
	}
	if i >= len(b) {
		return nil, nil, false, errSyntax
	}
	if b[i] == closer {
		it.done, it.i = true, i+1
		return nil, nil, false, nil
	}
	if it.n > 0 {
		if b[i] != ',' {
			return nil, nil, false, fmt.Errorf("%w: expected , or %c at byte %d", errSyntax, closer, i)
		}
		i = skipSpace(b, i+1)
	}
	if !it.array {
		if i >= len(b) || b[i] != '"' {
			return nil, nil, false, fmt.Errorf("%w: expected a member name at byte %d", errSyntax, i)
		}
		end, err := stringEnd(b, i)
		if it.fast {
			end, err = skipString(b, i)
		}
		if err != nil {
			return nil, nil, false, err
		}
		key = b[i:end]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, nil, false, fmt.Errorf("%w: expected : at byte %d", errSyntax, i)
		}
		i = skipSpace(b, i+1)
	}
	var end int
	if it.fast {
		end, err = skipValue(b, i)
	} else {
		end, err = valueEnd(b, i, it.depth)
	}
	if err != nil {
		return nil, nil, false, err
	}
	it.i, it.n = end, it.n+1
	return key, b[i:end], true, nil
}

// skipValue returns where the value starting at b[i] ends, matching
// brackets and strings only: a quick walk over a document known to be
// JSON.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, fmt.Errorf("%w: a value is missing", errSyntax)
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e, err := skipString(b, j)
				if err != nil {
					return 0, err
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
				if depth > maxDepth {
					return 0, fmt.Errorf("%w: nested too deeply", errSyntax)
				}
			}
		}
		return 0, fmt.Errorf("%w: unterminated %c", errSyntax, b[i])
	case ',', ':', '}', ']':
		return 0, fmt.Errorf("%w: unexpected %q at byte %d", errSyntax, b[i], i)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' && b[j] != '\t' && b[j] != '\r' {
		j++
	}
	return j, nil
}

func skipString(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j + 1, nil
		case '\\':
			j++
		}
	}
	return 0, fmt.Errorf("%w: unterminated string", errSyntax)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns where the value starting at b[i] ends, checking its
// syntax.
func valueEnd(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, fmt.Errorf("%w: a value is missing", errSyntax)
	}
	switch c := b[i]; {
	case c == '"':
		return stringEnd(b, i)
	case c == '{' || c == '[':
		it := iter{b: b[i:], depth: depth + 1, array: c == '['}
		it.init()
		for {
			_, _, ok, err := it.next()
			if err != nil {
				return 0, err
			}
			if !ok {
				return i + it.i, nil
			}
		}
	case c == 't':
		return literalEnd(b, i, "true")
	case c == 'f':
		return literalEnd(b, i, "false")
	case c == 'n':
		return literalEnd(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return numberEnd(b, i)
	}
	return 0, fmt.Errorf("%w: unexpected %q at byte %d", errSyntax, b[i], i)
}

func literalEnd(b []byte, i int, lit string) (int, error) {
	if !bytes.HasPrefix(b[i:], []byte(lit)) {
		return 0, fmt.Errorf("%w: bad literal at byte %d", errSyntax, i)
	}
	return i + len(lit), nil
}

func stringEnd(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, nil
		case c < 0x20:
			return 0, fmt.Errorf("%w: control character in a string at byte %d", errSyntax, j)
		case c == '\\':
			j++
			if j >= len(b) {
				break
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return 0, fmt.Errorf("%w: short \\u escape", errSyntax)
				}
				for _, h := range b[j+1 : j+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return 0, fmt.Errorf("%w: bad \\u escape at byte %d", errSyntax, j)
					}
				}
				j += 4
			default:
				return 0, fmt.Errorf("%w: bad escape at byte %d", errSyntax, j)
			}
		}
	}
	return 0, fmt.Errorf("%w: unterminated string", errSyntax)
}

func numberEnd(b []byte, i int) (int, error) {
	j := i
	if b[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(b) && b[j] == '0' {
		j++
	} else if digits() == 0 {
		return 0, fmt.Errorf("%w: bad number at byte %d", errSyntax, i)
	}
	if j < len(b) && b[j] == '.' {
		j++
		if digits() == 0 {
			return 0, fmt.Errorf("%w: bad number at byte %d", errSyntax, i)
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if digits() == 0 {
			return 0, fmt.Errorf("%w: bad number at byte %d", errSyntax, i)
		}
	}
	return j, nil
}
