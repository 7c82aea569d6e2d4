package golf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Game names one of the games the engine plays.
type Game string

// The games. Their layouts and rules are described in docs/rules.md.
const (
	GolfGame    Game = "golf"
	DoubleGolf  Game = "double-golf"
	BlackHole   Game = "black-hole"
	AllInARow   Game = "all-in-a-row"
	TriPeaks    Game = "tripeaks"
	PyramidGolf Game = "pyramid-golf"
)

// Games lists every game in a stable order.
var Games = []Game{GolfGame, DoubleGolf, BlackHole, AllInARow, TriPeaks, PyramidGolf}

// ErrUnknownGame is returned for a game name the engine does not know.
var ErrUnknownGame = errors.New("golf: unknown game")

// ErrBadOption is returned for an unknown option, a bad value, or an option
// that does not apply to the game.
var ErrBadOption = errors.New("golf: bad option")

// ParseGame checks a game name.
func ParseGame(s string) (Game, error) {
	for _, g := range Games {
		if string(g) == s {
			return g, nil
		}
	}
	return "", fmt.Errorf("%w: %q (want one of %s)", ErrUnknownGame, s, gameList())
}

func gameList() string {
	var names []string
	for _, g := range Games {
		names = append(names, string(g))
	}
	return strings.Join(names, ", ")
}

// Kings says how the ends of the rank order behave.
type Kings string

// The kings rules.
const (
	// Strict: nothing goes on a king; a king may go on a queen.
	Strict Kings = "strict"
	// QueenOnKing: a queen may also go on a king; kings and aces do not meet.
	QueenOnKing Kings = "queen-on-king"
	// Wrap: king and ace are neighbours both ways ("Putt Putt").
	Wrap Kings = "wrap"
)

// Options are the rule options of rules.md. The zero value is not
// meaningful; start from Game.Defaults or use parseOptions.
type Options struct {
	Kings         Kings `json:"kings"`
	FreeStart     bool  `json:"freeStart"`
	Jokers        int   `json:"jokers"`
	Columns       int   `json:"columns"`
	Redeals       int   `json:"redeals"`
	Undo          bool  `json:"undo"`
	NegativeScore bool  `json:"negativeScore"`
}

// Option names, as they appear in records, settings and flags.
const (
	OptKings         = "kings"
	OptFreeStart     = "freeStart"
	OptJokers        = "jokers"
	OptColumns       = "columns"
	OptRedeals       = "redeals"
	OptUndo          = "undo"
	OptNegativeScore = "negativeScore"
)

// optionOrder is the order options are printed in.
var optionOrder = []string{OptKings, OptFreeStart, OptJokers, OptColumns, OptRedeals, OptUndo, OptNegativeScore}

// Applies reports whether the named option applies to the game (the table
// in rules.md). An option that does not apply is an error when given.
func (g Game) Applies(option string) bool {
	stockGame := g == GolfGame || g == DoubleGolf
	peaks := g == TriPeaks || g == PyramidGolf
	switch option {
	case OptKings, OptJokers, OptNegativeScore:
		return stockGame || peaks
	case OptFreeStart, OptRedeals:
		return stockGame
	case OptColumns:
		return g == GolfGame
	case OptUndo:
		return true
	}
	return false
}

// Defaults returns the game's default options. Options that do not apply
// to the game hold the values that describe how the game always plays
// (Black Hole always wraps, for example).
func (g Game) Defaults() Options {
	o := Options{Kings: Strict, Columns: 7, NegativeScore: true}
	switch g {
	case DoubleGolf:
		o.Columns = 8
	case TriPeaks, PyramidGolf:
		o.Kings = Wrap
		o.Columns = 0
	case BlackHole:
		o.Kings, o.Columns, o.NegativeScore = Wrap, 17, false
	case AllInARow:
		o.Kings, o.Columns, o.NegativeScore = Wrap, 13, false
	}
	return o
}

// parseOptions builds the options of a game from the options given by name.
// Values may be Go values (string, bool, int, float64, json.Number) or their
// text ("true", "6"). Options left out take the game's defaults; an unknown
// option, a bad value or an option that does not apply to the game is an
// error wrapping ErrBadOption.
func parseOptions(g Game, given map[string]any) (Options, error) {
	if _, err := ParseGame(string(g)); err != nil {
		return Options{}, err
	}
	o := g.Defaults()
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		v := given[name]
		known := false
		for _, n := range optionOrder {
			known = known || n == name
		}
		if !known {
			return Options{}, fmt.Errorf("%w: unknown option %q (options are %s)", ErrBadOption, name, strings.Join(optionOrder, ", "))
		}
		if !g.Applies(name) {
			return Options{}, fmt.Errorf("%w: %s does not apply to %s", ErrBadOption, name, g)
		}
		var err error
		switch name {
		case OptKings:
			var s string
			if s, err = asString(v); err == nil {
				switch Kings(s) {
				case Strict, QueenOnKing, Wrap:
					o.Kings = Kings(s)
				default:
					err = fmt.Errorf("want strict, queen-on-king or wrap, not %q", s)
				}
			}
		case OptFreeStart:
			o.FreeStart, err = asBool(v)
		case OptUndo:
			o.Undo, err = asBool(v)
		case OptNegativeScore:
			o.NegativeScore, err = asBool(v)
		case OptJokers:
			o.Jokers, err = asInt(v, 0, 2)
		case OptColumns:
			o.Columns, err = asInt(v, 6, 7)
		case OptRedeals:
			o.Redeals, err = asInt(v, 0, 1)
		}
		if err != nil {
			return Options{}, fmt.Errorf("%w: %s: %v", ErrBadOption, name, err)
		}
	}
	return o, nil
}

func asString(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", fmt.Errorf("want a string, not %v", v)
}

func asBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		b, err := strconv.ParseBool(x)
		if err != nil {
			return false, fmt.Errorf("want true or false, not %q", x)
		}
		return b, nil
	}
	return false, fmt.Errorf("want true or false, not %v", v)
}

func asInt(v any, lo, hi int) (int, error) {
	var n int64
	var err error
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case float64:
		n = int64(x)
		if float64(n) != x {
			err = fmt.Errorf("want a whole number, not %v", x)
		}
	case json.Number:
		n, err = x.Int64()
	case string:
		n, err = strconv.ParseInt(x, 10, 64)
	default:
		err = fmt.Errorf("want a number, not %v", v)
	}
	if err != nil {
		return 0, err
	}
	if n < int64(lo) || n > int64(hi) {
		if hi == lo+1 {
			return 0, fmt.Errorf("want %d or %d, not %d", lo, hi, n)
		}
		return 0, fmt.Errorf("want %d to %d, not %d", lo, hi, n)
	}
	return int(n), nil
}

// Map returns the options that apply to the game, by name, in the form
// records and settings use. Undo is left out unless it is on, since
// competitive records never have it.
func (o Options) Map(g Game) map[string]any {
	m := map[string]any{}
	for _, name := range optionOrder {
		if !g.Applies(name) {
			continue
		}
		switch name {
		case OptKings:
			m[name] = string(o.Kings)
		case OptFreeStart:
			m[name] = o.FreeStart
		case OptJokers:
			m[name] = o.Jokers
		case OptColumns:
			m[name] = o.Columns
		case OptRedeals:
			m[name] = o.Redeals
		case OptUndo:
			if o.Undo {
				m[name] = true
			}
		case OptNegativeScore:
			m[name] = o.NegativeScore
		}
	}
	return m
}

// orderedOptions is Options printed as JSON in optionOrder, only the options
// that apply to the game.
type orderedOptions struct {
	g Game
	o Options
}

func (x orderedOptions) MarshalJSON() ([]byte, error) {
	return x.o.AppendJSON(make([]byte, 0, 128), x.g), nil
}

// AppendJSON appends the options that apply to the game as a JSON object,
// in the documented order (the form of records and settings), without
// building a map: rooms write their settings into every view they send.
func (o Options) AppendJSON(b []byte, g Game) []byte {
	b = append(b, '{')
	first := true
	key := func(name string) {
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `": `...)
	}
	for _, name := range optionOrder {
		if !g.Applies(name) {
			continue
		}
		switch name {
		case OptKings:
			key(name)
			b = strconv.AppendQuote(b, string(o.Kings))
		case OptFreeStart:
			key(name)
			b = strconv.AppendBool(b, o.FreeStart)
		case OptJokers:
			key(name)
			b = strconv.AppendInt(b, int64(o.Jokers), 10)
		case OptColumns:
			key(name)
			b = strconv.AppendInt(b, int64(o.Columns), 10)
		case OptRedeals:
			key(name)
			b = strconv.AppendInt(b, int64(o.Redeals), 10)
		case OptUndo:
			if o.Undo {
				key(name)
				b = append(b, "true"...)
			}
		case OptNegativeScore:
			key(name)
			b = strconv.AppendBool(b, o.NegativeScore)
		}
	}
	return append(b, '}')
}

// OptionsJSON writes a game's options with Options.AppendJSON; embed it in
// a struct to give the options their record form.
type OptionsJSON struct {
	Game    Game
	Options Options
}

// MarshalJSON implements json.Marshaler.
func (x OptionsJSON) MarshalJSON() ([]byte, error) {
	return x.Options.AppendJSON(make([]byte, 0, 128), x.Game), nil
}

// Variant is a game together with its options: everything needed, with a
// seed, to deal and play.
type Variant struct {
	Game    Game
	Options Options
}

// NewVariant checks the game and options (see parseOptions).
func NewVariant(game string, given map[string]any) (Variant, error) {
	g, err := ParseGame(game)
	if err != nil {
		return Variant{}, err
	}
	o, err := parseOptions(g, given)
	if err != nil {
		return Variant{}, err
	}
	return Variant{Game: g, Options: o}, nil
}

// DefaultVariant is strict seven-column Golf.
func DefaultVariant() Variant { return Variant{Game: GolfGame, Options: GolfGame.Defaults()} }

// MarshalJSON writes {"game": ..., "options": {...}}.
func (v Variant) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Game    Game           `json:"game"`
		Options orderedOptions `json:"options"`
	}{v.Game, orderedOptions{v.Game, v.Options}})
}

// UnmarshalJSON reads {"game": ..., "options": {...}} strictly: an unknown
// field, game or option, a bad value or an option that does not apply is an
// error (see NewVariant). A missing game is Golf; missing options take the
// game's defaults.
func (v *Variant) UnmarshalJSON(b []byte) error {
	var raw struct {
		Game    *string        `json:"game"`
		Options map[string]any `json:"options"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	d.DisallowUnknownFields()
	if err := d.Decode(&raw); err != nil {
		return fmt.Errorf("%w: %v", ErrBadOption, err)
	}
	if _, err := d.Token(); err != io.EOF {
		return fmt.Errorf("%w: trailing data after the variant", ErrBadOption)
	}
	game := string(GolfGame)
	if raw.Game != nil {
		game = *raw.Game
	}
	nv, err := NewVariant(game, raw.Options)
	if err != nil {
		return err
	}
	*v = nv
	return nil
}

// String is a short description, e.g. "golf (kings=strict, columns=7)".
func (v Variant) String() string {
	b, _ := orderedOptions{v.Game, v.Options}.MarshalJSON()
	return string(v.Game) + " " + string(b)
}
