package match

import (
	"errors"
	"fmt"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/names"
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
	// ReadyBy is when the seat is released if still not ready (public
	// rooms, before the first round: ReadyWithin after joining).
	ReadyBy time.Time `json:"readyBy,omitzero"`
	// Recent are the seat's last seqWindow applied moves (seq.go).
	Recent []Applied `json:"recent,omitempty"`
	// Account is the id of the account the player was logged in with when
	// they took the seat (0 for guests and bots); never shown to anyone.
	// Fair-play evidence is kept under it, not under the name.
	Account int64 `json:"account,omitempty"`
	// Held: the player's results are held for fair-play review (rated
	// rooms only: KindHeld, or the join). Standings rows show it.
	Held bool `json:"held,omitempty"`
}

// readyWithin is the event's release time, or ReadyWithin.
func (ev Event) readyWithin() time.Duration {
	if ev.ReadyWithin > 0 {
		return ev.ReadyWithin
	}
	return ReadyWithin
}

// ReadyWithin is how long a player who joined a public room has to say
// ready before the seat is given up for someone else (the host, who
// starts the round, is never released, but in rooms that start by
// themselves).
const ReadyWithin = 2 * time.Minute

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
	// (Analyzer.Solve), set when the hole ends for everyone (never in a
	// tournament room).
	Best      *int        `json:"best,omitempty"`
	BestExact bool        `json:"bestExact,omitempty"`
	BestLine  []golf.Move `json:"bestLine,omitempty"`
	// Difficulty is the deal's rating (Analyzer.Rate) in solo practice only: it
	// comes with the best event once the hole is over (the rating is of
	// the whole deal, stock order included, so it is published with the
	// deal, never during play). Rooms stored before it came with the best
	// event set it when the hole started; views show it only once the hole
	// is over either way.
	Difficulty golf.Difficulty `json:"difficulty,omitempty"`

	deal   *golf.Deal
	states []*golf.State
}

// PastRound is a finished round kept after a rematch.
type PastRound struct {
	Seed golf.Seed `json:"seed"`
	// Deals and DealsReplaced are the round's chosen deals (Room.Deals).
	Deals         []golf.Seed `json:"deals,omitempty"`
	DealsReplaced []int       `json:"dealsReplaced,omitempty"`
	Holes         []*Hole     `json:"holes"`
	Results       Standings   `json:"results"`
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
	Seed golf.Seed `json:"seed"`
	// Deals are the deal seeds of the round's holes when the server chose
	// them before the round started (winnableOnly and difficulty rounds:
	// the fold never runs the solver), hole h playing Deals[h-1]; nil when
	// the hole seeds come from Seed alone. Either Seed is
	// golf.PooledRoundSeed(Deals) (deals from the seed pool; DealsReplaced
	// is nil) or DealsReplaced[h-1] is k and Deals[h-1] is the k-th
	// replacement of hole seed h (deals.md). Secret until the round is over.
	Deals         []golf.Seed `json:"deals,omitempty"`
	DealsReplaced []int       `json:"dealsReplaced,omitempty"`
	Holes         []*Hole     `json:"holes"`
	Past          []PastRound `json:"past,omitempty"`
	Closed        time.Time   `json:"closed,omitzero"`
	// Tournament is the id of the tournament the room belongs to, or "".
	// A tournament room plays the tournament's round seed, has no undo, no
	// spectators, no rematch and no away rule for a lone player, and never
	// shows its seed or records: the tournament reveals them when it is safe.
	Tournament string `json:"tournament,omitempty"`

	// an runs the solver for this room (SetAnalyzer); nil for one of the
	// default budgets without a memo.
	an *Analyzer
	// shownCache caches settled boards (view_settled.go).
	shownCache recent[shownKey, Shown]
	// commit is the commitment of commitSeed (commitment), which every
	// view shows: a hash made once a round, not once a version.
	commit     string
	commitSeed golf.Seed
}

// commitment is r.Seed.Commitment().
func (r *Room) commitment() string {
	if r.commit == "" || r.commitSeed != r.Seed {
		r.commit, r.commitSeed = r.Seed.Commitment(), r.Seed
	}
	return r.commit
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
	// KindLeave gives up the seat Seat, and KindKick (by the host, seat 0)
	// removes the seat Target, before the first round starts. The seats
	// after it move up one.
	KindLeave Kind = "leave"
	KindKick  Kind = "kick"
	// KindBest records the solver's best score of a finished hole, appended
	// by the server once it has solved the deal (off the room's goroutine,
	// so a slow solve never holds up play).
	KindBest Kind = "best"
	// KindHeld marks seat Seat's results as held for fair-play review, or
	// no longer (Held), in a rated room: appended by the server from the
	// fair-play store (docs/fairplay.md), at any time of the room.
	KindHeld Kind = "held"
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
	// Account is the seat's account id (Seat.Account), 0 for none.
	Account int64 `json:"account,omitempty"`
	// join, ready: how long a seat in a public room has to say ready
	// before it is released (the server's --ready-within); zero for
	// ReadyWithin, as in events written before it travelled in them.
	ReadyWithin time.Duration `json:"readyWithin,omitempty"`
	// ready
	Ready bool `json:"ready,omitempty"`
	// start, ready, rematch: a freshly drawn round seed, used if the event
	// starts a round.
	Seed *golf.Seed `json:"seed,omitempty"`
	// start, ready, rematch: the round's deals when the settings need the
	// solver to choose them (Settings.DealsNeeded), chosen by the server
	// before the event (Room.Deals says how they relate to Seed). Events
	// written before deals travelled in events have none: the fold then
	// chooses them itself with the solver, as it used to.
	Deals    []golf.Seed `json:"deals,omitempty"`
	Replaced []int       `json:"replaced,omitempty"`
	// move
	Hole int       `json:"hole,omitempty"`
	Move golf.Move `json:"move,omitzero"`
	Seq  int64     `json:"seq,omitempty"`
	// best: the solver's answer for hole Hole's deal.
	Best      *int        `json:"best,omitempty"`
	BestExact bool        `json:"bestExact,omitempty"`
	BestLine  []golf.Move `json:"bestLine,omitempty"`
	// best, solo practice: the deal's rating (golf.Rate), published with
	// the best score once the hole is over.
	Difficulty golf.Difficulty `json:"difficulty,omitempty"`
	// away, back
	Conn string `json:"conn,omitempty"`
	// kick: the seat removed.
	Target int `json:"target,omitempty"`
	// held, join (rated rooms): whether the seat's results are held for
	// fair-play review.
	Held bool `json:"held,omitempty"`
}

// NoticeKind names a Notice.
type NoticeKind string

// The notices of a room's events.
const (
	NoticeStarted     NoticeKind = "started"     // the round started
	NoticeHoleStarted NoticeKind = "holeStarted" // Hole started
	NoticeSeatDone    NoticeKind = "seatDone"    // Seat finished Hole with Score (End: why)
	NoticeHoleEnded   NoticeKind = "holeEnded"   // every seat finished Hole
	NoticeRoundEnded  NoticeKind = "roundEnded"  // the round is over
	NoticeReleased    NoticeKind = "released"    // Seat was let go (not ready in time)
	NoticeLeft        NoticeKind = "left"        // Seat left the waiting room
	NoticeRemoved     NoticeKind = "removed"     // the host removed Seat
)

// Notice is a consequence of an event that clients are told about.
type Notice struct {
	Kind  NoticeKind `json:"kind"`
	Seat  int        `json:"seat,omitempty"`
	Hole  int        `json:"hole,omitempty"`
	Score int        `json:"score,omitempty"`
	End   string     `json:"end,omitempty"`
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
		set.Deal = dailyDeal(ev.At)
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
	if err := r.checkDeals(ev); err != nil {
		return nil, err
	}
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
	case KindLeave, KindKick:
		notices, err = r.leave(ev)
	case KindHeld:
		err = r.held(ev)
	default:
		err = fmt.Errorf("%w: unknown kind %q", ErrBadEvent, ev.Kind)
	}
	if err != nil {
		return nil, err
	}
	r.Version++
	return notices, nil
}

// ErrAlreadySeated refuses a second seat for one account in a rated room.
var ErrAlreadySeated = errors.New("match: already seated")

// MaxName is the longest display name, in characters.
const MaxName = names.MaxLen

// CleanName trims a display name and checks it (package names: PRECIS
// Nickname, no hidden characters).
func CleanName(name string) (string, error) {
	out, err := names.Clean(name)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return out, nil
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
	if !ev.Bot && !r.Settings.Rated {
		// A person may not pass for a bot, nor for someone already seated
		// (a rated seat's name is its account's: one seat per account).
		taken := make([]string, 0, len(r.Seats))
		for _, s := range r.Seats {
			taken = append(taken, s.Name)
		}
		if name, err = names.CheckPerson(name, taken); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalid, err)
		}
	}
	if len(ev.Token) != 64 || r.SeatOf(ev.Token) >= 0 {
		return fmt.Errorf("%w: bad seat token", ErrBadEvent)
	}
	if r.Settings.Rated {
		// A rated seat's name is its account's: one seat per account.
		for _, s := range r.Seats {
			if s.Name == name {
				return fmt.Errorf("%w: %s already has a seat in this rated room", ErrAlreadySeated, name)
			}
		}
		if ev.Bot {
			return fmt.Errorf("%w: rated rooms have no bots", ErrInvalid)
		}
	}
	if ev.Held && !r.Settings.Rated {
		return fmt.Errorf("%w: only a rated room's results are held for review", ErrInvalid)
	}
	seat := &Seat{Name: name, Token: ev.Token, Bot: ev.Bot, Ready: ev.Bot, Conn: ev.Conn, Account: ev.Account, Held: ev.Held}
	if r.Settings.Public && r.Tournament == "" && !ev.Bot && !ev.At.IsZero() {
		seat.ReadyBy = ev.At.Add(ev.readyWithin())
	}
	r.Seats = append(r.Seats, seat)
	return nil
}

// held marks a seat's results as held for fair-play review, or no
// longer: only in a rated room (nothing else of a room is held).
func (r *Room) held(ev Event) error {
	seat, err := r.seat(ev.Seat)
	if err != nil {
		return err
	}
	if !r.Settings.Rated {
		return fmt.Errorf("%w: only a rated room's results are held for review", ErrInvalid)
	}
	if seat.Held == ev.Held {
		return ErrNoChange
	}
	seat.Held = ev.Held
	return nil
}

// leave removes a seat before the first round: the player's own choice
// (KindLeave) or the host's (KindKick).
func (r *Room) leave(ev Event) ([]Notice, error) {
	if _, err := r.seat(ev.Seat); err != nil {
		return nil, err
	}
	if r.Tournament != "" {
		return nil, fmt.Errorf("%w: tournament rooms keep their seats", ErrInvalid)
	}
	if r.Status != Waiting {
		return nil, ErrNotWaiting
	}
	if len(r.Past) > 0 {
		return nil, fmt.Errorf("%w: after a round the seats stay (its records name them)", ErrNotWaiting)
	}
	target, kind := ev.Seat, NoticeLeft
	if ev.Kind == KindKick {
		if ev.Seat != 0 {
			return nil, ErrNotHost
		}
		if ev.Target <= 0 || ev.Target >= len(r.Seats) {
			return nil, fmt.Errorf("%w: no seat %d to remove", ErrNoSuchSeat, ev.Target)
		}
		target, kind = ev.Target, NoticeRemoved
	}
	r.removeSeat(target)
	return []Notice{{Kind: kind, Seat: target}}, nil
}

func (r *Room) removeSeat(i int) {
	r.Seats = append(r.Seats[:i], r.Seats[i+1:]...)
}

// releasable reports whether seat i is released at its ReadyBy.
func (r *Room) releasable(i int) bool {
	s := r.Seats[i]
	return r.Status == Waiting && len(r.Past) == 0 && !s.Ready && !s.ReadyBy.IsZero() && (i > 0 || r.Settings.AutoStart)
}

// release gives up the seats not ready in time.
func (r *Room) release(at time.Time) []Notice {
	var notices []Notice
	for i := len(r.Seats) - 1; i >= 0; i-- {
		if r.releasable(i) && !at.Before(r.Seats[i].ReadyBy) {
			r.removeSeat(i)
			notices = append(notices, Notice{Kind: NoticeReleased, Seat: i})
		}
	}
	return notices
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
	if !ev.Ready && !s.ReadyBy.IsZero() && !ev.At.IsZero() {
		s.ReadyBy = ev.At.Add(ev.readyWithin()) // a fresh while to be ready again
	}
	if r.Settings.AutoStart && len(r.Seats) == r.Settings.Seats && r.allReady() && ev.Seed != nil {
		return r.begin(ev), nil
	}
	return nil, nil
}

func (r *Room) start(ev Event) ([]Notice, error) {
	if err := r.canStart(ev); err != nil {
		return nil, err
	}
	if ev.Seed == nil {
		return nil, fmt.Errorf("%w: start without a seed", ErrBadEvent)
	}
	r.Seats[0].Ready = true
	return r.begin(ev), nil
}

// canStart checks a start event against the room, its seed aside.
func (r *Room) canStart(ev Event) error {
	if ev.Seat != 0 {
		return ErrNotHost
	}
	if r.Status != Waiting {
		return ErrNotWaiting
	}
	need := 1
	if r.Settings.Format == Matchplay {
		need = 2
	}
	if len(r.Seats) < need {
		return fmt.Errorf("%w: waiting for players", ErrNotReady)
	}
	for i, s := range r.Seats {
		if i > 0 && !s.Ready {
			return fmt.Errorf("%w: %s is not ready", ErrNotReady, s.Name)
		}
	}
	return nil
}

// StartsRound reports whether the event, applied to the room now, would
// start a round: the server asks before building a start, ready or rematch
// event, so it draws the round's deals (Settings.DealsNeeded) only for an
// event that uses them. It changes nothing.
func (r *Room) StartsRound(ev Event) bool {
	switch ev.Kind {
	case KindStart:
		return r.canStart(ev) == nil
	case KindReady:
		return r.readyStarts(ev)
	case KindRematch:
		if _, err := r.seat(ev.Seat); err != nil || r.Tournament != "" {
			return false
		}
		if r.Status == Finished {
			return r.rematchStarts(ev.Seat)
		}
		return r.Status == Waiting && r.Round > 1 && r.readyStarts(Event{Kind: KindReady, Seat: ev.Seat, Ready: true})
	}
	return false
}

// rematchStarts reports whether a rematch asked by seat after the round
// starts the next one at once: nobody else is waited for (a one-seat room,
// or every other seat a bot in a room that auto-starts, every seat taken).
func (r *Room) rematchStarts(seat int) bool {
	if len(r.Seats) != r.Settings.Seats || (len(r.Seats) > 1 && !r.Settings.AutoStart) {
		return false
	}
	for i, s := range r.Seats {
		if i != seat && !s.Bot {
			return false
		}
	}
	return true
}

// readyStarts reports whether the ready event would start the round.
func (r *Room) readyStarts(ev Event) bool {
	s, err := r.seat(ev.Seat)
	if err != nil || r.Status != Waiting || s.Ready == ev.Ready || !ev.Ready {
		return false
	}
	if !r.Settings.AutoStart || len(r.Seats) != r.Settings.Seats {
		return false
	}
	for i, o := range r.Seats {
		if i != ev.Seat && !o.Ready {
			return false
		}
	}
	return true
}

// checkDeals checks the deals an event carries (Event.Deals): only in a
// round-starting kind, only for settings that need them, as many as
// Settings.DealsNeeded, and each the documented function of the round
// seed: for deals from the seed pool the round seed is
// golf.PooledRoundSeed(deals); for deals chosen from the round seed's own
// replacements, deal h is replacement k of hole seed h. It costs hashes,
// never the solver.
func (r *Room) checkDeals(ev Event) error {
	if len(ev.Deals) == 0 {
		if len(ev.Replaced) > 0 {
			return fmt.Errorf("%w: replacements without deals", ErrBadEvent)
		}
		return nil
	}
	switch ev.Kind {
	case KindStart, KindReady, KindRematch:
	default:
		return fmt.Errorf("%w: deals in a %s event", ErrBadEvent, ev.Kind)
	}
	need := r.Settings.DealsNeeded()
	if need == 0 {
		return fmt.Errorf("%w: this room's deals come from its round seed alone", ErrBadEvent)
	}
	if len(ev.Deals) != need {
		return fmt.Errorf("%w: %d deals, want %d", ErrBadEvent, len(ev.Deals), need)
	}
	if ev.Seed == nil {
		return fmt.Errorf("%w: deals without a round seed", ErrBadEvent)
	}
	if len(ev.Replaced) == 0 {
		if golf.PooledRoundSeed(ev.Deals) != *ev.Seed {
			return fmt.Errorf("%w: the round seed is not the pooled round seed of its deals", ErrBadEvent)
		}
		return nil
	}
	if len(ev.Replaced) != len(ev.Deals) {
		return fmt.Errorf("%w: %d replacements for %d deals", ErrBadEvent, len(ev.Replaced), len(ev.Deals))
	}
	for i, k := range ev.Replaced {
		if k < 0 || k > maxChosenReplacements {
			return fmt.Errorf("%w: replacement %d of hole %d", ErrBadEvent, k, i+1)
		}
		if replacement(ev.Seed.HoleSeed(i+1), k) != ev.Deals[i] {
			return fmt.Errorf("%w: deal %d is not replacement %d of its hole seed", ErrBadEvent, i+1, k)
		}
	}
	return nil
}

// replacement is the seed itself (k = 0) or its k-th replacement.
func replacement(seed golf.Seed, k int) golf.Seed {
	if k == 0 {
		return seed
	}
	return seed.AgainSeed(k)
}

// begin starts a round with the event's seed (and deals).
func (r *Room) begin(ev Event) []Notice {
	r.Status = Playing
	r.Seed = *ev.Seed
	r.Deals = append([]golf.Seed(nil), ev.Deals...)
	r.DealsReplaced = append([]int(nil), ev.Replaced...)
	if len(r.Deals) == 0 {
		r.Deals, r.DealsReplaced = nil, nil
	}
	if len(r.DealsReplaced) == 0 {
		r.DealsReplaced = nil
	}
	r.Holes = nil
	return append([]Notice{{Kind: NoticeStarted}}, r.startHole(1, ev.At)...)
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
	var seed golf.Seed
	var replaced int
	if n <= len(r.Deals) {
		seed = r.Deals[n-1]
		if n <= len(r.DealsReplaced) {
			replaced = r.DealsReplaced[n-1]
		}
	} else {
		// Without chosen deals: the hole seed (and the cheap unclearable
		// check), or, for a round started by an event written before
		// deals travelled in events, the solver's choice as it used to be.
		seed, replaced = r.analyzer().HoleDealSeed(r.Settings, r.Seed, n)
	}
	h := &Hole{Number: n, Seed: seed, Replaced: replaced, Started: at}
	for range r.Seats {
		h.Games = append(h.Games, &Game{Moves: []golf.Move{}})
	}
	r.Holes = append(r.Holes, h)
	for i := range h.Games {
		h.Games[i].Score = h.State(r.Settings.Variant, i).Score()
	}
	return []Notice{{Kind: NoticeHoleStarted, Hole: n}}
}

func (r *Room) move(ev Event) ([]Notice, error) {
	s, err := r.seat(ev.Seat)
	if err != nil {
		return nil, err
	}
	// A resent move is a duplicate before anything else: the move that
	// ended the hole (or the round), resent after a reconnect, must get
	// the same answer, not hole_done.
	if err := s.checkSeq(ev); err != nil {
		return nil, err
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
	s.applied(ev)
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
	return Notice{Kind: NoticeSeatDone, Seat: i, Hole: h.Number, Score: g.Score, End: end}
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
	notices := []Notice{{Kind: NoticeHoleEnded, Hole: h.Number}}
	st := r.Standings()
	if st.Over {
		r.Status = Finished
		r.Closed = at
		return append(notices, Notice{Kind: NoticeRoundEnded})
	}
	return append(notices, r.startHole(h.Number+1, at)...)
}

// tick applies the clock at time at: the hole clock running out and the
// grace period of away players.
func (r *Room) tick(at time.Time) ([]Notice, error) {
	if r.Status == Waiting {
		if n := r.release(at); len(n) > 0 {
			return n, nil
		}
	}
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
	consider := func(d time.Time) {
		if !ok || d.Before(t) {
			t, ok = d, true
		}
	}
	if r.Status == Waiting {
		for i := range r.Seats {
			if r.releasable(i) {
				consider(r.Seats[i].ReadyBy)
			}
		}
		return t, ok
	}
	if r.Status != Playing {
		return time.Time{}, false
	}
	h := r.CurrentHole()
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
		return r.ready(Event{Kind: KindReady, At: ev.At, Seat: ev.Seat, Ready: true, Seed: ev.Seed, Deals: ev.Deals, Replaced: ev.Replaced})
	}
	if r.Status != Finished {
		return nil, ErrNotFinished
	}
	r.Past = append(r.Past, PastRound{Seed: r.Seed, Deals: r.Deals, DealsReplaced: r.DealsReplaced, Holes: r.Holes, Results: r.Standings()})
	r.Round++
	r.Status = Waiting
	r.Seed = golf.Seed{}
	r.Deals, r.DealsReplaced = nil, nil
	r.Holes = nil
	r.Closed = time.Time{}
	for i, s := range r.Seats {
		s.Ready = s.Bot || i == ev.Seat
	}
	// Nobody else to wait for (a one-seat room, or every other seat a
	// bot, with autoStart): the rematch starts the new round at once.
	if ev.Seed != nil && r.rematchStarts(ev.Seat) {
		return r.begin(ev), nil
	}
	return nil, nil
}
