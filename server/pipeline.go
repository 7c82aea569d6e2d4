package server

import (
	"context"
	"log/slog"
	"runtime"
	"strings"

	"golfsolitaire/internal/proccpu"
	"golfsolitaire/jobs"
	"golfsolitaire/match"
	"golfsolitaire/results"
	"golfsolitaire/store"
)

// The round-end pipeline: a rated round's end and every finished hole to
// analyse leave an outbox entry written with the event (hub.apply,
// thub.apply: store.Outbox), which the relay moves into the job queue
// and the queue's workers (this server's, and any `golf worker`'s) record
// or analyse (package results). The hub's loop only writes the entry.

// HeldMarksTopic is the store topic on which `golf worker` processes ask
// the servers to check the held marks of a room ("room:CODE") or a
// tournament ("tournament:ID") after a result or an analysis.
const HeldMarksTopic = "held-marks"

// startPipeline starts the relay, the queue's pools (unless
// Options.NoQueueWork) and the listener of HeldMarksTopic.
func (s *Server) startPipeline() {
	q := s.opts.Queue
	if q == nil {
		q = jobs.NewMemory(jobs.Options{})
	}
	o := results.PipelineOptions{
		Queue: q, Outbox: s.store, Work: !s.opts.NoQueueWork, Accounts: s.acct.store,
		Marks: s.checkMarks, FairplayWorkers: FairplayWorkers(s.opts.FairplayWorkers),
		Registerer: s.metrics.reg, Logger: s.log,
	}
	if s.fair != nil {
		o.Holds, o.Measure = s.fair.holds, MeasureAnalysis(s.fair.cpu)
		// The budget is a share of what this process gets of its cores:
		// on a machine that leaves it less, the analyses take less.
		o.FairplayBudget = jobs.NewBudget(fairplayCores(s.opts.FairplayCPU),
			jobs.BudgetOptions{Process: new(proccpu.Reader).Self, Procs: runtime.GOMAXPROCS(0)})
	}
	s.pipe = results.NewPipeline(o)
	s.tasks.goCtx(s.pipe.Run)
	if s.fair != nil {
		s.tasks.goCtx(s.listenHeldMarks)
	}
}

// FairplayWorkers is the size of the fair-play pool for n (0: the
// default, GOMAXPROCS-1, at least 1, so rooms keep a core).
func FairplayWorkers(n int) int {
	if n > 0 {
		return n
	}
	return max(runtime.GOMAXPROCS(0)-1, 1)
}

// fairplayCores is the CPU-seconds a second that the in-process fair-play
// analyses may take for a share of GOMAXPROCS (0: the default, a
// quarter of a core on one core and GOMAXPROCS-1 cores on more, so that
// rooms keep most of the process's cores).
func fairplayCores(share float64) float64 {
	procs := float64(runtime.GOMAXPROCS(0))
	if share <= 0 {
		return max(procs-1, 0.25)
	}
	return min(share, 1) * procs
}

// outboxEntries are what a room's event leaves to the job queue: its
// rated round's result (rated.go) and its finished holes to analyse
// (fairplay.go).
func (s *Server) outboxEntries(r *match.Room, notices []match.Notice) []store.OutboxEntry {
	if len(notices) == 0 {
		return nil
	}
	return append(s.ratedRoundEntry(r, notices), s.fairplayEntries(r, notices)...)
}

// outboxWritten counts the entries just stored and has the relay move
// them at once.
func (s *Server) outboxWritten(entries []store.OutboxEntry) {
	if len(entries) == 0 {
		return
	}
	for _, e := range entries {
		if e.Kind == jobs.KindFairplay && s.fair != nil {
			s.fair.queued.Inc()
		}
	}
	s.pipe.Kick()
}

// checkMarks checks the held marks of a room (held.go) or tournament (server/tournaments)
// after its round was recorded or one of its holes analysed.
func (s *Server) checkMarks(ctx context.Context, room, tournament string) {
	if tournament != "" {
		s.tours.SyncHeld(ctx, tournament, nil)
		return
	}
	if room != "" {
		s.syncRoomHeld(ctx, room)
	}
}

// listenHeldMarks checks the marks `golf worker` processes ask for.
func (s *Server) listenHeldMarks(ctx context.Context) {
	s.keepListening(ctx, HeldMarksTopic, slog.LevelWarn, func(e store.Entry) {
		kind, id, _ := strings.Cut(string(e.Data), ":")
		switch kind {
		case "room":
			s.checkMarks(ctx, id, "")
		case "tournament":
			s.checkMarks(ctx, "", id)
		}
	})
}

// HeldMarksNotice is what a `golf worker` sends on HeldMarksTopic for a
// room or tournament.
func HeldMarksNotice(room, tournament string) string {
	if tournament != "" {
		return "tournament:" + tournament
	}
	return "room:" + room
}
