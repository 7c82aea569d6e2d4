package match

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"golfsolitaire/golf"
)

// loggedSameAsMarshal fails unless l.AppendJSON writes what json.Marshal
// does, and so does EventView.AppendJSON for the event as each viewer
// (every seat, a spectator, nobody) sees it, with its time (a whole
// view's frame) and without (a patch frame's), as the hub encodes them.
func loggedSameAsMarshal(t *testing.T, what string, r *Room, l Logged) {
	t.Helper()
	sameBytesAsMarshal(t, what+", logged", l.AppendJSON(nil), l)
	for seat := NoSeat; seat < len(r.Seats); seat++ {
		ev := r.EventView(l, r.Version, seat)
		sameBytesAsMarshal(t, fmt.Sprintf("%s, event for seat %d", what, seat), ev.AppendJSON(nil), ev)
		ev.At = 0
		sameBytesAsMarshal(t, fmt.Sprintf("%s, patch event for seat %d", what, seat), ev.AppendJSON(nil), ev)
	}
}

// TestLoggedAppendJSONFields fills every field of logged events (their
// Event and Notices) and of event views with random values, zero or not
// (fill), and compares AppendJSON with json.Marshal: a field added to
// Event, Logged, Notice or EventView and not to AppendJSON fails here.
func TestLoggedAppendJSONFields(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	strs := []string{"", "a", "T2", `q"uote`, "<&>", "é", "\x00", "\xff", "日本", "\u2028"}
	n := 3000
	if raceEnabled {
		n = 300 // all 3,000 in .ci/run's property checks, without -race
	}
	for i := range n {
		var l Logged
		fill(reflect.ValueOf(&l).Elem(), rng, strs, 0)
		if l.Settings != nil {
			g := golf.Games[i%len(golf.Games)]
			l.Settings.Variant = golf.Variant{Game: g, Options: g.Defaults()}
		}
		sameBytesAsMarshal(t, fmt.Sprintf("random logged %d", i), l.AppendJSON(nil), l)
		var ev EventView
		fill(reflect.ValueOf(&ev).Elem(), rng, strs, 0)
		sameBytesAsMarshal(t, fmt.Sprintf("random event view %d", i), ev.AppendJSON(nil), ev)
	}
}

// TestLoggedAppendJSONRefused: what json.Marshal refuses to write (a card
// that is not one, a time past year 9999) AppendJSON writes as null.
func TestLoggedAppendJSONRefused(t *testing.T) {
	t.Parallel()
	for _, l := range []Logged{
		{Event: Event{Kind: KindMove, At: t0}, Card: golf.Card(0x0e)},
		{Event: Event{Kind: KindMove, At: t0.AddDate(9000, 0, 0)}},
	} {
		if _, err := json.Marshal(l); err == nil {
			t.Fatalf("%+v: json.Marshal wrote it", l)
		}
		var back Logged
		if b := l.AppendJSON(nil); json.Unmarshal(b, &back) != nil || !json.Valid(b) {
			t.Fatalf("%+v: AppendJSON wrote %s", l, b)
		}
	}
}

// FuzzLoggedAppendJSON: any name, code, token, connection or end of a
// logged event and of an event view encodes as json.Marshal encodes it.
func FuzzLoggedAppendJSON(f *testing.F) {
	for _, s := range [][3]string{
		{"Ana", "ABCD", "tok"},
		{`Bo "the" <b>&`, `\"`, "\x00\x1f\x7f"},
		{"a\u2028b\u2029", "\xed\xa0\x80", "\xff\xfe"},
		{"Zoë", "李", "<script>&amp;"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, name, code, token string) {
		set := DefaultSettings()
		l := Logged{
			Event:   Event{Kind: KindJoin, At: t0, Code: code, Settings: &set, Tournament: code, Name: name, Token: token, Conn: token},
			Notices: []Notice{{Kind: NoticeKind(code), End: name}},
			Origin:  -1,
		}
		sameBytesAsMarshal(t, "logged", l.AppendJSON(nil), l)
		ev := EventView{Kind: Kind(name), Name: name, Move: code, Card: token, Notices: l.Notices}
		sameBytesAsMarshal(t, "event view", ev.AppendJSON(nil), ev)
	})
}

// BenchmarkLoggedJSON encodes a move of a two-seat match in play
// (benchMatch) as the hub does on every move: the logged event it stores
// and the event view it sends (a seat's, whole), with json.Marshal and
// with AppendJSON.
func BenchmarkLoggedJSON(b *testing.B) {
	r := benchMatch(b)
	h := r.CurrentHole()
	ev := Event{Kind: KindMove, At: t0.Add(1234567891), Seat: 0, Hole: h.Number, Move: h.State(r.Settings.Variant, 0).Legal()[0], Seq: 1}
	notices, err := r.Apply(ev)
	if err != nil {
		b.Fatal(err)
	}
	l := r.Log(ev, notices)
	view := r.EventView(l, r.Version, 0)
	b.Logf("logged: %s; event view: %s", l.AppendJSON(nil), view.AppendJSON(nil))
	run := func(name string, encode func() []byte) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if encode() == nil {
					b.Fatal("nothing written")
				}
			}
		})
	}
	run("logged/marshal", func() []byte { data, _ := json.Marshal(l); return data })
	run("logged/append", func() []byte { return l.AppendJSON(make([]byte, 0, 256)) })
	run("event/marshal", func() []byte { data, _ := json.Marshal(view); return data })
	run("event/append", func() []byte { return view.AppendJSON(make([]byte, 0, 128)) })
}
