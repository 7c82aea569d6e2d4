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
