package golf

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// cardTexts are the card texts of the tables, good and bad.
var cardTexts = []string{
	"AS", "TD", "QH", "KS", "2C", "JK", "jk", "joker", "🃏", "10♦", "Q♠", "a♥", "9♣️", " 7h ",
	"", "1S", "11C", "ZZ", "A", "AX", "10", "KSS", "♠", "?C", "0S", "10D ", "-", "--",
}

func FuzzParseCard(f *testing.F) {
	for _, s := range cardTexts {
		f.Add(s)
	}
	for _, c := range packOf(mustVariant(f, GolfGame, joker1)) {
		f.Add(c.String())
		f.Add(c.Symbol())
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCard(s)
		if err != nil {
			if c != NoCard {
				t.Fatalf("ParseCard(%q) = %v with error %v", s, c, err)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("ParseCard(%q) = invalid card %#x", s, uint8(c))
		}
		for _, text := range []string{c.String(), c.Symbol(), strings.ToLower(c.String())} {
			if back, err := ParseCard(text); err != nil || back != c {
				t.Fatalf("ParseCard(%q) = %v; ParseCard(%q) = %v, %v", s, c, text, back, err)
			}
		}
		b, err := c.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Card
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Fatalf("text round trip of %v: %v, %v", c, back, err)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, tt := range ruleCases {
		for _, m := range strings.Fields(tt.setup + " " + tt.move) {
			f.Add(m)
		}
	}
	for _, s := range []string{"1", "64", "65", "0", "-1", "+3", "03", "s", "S", "r", "u", "x", "", "1.0", " 1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			return
		}
		if m.Action == Play && (m.Pile < 1 || m.Pile > maxPositions) {
			t.Fatalf("ParseMove(%q) = pile %d", s, m.Pile)
		}
		if back, err := ParseMove(m.String()); err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %v; ParseMove(%q) = %v, %v", s, m, m.String(), back, err)
		}
	})
}

// sampleRecords are records of short random games of every game, and
// records with the quirks the decoder accepts.
func sampleRecords(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	r := rand.New(rand.NewPCG(1, 2))
	vs := allVariants()
	for i := 0; i < len(vs); i += 37 {
		d := NewDeal(vs[i], NumberedSeed(i))
		s := NewState(&d)
		for range 12 {
			legal := s.Legal()
			if len(legal) == 0 {
				break
			}
			applyAll(t, s, legal[r.IntN(len(legal)):][:1])
		}
		b, err := json.Marshal(s.Record())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	seed := NumberedSeed(1).String()
	for _, s := range []string{
		`{"game": "golf", "seed": "` + seed + `", "moves": ["s", 3, "3", "r"]}`,
		`{"game": "golf", "options": {"kings": "wrap", "jokers": "2"}, "seed": "` + seed + `", "moves": []}`,
		`{"game": "tripeaks", "options": {"undo": true}, "seed": "` + seed + `", "moves": ["u"]}`,
		`{"game": "black-hole", "options": {"kings": "wrap"}, "seed": "` + seed + `"}`,
		`{"game": "golf", "seed": "` + seed + `", "moves": [1.5]}`,
		`{"game": "golf", "seed": "` + seed + `"} {}`,
		`{"game": "golf", "seed": "00", "moves": []}`,
		`{"game": "golf", "seed": "` + seed + `", "extra": 1}`,
		`{"seed": "` + seed + `"}`,
		`null`, `[]`, `{}`, ``,
	} {
		out = append(out, []byte(s))
	}
	return out
}

func FuzzDecodeRecord(f *testing.F) {
	for _, b := range sampleRecords(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := DecodeRecord(b)
		if err != nil {
			return
		}
		enc, err := json.Marshal(rec)
		if err != nil {
			t.Fatalf("encoding %+v: %v", rec, err)
		}
		back, err := DecodeRecord(enc)
		if err != nil {
			t.Fatalf("decoding the encoding %s: %v", enc, err)
		}
		if back.Variant != rec.Variant || back.Seed != rec.Seed || !slices.Equal(back.Moves, rec.Moves) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", back, rec)
		}
		enc2, _ := json.Marshal(back)
		if string(enc2) != string(enc) {
			t.Fatalf("encoding is not stable:\n%s\n%s", enc, enc2)
		}
		if len(rec.Moves) <= 300 {
			s, err := rec.Replay()
			if err == nil && s.Moves() == nil {
				t.Fatal("replay returned no moves slice")
			}
		}
	})
}

func FuzzVariantJSON(f *testing.F) {
	for _, v := range allVariants() {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{`{}`, `{"game":"poker"}`, `{"game":"tripeaks","options":{"columns":7}}`, `{"options":{"jokers":"1"}}`, `{"game":"golf","x":1}`, `{"game":"golf"} 1`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v Variant
		if err := json.Unmarshal(b, &v); err != nil {
			return
		}
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back Variant
		if err := json.Unmarshal(enc, &back); err != nil || back != v {
			t.Fatalf("round trip of %s via %s: %+v, %v (want %+v)", b, enc, back, err, v)
		}
		// A variant that decodes is one that deals.
		d := NewDeal(v, Seed{})
		if got, want := dealCards(&d), packOf(v); !slices.Equal(got, want) {
			t.Fatalf("%v deals %s", v, formatCards(got))
		}
	})
}

// movesFromBytes turns fuzz bytes into moves: mostly piles, some turns,
// redeals and undos, and now and then a move of no known action.
func movesFromBytes(b []byte) []Move {
	out := make([]Move, 0, len(b))
	for _, x := range b {
		switch {
		case x < 180:
			out = append(out, PlayPile(int(x%70)))
		case x < 220:
			out = append(out, TurnMove)
		case x < 235:
			out = append(out, RedealMove)
		case x < 250:
			out = append(out, UndoMove)
		default:
			out = append(out, Move{Action: Action(x)})
		}
	}
	return out
}

func bytesFromMoves(ms []Move) []byte {
	var out []byte
	for _, m := range ms {
		switch m.Action {
		case Play:
			out = append(out, m.Pile)
		case Turn:
			out = append(out, 200)
		case Redeal:
			out = append(out, 230)
		case Undo:
			out = append(out, 240)
		}
	}
	return out
}

// FuzzMoves applies arbitrary move sequences to deals of every variant and
// checks the engine against the reference model after each one.
func FuzzMoves(f *testing.F) {
	nv := len(allVariants())
	for i, tt := range ruleCases {
		f.Add(uint16(i*7%nv), uint16(i), bytesFromMoves(moves(f, tt.setup+" "+tt.move)))
	}
	f.Add(uint16(0), uint16(1), []byte{200, 200, 1, 2, 3, 240, 240, 230})
	variants := allVariants()
	f.Fuzz(func(t *testing.T, vi, n uint16, b []byte) {
		if len(b) > 400 {
			return
		}
		v := variants[int(vi)%len(variants)]
		d := NewDeal(v, NumberedSeed(int(n)))
		s := NewState(&d)
		m := newModel(&d)
		pack := packOf(v)
		var history []*model
		for _, mv := range movesFromBytes(b) {
			agree(t, s, m, pack)
			before := rawState(s)
			err := s.Apply(mv)
			switch {
			case err != nil:
				if !reflectEqualState(before, rawState(s)) {
					t.Fatalf("refused move %s (%v) changed the state", mv, err)
				}
				if mv.Action != Undo && slices.Contains(m.legal(), mv) {
					t.Fatalf("legal move %s refused: %v", mv, err)
				}
			case mv.Action == Undo:
				if !v.Options.Undo || len(history) == 0 {
					t.Fatalf("undo accepted with undo %v and %d moves", v.Options.Undo, len(history))
				}
				m = history[len(history)-1]
				history = history[:len(history)-1]
			default:
				if !slices.Contains(m.legal(), mv) {
					t.Fatalf("illegal move %s accepted; legal [%s]", mv, movesString(m.legal()))
				}
				history = append(history, m.clone())
				m.apply(mv)
			}
		}
		agree(t, s, m, pack)
	})
}
