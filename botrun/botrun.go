package botrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golfsolitaire/bot"
	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// Store is what the runner needs of the store: the bots' records and
// due times, and leases.
type Store interface {
	SetBot(ctx context.Context, room, id string, data []byte) error
	DelayBot(ctx context.Context, room, id string, at time.Time) error
	DueBots(ctx context.Context, until time.Time, limit int) ([]store.Bot, error)
	TakeLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	RenewLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	ReleaseLease(ctx context.Context, key, owner string) error
}

// ErrNoRoom is what Options.LoadRoom returns for a room that is gone: its
// bots are forgotten.
var ErrNoRoom = errors.New("botrun: no such room")

// Options configure a Runner; every field is required.
type Options struct {
	Store Store
	// Owner names this instance as the owner of bot leases.
	Owner string
	// Lease is how long a bot's lease lasts unless renewed (every third
	// of it); SweepEvery how often the runner looks for bots that no
	// instance runs; Think a bot's pause before each move.
	Lease, SweepEvery, Think time.Duration
	// URL and HTTPClient reach the server (bot.RunOptions).
	URL        string
	HTTPClient *http.Client
	// Gate runs the thinking of a room's search bots (bot.RunOptions).
	Gate func(room string) bot.Gate
	// Yield is how the search bots' solves give way (bot.RunOptions;
	// nil: runtime.Gosched).
	Yield func()
	// LoadRoom reads a room (ErrNoRoom when it is gone); HashToken is what
	// a room holds of a seat token; Now is the clock.
	LoadRoom  func(ctx context.Context, code string) (*match.Room, error)
	HashToken func(token string) string
	Now       func() time.Time
	Logger    *slog.Logger
	// StoreFailed and StoreOK report a sweep that could not read the
	// store, and one that could (the server logs an outage once).
	StoreFailed func(msg string, err error)
	StoreOK     func()
}

// Runner runs this instance's bots and resumes the ones nobody runs.
type Runner struct {
	opts    Options
	log     *slog.Logger
	mu      sync.Mutex
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	running atomic.Int32
	closed  bool
	// runs holds the lease keys of the bots running here.
	runs                 map[string]bool
	kick                 chan struct{}
	sweepStop, sweepDone chan struct{}
}

// New returns a runner; Start starts its sweep.
func New(opts Options) *Runner {
	r := &Runner{opts: opts, log: opts.Logger, runs: map[string]bool{}, kick: make(chan struct{}, 1)}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	return r
}

// Linger is how long a bot waits in a finished room for a rematch
// before it leaves (bot.RunOptions.Linger); the sweep forgets the records
// of bots in rooms finished longer ago.
const Linger = 2 * time.Minute

// sweepLimit bounds how many bot records one sweep reads.
const sweepLimit = 10000

// Record is a bot's store record (store.SetBot): what any instance
// needs to run the bot. It holds the seat token: never send it to a
// client.
type Record struct {
	Level bot.Level `json:"level"`
	Token string    `json:"token"`
}

// LeaseKey names the lease of a room's bot.
func LeaseKey(code, id string) string { return "bot:" + code + ":" + id }

// ErrShuttingDown refuses new bots while the server closes.
var ErrShuttingDown = fmt.Errorf("%w: the server is shutting down", store.ErrUnavailable)

// Closed reports whether the runner is stopping (Stop).
func (r *Runner) Closed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// Run runs the bot, whose lease this instance took at time taken (or
// earlier), until its room is done with it, its lease is lost or the
// server closes. firstSeq is the least sequence number it may use.
func (r *Runner) Run(code, id string, rec Record, firstSeq int64, taken time.Time) error {
	key := LeaseKey(code, id)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrShuttingDown
	}
	if r.runs[key] {
		return fmt.Errorf("botrun: bot %s already runs here", key)
	}
	r.runs[key] = true
	ctx, cancel := context.WithCancel(r.ctx)
	r.wg.Add(1)
	r.running.Add(1)
	go func() {
		defer r.wg.Done()
		lost := r.holdLease(ctx, cancel, key, taken, func(ctx context.Context, until time.Time) {
			r.delay(ctx, code, id, until)
		})
		err := bot.Run(ctx, bot.RunOptions{
			URL: r.opts.URL, HTTPClient: r.opts.HTTPClient, Room: code, Token: rec.Token, Level: rec.Level, Think: r.opts.Think,
			Linger: Linger, FirstSeq: firstSeq, Logger: r.log, Gate: r.opts.Gate(code), Yield: r.opts.Yield,
		})
		cancel()
		leaseLost := <-lost
		r.running.Add(-1)
		r.mu.Lock()
		delete(r.runs, key)
		closing := r.closed
		r.mu.Unlock()

		sctx, cancelStop := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancelStop()
		done := err == nil || client.IsCode(err, protocol.ErrCodeBadToken) || client.IsCode(err, protocol.ErrCodeRoomNotFound)
		switch {
		case leaseLost:
			r.log.Warn("bot stopped: its lease could not be renewed", "room", code, "bot", id)
		case done:
			// Done with the room for good: nobody is to resume it.
			r.Forget(sctx, code, id)
		case closing, errors.Is(err, context.Canceled), strings.Contains(err.Error(), "deadline"):
		default:
			r.log.Info("bot stopped", "room", code, "err", err)
		}
		// Releasing compares the owner first: harmless if the lease was lost.
		r.Release(sctx, key)
		r.delay(sctx, code, id, time.Time{}) // due now, for whoever sweeps next
	}()
	return nil
}

// holdLease renews the bot's lease every third of Options.Lease until ctx is
// done. A renewal that fails is tried again soon, until half the lease has
// passed since the last one that worked: then, or as soon as the store
// says the lease is no longer this instance's, it cancels the bot, well
// before another instance could take the lease (which lasts the whole
// Options.Lease from the last renewal). After each renewal it calls delay
// with the lease's new end. The channel then receives whether the lease
// was lost.
func (r *Runner) holdLease(ctx context.Context, cancel context.CancelFunc, key string, taken time.Time, delay func(context.Context, time.Time)) <-chan bool {
	lost := make(chan bool, 1)
	go func() {
		ttl := r.opts.Lease
		every := ttl / 3
		held := taken // the lease lasts at least until held+ttl
		timer := time.NewTimer(every)
		defer timer.Stop()
		// Not due for a sweep while the lease holds (each renewal pushes
		// that on). The timer runs meanwhile: a slow store does not delay
		// the renewals.
		dctx, dcancel := context.WithTimeout(ctx, every)
		delay(dctx, taken.Add(ttl))
		dcancel()
		for {
			select {
			case <-ctx.Done():
				lost <- false
				return
			case <-timer.C:
			}
			sent := time.Now()
			stopBy := held.Add(ttl / 2)
			rctx, rcancel := context.WithTimeout(ctx, min(stopBy.Sub(sent), every))
			ok, err := r.opts.Store.RenewLease(rctx, key, r.opts.Owner, ttl)
			rcancel()
			switch {
			case err == nil && ok:
				held = sent
				timer.Reset(every)
				dctx, dcancel := context.WithTimeout(ctx, every)
				delay(dctx, sent.Add(ttl))
				dcancel()
				continue
			case ctx.Err() != nil:
				lost <- false
				return
			case err != nil && time.Until(stopBy) > 0:
				r.log.Warn("bot lease not renewed; trying again", "lease", key, "err", err)
				timer.Reset(min(every/4, time.Until(stopBy)))
				continue
			}
			cancel()
			lost <- true
			return
		}
	}()
	return lost
}

// Release lets the bot's lease go (harmless if this instance lost it).
func (r *Runner) Release(ctx context.Context, key string) {
	if err := r.opts.Store.ReleaseLease(ctx, key, r.opts.Owner); err != nil {
		r.log.Warn("bot lease not released", "lease", key, "err", err)
	}
}

// delay makes the bot due for a sweep at until (zero: now). A delay
// that fails leaves the bot due sooner: the sweep then finds its lease
// held, as it would without the index.
func (r *Runner) delay(ctx context.Context, code, id string, until time.Time) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := r.opts.Store.DelayBot(ctx, code, id, until); err != nil && ctx.Err() == nil {
		r.log.Warn("bot due time not updated", "room", code, "bot", id, "err", err)
	}
}

// Forget removes the bot's record: nobody is to resume it.
func (r *Runner) Forget(ctx context.Context, code, id string) {
	if err := r.opts.Store.SetBot(ctx, code, id, nil); err != nil {
		r.log.Warn("bot record not removed", "room", code, "bot", id, "err", err)
	}
}

// Running is the number of bot goroutines running.
func (r *Runner) Running() int { return int(r.running.Load()) }

// Start starts the loop that resumes the bots nobody runs.
func (r *Runner) Start() {
	stop, done := make(chan struct{}), make(chan struct{})
	r.sweepStop, r.sweepDone = stop, done
	go func() {
		defer close(done)
		tick := time.NewTicker(r.opts.SweepEvery)
		defer tick.Stop()
		// Kicks come with every room with bots a hub loads: sweeps they ask
		// for are spaced by a tenth of the period at least.
		gap := r.opts.SweepEvery / 10
		var last time.Time
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			case <-r.kick:
				if wait := gap - time.Since(last); wait > 0 {
					t := time.NewTimer(wait)
					select {
					case <-stop:
						t.Stop()
						return
					case <-t.C:
					}
				}
			}
			r.sweep()
			last = time.Now()
		}
	}()
}

// Kick asks for a sweep now (it is coalesced with one pending).
func (r *Runner) Kick() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// sweep resumes every recorded bot whose lease nobody holds: those
// the store's due-time index says are due (a running bot's due time is
// its lease's end, pushed on by each renewal).
func (r *Runner) sweep() {
	ctx, cancel := context.WithTimeout(r.ctx, max(5*r.opts.SweepEvery, 10*time.Second))
	defer cancel()
	bots, err := r.opts.Store.DueBots(ctx, time.Now(), sweepLimit)
	if err != nil {
		if ctx.Err() == nil {
			r.opts.StoreFailed("bot sweep", err)
		}
		return
	}
	r.opts.StoreOK()
	for _, b := range bots {
		if ctx.Err() != nil {
			return
		}
		r.mu.Lock()
		here := r.runs[LeaseKey(b.Room, b.ID)]
		r.mu.Unlock()
		if !here {
			r.resume(ctx, b)
		}
	}
}

// resume takes the bot's lease if nobody holds it and, if its room
// still wants it, runs it here; otherwise it lets the lease go, and
// forgets a bot that will never play again.
func (r *Runner) resume(ctx context.Context, b store.Bot) {
	var rec Record
	if err := json.Unmarshal(b.Data, &rec); err != nil || rec.Token == "" {
		r.log.Warn("bad bot record", "room", b.Room, "bot", b.ID, "err", err)
		return
	}
	if _, err := bot.ParseLevel(string(rec.Level)); err != nil {
		r.log.Warn("bad bot record", "room", b.Room, "bot", b.ID, "err", err)
		return
	}
	key := LeaseKey(b.Room, b.ID)
	taken := time.Now()
	if ok, err := r.opts.Store.TakeLease(ctx, key, r.opts.Owner, r.opts.Lease); err != nil || !ok {
		return // held: running somewhere (or being added)
	}
	running := false
	defer func() {
		if !running {
			rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			r.Release(rctx, key)
		}
	}()
	room, err := r.opts.LoadRoom(ctx, b.Room)
	if err != nil {
		if errors.Is(err, ErrNoRoom) {
			r.Forget(ctx, b.Room, b.ID)
		}
		return
	}
	seat := room.SeatOf(r.opts.HashToken(rec.Token))
	switch {
	case seat < 0 && room.Status == match.Waiting:
		return // maybe still joining: its instance stopped before the join, or not
	case seat < 0 || !room.Seats[seat].Bot:
		r.Forget(ctx, b.Room, b.ID) // the join never happened
		return
	case room.Status == match.Finished:
		// A rematch makes the room wait again, and the next sweep resumes
		// the bot; after Linger the bot would have left.
		if r.opts.Now().Sub(room.Closed) > Linger {
			r.Forget(ctx, b.Room, b.ID)
		}
		return
	}
	if err := r.Run(b.Room, b.ID, rec, room.Seats[seat].LastSeq+1, taken); err != nil {
		return
	}
	running = true
	r.log.Info("bot resumed", "room", b.Room, "seat", seat, "level", rec.Level)
}

// Stop stops the sweep, cancels every bot and waits (a while) for
// them to stop and release their leases.
func (r *Runner) Stop() {
	r.mu.Lock()
	r.closed = true
	r.cancel()
	stop, done := r.sweepStop, r.sweepDone
	r.sweepStop = nil
	r.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
	wait := make(chan struct{})
	go func() { r.wg.Wait(); close(wait) }()
	select {
	case <-wait:
	case <-time.After(5 * time.Second):
		r.log.Warn("bots did not stop in time")
	}
}
