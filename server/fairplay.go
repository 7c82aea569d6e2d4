package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/golf"
	"golfsolitaire/jobs"
	"golfsolitaire/match"
	"golfsolitaire/results"
	"golfsolitaire/server/moderation"
	"golfsolitaire/store"
)

// FairplayStore keeps fair-play evidence per player, the flags and the
// results held for review: fairplay.MemoryStore, or fairplay/postgres.
type FairplayStore = fairplay.Store

var _ FairplayStore = (*fairplay.MemoryStore)(nil)

// Fairplay configures the fair-play analysis of finished holes
// (docs/fairplay.md): each finished hole is a job of the job queue
// (Options.Queue), written with the hole's last event, analysed once by a
// worker of the fair-play pool (Options.FairplayWorkers, or `golf
// worker`), never on a room's goroutine.
type Fairplay struct {
	// Store keeps the evidence; default an in-memory store.
	Store FairplayStore
	// Config bounds each hole's analysis; default fairplay.DefaultConfig
	// (Key is always the server's secret).
	Config *fairplay.Config
	// Escalation analyses the holes of a player whose evidence before the
	// hole is at or above its level with its deeper setting; default
	// fairplay.DefaultEscalation when Config is nil too, none when Config
	// is set (the one setting asked for).
	Escalation *fairplay.Escalation
	// Rule is when a player is flagged; default fairplay.DefaultRule.
	Rule *fairplay.Rule
	// ModeratorToken guards GET /api/fairplay/flags; empty disables it.
	ModeratorToken string
}

// fairplayState is the server's fair-play part; nil when off.
type fairplayState struct {
	store FairplayStore
	// mod is the moderators' side: sessions, flags, review (package
	// moderation, mounted by mount.go).
	mod    *moderation.Moderation
	log    *slog.Logger
	queued prometheus.Counter
	failed prometheus.Counter
	// finished counts the holes due for analysis (queued or not);
	// cpu the CPU time the analyses took (their threads').
	finished prometheus.Counter
	cpu      prometheus.Counter
	// holds analyses the holes, flags players and keeps rated rounds
	// back while a player in them is held for review (package review).
	holds *review.Holds
}

func (s *Server) startFairplay(o *Fairplay) {
	if o == nil {
		return
	}
	f := &fairplayState{store: o.Store, log: s.log}
	cfg, rule, esc := fairplay.DefaultConfig, fairplay.DefaultRule, fairplay.DefaultEscalation
	if o.Config != nil {
		cfg, esc = *o.Config, fairplay.Escalation{}
	}
	if o.Escalation != nil {
		esc = *o.Escalation
	}
	cfg.Key, cfg.Yield = s.secret, s.yieldToRooms
	if o.Rule != nil {
		rule = *o.Rule
	}
	if f.store == nil {
		f.store = fairplay.NewMemoryStore()
	}
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		s.metrics.reg.MustRegister(c)
		return c
	}
	f.queued = counter("golf_fairplay_queued_total", "Finished holes queued for fair-play analysis (written to the outbox with the hole's last event).")
	// Nothing drops a hole any more (the queue is durable and unbounded):
	// kept, at 0, for dashboards that watch it.
	counter("golf_fairplay_dropped_total", "Finished holes not analysed because the fair-play queue was full: always 0 (the job queue keeps every hole).")
	analysed := counter("golf_fairplay_analysed_total", "Finished holes analysed for fair play.")
	flagged := counter("golf_fairplay_flags_total", "Players flagged for review.")
	held := counter("golf_fairplay_held_total", "Rated rounds held for review (a player in them was flagged).")
	voided := counter("golf_fairplay_voided_total", "Rated rounds voided at once (a player's unfair play was confirmed).")
	f.failed = counter("golf_fairplay_failed_total", "Fair-play analyses that failed (bad record or store error).")
	f.finished = counter("golf_fairplay_finished_total", "Finished holes due for fair-play analysis, queued or not.")
	f.cpu = counter(FairplayCPUMetric, FairplayCPUHelp)
	deep := counter("golf_fairplay_escalated_total", "Finished holes analysed with the escalation's deeper setting (the player's evidence before the hole was at or above its level).")
	f.holds = review.New(review.Options{Store: f.store, Accounts: s.acct.store, Config: cfg, Escalation: esc, Deep: deep, Rule: rule, Logger: s.log, Now: s.now,
		Held: held, Voided: voided, Analysed: analysed, Flagged: flagged, Failed: f.failed})
	s.fair = f
	f.mod = s.newModeration(o.ModeratorToken) // mount.go
}

// FairplayCPUMetric and FairplayCPUHelp name and describe the counter of
// the CPU time a process's fair-play analyses took, a server's or a
// `golf worker`'s (MeasureAnalysis).
const (
	FairplayCPUMetric = "golf_fairplay_cpu_seconds_total"
	FairplayCPUHelp   = "CPU time the fair-play analyses took, on their own threads."
)

// seatAccountKey carries, in a request's context, the account a join
// seats (joinToken reads it): set only by the handlers where the one
// seated is the one logged in.
type seatAccountKey struct{}

// withSeatAccount marks ctx's joins as the logged-in account's, if any.
func (s *Server) withSeatAccount(r *http.Request) context.Context {
	id := s.sessionAccountID(r)
	if id == 0 {
		return r.Context()
	}
	return context.WithValue(s.withLinks(r.Context(), id), seatAccountKey{}, id) // linked.go
}

// seatAccount is the account withSeatAccount put in ctx, 0 for none.
func seatAccount(ctx context.Context) int64 {
	id, _ := ctx.Value(seatAccountKey{}).(int64)
	return id
}

// fairplayEntries are the outbox entries of every seat's hole that the
// notices say has just finished: written with the event that finished
// them (hub.apply), then analysed by the queue's fair-play pool. Solo
// practice (hints, undo) and bots are not analysed.
func (s *Server) fairplayEntries(r *match.Room, notices []match.Notice) []store.OutboxEntry {
	if s.fair == nil || (r.Settings.Solo() && r.Tournament == "") {
		return nil
	}
	var out []store.OutboxEntry
	for _, n := range notices {
		if n.Kind != match.NoticeSeatDone || n.Hole < 1 || n.Hole > len(r.Holes) || n.Seat < 0 || n.Seat >= len(r.Seats) {
			continue
		}
		h := r.Holes[n.Hole-1]
		seat := r.Seats[n.Seat]
		if n.Seat >= len(h.Games) || seat.Bot {
			continue
		}
		hole := results.Hole{Hole: review.Hole{
			Variant: r.Settings.Variant, Seed: h.Seed, Moves: append([]golf.Move(nil), h.Games[n.Seat].Moves...), Rated: r.Settings.Rated && seat.Account == 0,
			Begun: h.Started, Counts: r.Settings.Rated || r.Tournament != "",
			Report: fairplay.HoleReport{
				Player: review.Player(r, seat), Name: seat.Name, Room: r.Code, Round: r.Round, Hole: n.Hole,
				Replay: fmt.Sprintf("/api/rooms/%s/holes/%d/replay", r.Code, n.Hole), Score: n.Score, At: s.now(),
			},
		}, Marks: r.Settings.Rated || r.Tournament != "", Tournament: r.Tournament}
		j, err := results.HoleJob(hole)
		var e store.OutboxEntry
		if err == nil {
			e, err = jobs.Entry(j)
		}
		s.fair.finished.Inc()
		if err != nil {
			s.log.Error("fair-play: a finished hole cannot be queued", "room", r.Code, "hole", n.Hole, "err", err)
			continue
		}
		out = append(out, e)
	}
	return out
}

// MeasureAnalysis is a fair-play pool's results.PipelineOptions.Measure:
// it runs each hole's analysis on its own OS thread, adds the thread's
// CPU time to cpu (golf_fairplay_cpu_seconds_total, a server's or a
// `golf worker`'s) and returns it (what the analysis spends of its
// budget).
func MeasureAnalysis(cpu prometheus.Counter) func(run func()) time.Duration {
	return func(run func()) time.Duration {
		d := threadCPU(run)
		cpu.Add(d.Seconds())
		return d
	}
}

// threadCPUTime is the CPU time of the calling thread (Linux:
// RUSAGE_THREAD; elsewhere the call fails and it reads 0).
func threadCPUTime() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
