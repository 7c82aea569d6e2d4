package match

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"golfsolitaire/golf"
)

// Format is stroke play or match play.
type Format string

// The formats of rules.md.
const (
	Stroke    Format = "stroke"
	Matchplay Format = "match"
)

// ErrInvalid is wrapped by every validation error of settings and events.
var ErrInvalid = errors.New("match: invalid")

// Settings are chosen when a room is created.
type Settings struct {
	// Variant is the game and its options (rules.md).
	Variant golf.Variant `json:"-"`
	// Holes is the number of holes, 1 to 18 (9 and 18 are the presets).
	Holes int `json:"holes"`
	// Format is stroke or match.
	Format Format `json:"format"`
	// Seats is 1-8 for stroke play (1 is solo practice) and 2 for match play.
	Seats int `json:"seats"`
	// HoleClock is the time allowed for a hole in seconds; 0 for none.
	HoleClock int `json:"holeClock"`
	// SuddenDeath plays extra holes in match play until a hole is won.
	SuddenDeath bool `json:"suddenDeath"`
	// SkipUnclearable replaces deals that can be seen to be unclearable.
	SkipUnclearable bool `json:"skipUnclearable"`
	// Countback breaks stroke-play ties on the last 9, 6, 3 and 1 holes.
	Countback bool `json:"countback"`
	// Public rooms are listed in the lobby.
	Public bool `json:"public"`
	// Spectators may watch when true.
	Spectators bool `json:"spectators"`
	// SpectatorDelay delays what spectators see, in seconds.
	SpectatorDelay int `json:"spectatorDelay"`
	// Grace is how long, in seconds, a disconnected player has once everyone
	// else has finished the hole before their hole is scored as it stands.
	Grace int `json:"grace"`
	// AutoStart starts the round when every seat is taken and ready.
	AutoStart bool `json:"autoStart"`
	// Deal, in solo practice only, plays numbered deals instead of a secret
	// round seed: hole h is numbered deal Deal+h-1 (deals.md), so a deal
	// can be shared by its number. 0 for the usual random round.
	Deal int `json:"deal,omitempty"`
	// WinnableOnly replaces a hole's deal by the next replacement seed
	// until the solver clears it within SolveNodes (deterministic: every
	// player gets the same deal and anyone can check it).
	WinnableOnly bool `json:"winnableOnly,omitempty"`
	// Difficulty, 1-4, replaces a hole's deal by the next replacement seed
	// until golf.Rate gives that level (easy, fair, hard, expert); 0 for
	// any deal.
	Difficulty int `json:"difficulty,omitempty"`
	// Daily marks the deal of the day (Deal is then the date as YYYYMMDD,
	// set by the server when the room is created).
	Daily bool `json:"daily,omitempty"`
	// Rated rooms are for accounts only (the server seats each account
	// at most once, by its account name), have no undo, hints or bots,
	// and move the players' Glicko-2 ratings when the round ends.
	Rated bool `json:"rated,omitempty"`
}

// dailyDeal is the number of the deal of the day: the UTC date as
// YYYYMMDD, the same for everyone.
func dailyDeal(t time.Time) int {
	t = t.UTC()
	return t.Year()*10000 + int(t.Month())*100 + t.Day()
}

// DefaultSettings are strict Golf, nine holes, match play, as quick match
// uses.
func DefaultSettings() Settings {
	return Settings{
		Variant: golf.DefaultVariant(), Holes: 9, Format: Matchplay, Seats: 2,
		SkipUnclearable: true, Countback: true, Public: true, Spectators: true,
		Grace: 60, AutoStart: true,
	}
}

// Limits on settings.
const (
	maxHoles          = 18
	MaxSeats          = 8
	maxHoleClock      = 3600
	maxSpectatorDelay = 600
	maxGrace          = 600
)

// Validate reports the first problem with the settings, wrapping ErrInvalid.
func (s Settings) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
	}
	if s.Variant.Game == "" {
		return bad("game is required")
	}
	if s.Holes < 1 || s.Holes > maxHoles {
		return bad("holes must be 1 to %d, not %d", maxHoles, s.Holes)
	}
	switch s.Format {
	case Stroke:
		if s.Seats < 1 || s.Seats > MaxSeats {
			return bad("stroke play takes 1 to %d seats, not %d", MaxSeats, s.Seats)
		}
		if s.SuddenDeath {
			return bad("sudden death is for match play")
		}
	case Matchplay:
		if s.Seats != 2 {
			return bad("match play takes 2 seats, not %d", s.Seats)
		}
	default:
		return bad("format must be stroke or match, not %q", s.Format)
	}
	if s.HoleClock < 0 || s.HoleClock > maxHoleClock {
		return bad("holeClock must be 0 to %d seconds", maxHoleClock)
	}
	if s.SpectatorDelay < 0 || s.SpectatorDelay > maxSpectatorDelay {
		return bad("spectatorDelay must be 0 to %d seconds", maxSpectatorDelay)
	}
	if s.Grace < 0 || s.Grace > maxGrace {
		return bad("grace must be 0 to %d seconds", maxGrace)
	}
	if s.Variant.Options.Undo && s.Seats != 1 {
		return bad("undo is allowed in solo practice only")
	}
	if s.Deal < 0 || (s.Deal > 0 || s.Daily) && s.Seats != 1 {
		return bad("numbered and daily deals are for solo practice only (their deals are known in advance)")
	}
	if s.Rated && (s.Seats < 2 || s.Deal > 0 || s.Daily) {
		return bad("rated rooms need 2 or more seats and a secret round seed (no solo practice, numbered or daily deals)")
	}
	if s.Difficulty < 0 || s.Difficulty > int(golf.Expert) {
		return bad("difficulty must be 0 (any) or 1 (easy) to %d (expert)", golf.Expert)
	}
	if (s.WinnableOnly || s.Difficulty > 0) && (s.Deal > 0 || s.Daily) {
		return bad("numbered and daily deals are never replaced: no winnableOnly or difficulty with them")
	}
	return nil
}

// DealsNeeded is how many deal seeds the server chooses before a round
// starts (Event.Deals): for winnableOnly and difficulty rounds, whose
// deals only the solver can pick, one a hole plus the most sudden death
// can add; 0 when the round seed alone gives the deals.
func (s Settings) DealsNeeded() int {
	if s.Deal > 0 || s.Daily || (!s.WinnableOnly && s.Difficulty == 0) {
		return 0
	}
	if s.SuddenDeath {
		return s.Holes + maxExtraHoles
	}
	return s.Holes
}

// Solo reports whether the room is solo practice.
func (s Settings) Solo() bool { return s.Seats == 1 }

// Par is the par of the round: 5 a hole.
func (s Settings) Par() int { return 5 * s.Holes }

type settingsJSON struct {
	Game    golf.Game        `json:"game"`
	Options golf.OptionsJSON `json:"options"`
	*settingsAlias
}

// settingsIn is settingsJSON as read: options by name, checked by golf.
type settingsIn struct {
	Game    golf.Game      `json:"game"`
	Options map[string]any `json:"options"`
	*settingsAlias
}

type settingsAlias Settings

// MarshalJSON writes the settings with the game and its options.
func (s Settings) MarshalJSON() ([]byte, error) {
	a := settingsAlias(s)
	return json.Marshal(settingsJSON{Game: s.Variant.Game, Options: golf.OptionsJSON{Game: s.Variant.Game, Options: s.Variant.Options}, settingsAlias: &a})
}

// UnmarshalJSON reads settings strictly: unknown fields are errors and
// missing fields take DefaultSettings' values (the format's seat count when
// seats is left out). The result is validated.
func (s *Settings) UnmarshalJSON(b []byte) error {
	out := DefaultSettings()
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return fmt.Errorf("%w: settings: %v", ErrInvalid, err)
	}
	a := settingsAlias(out)
	raw := settingsIn{settingsAlias: &a}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	d.DisallowUnknownFields()
	if err := d.Decode(&raw); err != nil {
		return fmt.Errorf("%w: settings: %v", ErrInvalid, err)
	}
	out = Settings(a)
	game := string(golf.GolfGame)
	if raw.Game != "" {
		game = string(raw.Game)
	}
	v, err := golf.NewVariant(game, raw.Options)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	out.Variant = v
	if _, ok := probe["seats"]; !ok && out.Format == Stroke {
		out.Seats = 2
	}
	if err := out.Validate(); err != nil {
		return err
	}
	*s = out
	return nil
}
