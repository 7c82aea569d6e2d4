package tourney

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// Format is stroke play or a match-play knockout.
type Format string

// The formats.
const (
	Stroke   Format = "stroke"
	Knockout Format = "knockout"
)

// ErrInvalid is wrapped by every validation error of settings and events.
var ErrInvalid = errors.New("tourney: invalid")

// Settings are chosen when a tournament is created and never change.
type Settings struct {
	Name    string       `json:"name"`
	Variant golf.Variant `json:"-"`
	// Holes is 9 or 18 (per match in a knockout).
	Holes  int    `json:"holes"`
	Format Format `json:"format"`
	// Starts is when play starts; zero: when the host says.
	Starts time.Time `json:"starts,omitzero"`
	// Closes is when a stroke-play tournament closes (earlier when every
	// entrant has finished, unless LateEntry keeps it open to the end);
	// zero: when every entrant has finished or the host closes it.
	Closes time.Time `json:"closes,omitzero"`
	// Invite: entry needs the invitation code (given to the host).
	Invite bool `json:"invite"`
	// Limit is the most entrants; 0 for no limit.
	Limit int `json:"limit"`
	// Countback breaks ties of finished entrants on the last 9, 6, 3, 1.
	Countback       bool `json:"countback"`
	SkipUnclearable bool `json:"skipUnclearable"`
	// WinnableOnly and Difficulty choose every hole's deal as in rooms
	// (match.Settings): a deal the solver clears, a deal of that level
	// (1 easy to 4 expert; 0 any).
	WinnableOnly bool `json:"winnableOnly,omitempty"`
	Difficulty   int  `json:"difficulty,omitempty"`
	// Qualifying seeds a knockout by a stroke-play qualifying round over
	// the same number of holes (on its own seed) instead of join order.
	Qualifying bool `json:"qualifying,omitempty"`
	// Accounts: entering needs an account, and each entrant is named by
	// their account (the server sees to it), so with names unique in a
	// tournament an account enters once.
	Accounts bool `json:"accounts,omitempty"`
	// MinRatedGames, with Accounts, is how many rated rounds of the game
	// an account must have played to enter; 0 for none.
	MinRatedGames int `json:"minRatedGames,omitempty"`
	// Rated: when the tournament closes its entrants who finished every
	// hole are rated by their final places among themselves (one rating
	// period, pairwise results, as a stroke-play room). Needs accounts
	// and stroke play.
	Rated bool `json:"rated,omitempty"`
	// LateEntry (stroke play with a closing time) keeps entries open
	// until the close; then no hole is safe (no records, replays or
	// deals of anyone's hole are shown) before the close, since a late
	// entrant plays the same deals.
	LateEntry bool `json:"lateEntry,omitempty"`
	// Schedule is the cadence of a tournament the server created on its
	// schedule (Slot.Settings); empty for one a player created.
	Schedule Cadence `json:"schedule,omitempty"`
}

// Limits.
const (
	maxName     = 48
	maxEntrants = 100000
	// maxRounds is how many knockout rounds a tournament can have (seeds
	// drawn at creation): 2^maxRounds entrants.
	maxRounds = 16
)

// DefaultSettings are a nine-hole stroke-play tournament of strict Golf,
// starting when the host says.
func DefaultSettings() Settings {
	return Settings{Name: "Tournament", Variant: golf.DefaultVariant(), Holes: 9, Format: Stroke, Countback: true, SkipUnclearable: true}
}

// Validate reports the first problem, wrapping ErrInvalid.
func (s Settings) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	if err := checkName(s.Name); err != nil {
		return err
	}
	if s.Variant.Game == "" {
		return bad("game is required")
	}
	if s.Variant.Options.Undo {
		return bad("no undo in a tournament")
	}
	if s.Holes != 9 && s.Holes != 18 {
		return bad("holes must be 9 or 18, not %d", s.Holes)
	}
	switch s.Format {
	case Stroke, Knockout:
	default:
		return bad("format must be stroke or knockout, not %q", s.Format)
	}
	if s.Limit < 0 || s.Limit > maxEntrants {
		return bad("limit must be 0 to %d", maxEntrants)
	}
	if s.Format == Knockout && s.Limit == 1 {
		return bad("a knockout needs at least 2 entrants")
	}
	if !s.Closes.IsZero() && (s.Starts.IsZero() || !s.Closes.After(s.Starts)) {
		return bad("closes must be after a set start time")
	}
	if s.Qualifying && s.Format != Knockout {
		return bad("a qualifying round is for knockouts")
	}
	if s.MinRatedGames < 0 || s.MinRatedGames > 0 && !s.Accounts {
		return bad("minRatedGames is 0 or more, and needs accounts: true")
	}
	if s.LateEntry && (s.Format != Stroke || s.Closes.IsZero()) {
		return bad("late entry needs stroke play and a closing time")
	}
	if s.Rated && (!s.Accounts || s.Format != Stroke) {
		return bad("a rated tournament needs accounts: true and stroke play")
	}
	if s.Difficulty < 0 || s.Difficulty > int(golf.Expert) {
		return bad("difficulty must be 0 (any) or 1 (easy) to %d (expert)", golf.Expert)
	}
	switch s.Schedule {
	case "", Hourly, Daily, Weekly:
	default:
		return bad("schedule must be hourly, daily or weekly, not %q", s.Schedule)
	}
	if s.Schedule != "" && s.Starts.IsZero() {
		return bad("a scheduled tournament has a start time")
	}
	if s.Format == Knockout && !s.Closes.IsZero() {
		return bad("a knockout closes when its final is decided")
	}
	return nil
}

// StrokeRoomSettings are the settings of an entrant's one-seat stroke
// room: the stroke-play tournament's, or a knockout's qualifying round.
func (s Settings) StrokeRoomSettings() match.Settings {
	r := s
	r.Format = Stroke
	return r.RoomSettings()
}

// RoomSettings are the settings of the rooms the tournament's holes are
// played in: a one-seat stroke room per entrant, or a two-seat match-play
// room per knockout match.
func (s Settings) RoomSettings() match.Settings {
	r := match.Settings{
		Variant: s.Variant, Holes: s.Holes, Format: match.Stroke, Seats: 1,
		SkipUnclearable: s.SkipUnclearable, Countback: s.Countback, Grace: 60, AutoStart: true,
		WinnableOnly: s.WinnableOnly, Difficulty: s.Difficulty,
	}
	if s.Format == Knockout {
		r.Format, r.Seats, r.SuddenDeath = match.Matchplay, 2, true
	}
	return r
}

// Par is 5 a hole.
func (s Settings) Par() int { return 5 * s.Holes }

type settingsJSON struct {
	Game    golf.Game      `json:"game"`
	Options map[string]any `json:"options"`
	*settingsAlias
}

type settingsAlias Settings

// MarshalJSON writes the settings with the game and its options.
func (s Settings) MarshalJSON() ([]byte, error) {
	a := settingsAlias(s)
	return json.Marshal(settingsJSON{Game: s.Variant.Game, Options: s.Variant.Options.Map(s.Variant.Game), settingsAlias: &a})
}

// UnmarshalJSON reads settings strictly (unknown fields are errors);
// missing fields take DefaultSettings' values. The result is validated.
func (s *Settings) UnmarshalJSON(b []byte) error {
	a := settingsAlias(DefaultSettings())
	raw := settingsJSON{settingsAlias: &a}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	d.DisallowUnknownFields()
	if err := d.Decode(&raw); err != nil {
		return fmt.Errorf("%w: settings: %v", ErrInvalid, err)
	}
	game := string(golf.GolfGame)
	if raw.Game != "" {
		game = string(raw.Game)
	}
	v, err := golf.NewVariant(game, raw.Options)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	out := Settings(a)
	out.Variant = v
	if err := out.Validate(); err != nil {
		return err
	}
	*s = out
	return nil
}

// checkName checks a tournament's name: trimmed, 1 to maxName characters,
// no control characters.
func checkName(name string) error {
	if name == "" || strings.TrimSpace(name) != name {
		return fmt.Errorf("%w: a tournament needs a name (without surrounding spaces)", ErrInvalid)
	}
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxName {
		return fmt.Errorf("%w: a tournament name is at most %d characters", ErrInvalid, maxName)
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return fmt.Errorf("%w: control characters in the name", ErrInvalid)
		}
	}
	return nil
}
