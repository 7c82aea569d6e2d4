package match

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"golfsolitaire/golf"
)

// Status is where a room is in its life.
type Status string

// The statuses.
const (
	Waiting  Status = "waiting"
	Playing  Status = "playing"
	Finished Status = "finished"
)

// Errors Apply returns (wrapped with detail). golf's move errors are
// returned wrapped as they are.
var (
	ErrRoomFull    = errors.New("match: room is full")
	ErrNotWaiting  = errors.New("match: the round has already started")
	ErrNotPlaying  = errors.New("match: no round in play")
	ErrWrongHole   = errors.New("match: not the hole in play")
	ErrHoleDone    = errors.New("match: you have finished this hole")
	ErrNotHost     = errors.New("match: only the host may do that")
	ErrNotReady    = errors.New("match: not every player is ready")
	ErrNoSuchSeat  = errors.New("match: no such seat")
	ErrNoChange    = errors.New("match: nothing to change")
	ErrDuplicate   = errors.New("match: move already applied")
	ErrNotFinished = errors.New("match: the round is not over")
	ErrBadEvent    = errors.New("match: bad event")
)

// Seat is a player's place in a room.
type Seat struct {
	Name string `json:"name"`
	// Token is hex SHA-256 of the seat token; the token itself is only ever
	// known to the player.
	Token     string    `json:"token"`
	Ready     bool      `json:"ready"`
	Bot       bool      `json:"bot,omitempty"`
	Away      bool      `json:"away,omitempty"`
	AwaySince time.Time `json:"awaySince,omitzero"`
	// Conn is the connection that last said the player was here, so a stale
	// "away" from an old connection does not override a newer "back".
	Conn string `json:"conn,omitempty"`
	// LastSeq is the highest client sequence number applied for this seat.
	LastSeq int64 `json:"lastSeq,omitempty"`
}

// Game is one seat's play of one hole.
type Game struct {
	Moves    []golf.Move `json:"moves"`
	Done     bool        `json:"done,omitempty"`
	Score    int         `json:"score"`
	End      string      `json:"end,omitempty"` // cleared, stuck, clock, away
	Finished time.Time   `json:"finished,omitzero"`
}

// How a seat's hole ended.
const (
	EndCleared = "cleared"
	EndStuck   = "stuck"
	EndClock   = "clock"
	EndAway    = "away"
)

// Hole is one deal played by every seat.
type Hole struct {
	Number int `json:"number"`
	// Seed is the seed the deal came from: the hole seed, or its
	// replacement when skipped as unclearable.
	Seed     golf.Seed `json:"seed"`
	Replaced int       `json:"replaced,omitempty"`
	Started  time.Time `json:"started"`
	Ended    time.Time `json:"ended,omitzero"`
	Done     bool      `json:"done,omitempty"`
	Games    []*Game   `json:"games"`
	// Best, BestExact and BestLine are the solver's answer for the deal
	// (SolveDeal), set when the hole ends for everyone (never in a
	// tournament room).
	Best      *int        `json:"best,omitempty"`
	BestExact bool        `json:"bestExact,omitempty"`
	BestLine  []golf.Move `json:"bestLine,omitempty"`
	// Difficulty is the deal's rating (RateDeal), set when the hole starts
	// in solo practice only.
	Difficulty golf.Difficulty `json:"difficulty,omitempty"`

	deal   *golf.Deal
	states []*golf.State
}

// PastRound is a finished round kept after a rematch.
type PastRound struct {
	Seed    golf.Seed `json:"seed"`
	Holes   []*Hole   `json:"holes"`
	Results Standings `json:"results"`
}

// Room is the whole state of a room. Change it only with Apply.
type Room struct {
	Code     string    `json:"code"`
	Settings Settings  `json:"settings"`
	Created  time.Time `json:"created"`
	Version  int64     `json:"version"`
	Status   Status    `json:"status"`
	Seats    []*Seat   `json:"seats"`
	Round    int       `json:"round"`
	// Seed is the round seed: secret until the round is finished.
	Seed   golf.Seed   `json:"seed"`
	Holes  []*Hole     `json:"holes"`
	Past   []PastRound `json:"past,omitempty"`
	Closed time.Time   `json:"closed,omitzero"`
	// Tournament is the id of the tournament the room belongs to, or "".
	// A tournament room plays the tournament's round seed, has no undo, no
	// spectators, no rematch and no away rule for a lone player, and never
	// shows its seed or records: the tournament reveals them when it is safe.
	Tournament string `json:"tournament,omitempty"`

	// an runs the solver for this room (SetAnalyzer); nil for one of the
	// default budgets without a memo.
	an *Analyzer
}

// SetAnalyzer makes the room use the analyzer for the solver's answers
// (the server shares one across its rooms, so answers are computed once).
func (r *Room) SetAnalyzer(a *Analyzer) { r.an = a }

func (r *Room) analyzer() *Analyzer {
	if r.an == nil {
		r.an = NewAnalyzer(0, 0)
	}
	return r.an
}

// Kind is the kind of an event.
type Kind string

// The event kinds.
const (
	KindCreate  Kind = "create"
	KindJoin    Kind = "join"
	KindReady   Kind = "ready"
	KindStart   Kind = "start"
	KindMove    Kind = "move"
	KindStand   Kind = "stand"
	KindTick    Kind = "tick"
	KindAway    Kind = "away"
	KindBack    Kind = "back"
	KindRematch Kind = "rematch"
	// KindBest records the solver's best score of a finished hole, appended
	// by the server once it has solved the deal (off the room's goroutine,
	// so a slow solve never holds up play).
	KindBest Kind = "best"
)

// Event is one entry of a room's log. Only the fields of its kind are set.
// Events are stored, never sent to clients as they are (they may hold the
// round seed): clients get EventView.
type Event struct {
	Kind Kind      `json:"kind"`
	At   time.Time `json:"at"`
	Seat int       `json:"seat"`
	// create
	Code       string    `json:"code,omitempty"`
	Settings   *Settings `json:"settings,omitempty"`
	Tournament string    `json:"tournament,omitempty"`
	// join
	Name  string `json:"name,omitempty"`
	Token string `json:"token,omitempty"`
	Bot   bool   `json:"bot,omitempty"`
	// ready
	Ready bool `json:"ready,omitempty"`
	// start, ready, rematch: a freshly drawn round seed, used if the event
	// starts a round.
	Seed *golf.Seed `json:"seed,omitempty"`
	// move
	Hole int       `json:"hole,omitempty"`
	Move golf.Move `json:"move,omitzero"`
	Seq  int64     `json:"seq,omitempty"`
	// best: the solver's answer for hole Hole's deal.
	Best      *int        `json:"best,omitempty"`
	BestExact bool        `json:"bestExact,omitempty"`
	BestLine  []golf.Move `json:"bestLine,omitempty"`
	// away, back
	Conn string `json:"conn,omitempty"`
}

// Notice is a consequence of an event that clients are told about.
type Notice struct {
	Kind  string `json:"kind"` // seatDone, holeEnded, holeStarted, roundEnded, started
	Seat  int    `json:"seat,omitempty"`
	Hole  int    `json:"hole,omitempty"`
	Score int    `json:"score,omitempty"`
	End   string `json:"end,omitempty"`
}

// NewRoom returns the room a create event makes (version 1).
func NewRoom(ev Event) (*Room, error) {
	if ev.Kind != KindCreate || ev.Settings == nil {
		return nil, fmt.Errorf("%w: a room starts with a create event", ErrBadEvent)
	}
	if err := ev.Settings.Validate(); err != nil {
		return nil, err
	}
	if ev.Code == "" {
		return nil, fmt.Errorf("%w: room code missing", ErrBadEvent)
	}
	if ev.Tournament != "" {
		s := ev.Settings
		if s.Spectators || s.Public || s.Variant.Options.Undo || s.HoleClock != 0 {
			return nil, fmt.Errorf("%w: a tournament room has no spectators, listing, undo or clock", ErrInvalid)
		}
	}
	set := *ev.Settings
	if set.Daily && set.Deal == 0 {
		set.Deal = DailyDeal(ev.At)
	}
	return &Room{Code: ev.Code, Settings: set, Created: ev.At, Version: 1, Status: Waiting, Round: 1, Tournament: ev.Tournament}, nil
}

// CurrentHole returns the hole in play (or the last one), nil before play.
func (r *Room) CurrentHole() *Hole {
	if len(r.Holes) == 0 {
		return nil
	}
	return r.Holes[len(r.Holes)-1]
}

// SeatOf returns the seat whose token hash matches, or -1.
func (r *Room) SeatOf(tokenHash string) int {
	for i, s := range r.Seats {
		if s.Token == tokenHash {
			return i
		}
	}
	return -1
}

// Deal returns the hole's deal.
func (h *Hole) Deal(v golf.Variant) *golf.Deal {
	if h.deal == nil {
		d := golf.NewDeal(v, h.Seed)
		h.deal = &d
	}
	return h.deal
}

// State returns seat i's game of the hole, replayed from its moves.
func (h *Hole) State(v golf.Variant, i int) *golf.State {
	if h.states == nil {
		h.states = make([]*golf.State, len(h.Games))
	}
	if h.states[i] == nil {
		s := golf.NewState(h.Deal(v))
		for _, m := range h.Games[i].Moves {
			if err := s.Apply(m); err != nil {
				// A stored game is always legal; this is a corrupt snapshot.
				panic(fmt.Sprintf("match: stored move %s of seat %d, hole %d is illegal: %v", m, i, h.Number, err))
			}
		}
		h.states[i] = s
	}
	return h.states[i]
}

// Record returns seat i's game record of the hole.
func (h *Hole) Record(v golf.Variant, i int) golf.Record {
	return golf.Record{Variant: v, Seed: h.Seed, Moves: append([]golf.Move(nil), h.Games[i].Moves...)}
}

// Apply applies the event at version r.Version+1. It validates first: an
// error means nothing changed. The notices say what followed from it.
func (r *Room) Apply(ev Event) ([]Notice, error) {
	var notices []Notice
	var err error
	switch ev.Kind {
	case KindJoin:
		err = r.join(ev)
	case KindReady:
		notices, err = r.ready(ev)
	case KindStart:
		notices, err = r.start(ev)
	case KindMove:
		notices, err = r.move(ev)
	case KindStand:
		notices, err = r.stand(ev)
	case KindTick:
		notices, err = r.tick(ev.At)
	case KindAway, KindBack:
		err = r.presence(ev)
	case KindBest:
		err = r.recordBest(ev)
	case KindRematch:
		notices, err = r.rematch(ev)
	default:
		err = fmt.Errorf("%w: unknown kind %q", ErrBadEvent, ev.Kind)
	}
	if err != nil {
		return nil, err
	}
	r.Version++
	return notices, nil
}

// MaxName is the longest display name, in characters.
const MaxName = 24

// CleanName trims a display name and checks it.
func CleanName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return "", fmt.Errorf("%w: a name is required", ErrInvalid)
	}
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > MaxName {
		return "", fmt.Errorf("%w: a name is at most %d characters", ErrInvalid, MaxName)
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return "", fmt.Errorf("%w: control characters in the name", ErrInvalid)
		}
	}
	return name, nil
}

func (r *Room) seat(i int) (*Seat, error) {
	if i < 0 || i >= len(r.Seats) {
		return nil, fmt.Errorf("%w: %d", ErrNoSuchSeat, i)
	}
	return r.Seats[i], nil
}

func (r *Room) join(ev Event) error {
	if r.Status != Waiting {
		return ErrNotWaiting
	}
	if len(r.Seats) >= r.Settings.Seats {
		return ErrRoomFull
	}
	name, err := CleanName(ev.Name)
	if err != nil {
		return err
	}
	if len(ev.Token) != 64 || r.SeatOf(ev.Token) >= 0 {
		return fmt.Errorf("%w: bad seat token", ErrBadEvent)
	}
	r.Seats = append(r.Seats, &Seat{Name: name, Token: ev.Token, Bot: ev.Bot, Ready: ev.Bot, Conn: ev.Conn})
	return nil
}

func (r *Room) allReady() bool {
	for _, s := range r.Seats {
		if !s.Ready {
			return false
		}
	}
	return true
}

func (r *Room) ready(ev Event) ([]Notice, error) {
	s, err := r.seat(ev.Seat)
	if err != nil {
		return nil, err
	}
	if r.Status != Waiting {
		return nil, ErrNotWaiting
	}
	if s.Ready == ev.Ready {
		return nil, ErrNoChange
	}
	s.Ready = ev.Ready
	if r.Settings.AutoStart && len(r.Seats) == r.Settings.Seats && r.allReady() && ev.Seed != nil {
		return r.begin(*ev.Seed, ev.At), nil
	}
	return nil, nil
}

func (r *Room) start(ev Event) ([]Notice, error) {
	if ev.Seat != 0 {
		return nil, ErrNotHost
	}
	if r.Status != Waiting {
		return nil, ErrNotWaiting
	}
	if ev.Seed == nil {
		return nil, fmt.Errorf("%w: start without a seed", ErrBadEvent)
	}
	need := 1
	if r.Settings.Format == Matchplay {
		need = 2
	}
	if len(r.Seats) < need {
		return nil, fmt.Errorf("%w: waiting for players", ErrNotReady)
	}
	for i, s := range r.Seats {
		if i > 0 && !s.Ready {
			return nil, fmt.Errorf("%w: %s is not ready", ErrNotReady, s.Name)
		}
	}
	r.Seats[0].Ready = true
	return r.begin(*ev.Seed, ev.At), nil
}

// begin starts a round with the seed.
func (r *Room) begin(seed golf.Seed, at time.Time) []Notice {
	r.Status = Playing
	r.Seed = seed
	r.Holes = nil
	return append([]Notice{{Kind: "started"}}, r.startHole(1, at)...)
}

// HoleDealSeed returns the seed of hole n of a round and how many times it
// was replaced: the hole seed, or the first replacement seed (deals.md
// "again:k") whose deal the settings accept: with skipUnclearable not
// visibly unclearable, with winnableOnly cleared by the solver within
// SolveNodes, with a difficulty rated that level (see chooseSeed).
func HoleDealSeed(s Settings, round golf.Seed, n int) (golf.Seed, int) {
	return NewAnalyzer(0, 0).HoleDealSeed(s, round, n)
}

// HoleDealSeed is the package's HoleDealSeed with the analyzer's budgets and
// memo.
func (a *Analyzer) HoleDealSeed(s Settings, round golf.Seed, n int) (golf.Seed, int) {
	if s.Deal > 0 {
		// A numbered deal is exactly that deal, never replaced.
		return golf.NumberedSeed(s.Deal + n - 1), 0
	}
	seed := round.HoleSeed(n)
	if !s.SkipUnclearable && !s.WinnableOnly && s.Difficulty == 0 {
		return seed, 0
	}
	return a.chooseSeed(s, seed)
}

// maxReplacements bounds the search for a clearable deal; in practice the
// first replacement almost always passes.
const maxReplacements = 1000

func (r *Room) startHole(n int, at time.Time) []Notice {
	seed, replaced := r.analyzer().HoleDealSeed(r.Settings, r.Seed, n)
	h := &Hole{Number: n, Seed: seed, Replaced: replaced, Started: at}
	for range r.Seats {
		h.Games = append(h.Games, &Game{Moves: []golf.Move{}})
	}
	r.Holes = append(r.Holes, h)
	if r.Settings.Solo() && r.Tournament == "" {
		h.Difficulty = r.analyzer().Rate(r.Settings.Variant, seed)
	}
	for i := range h.Games {
		h.Games[i].Score = h.State(r.Settings.Variant, i).Score()
	}
	return []Notice{{Kind: "holeStarted", Hole: n}}
}

func (r *Room) move(ev Event) ([]Notice, error) {
	s, err := r.seat(ev.Seat)
	if err != nil {
		return nil, err
	}
	// A resent move is a duplicate before anything else: the move that
	// ended the hole (or the round), resent after a reconnect, must get
	// the same answer, not hole_done.
	if ev.Seq != 0 && ev.Seq <= s.LastSeq {
		return nil, ErrDuplicate
	}
	if r.Status != Playing {
		return nil, ErrNotPlaying
	}
	h := r.CurrentHole()
	if ev.Hole != h.Number {
		return nil, fmt.Errorf("%w: hole %d is in play, not %d", ErrWrongHole, h.Number, ev.Hole)
	}
	g := h.Games[ev.Seat]
	if g.Done {
		return nil, ErrHoleDone
	}
	st := h.State(r.Settings.Variant, ev.Seat)
	if err := st.Apply(ev.Move); err != nil {
		return nil, err
	}
	if ev.Move.Action == golf.Undo {
		g.Moves = g.Moves[:len(g.Moves)-1]
	} else {
		g.Moves = append(g.Moves, ev.Move)
	}
	if ev.Seq != 0 {
		s.LastSeq = ev.Seq
	}
	g.Score = st.Score()
	var notices []Notice
	if st.Over() && !(r.Settings.Variant.Options.Undo && !st.Cleared()) {
		notices = append(notices, r.finishGame(h, ev.Seat, endOf(st), ev.At))
	}
	return append(notices, r.afterHole(ev.At)...), nil
}

// stand ends a seat's hole as it stands, at the player's request. With undo
// on (solo practice) a game with no move left stays open so the player can
// take moves back; standing is how the player ends it.
func (r *Room) stand(ev Event) ([]Notice, error) {
	if _, err := r.seat(ev.Seat); err != nil {
		return nil, err
	}
	if r.Status != Playing {
		return nil, ErrNotPlaying
	}
	h := r.CurrentHole()
	if ev.Hole != h.Number {
		return nil, fmt.Errorf("%w: hole %d is in play, not %d", ErrWrongHole, h.Number, ev.Hole)
	}
	if h.Games[ev.Seat].Done {
		return nil, ErrHoleDone
	}
	st := h.State(r.Settings.Variant, ev.Seat)
	n := r.finishGame(h, ev.Seat, endOf(st), ev.At)
	return append([]Notice{n}, r.afterHole(ev.At)...), nil
}

func endOf(st *golf.State) string {
	if st.Cleared() {
		return EndCleared
	}
	return EndStuck
}

func (r *Room) finishGame(h *Hole, i int, end string, at time.Time) Notice {
	g := h.Games[i]
	g.Done, g.End, g.Finished = true, end, at
	g.Score = h.State(r.Settings.Variant, i).Score()
	return Notice{Kind: "seatDone", Seat: i, Hole: h.Number, Score: g.Score, End: end}
}

// afterHole ends the hole when every seat is done, then starts the next
// hole or ends the round.
func (r *Room) afterHole(at time.Time) []Notice {
	h := r.CurrentHole()
	if h == nil || h.Done {
		return nil
	}
	for _, g := range h.Games {
		if !g.Done {
			return nil
		}
	}
	h.Done, h.Ended = true, at
	notices := []Notice{{Kind: "holeEnded", Hole: h.Number}}
	st := r.Standings()
	if st.Over {
		r.Status = Finished
		r.Closed = at
		return append(notices, Notice{Kind: "roundEnded"})
	}
	return append(notices, r.startHole(h.Number+1, at)...)
}

// tick applies the clock at time at: the hole clock running out and the
// grace period of away players.
func (r *Room) tick(at time.Time) ([]Notice, error) {
	if r.Status != Playing {
		return nil, ErrNoChange
	}
	h := r.CurrentHole()
	var notices []Notice
	if r.Settings.HoleClock > 0 && !at.Before(h.Started.Add(time.Duration(r.Settings.HoleClock)*time.Second)) {
		for i, g := range h.Games {
			if !g.Done {
				notices = append(notices, r.finishGame(h, i, EndClock, at))
			}
		}
	}
	for i, g := range h.Games {
		if d, ok := r.graceDeadline(h, i); ok && !g.Done && !at.Before(d) {
			notices = append(notices, r.finishGame(h, i, EndAway, at))
		}
	}
	if len(notices) == 0 {
		return nil, ErrNoChange
	}
	return append(notices, r.afterHole(at)...), nil
}

// graceDeadline is when seat i's hole is scored as it stands if the player
// stays away: the grace period after both the player left and everyone else
// finished the hole.
func (r *Room) graceDeadline(h *Hole, i int) (time.Time, bool) {
	s := r.Seats[i]
	if !s.Away || h.Games[i].Done || (r.Tournament != "" && len(r.Seats) == 1) {
		return time.Time{}, false
	}
	last := s.AwaySince
	for j, g := range h.Games {
		if j == i {
			continue
		}
		if !g.Done {
			return time.Time{}, false
		}
		if g.Finished.After(last) {
			last = g.Finished
		}
	}
	return last.Add(time.Duration(r.Settings.Grace) * time.Second), true
}

// NextDeadline is the earliest time at which a tick would change the room:
// the hole clock or an away player's grace period. ok is false when no
// deadline is pending.
func (r *Room) NextDeadline() (t time.Time, ok bool) {
	if r.Status != Playing {
		return time.Time{}, false
	}
	h := r.CurrentHole()
	consider := func(d time.Time) {
		if !ok || d.Before(t) {
			t, ok = d, true
		}
	}
	if r.Settings.HoleClock > 0 {
		consider(h.Started.Add(time.Duration(r.Settings.HoleClock) * time.Second))
	}
	for i := range h.Games {
		if d, has := r.graceDeadline(h, i); has {
			consider(d)
		}
	}
	return t, ok
}

func (r *Room) presence(ev Event) error {
	s, err := r.seat(ev.Seat)
	if err != nil {
		return err
	}
	if ev.Kind == KindBack {
		if !s.Away && s.Conn == ev.Conn {
			return ErrNoChange
		}
		s.Away, s.AwaySince, s.Conn = false, time.Time{}, ev.Conn
		return nil
	}
	if s.Away || (s.Conn != "" && s.Conn != ev.Conn) {
		return ErrNoChange
	}
	s.Away, s.AwaySince = true, ev.At
	return nil
}

// rematch starts a new round with the same players and settings: the
// first player to ask takes the room back to the waiting room, ready; a
// player asking once the room is already waiting for the rematch is simply
// ready (so two players pressing "rematch" at once both get what they
// meant), which may start the round.
func (r *Room) rematch(ev Event) ([]Notice, error) {
	if _, err := r.seat(ev.Seat); err != nil {
		return nil, err
	}
	if r.Tournament != "" {
		return nil, fmt.Errorf("%w: a tournament room has no rematch", ErrInvalid)
	}
	if r.Status == Waiting && r.Round > 1 {
		return r.ready(Event{Kind: KindReady, At: ev.At, Seat: ev.Seat, Ready: true, Seed: ev.Seed})
	}
	if r.Status != Finished {
		return nil, ErrNotFinished
	}
	r.Past = append(r.Past, PastRound{Seed: r.Seed, Holes: r.Holes, Results: r.Standings()})
	r.Round++
	r.Status = Waiting
	r.Seed = golf.Seed{}
	r.Holes = nil
	r.Closed = time.Time{}
	for i, s := range r.Seats {
		s.Ready = s.Bot || i == ev.Seat
	}
	return nil, nil
}
