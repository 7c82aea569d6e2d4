package tournaments

import (
	"context"
	"errors"
	"sync"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/tourney"
)

// RoomChanged is called by a room's hub after it applied an event of a
// tournament room: what the tournament needs of it (results,
// the live status of a match, the longer time to live of a finished
// room) goes to the outbox, which posts it off the room's loop; the
// tournament counts each result once, and its sweep posts again what an
// instance stopping before the outbox drained lost.
func (ts *Tournaments) RoomChanged(room *match.Room, notices []match.Notice) {
	if room.Tournament == "" || len(notices) == 0 {
		return
	}
	if p := tourney.RoomPosting(room, notices); len(p.Results) > 0 || p.Status != nil || p.Keep {
		ts.out.post(room.Tournament, p)
	}
}

// outbox holds the postings of tournament rooms, by tournament, for one
// drainer goroutine per tournament (a task of the server) to post in
// order to the tournament's hub: a room's loop never waits for a
// tournament'ts. A request that reads a tournament first waits for what
// this instance has queued for it (wait), so a player who has just
// finished a hole sees its result.
type outbox struct {
	ts      *Tournaments
	mu      sync.Mutex
	pending map[string]*outq
}

// outq is one tournament's queue; idle is closed when its drainer is done.
type outq struct {
	ps   []tourney.Posting
	idle chan struct{}
}

func (o *outbox) init(ts *Tournaments) { o.ts, o.pending = ts, map[string]*outq{} }

func (o *outbox) post(id string, p tourney.Posting) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if q := o.pending[id]; q != nil {
		q.ps = append(q.ps, p)
		return
	}
	q := &outq{ps: []tourney.Posting{p}, idle: make(chan struct{})}
	if o.ts.o.Go(func(ctx context.Context) { o.drain(ctx, id, q) }) {
		o.pending[id] = q // else closing: the sweep of another instance posts them
	}
}

// drain posts the tournament's postings until none is left.
func (o *outbox) drain(ctx context.Context, id string, q *outq) {
	defer close(q.idle)
	for {
		o.mu.Lock()
		ps := q.ps
		q.ps = nil
		if len(ps) == 0 {
			delete(o.pending, id)
			o.mu.Unlock()
			return
		}
		o.mu.Unlock()
		o.deliver(ctx, id, ps)
	}
}

// wait returns once what was queued for the tournament has been posted.
func (o *outbox) wait(ctx context.Context, id string) {
	o.mu.Lock()
	q := o.pending[id]
	o.mu.Unlock()
	if q == nil {
		return
	}
	select {
	case <-q.idle:
	case <-ctx.Done():
	}
}

func (o *outbox) deliver(ctx context.Context, id string, ps []tourney.Posting) {
	ts := o.ts
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for _, p := range ps {
		if p.Keep {
			if err := ts.o.Store.Expire(ctx, p.Room, ts.o.TTL); err != nil {
				ts.o.Logger.Warn("tournament room expiry", "room", p.Room, "err", err)
			}
		}
	}
	h, err := ts.acquire(ctx, id)
	if err != nil {
		ts.o.Logger.Warn("tournament results not posted", "tournament", id, "err", err)
		return
	}
	defer ts.reg.Release(h)
	status := map[string]*match.MatchStatus{}
	for _, p := range ps {
		if p.Status != nil {
			status[p.Room] = p.Status
		}
	}
	if len(status) > 0 {
		h.setStatus(ctx, status)
	}
	for _, p := range ps {
		ts.postResults(ctx, h, p.Room, p.Results)
	}
}

// postResults posts a room's results (stroke results, or a match
// decided with its winner's seat in Entrant) to the tournament's hub.
func (ts *Tournaments) postResults(ctx context.Context, h *hub, code string, evs []tourney.Event) {
	for _, ev := range evs {
		winnerSeat := ev.Entrant
		res := h.change(ctx, func(t *tourney.Tournament) (tourney.Event, error) {
			if ev.Kind == tourney.KindDecided {
				m := t.MatchOfRoom(code)
				if m == nil {
					return ev, tourney.ErrNoEntrant
				}
				ev.Round, ev.Slot = m.Round, m.Slot
				switch winnerSeat {
				case 0:
					ev.Entrant = m.A
				case 1:
					ev.Entrant = m.B
				default:
					ev.Entrant = t.BetterSeed(m.A, m.B)
					ev.Result = "Halved: the better seed goes through"
				}
				return ev, nil
			}
			ev.Entrant = t.EntrantOfRoom(code)
			if ev.Entrant < 0 {
				return ev, tourney.ErrNoEntrant
			}
			return ev, nil
		})
		if res.err != nil && !errors.Is(res.err, tourney.ErrNoChange) {
			ts.o.Logger.Info("tournament result refused", "room", code, "kind", ev.Kind, "hole", ev.Hole, "err", res.err)
		}
	}
}

// sweep re-posts results that were lost between a room's append and its
// post to the tournament (an instance stopping, a store error): each room
// of the tournament whose results may be missing is read, off the hub's
// loop, and what the tournament lacks is posted again; the tournament
// counts each result once. It also refreshes the live status of the
// knockout matches (played on any instance) that the bracket shows.
func (h *hub) sweep() {
	targets, next := h.t.SweepTargets(h.sweepCursor)
	h.sweepCursor = next
	if len(targets) == 0 || !h.sweeping.CompareAndSwap(false, true) {
		return
	}
	started := h.ts.o.Go(func(ctx context.Context) {
		defer h.sweeping.Store(false)
		ctx, cancel := context.WithTimeout(ctx, max(h.ts.o.ResyncEvery, 5*time.Second))
		defer cancel()
		go func() {
			select {
			case <-h.Done():
				cancel()
			case <-ctx.Done():
			}
		}()
		status := map[string]*match.MatchStatus{}
		defer func() {
			if len(status) > 0 {
				h.setStatus(ctx, status)
			}
		}()
		for _, tg := range targets {
			room, err := h.ts.o.Rooms.LoadRoom(ctx, tg.Room)
			if err != nil {
				continue
			}
			if st := room.Standings(); room.Settings.Format == match.Matchplay && st.Match != nil {
				// Matches played on other instances: their standing.
				status[tg.Room] = st.Match
			}
			evs := tourney.RoomResults(room)
			if tg.Thru >= 0 {
				if tg.Thru >= len(evs) {
					continue
				}
				evs = evs[tg.Thru:]
			}
			if len(evs) > 0 {
				h.Log.Info("tournament sweep: posting results again", "room", tg.Room, "results", len(evs))
				h.ts.postResults(ctx, h, tg.Room, evs)
			}
		}
	})
	if !started {
		h.sweeping.Store(false)
	}
}

// reconcile posts any result of the entrant's room that the tournament
// lacks (an instance that stopped between the room's append and the
// result's): the tournament applies each result once.
func (ts *Tournaments) reconcile(ctx context.Context, h *hub, code string) {
	room, err := ts.o.Rooms.LoadRoom(ctx, code)
	if err != nil || room.Settings.Format != match.Stroke {
		return
	}
	evs := tourney.RoomResults(room)
	thru, err := hubs.Read(ctx, &h.Core, func() int {
		if e := h.t.EntrantOfRoom(code); e >= 0 {
			return h.t.Thru(e)
		}
		return 0
	})
	if err == nil && thru < len(evs) {
		ts.postResults(ctx, h, code, evs[thru:])
	}
}

// startMatches makes the rooms of the knockout matches that are ready.
func (ts *Tournaments) startMatches(ctx context.Context, id string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	h, err := ts.acquire(ctx, id)
	if err != nil {
		return
	}
	defer ts.reg.Release(h)
	type ready struct {
		round, slot int
		seats       []Seat
		seed        golf.Seed
		set         match.Settings
	}
	rs, err := hubs.Read(ctx, &h.Core, func() []ready {
		t := h.t
		var out []ready
		for _, m := range t.ReadyMatches() {
			a, b := t.Entrants[m.A], t.Entrants[m.B]
			seats := []Seat{{a.Name, a.Token, a.Account}, {b.Name, b.Token, b.Account}}
			out = append(out, ready{m.Round, m.Slot, seats, t.Seed(m.Round), t.Settings.RoomSettings()})
		}
		return out
	})
	if err != nil {
		return
	}
	for _, m := range rs {
		code, err := ts.o.Rooms.StartRoom(ctx, id, m.set, m.seed, m.seats)
		if err != nil {
			ts.o.Logger.Warn("knockout match room", "err", err)
			continue
		}
		r := h.change(ctx, func(*tourney.Tournament) (tourney.Event, error) {
			return tourney.Event{Kind: tourney.KindMatch, Round: m.round, Slot: m.slot, Room: code}, nil
		})
		if r.err != nil && !errors.Is(r.err, tourney.ErrNoChange) {
			ts.o.Logger.Warn("knockout match room not recorded", "err", r.err)
		}
	}
}
