package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/protocol/patch"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/store"
)

// result is what a change to a room gives: the room's version after it,
// or why it was refused.
type result struct {
	v   int64
	err error
}

// delayed is a spectator message held back by the room's spectator delay:
// for one spectator (c: what it is sent on arrival), or, with c nil, for
// every spectator attached when it was held (gen), so the queue grows with
// the room's events, not with events times spectators.
type delayed struct {
	at  time.Time
	c   *conn
	gen uint64
	msg []byte
}

// hub keeps one room on this instance (the machine is hubs.Core's). Only
// its loop goroutine touches its fields after start.
type hub struct {
	hubs.Core[struct{}]
	s     *Server
	code  string
	room  *match.Room
	conns map[*conn]struct{}
	// live is what the room says of itself to GET /api/live (roomLive,
	// packed), brought up to date on the loop whenever it has run
	// something (Settled) and read by anyone without asking the loop.
	live atomic.Uint64

	delayQ []delayed
	delayT *time.Timer
	// specGen numbers spectator attachments (conn.gen); spectators counts
	// the attached spectators, for Limits.SpectatorsPerRoom.
	specGen    uint64
	spectators int
	listing    string
	// finishedTTL is set once the finished room's time to live is set.
	finishedTTL bool
	// solving holds the holes (by round and number) whose best score is
	// being solved off the loop (analysis.go).
	solving map[[2]int]bool
	// bestTurn lets one of the room's best-score solves at a time into
	// the solver pool (analysis.go).
	bestTurn chan struct{}
	// stale is set when the cached room may hold an event the store
	// refused or never got, and reloading it failed (the store could not
	// be reached). Until a reload works, commands are refused as
	// unavailable instead of running against that room: a move refused
	// while Redis was down must not be acknowledged as a duplicate when the
	// client sends it again. staleFrom is the version before that event,
	// the last one connections were sent.
	stale     bool
	staleFrom int64
	// gone is set once the room's state is no longer in the store (it
	// expired, or the store lost it): its clients have been told and
	// closed (vanish), and the store is not asked for it again.
	gone bool
	// listedKey is what h.listing was made from, once listed is true.
	listed    bool
	listedKey listingKey
	// snapshots are the views last sent whole, by viewer seat (each
	// valid at its own version only).
	snapshots map[int]*sentView
	// ack is the ack of the command being applied (changeAcked), and
	// ackNow the same while its own event is fanned out: the mover's
	// event and ack are queued together (sender.enqueueAcked), so they
	// leave in one write.
	ack, ackNow *moveAck
	// views builds the viewers' views from parts shared between them
	// and kept from one version to the next.
	views match.ViewCache
}

// roomHubs are the live rooms of this instance.
type roomHubs = hubs.Registry[*hub, struct{}]

func newRoomHubs(s *Server) *roomHubs {
	return hubs.NewRegistry(s.hubEnv(), func(code string) *hub {
		return &hub{s: s, Core: hubs.NewCore[struct{}](s.hubEnv(), "room", code), code: code, conns: map[*conn]struct{}{}}
	}, nil)
}

func (h *hub) HubCore() *hubs.Core[struct{}] { return &h.Core }

// Load reads the room.
func (h *hub) Load(ctx context.Context) error {
	room, _, err := hubs.LoadState(ctx, h.Store, h.code, h.s.decodeRoom)
	if err != nil {
		return err
	}
	h.room = room
	return nil
}

func (s *Server) decodeRoom(data []byte) (*match.Room, error) {
	room, err := match.DecodeRoom(data)
	if err != nil {
		return nil, err
	}
	room.SetAnalyzer(s.analyzer)
	return room, nil
}

func (h *hub) Started() {
	h.s.metrics.rooms.Inc()
	if roomWantsBots(h.room) {
		h.s.bots.Kick() // a bot of the room may have lost its instance
	}
	h.schedule()
	h.recordBests()
}

func (h *hub) Stopped() {
	h.s.metrics.rooms.Dec()
	h.live.Store(0) // a hub that stopped is in no count
	// Every connection has let go of the hub. One whose detach could not
	// reach the loop in time (the loop busy past the detach's timeout, as
	// on a store that hangs) is still listed: it is gone all the same.
	h.s.metrics.conns.Sub(float64(len(h.conns)))
	clear(h.conns)
	if h.delayT != nil {
		h.delayT.Stop()
	}
}

func (h *hub) Timer() *time.Timer { return h.delayT }

func (h *hub) Fired() {
	h.delayT = nil
	h.flushDelayed()
}

// change runs build on the loop and applies the event it returns.
func (h *hub) change(ctx context.Context, build func(r *match.Room) (match.Event, error)) result {
	var r result
	if err := h.Do(ctx, func() { r = h.apply(ctx, build) }); err != nil {
		return result{err: err}
	}
	return r
}

// moveAck is a command's ack, to queue with the mover's event frame.
type moveAck struct {
	c    *conn
	seq  int64
	sent bool // queued with the event
}

// changeAcked is change for a command of a connection: the ack goes out
// with the event frame the connection is sent (a.sent); when the
// connection got no frame (none attached here) the caller acks.
func (h *hub) changeAcked(ctx context.Context, a *moveAck, build func(r *match.Room) (match.Event, error)) result {
	var r result
	if err := h.Do(ctx, func() {
		h.ack = a
		r = h.apply(ctx, build)
		h.ack = nil
	}); err != nil {
		return result{err: err}
	}
	return r
}

// attach registers a connection and returns its seat.
func (h *hub) attach(ctx context.Context, c *conn, since int64) (int, error) {
	return hubs.ReadErr(ctx, &h.Core, func() (int, error) {
		if h.gone {
			return 0, errRoomNotFound
		}
		return h.attachConn(c, since)
	})
}

// detach lets a connection go.
func (h *hub) detach(ctx context.Context, c *conn) {
	h.Do(ctx, func() { h.detachConn(c) })
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
	if h.gone {
		return result{v: h.room.Version, err: errRoomNotFound}
	}
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
		// The store writes a snapshot only every SnapshotEvery events (Load
		// folds the events after it): the room is encoded only then.
		var snap []byte
		if store.SnapshotDue(h.Store.SnapshotEvery(), before, 1) {
			if snap, err = h.room.Encode(); err != nil {
				h.discard(before)
				return result{v: before, err: err}
			}
		}
		// Logged.AppendJSON writes json.Marshal's bytes, without
		// reflection; a move's event is some 120 bytes (more with notices).
		data := logged.AppendJSON(make([]byte, 0, 256))
		// A rated round's end and finished holes leave work to the job
		// queue: written with the event, in one step (pipeline.go).
		outbox := h.s.outboxEntries(h.room, notices)
		var v int64
		if len(outbox) > 0 {
			v, err = h.s.store.AppendOutbox(ctx, h.code, before, snap, outbox, data)
		} else {
			v, err = h.Store.Append(ctx, h.code, before, snap, data)
		}
		if err == nil {
			h.s.outboxWritten(outbox)
			h.ackNow = h.ack
			h.fanout(logged, v)
			h.ackNow = nil
			h.changed(before)
			h.s.tours.RoomChanged(h.room, notices)
			h.s.casualRoundEnded(h.room, notices) // linked.go
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

// Entry handles an entry from the subscription.
func (h *hub) Entry(e store.Entry) {
	if h.gone {
		return
	}
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
						h.s.bots.Kick() // its instance may be stopping
					}
				}
				return
			}
		}
		h.Log.Error("cannot apply a stored event; reloading", "v", e.Version, "err", err)
		h.resync(h.room.Version)
	default:
		h.resync(h.room.Version)
	}
}

// Check compares with the store's version now and then, so a lost
// pub/sub message delays an update by at most ResyncEvery (after the
// entry before it: a busy room puts its checks off, PutOff).
func (h *hub) Check() {
	if h.gone {
		return
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
	evs, err := h.Store.Since(ctx, h.code, h.room.Version)
	if errors.Is(err, store.ErrNotFound) {
		h.vanish()
		return
	}
	if err != nil && !errors.Is(err, store.ErrTooOld) {
		return
	}
	if err != nil || len(evs) > 0 {
		h.resync(h.room.Version)
	}
}

// PutOff is what Check does without the store while the subscription
// delivers (hubs.Deferrer): the best scores still to record. A stale room
// is checked at once.
func (h *hub) PutOff() bool {
	if h.stale {
		return false
	}
	h.recordBests()
	return true
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
	room, _, err := hubs.LoadState(ctx, h.Store, h.code, h.s.decodeRoom)
	if errors.Is(err, store.ErrNotFound) {
		h.vanish()
		return false
	}
	if err != nil {
		h.Log.Warn("resync: the room cannot be loaded", "err", err)
		return false
	}
	entries, err := h.Store.Since(ctx, h.code, from)
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
	h.reseat()
	h.schedule()
	h.updateListing()
	h.expireFinished()
}

// reseat follows seats that moved (a seat before them was given up) and
// lets go of the connections whose seat is gone, telling them why.
func (h *hub) reseat() {
	for c := range h.conns {
		if c.tokenHash == "" {
			continue
		}
		i := h.room.SeatOf(c.tokenHash)
		if i == c.seat {
			continue
		}
		if i >= 0 {
			c.seat = i
			continue
		}
		delete(h.conns, c)
		h.s.metrics.conns.Dec()
		c.enqueue(codeMsg(0, protocol.ErrCodeLeft, "you no longer have a seat in this room: you left, the host removed you, or you were not ready in time"))
		c.leave() // after the command that gave the seat up is answered
	}
}

// schedule sets the timer for the room's next deadline.
func (h *hub) schedule() { h.Core.Schedule(h.room.NextDeadline()) }

func (h *hub) Tick() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	r := h.apply(ctx, func(*match.Room) (match.Event, error) {
		return match.Event{Kind: match.KindTick, At: h.s.now()}, nil
	})
	if r.err != nil && !errors.Is(r.err, match.ErrNoChange) && !h.gone {
		h.Log.Warn("tick failed", "err", r.err)
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
		h.s.outage.warn(h.Log, "listing update failed", err)
		return
	}
	h.s.outage.ok(h.s.log)
	h.listing = string(data)
	h.listed, h.listedKey = true, key
}

// expireFinished gives a room that has just finished (public or private)
// the shorter time to live of finished rooms, once. A tournament's room
// keeps the tournament's (longer) time to live: its records are the
// tournament's.
func (h *hub) expireFinished() {
	finished := h.room.Status == match.Finished && h.room.Tournament == ""
	if !finished || h.finishedTTL {
		h.finishedTTL = finished
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.s.store.Expire(ctx, h.code, h.s.opts.FinishedTTL); err != nil {
		h.Log.Warn("expire failed", "err", err)
		return
	}
	h.finishedTTL = true
}

// sentView is a view as a connection was sent it: the base of the
// connection's next patch. Its parts are shared with the views of other
// viewers and versions (match.ViewCache).
type sentView struct {
	v   int64
	doc patch.Doc
	// json is doc's encoding, made when a whole view is sent.
	json []byte
	// members is doc's array: the view and its members are one
	// allocation.
	members [match.ViewMembers]patch.Member
}

// newSentView is the view of seat now.
func (h *hub) newSentView(seat int) *sentView {
	sv := &sentView{v: h.room.Version}
	sv.doc = h.views.AppendDoc(sv.members[:0], h.room, seat)
	return sv
}

// encoded is the view's encoding (View.AppendJSON's bytes).
func (sv *sentView) encoded() []byte {
	if sv.json == nil {
		sv.json = sv.doc.AppendJSON(make([]byte, 0, sv.doc.Len()))
	}
	return sv.json
}

// fanout sends every connection the event as it may see it, with what
// changed in its view since the view it was sent last: a patch of that
// view, or the whole view for a connection with none on record and for
// spectators held back by a delay (whose frames may be dropped). The
// views are built from shared parts, and each patch from the parts that
// changed, every part's patch computed once for every viewer who had and
// has the same (patch.Differ: patch.Diff's bytes).
func (h *hub) fanout(l match.Logged, v int64) {
	if len(h.conns) == 0 {
		return
	}
	// What one event's frames need is reused from one event to the next
	// (of any room), and let go of once they are sent.
	fan, _ := h.s.fans.Get().(*fanScratch)
	if fan == nil {
		fan = new(fanScratch)
	}
	defer h.s.fans.Put(fan)
	defer fan.reset()
	seats := &fan.used
	now := h.s.now()
	delay := h.room.Settings.SpectatorDelay > 0
	for c := range h.conns {
		i := c.seat + 1 // the spectator seat is -1
		if i < 0 || i >= len(seats) {
			continue
		}
		f := seats[i]
		if f == nil {
			f = &fan.seats[i]
			*f = seatFrames{ev: h.room.EventView(l, v, c.seat), view: h.newSentView(c.seat), differ: &fan.d, scratch: &fan.scratch, patched: f.patched}
			seats[i] = f
		}
		if delay && c.seat == match.SpectatorSeat {
			continue // held once for all of them, below
		}
		msg := f.frame(c.sent, v)
		c.sent = f.view
		if a := h.ackNow; a != nil && a.c == c && !a.sent && c.seat >= 0 {
			a.sent = true
			c.out.enqueueAcked(msg, protocol.AckFrame(a.seq, v))
			continue
		}
		h.deliver(c, msg, now)
	}
	if f := seats[0]; f != nil && delay {
		h.hold(delayed{at: now.Add(time.Duration(h.room.Settings.SpectatorDelay) * time.Second), gen: h.specGen, msg: f.frame(nil, v)}, now)
	}
}

// maxScratch is the largest patch buffer a fanScratch keeps.
const maxScratch = 64 << 10

// fanScratch is what fanout reuses from one event to the next, kept in
// the server's pool (Server.fans): the Differ's memo, the patch buffer
// and each viewer seat's frames (their lists' arrays).
type fanScratch struct {
	d patch.Differ
	// scratch holds each patch until its frame is written around it.
	scratch []byte
	seats   [match.MaxSeats + 1]seatFrames
	// used are the seats' frames of this event (nil: none yet).
	used [match.MaxSeats + 1]*seatFrames
}

// reset lets go of the event's views and frames, keeping the arrays (a
// patch buffer grown past maxScratch is let go of too).
func (fs *fanScratch) reset() {
	fs.d.Reset()
	if cap(fs.scratch) > maxScratch {
		fs.scratch = nil
	}
	for i, f := range fs.used {
		if f != nil {
			clear(f.patched)
			*f = seatFrames{patched: f.patched[:0]}
			fs.used[i] = nil
		}
	}
}

// seatFrames are one viewer seat's frames of an event.
type seatFrames struct {
	ev     match.EventView
	view   *sentView
	differ *patch.Differ
	full   []byte
	// patchEvent is ev as patch frames carry it (encoded once).
	patchEvent []byte
	// patched holds the frame for each base, shared by the connections
	// sent the same view last: most often one base, so a short list, and
	// a map past maxListed bases (a crowd of spectators at many).
	patched []patchedFrame
	byBase  map[*sentView][]byte
	scratch *[]byte
}

// maxListed is how many bases seatFrames lists before it maps them.
const maxListed = 8

// patchedFrame is an event frame for the connections sent base last.
type patchedFrame struct {
	base *sentView
	msg  []byte
}

// frame is the event frame of version v for a connection sent base last
// (nil: none on record, or one that must get whole views).
func (f *seatFrames) frame(base *sentView, v int64) []byte {
	if base != nil {
		for _, p := range f.patched {
			if p.base == base {
				return p.msg
			}
		}
		if msg, ok := f.byBase[base]; ok {
			return msg
		}
		p, err := f.differ.AppendDiff((*f.scratch)[:0], base.doc, f.view.doc)
		if err == nil {
			*f.scratch = p
			if f.patchEvent == nil {
				// A patch frame's event leaves its time out
				// (docs/protocol.md).
				ev := f.ev
				ev.At = 0
				f.patchEvent = ev.AppendJSON(make([]byte, 0, 128))
			}
			// PatchFrame copies the patch out of the scratch buffer.
			msg := protocol.PatchFrame(v, base.v, f.patchEvent, p)
			if len(f.patched) < maxListed {
				f.patched = append(f.patched, patchedFrame{base, msg})
			} else {
				if f.byBase == nil {
					f.byBase = map[*sentView][]byte{}
				}
				f.byBase[base] = msg
			}
			return msg
		}
	}
	if f.full == nil {
		event := f.ev.AppendJSON(make([]byte, 0, 128))
		f.full = protocol.EventFrame(v, event, f.view.encoded())
	}
	return f.full
}

// deliver sends a message now, or after the spectator delay.
func (h *hub) deliver(c *conn, msg []byte, now time.Time) {
	if c.seat == match.SpectatorSeat && h.room.Settings.SpectatorDelay > 0 {
		h.hold(delayed{at: now.Add(time.Duration(h.room.Settings.SpectatorDelay) * time.Second), c: c, msg: msg}, now)
		return
	}
	c.enqueue(msg)
}

// hold queues a delayed message. The queue holds at most MaxDelayed: past
// that, the oldest message a later one supersedes is dropped (every
// message to a delayed spectator carries the viewer's whole view, never a
// patch, so a spectator skips a frame and misses nothing of the state).
func (h *hub) hold(d delayed, now time.Time) {
	if len(h.delayQ) >= h.s.opts.MaxDelayed {
		drop := len(h.delayQ) - 1 // none superseded (cannot happen): the latest held
		for i, o := range h.delayQ {
			if supersedes(d, o) {
				drop = i
				break
			}
		}
		h.delayQ = append(h.delayQ[:drop], h.delayQ[drop+1:]...)
		h.s.metrics.delayDropped.Inc()
	}
	h.delayQ = append(h.delayQ, d)
	if h.delayT == nil {
		h.delayT = time.NewTimer(h.delayQ[0].at.Sub(now))
	}
}

// supersedes reports whether every spectator the older message is for also
// gets the newer one.
func supersedes(newer, older delayed) bool {
	switch {
	case newer.c == nil && older.c == nil:
		return true
	case newer.c == nil:
		return older.c.gen <= newer.gen
	default:
		return older.c == newer.c
	}
}

func (h *hub) flushDelayed() {
	now := h.s.now()
	i := 0
	for ; i < len(h.delayQ) && !h.delayQ[i].at.After(now); i++ {
		d := h.delayQ[i]
		if d.c != nil {
			if _, ok := h.conns[d.c]; ok {
				d.c.enqueue(d.msg)
			}
			continue
		}
		for c := range h.conns {
			if c.seat == match.SpectatorSeat && c.gen <= d.gen {
				c.enqueue(d.msg)
			}
		}
	}
	h.delayQ = append(h.delayQ[:0], h.delayQ[i:]...)
	if len(h.delayQ) > 0 {
		h.delayT = time.NewTimer(h.delayQ[0].at.Sub(now))
	}
}

// sendSnapshot sends the connection its whole view: the base of the
// patches that follow. Connections of one viewer seat that attach at the
// same version (a crowd of spectators) share one encoded view.
func (h *hub) sendSnapshot(c *conn) {
	sv := h.snapshots[c.seat]
	if sv == nil || sv.v != h.room.Version {
		sv = h.newSentView(c.seat)
		if h.snapshots == nil {
			h.snapshots = map[int]*sentView{}
		}
		h.snapshots[c.seat] = sv
	}
	c.sent = sv
	h.deliver(c, protocol.SnapshotFrame(h.room.Version, sv.encoded()), h.s.now())
}

// attachConn registers a connection: it checks the token, sends what the
// client missed since its last version, and marks the player present.
func (h *hub) attachConn(c *conn, since int64) (int, error) {
	seat := match.SpectatorSeat
	if c.token != "" {
		c.tokenHash = hashToken(c.token)
		seat = h.room.SeatOf(c.tokenHash)
		if seat < 0 {
			return 0, errBadToken
		}
	} else if !h.room.Settings.Spectators {
		return 0, errNoSpectators
	} else if max := h.s.opts.Limits.SpectatorsPerRoom; max >= 0 && h.spectators >= max {
		h.s.metrics.refused.WithLabelValues("spectators").Inc()
		return 0, errCrowded
	}
	c.seat = seat
	if seat == match.SpectatorSeat {
		h.spectators++
		h.specGen++
		c.gen = h.specGen
	}
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
			h.Log.Warn("presence (back) not recorded", "err", r.err)
		}
	}
	h.conns[c] = struct{}{}
	h.s.metrics.conns.Inc()
	welcome := protocol.ServerMessage{Type: protocol.TypeWelcome, Protocol: c.version, Features: protocol.Features, Seat: &seat, V: h.room.Version}
	if seat >= 0 {
		welcome.LastSeq = h.room.Seats[seat].LastSeq
	}
	c.enqueue(welcome.Marshal())
	if since > 0 && since < h.room.Version {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		entries, err := h.Store.Since(ctx, h.code, since)
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
	return seat, nil
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
			h.Log.Warn("presence (back) not recorded", "err", r.err)
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
	if c.seat == match.SpectatorSeat {
		h.spectators--
	}
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
		h.Log.Warn("presence not recorded", "kind", kind, "err", r.err)
	}
}
