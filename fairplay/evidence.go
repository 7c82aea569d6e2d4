package fairplay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Rule is when evidence becomes a flag.
type Rule struct {
	// Alpha bounds the chance that an honest player is ever flagged: the
	// flag is raised when the score reaches log(1/Alpha).
	Alpha float64 `json:"alpha"`
	// MinSegments is the fewest informative segments before a flag.
	MinSegments int `json:"minSegments"`
}

// DefaultRule is the server's and the simulator's rule.
var DefaultRule = Rule{Alpha: Alpha, MinSegments: MinSegments}

// FlaggedBy reports whether the evidence passes the rule.
func (e Evidence) FlaggedBy(r Rule) bool {
	return e.Segments >= r.MinSegments && e.Score() >= -ln(r.Alpha)
}

// HoleReport is one analysed hole of one player, as stored.
type HoleReport struct {
	// Player is the opaque id the evidence is kept under; Name is the
	// name the player played under.
	Player string `json:"player"`
	Name   string `json:"name"`
	// Room, Round and Hole say where; Replay is the path of the hole's
	// replay (the HTTP API).
	Room   string    `json:"room"`
	Round  int       `json:"round"`
	Hole   int       `json:"hole"`
	Replay string    `json:"replay"`
	Score  int       `json:"score"`
	At     time.Time `json:"at"`
	// Analysis is the decision walk; LogLR its log likelihood ratio.
	Analysis Hole    `json:"analysis"`
	LogLR    float64 `json:"logLR"`
}

// Flag is a player whose evidence passed the rule: their results are held
// for review (never removed automatically).
type Flag struct {
	Player    string    `json:"player"`
	Name      string    `json:"name"`
	FlaggedAt time.Time `json:"flaggedAt"`
	// Score is log of the likelihood ratio when flagged; Threshold the
	// rule's log(1/Alpha).
	Score     float64  `json:"score"`
	Threshold float64  `json:"threshold"`
	Evidence  Evidence `json:"evidence"`
	// Holes are the player's analysed holes with their discriminating
	// decisions (the most recent MaxReports).
	Holes []HoleReport `json:"holes"`
	// Held marks the player's results as held for review: true while
	// Status is StatusHeld or StatusConfirmed.
	Held bool `json:"held"`
	// Status is the moderators' decision: held (not yet reviewed),
	// cleared or confirmed; ReviewedAt when it was taken.
	Status     Status    `json:"status"`
	ReviewedAt time.Time `json:"reviewedAt,omitzero"`
}

// Status is where a flag stands in review.
type Status string

// The statuses of a flag.
const (
	// StatusHeld: flagged, not yet reviewed; the player's rated results
	// are held.
	StatusHeld Status = "held"
	// StatusCleared: a moderator found the play fair; held results are
	// released and the player is not held again.
	StatusCleared Status = "cleared"
	// StatusConfirmed: a moderator confirmed unfair play; held results
	// are voided, and later ones too.
	StatusConfirmed Status = "confirmed"
)

// Reviewed reports whether s is a moderator's decision.
func (s Status) Reviewed() bool { return s == StatusCleared || s == StatusConfirmed }

// ErrBadStatus is returned for a review that is not cleared or confirmed.
var ErrBadStatus = errors.New("fairplay: a review is cleared or confirmed")

// HeldResult is a result kept back because a player in it was held: an
// opaque payload (the server's record of a rated round) released when
// every held player in it is cleared, voided when one is confirmed.
type HeldResult struct {
	// Key names the result (a room and round); Players are the player ids
	// in it.
	Key     string    `json:"key"`
	Players []string  `json:"players"`
	At      time.Time `json:"at"`
	Payload []byte    `json:"payload"`
}

// HoldChecker says whether a player's results are held for review (the
// ratings and standings ask it).
type HoldChecker interface {
	Held(ctx context.Context, player string) (Status, bool, error)
}

// Store keeps the evidence, the flags and the held results. Every
// implementation passes fairplaytest.Run.
type Store interface {
	HoldChecker
	// AddHole folds a hole report into its player's evidence and keeps
	// the report (the latest MaxReports); it returns the evidence after.
	AddHole(ctx context.Context, r HoleReport) (Evidence, error)
	// Player returns a player's evidence and kept reports, oldest first,
	// or ErrNotFound.
	Player(ctx context.Context, id string) (Evidence, []HoleReport, error)
	// SetFlag records a flag. A player already flagged keeps the first
	// flag's time and any review (a cleared player is not held again);
	// the evidence is the newer.
	SetFlag(ctx context.Context, f Flag) error
	// Flags lists the flags, earliest first.
	Flags(ctx context.Context) ([]Flag, error)
	// Review records a moderator's decision on a flag (ErrNotFound
	// without one, ErrBadStatus for anything but cleared or confirmed)
	// and returns the flag after it.
	Review(ctx context.Context, player string, s Status, at time.Time) (Flag, error)
	// HoldResult keeps a result back (a second one with the same key is
	// ignored); Results lists those naming the player, oldest first;
	// DropResult forgets one (released or voided).
	HoldResult(ctx context.Context, r HeldResult) error
	Results(ctx context.Context, player string) ([]HeldResult, error)
	DropResult(ctx context.Context, key string) error
}

var _ Store = (*MemoryStore)(nil)

// MaxReports is how many hole reports are kept per player.
const MaxReports = 200

// ErrNotFound is returned for a player with no evidence.
var ErrNotFound = errors.New("fairplay: no evidence for that player")

// MemoryStore keeps evidence and flags in memory. It is safe for
// concurrent use. The PostgreSQL one is fairplay/postgres; both pass the
// contract suite in fairplaytest.
type MemoryStore struct {
	mu      sync.Mutex
	players map[string]*memPlayer
	flags   map[string]Flag
	held    []HeldResult
}

type memPlayer struct {
	ev      Evidence
	reports []HoleReport
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{players: map[string]*memPlayer{}, flags: map[string]Flag{}}
}

// AddHole folds a hole report into its player's evidence and keeps the
// report; it returns the player's evidence after it.
func (m *MemoryStore) AddHole(ctx context.Context, r HoleReport) (Evidence, error) {
	if r.Player == "" {
		return Evidence{}, errors.New("fairplay: a hole report needs a player id")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.players[r.Player]
	if p == nil {
		p = &memPlayer{}
		m.players[r.Player] = p
	}
	p.ev.Add(r.Analysis)
	p.reports = append(p.reports, r)
	if len(p.reports) > MaxReports {
		p.reports = slices.Delete(p.reports, 0, len(p.reports)-MaxReports)
	}
	return p.ev.clone(), nil
}

// Player returns a player's evidence and kept reports, oldest first.
func (m *MemoryStore) Player(ctx context.Context, id string) (Evidence, []HoleReport, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.players[id]
	if p == nil {
		return Evidence{}, nil, ErrNotFound
	}
	return p.ev.clone(), slices.Clone(p.reports), nil
}

// SetFlag records a flag; a player already flagged keeps the first flag's
// time and gets the newer evidence.
func (m *MemoryStore) SetFlag(ctx context.Context, f Flag) error {
	if f.Player == "" {
		return errors.New("fairplay: a flag needs a player id")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f = f.Merge(m.flags[f.Player])
	f.Holes = slices.Clone(f.Holes)
	m.flags[f.Player] = f
	return nil
}

// Merge is f recorded over old (the zero Flag if none): the first flag's
// time and any review are kept.
func (f Flag) Merge(old Flag) Flag {
	if old.Player != "" && !old.FlaggedAt.IsZero() {
		f.FlaggedAt = old.FlaggedAt
	}
	if old.Status.Reviewed() {
		f.Status, f.ReviewedAt = old.Status, old.ReviewedAt
	}
	if !f.Status.Reviewed() {
		f.Status, f.ReviewedAt = StatusHeld, time.Time{}
	}
	f.Held = f.Status != StatusCleared
	return f
}

// Reviewed is f after a moderator's decision.
func (f Flag) Reviewed(s Status, at time.Time) Flag {
	f.Status, f.ReviewedAt, f.Held = s, at.UTC(), s != StatusCleared
	return f
}

// CheckReview checks a review's arguments.
func CheckReview(player string, s Status) error {
	if player == "" {
		return errors.New("fairplay: a review needs a player id")
	}
	if !s.Reviewed() {
		return fmt.Errorf("%w, not %q", ErrBadStatus, s)
	}
	return nil
}

// CheckHeldResult checks a held result before it is kept.
func CheckHeldResult(r HeldResult) error {
	if r.Key == "" || len(r.Players) == 0 || slices.Contains(r.Players, "") {
		return errors.New("fairplay: a held result needs a key and its players' ids")
	}
	return nil
}

// Review records a moderator's decision on a flag.
func (m *MemoryStore) Review(ctx context.Context, player string, s Status, at time.Time) (Flag, error) {
	if err := CheckReview(player, s); err != nil {
		return Flag{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.flags[player]
	if !ok {
		return Flag{}, ErrNotFound
	}
	f = f.Reviewed(s, at)
	m.flags[player] = f
	f.Holes = slices.Clone(f.Holes)
	return f, nil
}

// Held reports a player's flag status and whether their results are held.
func (m *MemoryStore) Held(ctx context.Context, player string) (Status, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.flags[player]
	if !ok {
		return "", false, nil
	}
	return f.Status, f.Held, nil
}

// HoldResult keeps a result back; a second one with the same key is
// ignored.
func (m *MemoryStore) HoldResult(ctx context.Context, r HeldResult) error {
	if err := CheckHeldResult(r); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if slices.ContainsFunc(m.held, func(h HeldResult) bool { return h.Key == r.Key }) {
		return nil
	}
	r.Players, r.Payload, r.At = slices.Clone(r.Players), slices.Clone(r.Payload), r.At.UTC()
	m.held = append(m.held, r)
	return nil
}

// Results lists the held results naming the player, oldest first.
func (m *MemoryStore) Results(ctx context.Context, player string) ([]HeldResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []HeldResult
	for _, h := range m.held {
		if slices.Contains(h.Players, player) {
			h.Players, h.Payload = slices.Clone(h.Players), slices.Clone(h.Payload)
			out = append(out, h)
		}
	}
	return out, nil
}

// DropResult forgets a held result; an unknown key is not an error.
func (m *MemoryStore) DropResult(ctx context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.held = slices.DeleteFunc(m.held, func(h HeldResult) bool { return h.Key == key })
	return nil
}

// Flags lists the flags, earliest first.
func (m *MemoryStore) Flags(ctx context.Context) ([]Flag, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Flag, 0, len(m.flags))
	for _, f := range m.flags {
		f.Holes = slices.Clone(f.Holes)
		out = append(out, f)
	}
	SortFlags(out)
	return out, nil
}

// SortFlags sorts flags earliest first (then by player id).
func SortFlags(out []Flag) {
	slices.SortFunc(out, func(a, b Flag) int {
		if c := a.FlaggedAt.Compare(b.FlaggedAt); c != 0 {
			return c
		}
		switch {
		case a.Player < b.Player:
			return -1
		case a.Player > b.Player:
			return 1
		}
		return 0
	})
}

func (e Evidence) clone() Evidence {
	e.Wealth = e.Wealth.clone()
	return e
}
