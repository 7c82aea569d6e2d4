package results

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"golfsolitaire/fairplay/review"
	"golfsolitaire/jobs"
)

// Hole is a finished hole to analyse, as its job carries it: the seat's
// moves, the deal and the report to file.
type Hole struct {
	review.Hole
	// Marks: the room (or its Tournament) shows held marks, checked once
	// the hole is analysed.
	Marks      bool   `json:"marks,omitempty"`
	Tournament string `json:"tournament,omitempty"`
}

// HoleJob is the job of a finished hole: unique per (room, round, hole,
// player). Its group is the deal, so the relay queues the seats of one
// deal (a room's, a tournament's entrants') in one batch job
// (jobs.Members).
func HoleJob(h Hole) (jobs.Job, error) {
	args, err := json.Marshal(h)
	if err != nil {
		return jobs.Job{}, err
	}
	r := h.Report
	return jobs.Job{Kind: jobs.KindFairplay, Key: fmt.Sprintf("fairplay:%s-%d:%d:%s", r.Room, r.Round, r.Hole, r.Player), Args: args, At: r.At,
		Group: fmt.Sprintf("deal:%s:%x", h.Variant, h.Seed[:])}, nil
}

// Analyser analyses finished holes: a jobs.Handler for KindFairplay.
type Analyser struct {
	holds   *review.Holds
	marks   Marks
	log     *slog.Logger
	measure func(run func())
}

// WithMeasure has each analysis run by measure (nil: as is), which can
// count its CPU time.
func (a *Analyser) WithMeasure(measure func(run func())) *Analyser {
	a.measure = measure
	return a
}

// newAnalyser returns an analyser filing evidence with holds; marks, when
// set, is called after a hole's evidence is stored.
func newAnalyser(holds *review.Holds, marks Marks, log *slog.Logger) *Analyser {
	if log == nil {
		log = slog.Default()
	}
	return &Analyser{holds: holds, marks: marks, log: log}
}

var _ jobs.Handler = (*Analyser)(nil)

// Work implements jobs.Handler: it analyses the job's hole, or each hole
// of a batch job (jobs.Members). A hole already analysed (the batch ran
// before and stopped, or the hole was in another batch too) is not
// counted again (review.Holds.Analyse); an error (the store did not
// answer) has the job retried, the holes done before it included, which
// are then skipped.
func (a *Analyser) Work(ctx context.Context, j jobs.Job) error {
	members, err := jobs.Members(j)
	if err != nil {
		a.log.Error("fair-play analysis not run: its job is unreadable", "key", j.Key, "err", err)
		return nil
	}
	for _, m := range members {
		if err := a.work(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// work analyses one hole.
func (a *Analyser) work(ctx context.Context, j jobs.Job) error {
	var h Hole
	if err := json.Unmarshal(j.Args, &h); err != nil {
		a.log.Error("fair-play analysis not run: its job is unreadable", "key", j.Key, "err", err)
		return nil
	}
	var stored bool
	var err error
	analyse := func() { stored, err = a.holds.Analyse(ctx, h.Hole) }
	if a.measure != nil {
		a.measure(analyse)
	} else {
		analyse()
	}
	if err != nil {
		return err
	}
	if stored && h.Marks && a.marks != nil {
		a.marks(ctx, h.Report.Room, h.Tournament)
	}
	return nil
}
