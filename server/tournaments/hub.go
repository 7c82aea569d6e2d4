package tournaments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// maxAttempts bounds how many times a batch of changes is applied again
// after other instances appended first.
const maxAttempts = 8

// pushEvery is the least time between two pushes to a tournament watcher:
// updates in between are coalesced into the next push.
const pushEvery = 500 * time.Millisecond

// change is a change to a tournament: build makes the event against the
// tournament as it is when the change is applied.
type change struct {
	build func(t *tourney.Tournament) (tourney.Event, error)
	reply chan result
}

type result struct {
	v       int64
	err     error
	notices []tourney.Notice
}

// hub keeps one tournament on this instance (the machine is hubs.Core's):
// the cached state, changes batched into one store append, and the
// watchers, pushed the leaderboard at most twice a second. Only its loop
// touches its fields.
type hub struct {
	hubs.Core[change]
	ts    *Tournaments
	id    string
	t     *tourney.Tournament
	list  store.Tournaments
	board store.Leaderboards

	watchers map[*watcher]struct{}
	dirty    bool
	lastPush time.Time
	pushT    *time.Timer
	through  time.Time // the latest result applied
	listed   string    // what the listing was last made from

	sweeping    atomic.Bool // a sweep for lost results is running
	sweepCursor int
	// matchStatus is the live text of each knockout match being played
	// ("Ana 2 UP thru 5"), by room: from the rooms' holes on this instance
	// and from the sweep.
	matchStatus map[string]*match.MatchStatus
}

// The optional capabilities of a tournament's hub (server/internal/hubs).
var (
	_ hubs.Lifecycle       = (*hub)(nil)
	_ hubs.Timer           = (*hub)(nil)
	_ hubs.Batcher[change] = (*hub)(nil)
)

// watcher is a WebSocket watching a tournament.
type watcher struct {
	sock    Socket
	entrant int
	host    bool
	page    int
	size    int
}

func (w *watcher) enqueue(msg []byte) { w.sock.Send(msg) }

func (h *hub) HubCore() *hubs.Core[change] { return &h.Core }

func (ts *Tournaments) decodeTournament(data []byte) (*tourney.Tournament, error) {
	t, err := tourney.Decode(data)
	if err != nil {
		return nil, err
	}
	t.SetAnalyzer(ts.o.Analyzer)
	return t, nil
}

func (h *hub) Load(ctx context.Context) error {
	t, _, err := hubs.LoadState(ctx, h.Store, h.id, h.ts.decodeTournament)
	if err != nil {
		return err
	}
	h.list, h.board, h.t = h.ts.o.Tournaments, h.ts.o.Leaderboards, t
	h.repairBoard(ctx)
	return nil
}

func (h *hub) Started() {
	h.schedule()
	h.afterChange(nil)
	h.sweep()
}

func (h *hub) Stopped() {
	if h.pushT != nil {
		h.pushT.Stop()
	}
	for w := range h.watchers {
		w.sock.CloseNow(websocket.StatusGoingAway, "server shutting down")
	}
}

func (h *hub) Timer() *time.Timer { return h.pushT }

func (h *hub) Fired() {
	h.pushT = nil
	h.push()
}

// change applies the event build makes (batched with other changes).
func (h *hub) change(ctx context.Context, build func(t *tourney.Tournament) (tourney.Event, error)) result {
	c := &change{build: build, reply: make(chan result, 1)}
	if err := h.Queue(ctx, c); err != nil {
		return result{err: err}
	}
	select {
	case r := <-c.reply:
		return r
	case <-ctx.Done():
		return result{err: ctx.Err()}
	}
}

// setStatus sets the live text of knockout matches, by room.
func (h *hub) setStatus(ctx context.Context, status map[string]*match.MatchStatus) {
	h.Do(ctx, func() {
		if h.matchStatus == nil {
			h.matchStatus = map[string]*match.MatchStatus{}
		}
		changed := false
		for room, st := range status {
			if old := h.matchStatus[room]; old == nil || old.Text != st.Text {
				h.matchStatus[room], changed = st, true
			}
		}
		if changed {
			// Pushed like any change: coalesced, at most twice a second.
			h.dirty = true
			h.schedulePush()
		}
	})
}

// attach adds a watcher and pushes it the tournament; detach removes it.
func (h *hub) attach(ctx context.Context, w *watcher) error {
	return h.Do(ctx, func() {
		h.watchers[w] = struct{}{}
		h.pushTo(w)
	})
}

func (h *hub) detach(ctx context.Context, w *watcher) {
	h.Do(ctx, func() { delete(h.watchers, w) })
}

// repairBoard puts back on the leaderboard any entrant whose score the
// store lacks (an instance that stopped between the append and the board
// update): the log is the truth, the board follows it.
func (h *hub) repairBoard(ctx context.Context) {
	if !h.t.HasLeaderboard() {
		return
	}
	var want []store.Scored
	for i := range h.t.Entrants {
		if h.t.OnBoard(i) {
			want = append(want, store.Scored{Member: tourney.Member(i), Score: h.t.SortKey(i)})
		}
	}
	n, err := h.board.Count(ctx, h.id, negInf, posInf)
	if err != nil || n == int64(len(want)) {
		return
	}
	if err := h.board.SetScores(ctx, h.id, want...); err != nil {
		h.Log.Warn("leaderboard repair failed", "err", err)
	}
}

// ApplyBatch applies the commands' events in order and appends those that
// apply in one step, expecting the cached version; on a conflict it
// catches up with the store and tries again.
func (h *hub) ApplyBatch(batch []*change) {
	if len(batch) == 0 {
		return
	}
	// A start or close that the clock has made due goes first, so that a
	// hub just loaded (its timer not yet fired) does not take a result
	// after the closing time or an entry after the start.
	if ev, ok := h.t.Due(h.ts.o.Now()); ok {
		due := &change{reply: make(chan result, 1), build: func(*tourney.Tournament) (tourney.Event, error) { return ev, nil }}
		batch = append([]*change{due}, batch...)
	}
	results := make([]result, len(batch))
	for attempt := 0; attempt < maxAttempts; attempt++ {
		before := h.t.Version
		var logged [][]byte
		var notices []tourney.Notice
		var scores []store.Scored
		through := h.through
		for i, c := range batch {
			results[i] = result{}
			ev, err := c.build(h.t)
			if err != nil {
				results[i] = result{v: h.t.Version, err: err}
				continue
			}
			if ev.At.IsZero() {
				ev.At = h.ts.o.Now()
			}
			n, err := h.t.Apply(ev)
			if err != nil {
				results[i] = result{v: h.t.Version, err: err}
				continue
			}
			data, _ := json.Marshal(ev)
			logged = append(logged, data)
			notices = append(notices, n...)
			results[i] = result{v: h.t.Version, notices: n}
			switch {
			case ev.Kind == tourney.KindResult:
				scores = append(scores, store.Scored{Member: tourney.Member(ev.Entrant), Score: h.t.SortKey(ev.Entrant)})
				through = ev.At
			case ev.Kind == tourney.KindJoin && h.t.HasLeaderboard():
				// On the board from the entry: not started, last.
				i := len(h.t.Entrants) - 1
				scores = append(scores, store.Scored{Member: tourney.Member(i), Score: h.t.SortKey(i)})
			}
		}
		if len(logged) == 0 {
			break
		}
		var snap []byte
		var err error
		if store.SnapshotDue(h.Store.SnapshotEvery(), before, len(logged)) {
			snap, err = h.t.Encode() // only when the store writes one
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err == nil && len(scores) > 0 {
			// The board first: an entry that lands before the log's append
			// fails only shows a score the retry will append anyway.
			err = h.board.SetScores(ctx, h.id, scores...)
		}
		outbox := h.ts.o.Results.Entries(h.t, notices) // the core: a rated close
		switch {
		case err != nil:
		case len(outbox) > 0:
			_, err = h.ts.o.Store.AppendOutbox(ctx, h.id, before, snap, outbox, logged...)
		default:
			_, err = h.Store.Append(ctx, h.id, before, snap, logged...)
		}
		cancel()
		if err == nil {
			h.ts.o.Results.Written(outbox)
			h.through = through
			h.afterChange(notices)
			break
		}
		h.resync()
		if !errors.Is(err, store.ErrConflict) || attempt == maxAttempts-1 {
			for i := range results {
				if results[i].err == nil {
					results[i] = result{v: h.t.Version, err: err}
				}
			}
			break
		}
	}
	for i, c := range batch {
		c.reply <- results[i]
	}
}

// Entry applies an event another instance appended.
func (h *hub) Entry(e store.Entry) {
	switch {
	case e.Version <= h.t.Version:
	case e.Version == h.t.Version+1:
		var ev tourney.Event
		if err := json.Unmarshal(e.Data, &ev); err == nil {
			if n, err := h.t.Apply(ev); err == nil {
				if ev.Kind == tourney.KindResult {
					h.through = ev.At
				}
				h.afterChange(n)
				return
			}
		}
		h.resync()
	default:
		h.resync()
	}
}

// Check compares with the store's version now and then, and sweeps for
// lost results.
func (h *hub) Check() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, v, err := hubs.LoadState(ctx, h.Store, h.id, h.ts.decodeTournament); err == nil && v != h.t.Version {
		h.resync()
	}
	h.sweep()
}

// resync replaces the cached tournament with the store's snapshot.
func (h *hub) resync() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	t, _, err := hubs.LoadState(ctx, h.Store, h.id, h.ts.decodeTournament)
	if err != nil {
		h.Log.Warn("resync: the tournament cannot be loaded", "err", err)
		return
	}
	h.t = t
	h.afterChange(nil)
}

// afterChange runs after the tournament moved on: the clock, the list of
// tournaments, knockout matches to start, and a push to watchers.
func (h *hub) afterChange(notices []tourney.Notice) {
	h.schedule()
	h.updateListing()
	if h.t.Settings.Format == tourney.Knockout && len(h.t.ReadyMatches()) > 0 {
		h.ts.o.Go(func(ctx context.Context) { h.ts.startMatches(ctx, h.id) })
	}
	for _, n := range notices {
		if n.Kind == tourney.NoticeClosed {
			h.Log.Info("tournament closed", "reason", h.t.Reason)
		}
	}
	h.dirty = true
	h.schedulePush()
}

func (h *hub) schedule() { h.Core.Schedule(h.t.NextDeadline()) }

func (h *hub) Tick() {
	ev, ok := h.t.Due(h.ts.o.Now())
	if !ok {
		h.schedule()
		return
	}
	c := &change{reply: make(chan result, 1), build: func(*tourney.Tournament) (tourney.Event, error) { return ev, nil }}
	h.ApplyBatch([]*change{c})
	if r := <-c.reply; r.err != nil && !errors.Is(r.err, tourney.ErrNoChange) {
		h.Log.Warn("tournament clock", "err", r.err)
	}
	h.schedule()
}

// tournamentListing is what the list of tournaments shows.
type tournamentListing struct {
	ID       string           `json:"id"`
	Name     string           `json:"name"`
	Settings tourney.Settings `json:"settings"`
	Status   tourney.Status   `json:"status"`
	Entrants int              `json:"entrants"`
	Created  time.Time        `json:"created"`
	Started  time.Time        `json:"started,omitzero"`
	Closed   time.Time        `json:"closed,omitzero"`
}

func (h *hub) updateListing() {
	t := h.t
	data, _ := json.Marshal(tournamentListing{
		ID: t.ID, Name: t.Settings.Name, Settings: t.Settings, Status: t.Status, Entrants: len(t.Entrants),
		Created: t.Created, Started: t.Started, Closed: t.Closed,
	})
	// When the clock next needs it (clock.go): its start while
	// upcoming, its close while live (or when it would close as idle:
	// the tourney package's idle limit), never once finished.
	due, _ := t.NextDeadline()
	// Results change nothing the list shows, and move an idle deadline
	// by little: skip the write unless the status, the entrants or the
	// due time's hour changed. (The clock may load a hub up to an hour
	// early; the hub keeps its own deadline.)
	key := fmt.Sprint(t.Status, len(t.Entrants), due.Truncate(time.Hour).Unix())
	if key == h.listed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.list.SetDue(ctx, h.id, due); err != nil {
		h.ts.o.Outage.Warn(h.Log, "tournament due time update failed", err)
		return
	}
	if err := h.list.SetTournament(ctx, h.id, data); err != nil {
		h.ts.o.Outage.Warn(h.Log, "tournament list update failed", err)
		return
	}
	if t.Status == tourney.Closed {
		// Listed, on the clock's index and on the board for as long as its
		// log is kept (Options.TournamentTTL from its last event), then gone.
		if err := h.list.CloseTournament(ctx, h.id, h.ts.o.TTL); err != nil {
			h.ts.o.Outage.Warn(h.Log, "tournament close failed", err)
			return
		}
	}
	h.listed = key
}

// schedulePush pushes now, or at the end of the current half second.
func (h *hub) schedulePush() {
	if !h.dirty || len(h.watchers) == 0 || h.pushT != nil {
		return
	}
	wait := pushEvery - h.ts.o.Now().Sub(h.lastPush)
	if wait <= 0 {
		h.push()
		return
	}
	h.pushT = time.NewTimer(wait)
}

// push sends every watcher its view and leaderboard page.
func (h *hub) push() {
	if !h.dirty {
		return
	}
	h.dirty = false
	h.lastPush = h.ts.o.Now()
	cache := map[[4]int][]byte{}
	for w := range h.watchers {
		host := 0
		if w.host {
			host = 1
		}
		key := [4]int{w.entrant, host, w.page, w.size}
		msg, ok := cache[key]
		if !ok {
			msg = h.message(w)
			cache[key] = msg
		}
		w.enqueue(msg)
	}
}

func (h *hub) pushTo(w *watcher) { w.enqueue(h.message(w)) }

func (h *hub) message(w *watcher) []byte {
	view := h.t.View(w.entrant, w.host)
	if view.Bracket != nil {
		for _, round := range view.Bracket.Rounds {
			for i := range round {
				if mv := &round[i]; !mv.Decided && mv.Room != "" {
					if st := h.matchStatus[mv.Room]; st != nil {
						mv.Status, mv.Live = st.Text, st
					}
				}
			}
		}
	}
	m := protocol.TournamentMessage{Type: protocol.TypeTournament, V: h.t.Version, View: &view, Through: h.through}
	if h.t.HasLeaderboard() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		lb, err := leaderboardOf(ctx, h.board, h.t, w.page, w.size, w.entrant)
		if err == nil {
			m.Board = lb
		} else {
			h.Log.Warn("leaderboard for a watcher", "err", err)
		}
	}
	return m.Marshal()
}

// readT runs f with the tournament on the hub's loop and returns what it
// returns; an error f returns comes back as the error.
func readT[T any](ctx context.Context, h *hub, f func(t *tourney.Tournament) (T, error)) (T, error) {
	return hubs.ReadErr(ctx, &h.Core, func() (T, error) { return f(h.t) })
}
