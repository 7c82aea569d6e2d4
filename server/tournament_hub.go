package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/protocol"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// tournamentHubs are the live tournaments of this instance.
type tournamentHubs struct {
	mu    sync.Mutex
	hubs  map[string]*thub
	clock *tournamentClock // tournament_clock.go
}

// pushEvery is the least time between two pushes to a tournament watcher:
// updates in between are coalesced into the next push.
const pushEvery = 500 * time.Millisecond

// maxBatch bounds how many queued commands a tournament hub applies in one
// store append.
const maxBatch = 256

// tcmd is work for a tournament hub's loop.
type tcmd struct {
	ctx            context.Context
	build          func(t *tourney.Tournament) (tourney.Event, error)
	read           func(t *tourney.Tournament) any
	attach, detach *twatcher
	// status sets the live text of knockout matches, by room.
	status map[string]string
	reply  chan tresult
}

type tresult struct {
	v       int64
	err     error
	data    any
	notices []tourney.Notice
}

// thub keeps one tournament on this instance: the cached state, applied
// commands batched into one store append, and the watchers, pushed the
// leaderboard at most twice a second. Only its loop touches its fields.
type thub struct {
	s     *Server
	id    string
	cmds  chan *tcmd
	stop  chan struct{}
	done  chan struct{}
	refs  int // guarded by s.tour.mu
	t     *tourney.Tournament
	board store.Tournaments
	sub   store.Subscription
	subC  <-chan store.Entry
	log   *slog.Logger

	watchers map[*twatcher]struct{}
	dirty    bool
	lastPush time.Time
	pushT    *time.Timer
	through  time.Time // the latest result applied
	deadline *time.Timer
	listed   string // what the listing was last made from

	sweeping    atomic.Bool // a sweep for lost results is running
	sweepCursor int
	// matchStatus is the live text of each knockout match being played
	// ("Ana 2 UP thru 5"), by room: from the rooms' holes on this instance
	// and from the sweep.
	matchStatus map[string]string
}

// twatcher is a WebSocket watching a tournament.
type twatcher struct {
	ws        *websocket.Conn
	send      chan []byte
	closed    chan struct{}
	closeOnce sync.Once
	entrant   int
	host      bool
	page      int
	size      int
}

func (w *twatcher) enqueue(msg []byte) {
	select {
	case <-w.closed:
	case w.send <- msg:
	default:
		w.close(websocket.StatusPolicyViolation, "too slow to read updates")
	}
}

func (w *twatcher) close(code websocket.StatusCode, reason string) {
	w.closeOnce.Do(func() {
		close(w.closed)
		go w.ws.Close(code, reason)
	})
}

func (s *Server) tournamentStore() (store.Tournaments, error) {
	ts, ok := s.store.(store.Tournaments)
	if !ok {
		return nil, fmt.Errorf("%w: this store keeps no tournaments", store.ErrUnavailable)
	}
	return ts, nil
}

// acquireTournament returns the tournament's hub, starting it if needed.
// Call releaseTournament when done.
func (s *Server) acquireTournament(ctx context.Context, id string) (*thub, error) {
	board, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	s.tour.mu.Lock()
	if s.tour.hubs == nil {
		s.tour.hubs = map[string]*thub{}
	}
	if h, ok := s.tour.hubs[id]; ok {
		h.refs++
		s.tour.mu.Unlock()
		return h, nil
	}
	h := &thub{
		s: s, id: id, cmds: make(chan *tcmd), stop: make(chan struct{}), done: make(chan struct{}), refs: 1,
		board: board, watchers: map[*twatcher]struct{}{}, log: s.log.With("tournament", id),
	}
	s.tour.hubs[id] = h
	s.tour.mu.Unlock()
	if err := h.load(ctx); err != nil {
		s.tour.mu.Lock()
		if s.tour.hubs[id] == h {
			delete(s.tour.hubs, id)
		}
		s.tour.mu.Unlock()
		close(h.done)
		if errors.Is(err, store.ErrNotFound) {
			return nil, errTournamentNotFound
		}
		return nil, err
	}
	go h.loop()
	return h, nil
}

func (s *Server) releaseTournament(h *thub) {
	s.tour.mu.Lock()
	h.refs--
	last := h.refs == 0
	if last && s.tour.hubs[h.id] == h {
		delete(s.tour.hubs, h.id)
	}
	s.tour.mu.Unlock()
	if last {
		close(h.stop)
		<-h.done
	}
}

func (h *thub) load(ctx context.Context) error {
	sub, err := h.s.store.Subscribe(context.WithoutCancel(ctx), h.id)
	if err != nil {
		return err
	}
	snap, err := h.s.store.Load(ctx, h.id)
	if err != nil {
		sub.Close()
		return err
	}
	t, err := tourney.Decode(snap.Data)
	if err == nil {
		t.SetAnalyzer(h.s.analyzer)
	}
	if err != nil {
		sub.Close()
		return err
	}
	h.sub, h.subC, h.t = sub, sub.C(), t
	h.repairBoard(ctx)
	return nil
}

// repairBoard puts back on the leaderboard any entrant whose score the
// store lacks (an instance that stopped between the append and the board
// update): the log is the truth, the board follows it.
func (h *thub) repairBoard(ctx context.Context) {
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
		h.log.Warn("leaderboard repair failed", "err", err)
	}
}

func (h *thub) do(ctx context.Context, c *tcmd) tresult {
	c.ctx = ctx
	c.reply = make(chan tresult, 1)
	select {
	case h.cmds <- c:
	case <-ctx.Done():
		return tresult{err: ctx.Err()}
	case <-h.done:
		return tresult{err: fmt.Errorf("%w: tournament closed on this instance", store.ErrUnavailable)}
	}
	select {
	case r := <-c.reply:
		return r
	case <-ctx.Done():
		return tresult{err: ctx.Err()}
	}
}

// read runs f on the loop and returns what it returns; an error it
// returns comes back as the error.
func (h *thub) read(ctx context.Context, f func(t *tourney.Tournament) any) (any, error) {
	res := h.do(ctx, &tcmd{read: f})
	if res.err != nil {
		return nil, res.err
	}
	if err, ok := res.data.(error); ok {
		return nil, err
	}
	return res.data, nil
}

func (h *thub) loop() {
	defer close(h.done)
	defer func() {
		h.sub.Close()
		if h.deadline != nil {
			h.deadline.Stop()
		}
		if h.pushT != nil {
			h.pushT.Stop()
		}
		for w := range h.watchers {
			w.close(websocket.StatusGoingAway, "server shutting down")
		}
	}()
	h.schedule()
	h.afterChange(nil)
	h.sweep()
	poll := time.NewTicker(h.s.opts.ResyncEvery)
	defer poll.Stop()
	for {
		var deadlineC, pushC <-chan time.Time
		if h.deadline != nil {
			deadlineC = h.deadline.C
		}
		if h.pushT != nil {
			pushC = h.pushT.C
		}
		select {
		case <-h.stop:
			return
		case c := <-h.cmds:
			h.handle(c)
		case e, ok := <-h.subC:
			if !ok {
				h.subC = nil
				continue
			}
			h.entry(e)
		case <-deadlineC:
			h.deadline = nil
			h.tick()
		case <-pushC:
			h.pushT = nil
			h.push()
		case <-poll.C:
			h.checkVersion()
			h.sweep()
		}
	}
}

func (h *thub) handle(c *tcmd) {
	switch {
	case c.attach != nil:
		h.watchers[c.attach] = struct{}{}
		h.pushTo(c.attach)
		c.reply <- tresult{v: h.t.Version}
	case c.detach != nil:
		delete(h.watchers, c.detach)
		c.reply <- tresult{}
	case c.read != nil:
		c.reply <- tresult{v: h.t.Version, data: c.read(h.t)}
	case c.status != nil:
		if h.matchStatus == nil {
			h.matchStatus = map[string]string{}
		}
		changed := false
		for room, text := range c.status {
			if h.matchStatus[room] != text {
				h.matchStatus[room], changed = text, true
			}
		}
		if changed {
			// Pushed like any change: coalesced, at most twice a second.
			h.dirty = true
			h.schedulePush()
		}
		c.reply <- tresult{v: h.t.Version}
	default:
		// Batch: take whatever else is queued, up to maxBatch commands
		// that change the tournament, into one append.
		batch := []*tcmd{c}
		var other *tcmd
	drain:
		for len(batch) < maxBatch {
			select {
			case n := <-h.cmds:
				if n.build == nil {
					other = n
					break drain
				}
				batch = append(batch, n)
			default:
				break drain
			}
		}
		h.applyBatch(batch)
		if other != nil {
			h.handle(other)
		}
	}
}

// applyBatch applies the commands' events in order and appends those that
// apply in one step, expecting the cached version; on a conflict it
// catches up with the store and tries again.
func (h *thub) applyBatch(batch []*tcmd) {
	if len(batch) == 0 {
		return
	}
	// A start or close that the clock has made due goes first, so that a
	// hub just loaded (its timer not yet fired) does not take a result
	// after the closing time or an entry after the start.
	if ev, ok := h.t.Due(h.s.now()); ok {
		due := &tcmd{ctx: context.Background(), reply: make(chan tresult, 1), build: func(*tourney.Tournament) (tourney.Event, error) { return ev, nil }}
		batch = append([]*tcmd{due}, batch...)
	}
	results := make([]tresult, len(batch))
	for attempt := 0; attempt < maxAttempts; attempt++ {
		before := h.t.Version
		var logged [][]byte
		var notices []tourney.Notice
		var scores []store.Scored
		through := h.through
		for i, c := range batch {
			results[i] = tresult{}
			ev, err := c.build(h.t)
			if err != nil {
				results[i] = tresult{v: h.t.Version, err: err}
				continue
			}
			if ev.At.IsZero() {
				ev.At = h.s.now()
			}
			n, err := h.t.Apply(ev)
			if err != nil {
				results[i] = tresult{v: h.t.Version, err: err}
				continue
			}
			data, _ := json.Marshal(ev)
			logged = append(logged, data)
			notices = append(notices, n...)
			results[i] = tresult{v: h.t.Version, notices: n}
			if ev.Kind == tourney.KindResult {
				scores = append(scores, store.Scored{Member: tourney.Member(ev.Entrant), Score: h.t.SortKey(ev.Entrant)})
				through = ev.At
			}
		}
		if len(logged) == 0 {
			break
		}
		snap, err := h.t.Encode()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err == nil && len(scores) > 0 {
			// The board first: an entry that lands before the log's append
			// fails only shows a score the retry will append anyway.
			err = h.board.SetScores(ctx, h.id, scores...)
		}
		if err == nil {
			_, err = h.s.store.Append(ctx, h.id, before, snap, logged...)
		}
		cancel()
		if err == nil {
			h.through = through
			h.afterChange(notices)
			break
		}
		h.resync()
		if !errors.Is(err, store.ErrConflict) || attempt == maxAttempts-1 {
			for i := range results {
				if results[i].err == nil {
					results[i] = tresult{v: h.t.Version, err: err}
				}
			}
			break
		}
	}
	for i, c := range batch {
		c.reply <- results[i]
	}
}

// entry applies an event another instance appended.
func (h *thub) entry(e store.Entry) {
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

func (h *thub) checkVersion() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if h.subC == nil {
		if sub, err := h.s.store.Subscribe(context.Background(), h.id); err == nil {
			h.sub.Close()
			h.sub, h.subC = sub, sub.C()
		}
	}
	snap, err := h.s.store.Load(ctx, h.id)
	if err == nil && snap.Version != h.t.Version {
		h.resync()
	}
}

// resync replaces the cached tournament with the store's snapshot.
func (h *thub) resync() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	snap, err := h.s.store.Load(ctx, h.id)
	if err != nil {
		h.log.Warn("resync failed", "err", err)
		return
	}
	t, err := tourney.Decode(snap.Data)
	if err == nil {
		t.SetAnalyzer(h.s.analyzer)
	}
	if err != nil {
		h.log.Error("resync: bad snapshot", "err", err)
		return
	}
	h.t = t
	h.afterChange(nil)
}

// afterChange runs after the tournament moved on: the clock, the list of
// tournaments, knockout matches to start, and a push to watchers.
func (h *thub) afterChange(notices []tourney.Notice) {
	h.schedule()
	h.updateListing()
	if h.t.Settings.Format == tourney.Knockout && len(h.t.ReadyMatches()) > 0 {
		go h.s.startMatches(h.id)
	}
	for _, n := range notices {
		if n.Kind == "closed" {
			h.log.Info("tournament closed", "reason", h.t.Reason)
		}
	}
	h.dirty = true
	h.schedulePush()
}

func (h *thub) schedule() {
	if h.deadline != nil {
		h.deadline.Stop()
		h.deadline = nil
	}
	if t, ok := h.t.NextDeadline(); ok {
		h.deadline = time.NewTimer(max(t.Sub(h.s.now()), 0) + 10*time.Millisecond)
	}
}

func (h *thub) tick() {
	ev, ok := h.t.Due(h.s.now())
	if !ok {
		h.schedule()
		return
	}
	c := &tcmd{ctx: context.Background(), reply: make(chan tresult, 1), build: func(*tourney.Tournament) (tourney.Event, error) { return ev, nil }}
	h.applyBatch([]*tcmd{c})
	if r := <-c.reply; r.err != nil && !errors.Is(r.err, tourney.ErrNoChange) {
		h.log.Warn("tournament clock", "err", r.err)
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

func (h *thub) updateListing() {
	t := h.t
	data, _ := json.Marshal(tournamentListing{
		ID: t.ID, Name: t.Settings.Name, Settings: t.Settings, Status: t.Status, Entrants: len(t.Entrants),
		Created: t.Created, Started: t.Started, Closed: t.Closed,
	})
	// Results change nothing the list shows; skip the write for them.
	key := fmt.Sprint(t.Status, len(t.Entrants))
	if key == h.listed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.board.SetTournament(ctx, h.id, data); err != nil {
		h.log.Warn("tournament list update failed", "err", err)
		return
	}
	h.listed = key
}

// schedulePush pushes now, or at the end of the current half second.
func (h *thub) schedulePush() {
	if !h.dirty || len(h.watchers) == 0 || h.pushT != nil {
		return
	}
	wait := pushEvery - h.s.now().Sub(h.lastPush)
	if wait <= 0 {
		h.push()
		return
	}
	h.pushT = time.NewTimer(wait)
}

// push sends every watcher its view and leaderboard page.
func (h *thub) push() {
	if !h.dirty {
		return
	}
	h.dirty = false
	h.lastPush = h.s.now()
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

func (h *thub) pushTo(w *twatcher) { w.enqueue(h.message(w)) }

func (h *thub) message(w *twatcher) []byte {
	view := h.t.View(w.entrant, w.host)
	if view.Bracket != nil {
		for _, round := range view.Bracket.Rounds {
			for i := range round {
				if mv := &round[i]; !mv.Decided && mv.Room != "" {
					mv.Status = h.matchStatus[mv.Room]
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
			h.log.Warn("leaderboard for a watcher", "err", err)
		}
	}
	return m.Marshal()
}
