package match

import (
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeView reads a view in the exact form AppendJSON writes, without
// reflection, into v (overwritten as json.Unmarshal overwrites a zero
// View), all but its settings: those are returned as sent, for the caller
// to decode (with json.Unmarshal, which checks them) only when they
// change. It reports false, with v zero, for anything else: a key out of
// AppendJSON's order or unknown, whitespace, a number or a string escape
// that AppendJSON does not write, a null where it writes none; the caller
// then falls back to encoding/json. When it reports true, json.Unmarshal
// of b into a View whose settings are held as a json.RawMessage succeeds
// and gives v and those bytes (TestDecodeView, FuzzDecodeView). The
// returned settings are part of b.
//
// A client decodes every view it receives, and encoding/json's reflection
// was a tenth of the CPU of the server's tests (the clients of its rooms
// and of the load generator run in the same process).
func DecodeView(b []byte, v *View) (settings []byte, ok bool) {
	*v = View{}
	p := viewParser{b: b}
	p.lit(`{"v":`)
	v.V = p.int64()
	p.lit(`,"code":`)
	v.Code = p.str()
	p.lit(`,"settings":`)
	settings = p.object()
	p.lit(`,"status":`)
	v.Status = Status(p.str())
	p.lit(`,"round":`)
	v.Round = p.int()
	p.lit(`,"hole":`)
	v.Hole = p.int()
	if p.key(`,"clock":`) {
		v.HoleClock = &Clock{}
		p.lit(`{"started":`)
		v.HoleClock.Started = p.time()
		p.lit(`,"deadline":`)
		v.HoleClock.Deadline = p.time()
		p.lit(`}`)
	}
	if p.key(`,"commitment":`) {
		v.Commitment = p.str()
	}
	if p.key(`,"seed":`) {
		v.Seed = p.str()
	}
	if p.key(`,"deals":`) {
		v.Deals = decodeStrings(&p)
	}
	if p.key(`,"tournament":`) {
		v.Tournament = p.str()
	}
	p.lit(`,"you":`)
	v.You = p.int()
	p.lit(`,"seats":`)
	v.Seats = decodeList(&p, (*viewParser).seat)
	if p.key(`,"board":`) {
		v.Board = &Board{}
		p.board(v.Board)
	}
	if p.key(`,"boards":`) {
		v.Boards = decodeList(&p, func(p *viewParser, x **Board) {
			if !p.key("null") {
				*x = &Board{}
				p.board(*x)
			}
		})
	}
	p.lit(`,"progress":`)
	v.Progress = decodeList(&p, (*viewParser).finish)
	p.lit(`,"standings":`)
	p.standings(&v.Standings)
	p.lit(`,"revealed":`)
	v.Revealed = decodeInts(&p)
	if p.key(`,"best":`) {
		v.Best = decodeList(&p, (*viewParser).holeBest)
	}
	if p.key(`,"difficulty":`) {
		v.Difficulty = p.int()
	}
	if p.key(`,"difficultyName":`) {
		v.DifficultyName = p.str()
	}
	p.lit(`}`)
	if p.bad || p.i != len(b) {
		*v = View{}
		return nil, false
	}
	return settings, true
}

// viewParser reads the JSON of a view from b at i. Once bad (the input is
// not what AppendJSON writes) it reads nothing more, and its readers
// return zero values.
type viewParser struct {
	b   []byte
	i   int
	bad bool
}

// lit reads s, which must come next.
func (p *viewParser) lit(s string) {
	if !p.key(s) {
		p.bad = true
	}
}

// key reads s if it comes next (an optional member's key, or null), and
// reports whether it did.
func (p *viewParser) key(s string) bool {
	if p.bad || len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// int64 reads an integer as strconv.AppendInt writes it: no plus sign,
// no leading zero, no minus zero, no fraction or exponent (json.Unmarshal
// takes those only when they are whole), at most 18 digits.
func (p *viewParser) int64() int64 {
	if p.bad {
		return 0
	}
	b, i := p.b, p.i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	var n int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' && i-start < 18 {
		n = n*10 + int64(b[i]-'0')
		i++
	}
	switch {
	case i == start, b[start] == '0' && (i-start > 1 || neg):
		p.bad = true
		return 0
	case i < len(b) && (b[i] >= '0' && b[i] <= '9' || b[i] == '.' || b[i] == 'e' || b[i] == 'E'):
		p.bad = true // more than 18 digits, or not an integer's form
		return 0
	}
	p.i = i
	if neg {
		return -n
	}
	return n
}

// int reads an integer that fits an int.
func (p *viewParser) int() int {
	n := p.int64()
	if int64(int(n)) != n {
		p.bad = true
		return 0
	}
	return int(n)
}

func (p *viewParser) bool() bool {
	switch {
	case p.key("true"):
		return true
	case p.key("false"):
		return false
	}
	p.bad = true
	return false
}

// str reads a string: the common case, printable ASCII without escapes,
// straight from b.
func (p *viewParser) str() string {
	if p.bad {
		return ""
	}
	b := p.b
	if p.i >= len(b) || b[p.i] != '"' {
		p.bad = true
		return ""
	}
	for i := p.i + 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			s := string(b[p.i+1 : i])
			p.i = i + 1
			return s
		case c < 0x20 || c == '\\' || c >= utf8.RuneSelf:
			return p.strEscaped()
		}
	}
	p.bad = true
	return ""
}

// strEscaped reads a string with escapes or non-ASCII characters. Escapes
// of surrogates (json.Marshal writes none) and invalid UTF-8 (which
// json.Unmarshal replaces) are refused.
func (p *viewParser) strEscaped() string {
	end := p.strEnd()
	if p.bad {
		return ""
	}
	b := p.b
	out := make([]byte, 0, end-p.i)
	for i := p.i + 1; i < end-1; {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch c := b[i+1]; c {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, _ := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
			out = utf8.AppendRune(out, rune(r))
			i += 4
		default: // '"', '\\', '/'
			out = append(out, c)
		}
		i += 2
	}
	p.i = end
	return string(out)
}

// strEnd checks the string at i and returns the index after it, or sets
// bad.
func (p *viewParser) strEnd() int {
	b := p.b
	if p.bad || p.i >= len(b) || b[p.i] != '"' {
		p.bad = true
		return 0
	}
	for i := p.i + 1; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			p.bad = true
			return 0
		case c == '\\':
			if i+1 >= len(b) {
				p.bad = true
				return 0
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					p.bad = true
					return 0
				}
				r, _ := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
				if utf16.IsSurrogate(rune(r)) {
					p.bad = true
					return 0
				}
				i += 6
			default:
				p.bad = true
				return 0
			}
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				p.bad = true
				return 0
			}
			i += n
		}
	}
	p.bad = true
	return 0
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// time reads a time as appendTime writes it, with time.Time's own
// UnmarshalJSON as json.Unmarshal does (given the same bytes).
func (p *viewParser) time() time.Time {
	b := p.b
	if p.bad || p.i >= len(b) || b[p.i] != '"' {
		p.bad = true
		return time.Time{}
	}
	for i := p.i + 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			var t time.Time
			if err := t.UnmarshalJSON(b[p.i : i+1]); err != nil {
				p.bad = true
				return time.Time{}
			}
			p.i = i + 1
			return t
		case '0' <= c && c <= '9', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', c == ':', c == '.', c == '+', c == '-':
		default:
			p.bad = true
			return time.Time{}
		}
	}
	p.bad = true
	return time.Time{}
}

// object checks the JSON object at i and returns it as it is: the
// settings, which the caller decodes.
func (p *viewParser) object() []byte {
	start := p.i
	if p.bad || p.i >= len(p.b) || p.b[p.i] != '{' {
		p.bad = true
		return nil
	}
	p.skip(0)
	if p.bad {
		return nil
	}
	return p.b[start:p.i]
}

// maxSkipDepth bounds the nesting skip accepts (the settings nest two
// deep).
const maxSkipDepth = 8

// skip reads any JSON value without whitespace (a subset of JSON: strings
// as strEnd takes them, numbers in JSON's grammar).
func (p *viewParser) skip(depth int) {
	if p.bad || p.i >= len(p.b) || depth > maxSkipDepth {
		p.bad = true
		return
	}
	switch p.b[p.i] {
	case '{':
		p.i++
		if p.key("}") {
			return
		}
		for !p.bad {
			p.i = p.strEnd()
			p.lit(":")
			p.skip(depth + 1)
			if p.key("}") {
				return
			}
			p.lit(",")
		}
	case '[':
		p.i++
		if p.key("]") {
			return
		}
		for !p.bad {
			p.skip(depth + 1)
			if p.key("]") {
				return
			}
			p.lit(",")
		}
	case '"':
		p.i = p.strEnd()
	case 't':
		p.lit("true")
	case 'f':
		p.lit("false")
	case 'n':
		p.lit("null")
	default:
		p.number()
	}
}

// number reads a number in JSON's grammar.
func (p *viewParser) number() {
	b, i := p.b, p.i
	digits := func() bool {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if !digits() {
		p.bad = true
		return
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			p.bad = true
			return
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			p.bad = true
			return
		}
	}
	p.i = i
}

// decodeList reads a JSON array (nil for null, empty but not nil for [],
// as json.Unmarshal gives), each element read by elem.
func decodeList[T any](p *viewParser, elem func(*viewParser, *T)) []T {
	if p.bad || p.key("null") {
		return nil
	}
	if p.key("[]") {
		return []T{}
	}
	xs := make([]T, 0, p.count())
	p.lit("[")
	for !p.bad {
		var zero T
		xs = append(xs, zero)
		elem(p, &xs[len(xs)-1])
		if p.key("]") {
			return xs
		}
		p.lit(",")
	}
	return nil
}

// count returns how many elements the array at i has, to size its slice
// (a guess when it is malformed: reading it fails then).
func (p *viewParser) count() int {
	b := p.b
	depth, n := 0, 1
	for i := p.i + 1; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

func decodeStrings(p *viewParser) []string {
	return decodeList(p, func(p *viewParser, s *string) { *s = p.str() })
}

func decodeInts(p *viewParser) []int {
	return decodeList(p, func(p *viewParser, x *int) { *x = p.int() })
}

func decodeIntPtrs(p *viewParser) []*int {
	return decodeList(p, func(p *viewParser, x **int) {
		if !p.key("null") {
			n := p.int()
			*x = &n
		}
	})
}

func (p *viewParser) seat(s *SeatView) {
	p.lit(`{"name":`)
	s.Name = p.str()
	p.lit(`,"ready":`)
	s.Ready = p.bool()
	if p.key(`,"bot":`) {
		s.Bot = p.bool()
	}
	if p.key(`,"away":`) {
		s.Away = p.bool()
	}
	if p.key(`,"awaySince":`) {
		s.AwaySince = p.time()
	}
	if p.key(`,"graceEnds":`) {
		s.GraceEnds = p.time()
	}
	p.lit(`}`)
}

func (p *viewParser) board(x *Board) {
	p.lit(`{"seat":`)
	x.Seat = p.int()
	p.lit(`,"hole":`)
	x.Hole = p.int()
	p.lit(`,"layout":`)
	x.Layout = p.str()
	p.lit(`,"piles":`)
	x.Piles = decodeList(p, func(p *viewParser, s *[]string) { *s = decodeStrings(p) })
	p.lit(`,"waste":`)
	x.Waste = decodeStrings(p)
	p.lit(`,"stockLeft":`)
	x.StockLeft = p.int()
	p.lit(`,"redealsLeft":`)
	x.RedealsLeft = p.int()
	p.lit(`,"cardsLeft":`)
	x.CardsLeft = p.int()
	p.lit(`,"playable":`)
	x.Playable = decodeInts(p)
	p.lit(`,"canTurn":`)
	x.CanTurn = p.bool()
	p.lit(`,"canRedeal":`)
	x.CanRedeal = p.bool()
	p.lit(`,"canUndo":`)
	x.CanUndo = p.bool()
	p.lit(`,"over":`)
	x.Over = p.bool()
	p.lit(`,"cleared":`)
	x.Cleared = p.bool()
	p.lit(`,"done":`)
	x.Done = p.bool()
	if p.key(`,"end":`) {
		x.End = p.str()
	}
	p.lit(`,"score":`)
	x.Score = p.int()
	p.lit(`,"moves":`)
	x.Moves = p.int()
	p.lit(`,"run":`)
	x.Run = p.int()
	if p.key(`,"wait":`) {
		x.Wait = &Wait{}
		p.lit(`{"seat":`)
		x.Wait.Seat = p.int()
		if p.key(`,"card":`) {
			x.Wait.Card = p.int()
		}
		p.lit(`}`)
	}
	p.lit(`}`)
}

func (p *viewParser) finish(f *Finish) {
	p.lit(`{"seat":`)
	f.Seat = p.int()
	p.lit(`,"done":`)
	f.Done = p.bool()
	if p.key(`,"score":`) {
		n := p.int()
		f.Score = &n
	}
	if p.key(`,"end":`) {
		f.End = p.str()
	}
	p.lit(`}`)
}

func (p *viewParser) standings(s *Standings) {
	p.lit(`{"format":`)
	s.Format = Format(p.str())
	p.lit(`,"holes":`)
	s.Holes = p.int()
	p.lit(`,"par":`)
	s.Par = p.int()
	p.lit(`,"rows":`)
	s.Rows = decodeList(p, (*viewParser).row)
	if p.key(`,"match":`) {
		m := &MatchStatus{}
		s.Match = m
		p.lit(`{"leader":`)
		m.Leader = p.int()
		p.lit(`,"up":`)
		m.Up = p.int()
		p.lit(`,"thru":`)
		m.Thru = p.int()
		p.lit(`,"holesLeft":`)
		m.HolesLeft = p.int()
		p.lit(`,"dormie":`)
		m.Dormie = p.bool()
		p.lit(`,"decided":`)
		m.Decided = p.bool()
		p.lit(`,"winner":`)
		m.Winner = p.int()
		if p.key(`,"result":`) {
			m.Result = p.str()
		}
		p.lit(`,"text":`)
		m.Text = p.str()
		if p.key(`,"extra":`) {
			m.Extra = p.int()
		}
		p.lit(`,"holes":`)
		m.Holes = decodeInts(p)
		p.lit(`}`)
	}
	p.lit(`,"over":`)
	s.Over = p.bool()
	p.lit(`}`)
}

func (p *viewParser) row(r *Row) {
	p.lit(`{"seat":`)
	r.Seat = p.int()
	p.lit(`,"name":`)
	r.Name = p.str()
	p.lit(`,"place":`)
	r.Place = p.int()
	p.lit(`,"placeText":`)
	r.PlaceText = p.str()
	p.lit(`,"total":`)
	r.Total = p.int()
	p.lit(`,"toPar":`)
	r.ToPar = p.int()
	p.lit(`,"toParText":`)
	r.ToParText = p.str()
	p.lit(`,"thru":`)
	r.Thru = p.int()
	p.lit(`,"scores":`)
	r.Scores = decodeIntPtrs(p)
	if p.key(`,"vsBest":`) {
		r.VsBest = decodeIntPtrs(p)
	}
	if p.key(`,"held":`) {
		r.Held = p.bool()
	}
	p.lit(`}`)
}

func (p *viewParser) holeBest(h *HoleBest) {
	p.lit(`{"hole":`)
	h.Hole = p.int()
	p.lit(`,"best":`)
	h.Best = p.int()
	p.lit(`,"exact":`)
	h.Exact = p.bool()
	if p.key(`,"difficulty":`) {
		h.Difficulty = p.int()
	}
	if p.key(`,"difficultyName":`) {
		h.DifficultyName = p.str()
	}
	p.lit(`}`)
}
