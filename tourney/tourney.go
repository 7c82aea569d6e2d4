package tourney

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/names"
)

// Status is where a tournament is in its life.
type Status string

// The statuses.
const (
	Upcoming Status = "upcoming"
	Live     Status = "live"
	Closed   Status = "closed"
)

// Errors Apply returns (wrapped with detail).
var (
	ErrNotOpen        = errors.New("tourney: entry is closed")
	ErrFull           = errors.New("tourney: the tournament is full")
	ErrAlreadyEntered = errors.New("tourney: already entered")
	ErrNameTaken      = errors.New("tourney: that name is taken in this tournament")
	ErrBadInvite      = errors.New("tourney: this tournament is by invitation")
	ErrNotHost        = errors.New("tourney: only the host may do that")
	ErrNotStarted     = errors.New("tourney: the tournament has not started")
	ErrClosed         = errors.New("tourney: the tournament has closed")
	ErrNoEntrant      = errors.New("tourney: no such entrant")
	ErrNoChange       = errors.New("tourney: nothing to change")
	// ErrAccountEntered refuses a second entry from an account that
	// already holds one (another name, another token: a second tab).
	ErrAccountEntered = errors.New("tourney: this account already has an entry")
	ErrBadEvent       = errors.New("tourney: bad event")
)

// Kind is the kind of an event.
type Kind string

// The event kinds.
const (
	KindCreate  Kind = "create"
	KindJoin    Kind = "join"
	KindStart   Kind = "start"
	KindRoom    Kind = "room"    // an entrant's stroke-play room
	KindResult  Kind = "result"  // an entrant finished a hole
	KindMatch   Kind = "match"   // a knockout match's room
	KindDecided Kind = "decided" // a knockout match is decided
	KindClose   Kind = "close"
	// KindHeld marks entrant Entrant as held for fair-play review (or
	// confirmed), or no longer (Held), in any tournament: appended by the
	// server from the fair-play store (docs/fairplay.md).
	KindHeld Kind = "held"
)

// Event is one entry of a tournament's log. Only the fields of its kind
// are set. Events are stored, never sent as they are (create holds the
// seeds).
type Event struct {
	Kind Kind      `json:"kind"`
	At   time.Time `json:"at"`
	// create
	ID       string      `json:"id,omitempty"`
	Settings *Settings   `json:"settings,omitempty"`
	Seeds    []golf.Seed `json:"seeds,omitempty"`
	Host     string      `json:"host,omitempty"`   // hash of the host's token
	Invite   string      `json:"invite,omitempty"` // hash of the invitation code
	// join (Token is a hash); start and close by the host carry the host's
	// token hash, by the clock none.
	Name  string `json:"name,omitempty"`
	Token string `json:"token,omitempty"`
	// join: the id of the account the entrant was logged in with (0 for a
	// guest); an account holds one entry.
	Account int64 `json:"account,omitempty"`
	// held
	Held bool `json:"held,omitempty"`
	// room, result, decided
	Entrant int    `json:"entrant,omitempty"`
	Room    string `json:"room,omitempty"`
	Hole    int    `json:"hole,omitempty"`
	Score   int    `json:"score,omitempty"`
	End     string `json:"end,omitempty"`
	// match, decided
	Round  int    `json:"round,omitempty"`
	Slot   int    `json:"slot,omitempty"`
	Result string `json:"result,omitempty"`
	// close
	Reason string `json:"reason,omitempty"`
}

// NoticeKind names a Notice.
type NoticeKind string

// The notices of a tournament's events.
const (
	NoticeStarted    NoticeKind = "started"    // the tournament started
	NoticeClosed     NoticeKind = "closed"     // the tournament closed
	NoticeQualified  NoticeKind = "qualified"  // the qualifying round is over
	NoticeMatchReady NoticeKind = "matchReady" // the match at Round, Slot can start
	NoticeAdvanced   NoticeKind = "advanced"   // the match at Round, Slot was decided
)

// Notice is a consequence of an event.
type Notice struct {
	Kind  NoticeKind `json:"kind"`
	Round int        `json:"round,omitempty"`
	Slot  int        `json:"slot,omitempty"`
}

// Entrant is one player of a tournament.
type Entrant struct {
	Name   string    `json:"name"`
	Token  string    `json:"token"` // hex SHA-256 of the entrant's token
	Joined time.Time `json:"joined"`
	// Room is the entrant's stroke-play room, once they have started.
	Room string `json:"room,omitempty"`
	// Scores holds the strokes of each hole (index 0 is hole 1), nil until
	// the hole's result is in.
	Scores []*int    `json:"scores"`
	Ends   []string  `json:"ends"`
	Last   time.Time `json:"last,omitzero"`
	Seed   int       `json:"seed,omitempty"` // knockout seed, 1 is the best
	Out    bool      `json:"out,omitempty"`  // knocked out
	// Account is the id of the account the entrant was logged in with
	// when entering (0 for a guest); never shown. Fair-play evidence and
	// ratings key on it, and an account holds one entry.
	Account int64 `json:"account,omitempty"`
	// Held: the entrant is held for fair-play review, or confirmed
	// (KindHeld); shown on their leaderboard row, and left out of the
	// leaders (Leaders).
	Held bool `json:"held,omitempty"`
}

// Tournament is the whole state of a tournament. Change it only with Apply.
type Tournament struct {
	ID       string    `json:"id"`
	Settings Settings  `json:"settings"`
	Created  time.Time `json:"created"`
	Version  int64     `json:"version"`
	Status   Status    `json:"status"`
	Host     string    `json:"host"`
	Invite   string    `json:"invite,omitempty"`
	// Seeds are the round seeds: one for stroke play, one per knockout
	// round. Secret until the tournament closes.
	Seeds    []golf.Seed `json:"seeds"`
	Entrants []*Entrant  `json:"entrants"`
	Started  time.Time   `json:"started,omitzero"`
	Closed   time.Time   `json:"closed,omitzero"`
	Reason   string      `json:"reason,omitempty"`
	Bracket  *Bracket    `json:"bracket,omitempty"`
	// Phase is "qualifying" while a knockout's qualifying round is played.
	Phase string `json:"phase,omitempty"`
	// Active is the time of the latest event (idleLimit).
	Active time.Time `json:"active,omitzero"`

	byToken map[string]int
	byRoom  map[string]int
	done    []int // per hole, how many entrants have finished it

	// an runs the solver for the best scores of safe holes (SetAnalyzer).
	an *match.Analyzer
}

// SetAnalyzer makes the tournament use the analyzer for the solver's
// answers (the server shares one with its rooms).
func (t *Tournament) SetAnalyzer(a *match.Analyzer) { t.an = a }

func (t *Tournament) analyzer() *match.Analyzer {
	if t.an == nil {
		t.an = match.NewAnalyzer(0, 0)
	}
	return t.an
}

// Rounds is how many knockout rounds a tournament may need (and seeds it
// draws): enough for its limit, or maxRounds.
func (s Settings) Rounds() int {
	if s.Format != Knockout {
		return 1
	}
	n := maxRounds
	if s.Limit > 0 {
		n = 1
		for 1<<n < s.Limit {
			n++
		}
	}
	if s.Qualifying {
		n++
	}
	return n
}

// Qualifying is the phase of a knockout's qualifying round.
const Qualifying = "qualifying"

// StrokePlay reports whether entrants play stroke holes in rooms of their
// own now: a stroke-play tournament, or a knockout's qualifying round.
func (t *Tournament) StrokePlay() bool {
	return t.Settings.Format == Stroke || t.Phase == Qualifying
}

// HasLeaderboard reports whether the tournament has a stroke leaderboard
// (stroke play, or a knockout's qualifying round).
func (t *Tournament) HasLeaderboard() bool {
	return t.Settings.Format == Stroke || t.Settings.Qualifying
}

// StrokeSeed is the round seed of the stroke holes: the stroke-play
// tournament's, or the qualifying round's.
func (t *Tournament) StrokeSeed() golf.Seed { return t.Seeds[0] }

// New returns the tournament a create event makes (version 1).
func New(ev Event) (*Tournament, error) {
	if ev.Kind != KindCreate || ev.Settings == nil || ev.ID == "" || len(ev.Host) != 64 {
		return nil, fmt.Errorf("%w: a tournament starts with a create event", ErrBadEvent)
	}
	if err := ev.Settings.Validate(); err != nil {
		return nil, err
	}
	if len(ev.Seeds) != ev.Settings.Rounds() {
		return nil, fmt.Errorf("%w: %d seeds for %d rounds", ErrBadEvent, len(ev.Seeds), ev.Settings.Rounds())
	}
	if ev.Settings.Invite && len(ev.Invite) != 64 {
		return nil, fmt.Errorf("%w: an invitation tournament needs an invitation code", ErrBadEvent)
	}
	if st := ev.Settings.Starts; !st.IsZero() && st.After(ev.At.Add(maxAhead)) {
		return nil, fmt.Errorf("%w: starts at most %d days ahead", ErrInvalid, maxAhead/(24*time.Hour))
	}
	if cl := ev.Settings.Closes; !cl.IsZero() && cl.After(ev.Settings.Starts.Add(maxAhead)) {
		return nil, fmt.Errorf("%w: closes at most %d days after the start", ErrInvalid, maxAhead/(24*time.Hour))
	}
	t := &Tournament{
		ID: ev.ID, Settings: *ev.Settings, Created: ev.At, Version: 1, Status: Upcoming,
		Host: ev.Host, Invite: ev.Invite, Seeds: ev.Seeds, Entrants: []*Entrant{}, Active: ev.At,
	}
	t.index()
	return t, nil
}

// Decode reads a snapshot written by Encode.
func Decode(b []byte) (*Tournament, error) {
	var t Tournament
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("tourney: decoding a snapshot: %w", err)
	}
	t.index()
	return &t, nil
}

// Encode returns the tournament's snapshot for the store.
func (t *Tournament) Encode() ([]byte, error) { return json.Marshal(t) }

func (t *Tournament) index() {
	t.byToken = make(map[string]int, len(t.Entrants))
	t.byRoom = make(map[string]int, len(t.Entrants))
	t.done = make([]int, t.Settings.Holes)
	for i, e := range t.Entrants {
		t.byToken[e.Token] = i
		if e.Room != "" {
			t.byRoom[e.Room] = i
		}
		for h, s := range e.Scores {
			if s != nil && h < len(t.done) {
				t.done[h]++
			}
		}
	}
	if t.Bracket != nil {
		for _, r := range t.Bracket.Rounds {
			for _, m := range r {
				if m.Room != "" {
					t.byRoom[m.Room] = -1
				}
			}
		}
	}
}

// EntrantOf returns the entrant whose token hash matches, or -1.
func (t *Tournament) EntrantOf(tokenHash string) int {
	if i, ok := t.byToken[tokenHash]; ok {
		return i
	}
	return -1
}

// EntrantOfRoom returns the entrant whose stroke room has the code, or -1.
func (t *Tournament) EntrantOfRoom(code string) int {
	if i, ok := t.byRoom[code]; ok {
		return i
	}
	return -1
}

// Thru is how many holes entrant i has finished.
func (t *Tournament) Thru(i int) int {
	n := 0
	for _, s := range t.Entrants[i].Scores {
		if s != nil {
			n++
		}
	}
	return n
}

// Seed is the round seed of knockout round r (1-based), or the stroke
// round's seed for r = 1 in stroke play. A qualifying round's seed comes
// first, before the knockout rounds'.
func (t *Tournament) Seed(r int) golf.Seed {
	if t.Settings.Qualifying {
		return t.Seeds[r]
	}
	return t.Seeds[r-1]
}

// Commitments are the hex SHA-256 of every round seed: shown from the
// start.
func (t *Tournament) Commitments() []string {
	out := make([]string, len(t.Seeds))
	for i, s := range t.Seeds {
		out[i] = s.Commitment()
	}
	return out
}

// Apply applies the event at version t.Version+1. It validates first: an
// error means nothing changed.
func (t *Tournament) Apply(ev Event) ([]Notice, error) {
	var notices []Notice
	var err error
	switch ev.Kind {
	case KindJoin:
		err = t.join(ev)
	case KindStart:
		notices, err = t.start(ev)
	case KindRoom:
		err = t.room(ev)
	case KindResult:
		notices, err = t.result(ev)
	case KindMatch:
		err = t.matchRoom(ev)
	case KindDecided:
		notices, err = t.decided(ev)
	case KindClose:
		notices, err = t.close(ev)
	case KindHeld:
		err = t.held(ev)
	default:
		err = fmt.Errorf("%w: unknown kind %q", ErrBadEvent, ev.Kind)
	}
	if err != nil {
		return nil, err
	}
	t.Version++
	if ev.At.After(t.Active) {
		t.Active = ev.At
	}
	return notices, nil
}

// CheckJoin reports whether someone may enter now with the name, token
// hash, invitation code hash and account id (0 for a guest): the checks
// of a join event.
func (t *Tournament) CheckJoin(name, token, invite string, account int64) error {
	if t.Status != Upcoming && !(t.Settings.LateEntry && t.Status == Live) {
		return fmt.Errorf("%w: entries close when play starts", ErrNotOpen)
	}
	if t.Settings.Invite && invite != t.Invite {
		return ErrBadInvite
	}
	if t.Settings.Limit > 0 && len(t.Entrants) >= t.Settings.Limit {
		return ErrFull
	}
	if len(token) != 64 {
		return fmt.Errorf("%w: bad token", ErrBadEvent)
	}
	if _, ok := t.byToken[token]; ok {
		return ErrAlreadyEntered
	}
	if account < 0 {
		return fmt.Errorf("%w: bad account id", ErrBadEvent)
	}
	if i := t.EntrantOfAccount(account); i >= 0 {
		return fmt.Errorf("%w: as %q", ErrAccountEntered, t.Entrants[i].Name)
	}
	clean, err := match.CleanName(name)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if names.Reserved(clean) {
		return fmt.Errorf("%w: names with the word \"Bot\" are kept for the bots a host adds", ErrInvalid)
	}
	for _, e := range t.Entrants {
		if names.Confusable(e.Name, clean) {
			return fmt.Errorf("%w: %q is too like %q", ErrNameTaken, clean, e.Name)
		}
	}
	return nil
}

func (t *Tournament) join(ev Event) error {
	if err := t.CheckJoin(ev.Name, ev.Token, ev.Invite, ev.Account); err != nil {
		return err
	}
	if !t.Settings.LateEntry && !t.Settings.Starts.IsZero() && !ev.At.Before(t.Settings.Starts) {
		return fmt.Errorf("%w: entries closed at the start time", ErrNotOpen)
	}
	if t.Settings.LateEntry && !ev.At.Before(t.Settings.Closes) {
		return fmt.Errorf("%w: entries closed at the closing time", ErrNotOpen)
	}
	name, _ := match.CleanName(ev.Name)
	e := &Entrant{Name: name, Token: ev.Token, Joined: ev.At, Scores: make([]*int, t.Settings.Holes), Ends: make([]string, t.Settings.Holes), Account: ev.Account}
	t.Entrants = append(t.Entrants, e)
	t.byToken[ev.Token] = len(t.Entrants) - 1
	return nil
}

// EntrantOfAccount returns the entrant entered by the account, or -1 (always
// -1 for 0, a guest).
func (t *Tournament) EntrantOfAccount(account int64) int {
	if account == 0 {
		return -1
	}
	for i, e := range t.Entrants {
		if e.Account == account {
			return i
		}
	}
	return -1
}

// held marks an entrant as held for fair-play review (or confirmed), or
// no longer, in any tournament: every leaderboard is a competition.
func (t *Tournament) held(ev Event) error {
	e, err := t.entrant(ev.Entrant)
	if err != nil {
		return err
	}
	if e.Held == ev.Held {
		return ErrNoChange
	}
	e.Held = ev.Held
	return nil
}

func (t *Tournament) host(ev Event) bool { return ev.Token != "" && ev.Token == t.Host }

func (t *Tournament) start(ev Event) ([]Notice, error) {
	if t.Status == Live && t.Phase == Qualifying && t.host(ev) {
		// The host ends the qualifying round early: the bracket is drawn
		// from the standings as they are.
		return t.seedBracket(), nil
	}
	if t.Status != Upcoming {
		return nil, ErrNoChange
	}
	byClock := ev.Token == "" && !t.Settings.Starts.IsZero() && !ev.At.Before(t.Settings.Starts)
	if !byClock && !t.host(ev) {
		return nil, ErrNotHost
	}
	notices := []Notice{{Kind: NoticeStarted}}
	if t.Settings.Format == Knockout {
		if len(t.Entrants) < 2 {
			if byClock {
				// Nobody to play: the knockout closes at once.
				t.Status, t.Started, t.Closed, t.Reason = Closed, ev.At, ev.At, "too few entrants"
				return []Notice{{Kind: NoticeClosed}}, nil
			}
			return nil, fmt.Errorf("%w: a knockout needs at least 2 entrants", ErrNotStarted)
		}
		if t.Settings.Qualifying {
			t.Status, t.Started, t.Phase = Live, ev.At, Qualifying
			return notices, nil
		}
		order := make([]int, len(t.Entrants))
		for i := range order {
			order[i] = i
		}
		t.Bracket = newBracket(order)
		for s, i := range order {
			t.Entrants[i].Seed = s + 1
		}
		notices = append(notices, t.Bracket.ready(t)...)
	}
	t.Status, t.Started = Live, ev.At
	return notices, nil
}

func (t *Tournament) entrant(i int) (*Entrant, error) {
	if i < 0 || i >= len(t.Entrants) {
		return nil, fmt.Errorf("%w: %d", ErrNoEntrant, i)
	}
	return t.Entrants[i], nil
}

func (t *Tournament) live() error {
	switch t.Status {
	case Upcoming:
		return ErrNotStarted
	case Closed:
		return ErrClosed
	}
	return nil
}

func (t *Tournament) room(ev Event) error {
	e, err := t.entrant(ev.Entrant)
	if err != nil {
		return err
	}
	if err := t.live(); err != nil {
		return err
	}
	if !t.StrokePlay() {
		return fmt.Errorf("%w: knockout rooms are per match", ErrBadEvent)
	}
	if e.Room != "" {
		return ErrNoChange
	}
	if ev.Room == "" {
		return fmt.Errorf("%w: room code missing", ErrBadEvent)
	}
	e.Room = ev.Room
	t.byRoom[ev.Room] = ev.Entrant
	return nil
}

// result records an entrant's score for a hole, once: a second result for
// the same hole is ErrNoChange, a result after closing ErrClosed.
func (t *Tournament) result(ev Event) ([]Notice, error) {
	e, err := t.entrant(ev.Entrant)
	if err != nil {
		return nil, err
	}
	if err := t.live(); err != nil {
		return nil, err
	}
	if t.Settings.Qualifying && t.Phase != Qualifying {
		return nil, fmt.Errorf("%w: the qualifying round is over", ErrClosed)
	}
	if !t.StrokePlay() {
		return nil, fmt.Errorf("%w: knockout results come with decided", ErrBadEvent)
	}
	if !t.Settings.Closes.IsZero() && !ev.At.Before(t.Settings.Closes) {
		// Past the closing time, even before the close event is in.
		return nil, ErrClosed
	}
	if ev.Hole < 1 || ev.Hole > t.Settings.Holes {
		return nil, fmt.Errorf("%w: no hole %d", ErrBadEvent, ev.Hole)
	}
	if e.Scores[ev.Hole-1] != nil {
		return nil, ErrNoChange
	}
	for h := 1; h < ev.Hole; h++ {
		if e.Scores[h-1] == nil {
			return nil, fmt.Errorf("%w: hole %d before hole %d", ErrBadEvent, ev.Hole, h)
		}
	}
	score := ev.Score
	e.Scores[ev.Hole-1] = &score
	e.Ends[ev.Hole-1] = ev.End
	e.Last = ev.At
	t.done[ev.Hole-1]++
	if t.done[t.Settings.Holes-1] == len(t.Entrants) && t.Phase == Qualifying {
		return t.seedBracket(), nil
	}
	if t.done[t.Settings.Holes-1] == len(t.Entrants) && !t.Settings.LateEntry {
		// With late entry someone may still enter and play until the
		// closing time: only the clock closes it.
		t.Status, t.Closed, t.Reason = Closed, ev.At, "every entrant has finished"
		return []Notice{{Kind: NoticeClosed}}, nil
	}
	return nil, nil
}

func (t *Tournament) close(ev Event) ([]Notice, error) {
	if t.Status == Closed {
		return nil, ErrNoChange
	}
	byClock := ev.Token == "" && !t.Settings.Closes.IsZero() && !ev.At.Before(t.Settings.Closes)
	if d, ok := t.idleDeadline(); ok && ev.Token == "" && !ev.At.Before(d) {
		byClock = true
	}
	if !byClock && !t.host(ev) {
		return nil, ErrNotHost
	}
	t.Status, t.Closed, t.Reason = Closed, ev.At, ev.Reason
	if t.Reason == "" {
		t.Reason = "closed by the host"
		if byClock {
			t.Reason = "closing time"
		}
	}
	return []Notice{{Kind: NoticeClosed}}, nil
}

// Due returns the event the clock makes due at time at (a scheduled start
// or close), if any.
func (t *Tournament) Due(at time.Time) (Event, bool) {
	switch {
	case t.Status == Upcoming && !t.Settings.Starts.IsZero() && !at.Before(t.Settings.Starts):
		return Event{Kind: KindStart, At: at}, true
	case t.Status == Live && !t.Settings.Closes.IsZero() && !at.Before(t.Settings.Closes.Add(ResultGrace)):
		return Event{Kind: KindClose, At: at}, true
	}
	if d, ok := t.idleDeadline(); ok && !at.Before(d) {
		return Event{Kind: KindClose, At: at, Reason: idleReason}, true
	}
	return Event{}, false
}

// idleLimit is how long a tournament that nothing else would end (one
// with no start time that nobody starts, or live with no closing time)
// waits for its next event before the clock closes it. maxAhead bounds
// how far ahead a start time, and a closing time after the start, may be.
// So every tournament closes, and then expires (the server's tournament
// time to live), however it was set up.
const (
	idleLimit = 24 * time.Hour
	maxAhead  = 90 * 24 * time.Hour
)

const idleReason = "no activity for a day"

// idleDeadline is when the clock closes an idle tournament that no start
// or closing time will change.
func (t *Tournament) idleDeadline() (time.Time, bool) {
	if t.Status == Upcoming && t.Settings.Starts.IsZero() || t.Status == Live && t.Settings.Closes.IsZero() {
		return t.Active.Add(idleLimit), true
	}
	return time.Time{}, false
}

// ResultGrace is how long after its closing time the clock closes a
// tournament. A result counts when its hole ended (the result's At)
// before the closing time; the grace lets the results of holes that
// ended just before it arrive (from the room's instance, a moment later)
// before the tournament closes for good.
const ResultGrace = 3 * time.Second

// NextDeadline is when the clock next changes the tournament.
func (t *Tournament) NextDeadline() (time.Time, bool) {
	switch {
	case t.Status == Upcoming && !t.Settings.Starts.IsZero():
		return t.Settings.Starts, true
	case t.Status == Live && !t.Settings.Closes.IsZero():
		return t.Settings.Closes.Add(ResultGrace), true
	}
	return t.idleDeadline()
}

// Safe reports whether hole n's boards and records (of round r in a
// knockout) may be shown to people other than the player: every entrant
// still to play it has finished it, or the tournament has closed. Entries
// close when play starts, so no one can join after a hole became safe.
func (t *Tournament) Safe(r, n int) bool {
	switch t.Status {
	case Closed:
		return true
	case Upcoming:
		return false
	}
	if t.Settings.LateEntry {
		// Someone may still enter and play any hole: nothing is safe
		// before the close.
		return false
	}
	strokeRound := 1
	if t.Settings.Format == Knockout {
		if !t.Settings.Qualifying || r != 0 {
			// Conservative: a round's deals are shown once every match of
			// the round is decided.
			return t.Bracket != nil && t.Bracket.roundDecided(r)
		}
		// The qualifying round (r = 0): as stroke play, and once it is
		// over nobody plays its holes any more.
		if t.Phase != Qualifying {
			return true
		}
		strokeRound = 0
	}
	return r == strokeRound && n >= 1 && n <= t.Settings.Holes && t.done[n-1] == len(t.Entrants)
}

// seedBracket ends the qualifying round and draws the bracket from its
// leaderboard: best first, then those who finished no hole, in join order.
func (t *Tournament) seedBracket() []Notice {
	var order []int
	on := map[int]bool{}
	for _, r := range t.Leaderboard() {
		order = append(order, r.Entrant)
		on[r.Entrant] = true
	}
	for i := range t.Entrants {
		if !on[i] {
			order = append(order, i)
		}
	}
	t.Phase = ""
	t.Bracket = newBracket(order)
	for s, i := range order {
		t.Entrants[i].Seed = s + 1
	}
	return append([]Notice{{Kind: NoticeQualified}}, t.Bracket.ready(t)...)
}

// SafeHoles lists the safe holes of a stroke-play tournament (or of a
// knockout's qualifying round).
func (t *Tournament) SafeHoles() []int {
	out := []int{}
	r := 1
	if t.Settings.Format == Knockout {
		if !t.Settings.Qualifying {
			return out
		}
		r = 0
	}
	for n := 1; n <= t.Settings.Holes; n++ {
		if t.Safe(r, n) {
			out = append(out, n)
		}
	}
	return out
}
