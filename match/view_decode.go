package match

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// ViewDecoder decodes views, keeping the settings of the last one: they
// rarely change within a room, and their strict parser (unknown fields
// refused, the variant rebuilt and validated) was the costliest part of
// decoding a view, which a client does for every frame. Views are read by
// decodeView, or by encoding/json when it declines one; either way the
// view is what json.Unmarshal makes of it. Views decoded with the same
// settings share their Settings value. A ViewDecoder is for one goroutine
// at a time; its zero value is ready to use.
type ViewDecoder struct {
	raw      []byte // the settings as last sent
	settings Settings
}

// viewWire is a view with its settings left as sent.
type viewWire struct {
	View
	Settings json.RawMessage `json:"settings"`
}

// Decode decodes the view b into v, as json.Unmarshal into a zero View.
func (d *ViewDecoder) Decode(b []byte, v *View) error {
	raw, ok := decodeView(b, v)
	if !ok {
		var w viewWire
		if err := json.Unmarshal(b, &w); err != nil {
			return err
		}
		*v, raw = w.View, w.Settings
	}
	if d.raw == nil || !bytes.Equal(raw, d.raw) {
		var s Settings
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &s); err != nil {
				return err
			}
		}
		// raw may be part of b (decodeView's): keep a copy.
		d.raw, d.settings = bytes.Clone(raw), s
	}
	v.Settings = d.settings
	return nil
}

// decodeView reads a view as AppendJSON writes it, and as the client's
// patches (protocol/patch) make it, without reflection, into v
// (overwritten as json.Unmarshal overwrites a zero View), all but its
// settings: those are returned as sent, for the caller to decode (with
// json.Unmarshal, which checks them) only when they change. Members may
// come in any order (a patch appends the members it adds) and any may be
// missing; nulls are taken where a pointer or slice takes them. It
// reports false, with v zero, for anything else: an unknown or repeated
// key, whitespace, a number or a string escape that AppendJSON does not
// write, a null where it writes none; the caller then falls back to
// encoding/json. When it reports true, json.Unmarshal of b into a View
// whose settings are held as a json.RawMessage succeeds and gives v and
// those bytes (TestViewAppendJSON, TestViewAppendJSONFields,
// FuzzDecodeView). The returned settings are
// part of b (nil when b has none). A ViewDecoder decodes views with it,
// and their settings when they change. A field added to View or its parts
// must be added here too: TestViewAppendJSONFields fails until it is (its
// key is unknown here, and the view declined).
//
// A client decodes every view it receives, and encoding/json's reflection
// was a tenth of the CPU of the server's tests (the clients of its rooms
// and of the load generator run in the same process).
func decodeView(b []byte, v *View) (settings []byte, ok bool) {
	*v = View{}
	p := viewParser{b: b}
	settings = p.view(v)
	if p.bad || p.i != len(b) {
		*v = View{}
		return nil, false
	}
	return settings, true
}

func (p *viewParser) view(v *View) (settings []byte) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "v":
			p.once(&seen, 0)
			v.V = p.int64()
		case "code":
			p.once(&seen, 1)
			v.Code = p.str()
		case "settings":
			p.once(&seen, 2)
			settings = p.object()
		case "status":
			p.once(&seen, 3)
			v.Status = Status(p.str())
		case "round":
			p.once(&seen, 4)
			v.Round = p.int()
		case "hole":
			p.once(&seen, 5)
			v.Hole = p.int()
		case "clock":
			p.once(&seen, 6)
			if !p.key("null") {
				v.HoleClock = &Clock{}
				p.clock(v.HoleClock)
			}
		case "commitment":
			p.once(&seen, 7)
			v.Commitment = p.str()
		case "seed":
			p.once(&seen, 8)
			v.Seed = p.str()
		case "deals":
			p.once(&seen, 9)
			v.Deals = decodeStrings(p)
		case "tournament":
			p.once(&seen, 10)
			v.Tournament = p.str()
		case "you":
			p.once(&seen, 11)
			v.You = p.int()
		case "seats":
			p.once(&seen, 12)
			v.Seats = decodeList(p, (*viewParser).seat)
		case "board":
			p.once(&seen, 13)
			v.Board = p.boardPtr()
		case "boards":
			p.once(&seen, 14)
			v.Boards = decodeList(p, func(p *viewParser, x **Board) { *x = p.boardPtr() })
		case "progress":
			p.once(&seen, 15)
			v.Progress = decodeList(p, (*viewParser).finish)
		case "standings":
			p.once(&seen, 16)
			p.standings(&v.Standings)
		case "revealed":
			p.once(&seen, 17)
			v.Revealed = decodeInts(p)
		case "best":
			p.once(&seen, 18)
			v.Best = decodeList(p, (*viewParser).holeBest)
		case "difficulty":
			p.once(&seen, 19)
			v.Difficulty = p.int()
		case "difficultyName":
			p.once(&seen, 20)
			v.DifficultyName = p.str()
		default:
			p.bad = true
		}
	}
	return settings
}

// viewParser reads the JSON of a view from b at i. Once bad (the input is
// not what decodeView takes) it reads nothing more, and its readers
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

// key reads s if it comes next (a bracket, a comma, null), and reports
// whether it did.
func (p *viewParser) key(s string) bool {
	if p.bad || len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// member starts an object's next member: it reads the object's { (first
// set) or the comma before the member, and reports whether there is one;
// at the object's } it reads it and reports false.
func (p *viewParser) member(first *bool) bool {
	if *first {
		*first = false
		p.lit("{")
		return !p.bad && !p.key("}")
	}
	if p.key("}") {
		return false
	}
	p.lit(",")
	return !p.bad
}

// name reads a member's key and its colon. Keys of letters only (all the
// view's) are taken; anything else is bad.
func (p *viewParser) name() []byte {
	b := p.b
	if p.bad || p.i >= len(b) || b[p.i] != '"' {
		p.bad = true
		return nil
	}
	for i := p.i + 1; i < len(b); i++ {
		if c := b[i] | 0x20; c >= 'a' && c <= 'z' {
			continue
		}
		if b[i] != '"' || i+1 >= len(b) || b[i+1] != ':' {
			break
		}
		k := b[p.i+1 : i]
		p.i = i + 2
		return k
	}
	p.bad = true
	return nil
}

// once marks member number bit of an object as read, and sets bad when it
// was read already (json.Unmarshal would take the last of the two, or
// merge them).
func (p *viewParser) once(seen *uint32, bit uint) {
	if *seen&(1<<bit) != 0 {
		p.bad = true
	}
	*seen |= 1 << bit
}

// int64 reads an integer as strconv.AppendInt writes it: no plus sign,
// no leading zero, no minus zero, no fraction or exponent (json.Unmarshal
// refuses those for an integer), at most 18 digits (so it cannot
// overflow).
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
	return decodeList(p, func(p *viewParser, x **int) { *x = p.intPtr() })
}

// intPtr reads an integer, or null.
func (p *viewParser) intPtr() *int {
	if p.bad || p.key("null") {
		return nil
	}
	n := p.int()
	return &n
}

func (p *viewParser) seat(s *SeatView) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "name":
			p.once(&seen, 0)
			s.Name = p.str()
		case "ready":
			p.once(&seen, 1)
			s.Ready = p.bool()
		case "bot":
			p.once(&seen, 2)
			s.Bot = p.bool()
		case "away":
			p.once(&seen, 3)
			s.Away = p.bool()
		case "awaySince":
			p.once(&seen, 4)
			s.AwaySince = p.time()
		case "graceEnds":
			p.once(&seen, 5)
			s.GraceEnds = p.time()
		default:
			p.bad = true
		}
	}
}

func (p *viewParser) clock(c *Clock) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "started":
			p.once(&seen, 0)
			c.Started = p.time()
		case "deadline":
			p.once(&seen, 1)
			c.Deadline = p.time()
		default:
			p.bad = true
		}
	}
}

// boardPtr reads a board, or null.
func (p *viewParser) boardPtr() *Board {
	if p.bad || p.key("null") {
		return nil
	}
	x := &Board{}
	p.board(x)
	return x
}

func (p *viewParser) board(x *Board) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "seat":
			p.once(&seen, 0)
			x.Seat = p.int()
		case "hole":
			p.once(&seen, 1)
			x.Hole = p.int()
		case "layout":
			p.once(&seen, 2)
			x.Layout = p.str()
		case "piles":
			p.once(&seen, 3)
			x.Piles = decodeList(p, func(p *viewParser, s *[]string) { *s = decodeStrings(p) })
		case "waste":
			p.once(&seen, 4)
			x.Waste = decodeStrings(p)
		case "stockLeft":
			p.once(&seen, 5)
			x.StockLeft = p.int()
		case "redealsLeft":
			p.once(&seen, 6)
			x.RedealsLeft = p.int()
		case "cardsLeft":
			p.once(&seen, 7)
			x.CardsLeft = p.int()
		case "playable":
			p.once(&seen, 8)
			x.Playable = decodeInts(p)
		case "canTurn":
			p.once(&seen, 9)
			x.CanTurn = p.bool()
		case "canRedeal":
			p.once(&seen, 10)
			x.CanRedeal = p.bool()
		case "canUndo":
			p.once(&seen, 11)
			x.CanUndo = p.bool()
		case "over":
			p.once(&seen, 12)
			x.Over = p.bool()
		case "cleared":
			p.once(&seen, 13)
			x.Cleared = p.bool()
		case "done":
			p.once(&seen, 14)
			x.Done = p.bool()
		case "end":
			p.once(&seen, 15)
			x.End = p.str()
		case "score":
			p.once(&seen, 16)
			x.Score = p.int()
		case "moves":
			p.once(&seen, 17)
			x.Moves = p.int()
		case "run":
			p.once(&seen, 18)
			x.Run = p.int()
		case "wait":
			p.once(&seen, 19)
			if !p.key("null") {
				x.Wait = &Wait{}
				p.wait(x.Wait)
			}
		default:
			p.bad = true
		}
	}
}

func (p *viewParser) wait(w *Wait) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "seat":
			p.once(&seen, 0)
			w.Seat = p.int()
		case "card":
			p.once(&seen, 1)
			w.Card = p.int()
		default:
			p.bad = true
		}
	}
}

func (p *viewParser) finish(f *Finish) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "seat":
			p.once(&seen, 0)
			f.Seat = p.int()
		case "done":
			p.once(&seen, 1)
			f.Done = p.bool()
		case "score":
			p.once(&seen, 2)
			f.Score = p.intPtr()
		case "end":
			p.once(&seen, 3)
			f.End = p.str()
		default:
			p.bad = true
		}
	}
}

func (p *viewParser) standings(s *Standings) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "format":
			p.once(&seen, 0)
			s.Format = Format(p.str())
		case "holes":
			p.once(&seen, 1)
			s.Holes = p.int()
		case "par":
			p.once(&seen, 2)
			s.Par = p.int()
		case "rows":
			p.once(&seen, 3)
			s.Rows = decodeList(p, (*viewParser).row)
		case "match":
			p.once(&seen, 4)
			if !p.key("null") {
				s.Match = &MatchStatus{}
				p.matchStatus(s.Match)
			}
		case "over":
			p.once(&seen, 5)
			s.Over = p.bool()
		default:
			p.bad = true
		}
	}
}

func (p *viewParser) matchStatus(m *MatchStatus) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "leader":
			p.once(&seen, 0)
			m.Leader = p.int()
		case "up":
			p.once(&seen, 1)
			m.Up = p.int()
		case "thru":
			p.once(&seen, 2)
			m.Thru = p.int()
		case "holesLeft":
			p.once(&seen, 3)
			m.HolesLeft = p.int()
		case "dormie":
			p.once(&seen, 4)
			m.Dormie = p.bool()
		case "decided":
			p.once(&seen, 5)
			m.Decided = p.bool()
		case "winner":
			p.once(&seen, 6)
			m.Winner = p.int()
		case "result":
			p.once(&seen, 7)
			m.Result = p.str()
		case "text":
			p.once(&seen, 8)
			m.Text = p.str()
		case "extra":
			p.once(&seen, 9)
			m.Extra = p.int()
		case "holes":
			p.once(&seen, 10)
			m.Holes = decodeInts(p)
		default:
			p.bad = true
		}
	}
}

func (p *viewParser) row(r *Row) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "seat":
			p.once(&seen, 0)
			r.Seat = p.int()
		case "name":
			p.once(&seen, 1)
			r.Name = p.str()
		case "place":
			p.once(&seen, 2)
			r.Place = p.int()
		case "placeText":
			p.once(&seen, 3)
			r.PlaceText = p.str()
		case "total":
			p.once(&seen, 4)
			r.Total = p.int()
		case "toPar":
			p.once(&seen, 5)
			r.ToPar = p.int()
		case "toParText":
			p.once(&seen, 6)
			r.ToParText = p.str()
		case "thru":
			p.once(&seen, 7)
			r.Thru = p.int()
		case "scores":
			p.once(&seen, 8)
			r.Scores = decodeIntPtrs(p)
		case "vsBest":
			p.once(&seen, 9)
			r.VsBest = decodeIntPtrs(p)
		case "held":
			p.once(&seen, 10)
			r.Held = p.bool()
		default:
			p.bad = true
		}
	}
}

func (p *viewParser) holeBest(h *HoleBest) {
	var seen uint32
	for first := true; p.member(&first); {
		switch string(p.name()) {
		case "hole":
			p.once(&seen, 0)
			h.Hole = p.int()
		case "best":
			p.once(&seen, 1)
			h.Best = p.int()
		case "exact":
			p.once(&seen, 2)
			h.Exact = p.bool()
		case "difficulty":
			p.once(&seen, 3)
			h.Difficulty = p.int()
		case "difficultyName":
			p.once(&seen, 4)
			h.DifficultyName = p.str()
		default:
			p.bad = true
		}
	}
}
