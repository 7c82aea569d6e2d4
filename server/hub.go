package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// command is work for a hub's loop. Exactly one of build and attach/detach
// is set.
type command struct {
	ctx context.Context
	// build returns the event to apply against the room's current state.
	build func(r *match.Room) (match.Event, error)
	// read, when set, is called with the room and nothing is applied.
	read func(r *match.Room) any
	// attach or detach a connection.
	attach, detach *conn
	since          int64
	reply          chan result
}

type result struct {
	v    int64
	err  error
	data any
}

// delayed is a spectator message held back by the room's spectator delay.
type delayed struct {
	at  time.Time
	c   *conn
	msg []byte
}

// hub keeps one room on this instance. Only its loop goroutine touches its
// fields after start.
type hub struct {
	s     *Server
	code  string
	cmds  chan *command
	stop  chan struct{}
	done  chan struct{}
	refs  int // guarded by s.mu
	room  *match.Room
	sub   store.Subscription
	subC  <-chan store.Entry // nil while resubscribing after an outage
	conns map[*conn]struct{}

	deadline *time.Timer
	delayQ   []delayed
	delayT   *time.Timer
	listing  string
	// finishedTTL is set once the finished room's time to live is set.
	finishedTTL bool
	// solving holds the holes (by round and number) whose best score is
	// being solved off the loop (analysis.go).
	solving map[[2]int]bool
	// stale is set when the cached room may hold an event the store
	// refused or never got, and reloading it failed (the store could not
	// be reached). Until a reload works, commands are refused as
	// unavailable instead of running against that room: a move refused
	// while Redis was down must not be acknowledged as a duplicate when the
	// client sends it again. staleFrom is the version before that event,
	// the last one connections were sent.
	stale     bool
	staleFrom int64
	// listedKey is what h.listing was made from, once listed is true.
	listed    bool
	listedKey listingKey
	log       *slog.Logger
}

// acquire returns the room's hub, starting it if needed. Call release when
// done with it.
func (s *Server) acquire(ctx context.Context, code string) (*hub, error) {
	s.mu.Lock()
	if h, ok := s.hubs[code]; ok {
		h.refs++
		s.mu.Unlock()
		return h, nil
	}
	h := &hub{
		s: s, code: code, cmds: make(chan *command), stop: make(chan struct{}), done: make(chan struct{}),
		conns: map[*conn]struct{}{}, refs: 1, log: s.log.With("room", code),
	}
	s.hubs[code] = h
	s.mu.Unlock()
	if err := h.load(ctx); err != nil {
		s.mu.Lock()
		if s.hubs[code] == h {
			delete(s.hubs, code)
		}
		s.mu.Unlock()
		close(h.done)
		return nil, err
	}
	s.metrics.rooms.Inc()
	if roomWantsBots(h.room) {
		s.kickBotSweep() // a bot of the room may have lost its instance
	}
	s.hubLoops.Add(1)
	go func() {
		defer s.hubLoops.Done()
		h.loop()
	}()
	return h, nil
}

// release drops a reference; the last one stops the hub.
func (s *Server) release(h *hub) {
	s.mu.Lock()
	h.refs--
	last := h.refs == 0
	if last && s.hubs[h.code] == h {
		delete(s.hubs, h.code)
	}
	s.mu.Unlock()
	if last {
		close(h.stop)
		<-h.done
	}
}

// load subscribes (first, so nothing is missed) and loads the snapshot.
// While other acquirers wait for the hub, they block on its cmds channel,
// which the loop serves only after load.
func (h *hub) load(ctx context.Context) error {
	sub, err := h.s.store.Subscribe(context.WithoutCancel(ctx), h.code)
	if err != nil {
		return err
	}
	snap, err := h.s.store.Load(ctx, h.code)
	if err != nil {
		sub.Close()
		return err
	}
	room, err := match.DecodeRoom(snap.Data)
	if err == nil {
		room.SetAnalyzer(h.s.analyzer)
	}
	if err != nil {
		sub.Close()
		return err
	}
	h.sub, h.subC, h.room = sub, sub.C(), room
	return nil
}

// do runs a command on the hub's loop and waits for its result.
func (h *hub) do(ctx context.Context, c *command) result {
	c.ctx = ctx
	c.reply = make(chan result, 1)
	select {
	case h.cmds <- c:
	case <-ctx.Done():
		return result{err: ctx.Err()}
	case <-h.done:
		return result{err: fmt.Errorf("%w: room closed", store.ErrUnavailable)}
	}
	select {
	case r := <-c.reply:
		return r
	case <-ctx.Done():
		return result{err: ctx.Err()}
	}
}

func (h *hub) loop() {
	defer close(h.done)
	defer h.s.metrics.rooms.Dec()
	defer func() {
		if h.sub != nil {
			h.sub.Close()
		}
		if h.deadline != nil {
			h.deadline.Stop()
		}
		if h.delayT != nil {
			h.delayT.Stop()
		}
	}()
	h.schedule()
	h.recordBests()
	// resync periodically as a safety net for lost pub/sub messages.
	poll := time.NewTicker(h.s.opts.ResyncEvery)
	defer poll.Stop()
	for {
		var deadlineC, delayC <-chan time.Time
		if h.deadline != nil {
			deadlineC = h.deadline.C
		}
		if h.delayT != nil {
			delayC = h.delayT.C
		}
		select {
		case <-h.stop:
			return
		case c := <-h.cmds:
			h.handle(c)
		case e, ok := <-h.subC:
			if !ok {
				h.resubscribe()
				continue
			}
			h.entry(e)
		case <-deadlineC:
			h.deadline = nil
			h.tick()
		case <-delayC:
			h.delayT = nil
			h.flushDelayed()
		case <-poll.C:
			h.checkVersion()
		}
	}
}

// resubscribe replaces a subscription the store ended (an outage). Until it
// works, h.subC is nil (a nil channel never delivers) and the periodic
// checkVersion both keeps the room in step and tries again.
func (h *hub) resubscribe() {
	if h.sub != nil {
		h.sub.Close()
		h.sub = nil
	}
	h.subC = nil
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	sub, err := h.s.store.Subscribe(ctx, h.code)
	if err != nil {
		h.log.Warn("resubscribe failed", "err", err)
		return
	}
	h.sub, h.subC = sub, sub.C()
	h.resync(h.room.Version)
}

func (h *hub) handle(c *command) {
	switch {
	case c.attach != nil:
		c.reply <- h.attachConn(c.attach, c.since)
	case c.detach != nil:
		h.detachConn(c.detach)
		c.reply <- result{}
	case c.read != nil:
		c.reply <- result{v: h.room.Version, data: c.read(h.room)}
	default:
		c.reply <- h.apply(c.ctx, c.build)
	}
}

// maxAttempts and contentionBudget bound retries when other instances
// keep appending first: a hub tries at least maxAttempts times, and goes
// on for up to contentionBudget. Catching up after a conflict (load,
// decode, fan out) takes longer than a fast player or bot on another
// instance needs for its next move, so a hub can lose many times in a row
// while that player plays on; giving up after a fixed number of tries
// refused legal moves as "unavailable". Past maxAttempts a short random
// pause keeps the retries from hammering the store.
const (
	maxAttempts      = 8
	contentionBudget = 2 * time.Second
)

// apply builds an event against the current state, applies it, and
// appends it to the store with the expected version. On a conflict it
// catches up with the store and tries again.
func (h *hub) apply(ctx context.Context, build func(r *match.Room) (match.Event, error)) result {
	start := time.Now()
	for attempt := 0; attempt < maxAttempts || time.Since(start) < contentionBudget; attempt++ {
		if attempt >= maxAttempts {
			pause := time.NewTimer(rand.N(time.Duration(min(attempt, 20)) * time.Millisecond))
			select {
			case <-ctx.Done():
				pause.Stop()
				return result{v: h.room.Version, err: ctx.Err()}
			case <-pause.C:
			}
		}
		if h.stale && !h.resync(h.staleFrom) {
			return result{v: h.room.Version, err: fmt.Errorf("%w: the room cannot be reloaded", store.ErrUnavailable)}
		}
		ev, err := build(h.room)
		if err != nil {
			return result{v: h.room.Version, err: err}
		}
		if ev.At.IsZero() {
			ev.At = h.s.now()
		}
		before := h.room.Version
		notices, err := h.room.Apply(ev)
		if err != nil {
			return result{v: before, err: err}
		}
		logged := h.room.Log(ev, notices)
		snap, err := h.room.Encode()
		if err != nil {
			h.discard(before)
			return result{v: before, err: err}
		}
		data, _ := json.Marshal(logged)
		v, err := h.s.store.Append(ctx, h.code, before, snap, data)
		if err == nil {
			h.fanout(logged, v)
			h.changed(before)
			h.s.tournamentRoomChanged(h.room, notices)
			h.s.warmBest(h.room, notices)
			h.recordBests()
			return result{v: v}
		}
		// The cached room holds an event the store refused: reload it.
		h.discard(before)
		if !errors.Is(err, store.ErrConflict) {
			return result{v: h.room.Version, err: err}
		}
	}
	return result{v: h.room.Version, err: fmt.Errorf("%w: too much contention on the room", store.ErrUnavailable)}
}

// entry handles an entry from the subscription.
func (h *hub) entry(e store.Entry) {
	if h.stale {
		h.resync(h.staleFrom)
		return
	}
	switch {
	case e.Version <= h.room.Version:
		// Ours, already applied and sent.
	case e.Version == h.room.Version+1:
		l, err := match.DecodeLogged(e.Data)
		if err == nil {
			before := h.room.Version
			if _, err = h.room.Apply(l.Event); err == nil {
				h.fanout(l, e.Version)
				h.changed(before)
				if l.Kind == match.KindAway {
					h.reassertPresence(l.Seat)
					if l.Seat >= 0 && l.Seat < len(h.room.Seats) && h.room.Seats[l.Seat].Bot {
						h.s.kickBotSweep() // its instance may be stopping
					}
				}
				return
			}
		}
		h.log.Error("cannot apply a stored event; reloading", "v", e.Version, "err", err)
		h.resync(h.room.Version)
	default:
		h.resync(h.room.Version)
	}
}

// checkVersion compares with the store's version now and then, so a lost
// pub/sub message delays an update by at most ResyncEvery.
func (h *hub) checkVersion() {
	if h.subC == nil {
		h.resubscribe()
	}
	// A hole ended by an instance that stopped before recording its best
	// score gets it from whoever serves the room now.
	defer h.recordBests()
	if h.stale {
		h.resync(h.staleFrom)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	evs, err := h.s.store.Since(ctx, h.code, h.room.Version)
	if err != nil && !errors.Is(err, store.ErrTooOld) {
		return
	}
	if err != nil || len(evs) > 0 {
		h.resync(h.room.Version)
	}
}

// discard drops an event the cached room holds but the store refused (or
// may never have got), version before being the room's version without
// it: it reloads the room or, when that fails, marks it stale.
func (h *hub) discard(before int64) {
	if !h.resync(before) {
		if !h.stale || before < h.staleFrom {
			h.staleFrom = before
		}
		h.stale = true
	}
}

// resync brings the cached room to the store's latest snapshot and sends
// connections the events after version from (or fresh snapshots when the
// history no longer reaches back). It reports whether the room could be
// reloaded.
func (h *hub) resync(from int64) bool {
	if h.stale {
		from = min(from, h.staleFrom)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	snap, err := h.s.store.Load(ctx, h.code)
	if err != nil {
		h.log.Warn("resync: load failed", "err", err)
		return false
	}
	room, err := match.DecodeRoom(snap.Data)
	if err == nil {
		room.SetAnalyzer(h.s.analyzer)
	}
	if err != nil {
		h.log.Error("resync: bad snapshot", "err", err)
		return false
	}
	entries, err := h.s.store.Since(ctx, h.code, from)
	h.room, h.stale = room, false
	if err != nil {
		for c := range h.conns {
			h.sendSnapshot(c)
		}
		h.changed(from)
		return true
	}
	for _, e := range entries {
		if e.Version > room.Version {
			break
		}
		if l, err := match.DecodeLogged(e.Data); err == nil {
			h.fanout(l, e.Version)
		}
	}
	h.changed(from)
	return true
}

// changed runs after the room moved on from version before: the clock,
// the lobby listing and the room's time to live.
func (h *hub) changed(before int64) {
	h.schedule()
	h.updateListing()
	h.expireFinished()
}

// schedule sets the timer for the room's next deadline.
func (h *hub) schedule() {
	if h.deadline != nil {
		h.deadline.Stop()
		h.deadline = nil
	}
	if t, ok := h.room.NextDeadline(); ok {
		d := t.Sub(h.s.now())
		if d < 0 {
			d = 0
		}
		h.deadline = time.NewTimer(d + 10*time.Millisecond)
	}
}

func (h *hub) tick() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	r := h.apply(ctx, func(*match.Room) (match.Event, error) {
		return match.Event{Kind: match.KindTick, At: h.s.now()}, nil
	})
	if r.err != nil && !errors.Is(r.err, match.ErrNoChange) {
		h.log.Warn("tick failed", "err", r.err)
	}
	h.schedule()
}

// listingData is what the lobby shows of a public room.
type listingData struct {
	Code       string         `json:"code"`
	Settings   match.Settings `json:"settings"`
	Seats      []string       `json:"seats"`
	Status     match.Status   `json:"status"`
	Hole       int            `json:"hole"`
	Spectators bool           `json:"spectators"`
}

// listingKey is what a listing depends on besides the settings and the
// seats' names, which never change once taken.
type listingKey struct {
	public bool
	status match.Status
	seats  int
	hole   int
}

func (h *hub) updateListing() {
	r := h.room
	// Most events (moves) change nothing the lobby shows: do not encode
	// the listing again for them.
	key := listingKey{public: r.Settings.Public, status: r.Status, seats: len(r.Seats)}
	if hole := r.CurrentHole(); hole != nil {
		key.hole = hole.Number
	}
	if h.listed && key == h.listedKey {
		return
	}
	var data []byte
	if r.Settings.Public && r.Status != match.Finished {
		ld := listingData{Code: r.Code, Settings: r.Settings, Status: r.Status, Spectators: r.Settings.Spectators, Seats: []string{}}
		for _, s := range r.Seats {
			ld.Seats = append(ld.Seats, s.Name)
		}
		if hole := r.CurrentHole(); hole != nil {
			ld.Hole = hole.Number
		}
		data, _ = json.Marshal(ld)
	}
	if string(data) == h.listing {
		h.listed, h.listedKey = true, key
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.s.store.SetListing(ctx, h.code, data); err != nil {
		h.log.Warn("listing update failed", "err", err)
		return
	}
	h.listing = string(data)
	h.listed, h.listedKey = true, key
}

// expireFinished gives a room that has just finished (public or private)
// the shorter time to live of finished rooms, once.
func (h *hub) expireFinished() {
	finished := h.room.Status == match.Finished
	if !finished || h.finishedTTL {
		h.finishedTTL = finished
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.s.store.Expire(ctx, h.code, h.s.opts.FinishedTTL); err != nil {
		h.log.Warn("expire failed", "err", err)
		return
	}
	h.finishedTTL = true
}

// fanout sends every connection the event as it may see it, with its view.
func (h *hub) fanout(l match.Logged, v int64) {
	if len(h.conns) == 0 {
		return
	}
	bySeat := map[int][]byte{}
	now := h.s.now()
	for c := range h.conns {
		msg, ok := bySeat[c.seat]
		if !ok {
			ev := h.room.EventView(l, v, c.seat)
			view := h.room.View(c.seat)
			msg = protocol.ServerMessage{Type: protocol.TypeEvent, V: v, Event: &ev, View: &view}.Marshal()
			bySeat[c.seat] = msg
		}
		h.deliver(c, msg, now)
	}
}

// deliver sends a message now, or after the spectator delay.
func (h *hub) deliver(c *conn, msg []byte, now time.Time) {
	if c.seat == match.SpectatorSeat && h.room.Settings.SpectatorDelay > 0 {
		at := now.Add(time.Duration(h.room.Settings.SpectatorDelay) * time.Second)
		h.delayQ = append(h.delayQ, delayed{at: at, c: c, msg: msg})
		if h.delayT == nil {
			h.delayT = time.NewTimer(at.Sub(now))
		}
		return
	}
	c.enqueue(msg)
}

func (h *hub) flushDelayed() {
	now := h.s.now()
	i := 0
	for ; i < len(h.delayQ) && !h.delayQ[i].at.After(now); i++ {
		if _, ok := h.conns[h.delayQ[i].c]; ok {
			h.delayQ[i].c.enqueue(h.delayQ[i].msg)
		}
	}
	h.delayQ = append(h.delayQ[:0], h.delayQ[i:]...)
	if len(h.delayQ) > 0 {
		h.delayT = time.NewTimer(h.delayQ[0].at.Sub(now))
	}
}

func (h *hub) sendSnapshot(c *conn) {
	view := h.room.View(c.seat)
	msg := protocol.ServerMessage{Type: protocol.TypeSnapshot, V: h.room.Version, View: &view}.Marshal()
	h.deliver(c, msg, h.s.now())
}

// attachConn registers a connection: it checks the token, sends what the
// client missed since its last version, and marks the player present.
func (h *hub) attachConn(c *conn, since int64) result {
	seat := match.SpectatorSeat
	if c.token != "" {
		seat = h.room.SeatOf(hashToken(c.token))
		if seat < 0 {
			return result{err: errBadToken}
		}
	} else if !h.room.Settings.Spectators {
		return result{err: errNoSpectators}
	}
	c.seat = seat
	if seat >= 0 {
		// Mark the player present before anything is sent, so that the
		// snapshot the client gets already says so and nothing changes
		// behind a client that has just been welcomed.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		r := h.apply(ctx, func(*match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindBack, Seat: seat, Conn: c.id}, nil
		})
		cancel()
		if r.err != nil && !errors.Is(r.err, match.ErrNoChange) {
			h.log.Warn("presence (back) not recorded", "err", r.err)
		}
	}
	h.conns[c] = struct{}{}
	h.s.metrics.conns.Inc()
	welcome := protocol.ServerMessage{Type: protocol.TypeWelcome, Protocol: protocol.Version, Seat: &seat, V: h.room.Version}
	c.enqueue(welcome.Marshal())
	if since > 0 && since < h.room.Version {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		entries, err := h.s.store.Since(ctx, h.code, since)
		cancel()
		if err == nil {
			now := h.s.now()
			for _, e := range entries {
				if e.Version > h.room.Version {
					break
				}
				if l, err := match.DecodeLogged(e.Data); err == nil {
					ev := h.room.EventView(l, e.Version, seat)
					h.deliver(c, protocol.ServerMessage{Type: protocol.TypeEvent, V: e.Version, Event: &ev}.Marshal(), now)
				}
			}
		}
	}
	h.sendSnapshot(c)
	return result{v: h.room.Version, data: seat}
}

// reassertPresence answers another instance marking a seat away while the
// player still has a connection here (two tabs on two instances, one
// closed): the seat is back, through this connection.
func (h *hub) reassertPresence(seat int) {
	if seat < 0 || seat >= len(h.room.Seats) || !h.room.Seats[seat].Away {
		return
	}
	for c := range h.conns {
		if c.seat != seat {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		r := h.apply(ctx, func(*match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindBack, Seat: seat, Conn: c.id}, nil
		})
		if r.err != nil && !errors.Is(r.err, match.ErrNoChange) {
			h.log.Warn("presence (back) not recorded", "err", r.err)
		}
		return
	}
}

func (h *hub) detachConn(c *conn) {
	if _, ok := h.conns[c]; !ok {
		return
	}
	delete(h.conns, c)
	h.s.metrics.conns.Dec()
	if c.seat < 0 {
		return
	}
	kind, conn := match.KindAway, c.id
	for o := range h.conns {
		if o.seat == c.seat {
			// Still here through another connection: make that one the
			// seat's connection, so that its own closing counts.
			kind, conn = match.KindBack, o.id
			break
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	r := h.apply(ctx, func(*match.Room) (match.Event, error) {
		return match.Event{Kind: kind, Seat: c.seat, Conn: conn}, nil
	})
	if r.err != nil && !errors.Is(r.err, match.ErrNoChange) {
		h.log.Warn("presence not recorded", "kind", kind, "err", r.err)
	}
}
