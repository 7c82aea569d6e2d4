package match

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"golfsolitaire/golf"
)

// sameAsMarshal fails unless v.AppendJSON writes what json.Marshal does.
func sameAsMarshal(t *testing.T, what string, v View) {
	t.Helper()
	sameBytesAsMarshal(t, what, v.AppendJSON(nil), v)
}

// sameBytesAsMarshal fails unless got is what json.Marshal writes of v.
func sameBytesAsMarshal(t *testing.T, what string, got []byte, v any) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: json.Marshal: %v", what, err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s: AppendJSON differs from json.Marshal at byte %d:\n got  …%s\n want …%s", what, i, tail(got, i), tail(want, i))
	}
}

func tail(b []byte, i int) string {
	from := max(0, i-40)
	return string(b[from:min(len(b), i+60)])
}

// TestViewAppendJSON plays random rounds of every game, format and kind of
// room, and after every event compares each viewer's view (every seat, a
// spectator, nobody) as AppendJSON writes it with json.Marshal's bytes,
// and reads it with decodeView as a client holds it (decodesAsHeld). It
// checks every event of the rounds too: Logged.AppendJSON and each
// viewer's EventView.AppendJSON against json.Marshal (loggedSameAsMarshal).
func TestViewAppendJSON(t *testing.T) {
	t.Parallel()
	var reordered atomic.Int64
	t.Cleanup(func() {
		if reordered.Load() == 0 {
			t.Error("no view was held with its members out of AppendJSON's order")
		}
	})
	eachRoomView(t, func(t *testing.T) roomChecks {
		decodes := decodesAsHeld(t, &reordered)
		return roomChecks{
			view: func(what string, seat int, v View) {
				sameAsMarshal(t, what, v)
				decodes(what, seat, v)
			},
			event: func(what string, r *Room, l Logged) { loggedSameAsMarshal(t, what, r, l) },
		}
	})
}

// viewRoom is a kind of room whose views the JSON tests play through.
type viewRoom struct {
	name string
	set  func(*Settings)
}

// viewRooms are every game as a match, and stroke play, solo practice,
// rated and variant rooms.
func viewRooms() []viewRoom {
	var rooms []viewRoom
	for _, g := range golf.Games {
		rooms = append(rooms, viewRoom{string(g) + " match", func(s *Settings) {
			s.Variant = golf.Variant{Game: g, Options: g.Defaults()}
			s.Holes, s.SuddenDeath, s.HoleClock = 2, true, 60
			if g == golf.DoubleGolf {
				s.Holes = 1 // two packs: long holes, costly best scores
			}
		}})
	}
	return append(rooms,
		viewRoom{"stroke of four", func(s *Settings) { s.Format, s.Seats, s.Holes, s.Spectators = Stroke, 4, 2, true }},
		viewRoom{"solo practice", func(s *Settings) {
			s.Format, s.Seats, s.Holes, s.Deal = Stroke, 1, 2, 12
			s.Variant.Options.Undo = true
		}},
		viewRoom{"rated stroke", func(s *Settings) {
			s.Format, s.Seats, s.Holes, s.Rated, s.Public, s.SpectatorDelay = Stroke, 3, 2, true, false, 30
		}},
		viewRoom{"jokers and redeals", func(s *Settings) {
			s.Variant.Options.Jokers, s.Variant.Options.Redeals, s.Variant.Options.Kings = 2, 1, golf.Wrap
			s.Variant.Options.FreeStart, s.Variant.Options.NegativeScore = true, false
		}},
	)
}

// roomChecks are the checks eachRoomView runs in a round: view with each
// viewer (every seat, a spectator, nobody) and its view after events, and
// event (if not nil) with every event as the room logs it (Room.Log, as
// the hub does) just after applying it.
type roomChecks struct {
	view  func(what string, seat int, v View)
	event func(what string, r *Room, l Logged)
}

// eachRoomView plays a random round in each of viewRooms (a parallel
// subtest each, whose checks are newChecks'), and runs the checks after
// every event.
func eachRoomView(t *testing.T, newChecks func(t *testing.T) roomChecks) {
	names := []string{"Ana", `Bo "the" <b>&`, "Zoë", "李", "O'Brien"}
	for k, rc := range viewRooms() {
		t.Run(rc.name, func(t *testing.T) {
			t.Parallel()
			set := DefaultSettings()
			rc.set(&set)
			create := Event{Kind: KindCreate, At: t0, Code: "JSON-" + fmt.Sprint(k), Settings: &set}
			r, err := NewRoom(create)
			if err != nil {
				t.Fatal(err)
			}
			check := newChecks(t)
			if check.event != nil {
				check.event("create", r, r.Log(create, nil))
			}
			rng := rand.New(rand.NewPCG(uint64(k), 99))
			at := t0
			events := 0
			// checked reports whether the checks run after the event just
			// applied. Under -race (some thirty times slower here, and
			// nothing concurrent to find) every seventh event in play is
			// checked; `go test ./match/` (.ci/run's property checks)
			// checks all.
			checked := func() bool {
				events++
				return !raceEnabled || events%7 == 1 || r.Status != Playing
			}
			views := func(what string) {
				t.Helper()
				for _, seat := range []int{0, 1, 2, 3, SpectatorSeat, NoSeat} {
					if seat >= len(r.Seats) && seat >= 0 {
						continue
					}
					check.view(fmt.Sprintf("%s, v%d, seat %d", what, r.Version, seat), seat, r.View(seat))
				}
			}
			apply := func(ev Event) {
				t.Helper()
				at = at.Add(time.Duration(rng.IntN(5000)) * time.Millisecond)
				ev.At = at
				notices, err := r.Apply(ev)
				if err != nil {
					t.Fatalf("%+v: %v", ev, err)
				}
				if !checked() {
					return
				}
				if check.event != nil {
					check.event(fmt.Sprintf("%s, v%d", ev.Kind, r.Version), r, r.Log(ev, notices))
				}
				views(string(ev.Kind))
			}
			views("created")
			for i := range set.Seats {
				apply(Event{Kind: KindJoin, Name: names[(i+k)%len(names)], Token: tokenHash(fmt.Sprint(i))})
			}
			for i := range set.Seats {
				apply(Event{Kind: KindReady, Seat: i, Ready: true, Seed: seedOf(byte(k + 1))})
			}
			for steps := 0; r.Status == Playing; steps++ {
				if steps > 20000 {
					t.Fatal("round does not end")
				}
				h := r.CurrentHole()
				seat := rng.IntN(len(h.Games))
				if h.Games[seat].Done {
					continue
				}
				if set.Seats > 1 && rng.IntN(40) == 0 && !r.Seats[seat].Away {
					apply(Event{Kind: KindAway, Seat: seat})
					apply(Event{Kind: KindBack, Seat: seat})
				}
				legal := h.State(set.Variant, seat).Legal()
				if len(legal) == 0 || rng.IntN(60) == 0 {
					apply(Event{Kind: KindStand, Seat: seat, Hole: h.Number})
				} else {
					apply(Event{Kind: KindMove, Seat: seat, Hole: h.Number, Move: legal[rng.IntN(len(legal))]})
				}
				for _, n := range r.NeedsBest() {
					ev, _ := bestEvent(r, n)
					apply(ev)
				}
			}
		})
	}
}

// TestViewAppendJSONFields fills every field of a view and its parts with
// random values, zero or not (a random choice a field, so omitempty and
// omitzero go both ways), and compares AppendJSON with json.Marshal, and
// decodeView of what it writes with json.Unmarshal (decodeView must take
// every one): a field added to any of them and not to AppendJSON or
// decodeView fails here.
func TestViewAppendJSONFields(t *testing.T) {
	t.Parallel()
	for i, v := range randomViews() {
		what := fmt.Sprintf("random view %d", i)
		sameAsMarshal(t, what, v)
		if b := v.AppendJSON(nil); !sameAsUnmarshal(t, what, b) {
			t.Fatalf("%s: decodeView declined AppendJSON's view:\n%s", what, b)
		}
	}
}

// randomViews are views with every field filled by fill (their settings
// a valid variant, the rest of them random).
func randomViews() []View {
	rng := rand.New(rand.NewPCG(3, 4))
	strs := []string{"", "a", "T2", `q"uote`, "<&>", "é", "\x00", "\xff", "日本"}
	n := 3000
	if raceEnabled {
		n = 300 // all 3,000 in .ci/run's property checks, without -race
	}
	views := make([]View, n)
	for i := range views {
		v := &views[i]
		fill(reflect.ValueOf(v).Elem(), rng, strs, 0)
		v.Settings.Variant = golf.Variant{Game: golf.Games[i%len(golf.Games)], Options: golf.Games[i%len(golf.Games)].Defaults()}
	}
	return views
}

// fill sets v (and everything under it) to random values, each field zero
// half of the time.
func fill(v reflect.Value, rng *rand.Rand, strs []string, depth int) {
	if rng.IntN(2) == 0 && depth > 0 {
		v.SetZero()
		return
	}
	switch v.Type() {
	case reflect.TypeFor[golf.Seed]():
		var s golf.Seed
		for i := range s {
			s[i] = byte(rng.IntN(256))
		}
		v.Set(reflect.ValueOf(s))
		return
	case reflect.TypeFor[golf.Move]():
		// Undo's successors are no action: their record form is "?".
		v.Set(reflect.ValueOf(golf.Move{Action: golf.Action(rng.IntN(6)), Pile: uint8(rng.IntN(65))}))
		return
	case reflect.TypeFor[golf.Card]():
		// A card, a joker or NoCard: json.Marshal refuses anything else.
		c := golf.NewCard(1+rng.IntN(13), golf.Suit(rng.IntN(4)))
		switch rng.IntN(8) {
		case 0:
			c = golf.Joker
		case 1:
			c = golf.NoCard
		}
		v.Set(reflect.ValueOf(c))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2020+rng.IntN(10), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(3)*rng.IntN(1e9), time.UTC)))
			return
		}
		if v.Type() == reflect.TypeFor[golf.Variant]() {
			return // json:"-"; set by the caller (its options must fit its game)
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), rng, strs, depth+1)
			}
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), rng, strs, depth+1)
		v.Set(p)
	case reflect.Slice:
		n := rng.IntN(4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(s.Index(i), rng, strs, depth+1)
		}
		v.Set(s)
	case reflect.String:
		v.SetString(strs[rng.IntN(len(strs))])
	case reflect.Int, reflect.Int64:
		v.SetInt(rng.Int64N(2000) - 1000)
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	default:
		panic("fill: no case for " + v.Type().String())
	}
}

// FuzzViewAppendJSON: any player name (every view carries the names)
// encodes as json.Marshal encodes it.
func FuzzViewAppendJSON(f *testing.F) {
	for _, s := range []string{"Ana", "<script>", "a\u2029b", "\xed\xa0\x80", `\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		v := View{Code: name, Seats: []SeatView{{Name: name}}, Standings: Standings{Rows: []Row{{Name: name, PlaceText: name}}}}
		v.Settings = DefaultSettings()
		sameAsMarshal(t, "name "+name, v)
	})
}
