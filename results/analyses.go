package results

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

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
	measure func(run func()) time.Duration
	budget  *jobs.Budget
}

// WithMeasure has each analysis run by measure (nil: as is), which
// returns the CPU time it took (its thread's).
func (a *Analyser) WithMeasure(measure func(run func()) time.Duration) *Analyser {
	a.measure = measure
	return a
}

// WithBudget keeps the analyses within the budget (nil: none): each
// waits for it, and what each took (the CPU time measure returns, or its
// wall time without measure or when measure cannot tell: 0) is spent
// from it.
func (a *Analyser) WithBudget(b *jobs.Budget) *Analyser {
	a.budget = b
	return a
}

// run runs one analysis within the budget, measured.
func (a *Analyser) run(ctx context.Context, analyse func()) error {
	if err := a.budget.Wait(ctx); err != nil {
		return err
	}
	start := time.Now()
	var cpu time.Duration
	if a.measure != nil {
		cpu = a.measure(analyse)
	} else {
		analyse()
	}
	if cpu <= 0 {
		cpu = time.Since(start)
	}
	a.budget.Spent(cpu)
	return nil
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
	holes := make([]*Hole, 0, len(members))
	for _, m := range members {
		var h Hole
		if err := json.Unmarshal(m.Args, &h); err != nil {
			a.log.Error("fair-play analysis not run: its job is unreadable", "key", m.Key, "err", err)
			continue
		}
		holes = append(holes, &h)
	}
	if err := a.shareDeals(ctx, holes); err != nil {
		return err
	}
	for _, h := range holes {
		if err := a.work(ctx, h); err != nil {
			return err
		}
	}
	return nil
}

// shareDeals has the holes of a batch that were played on one deal (a
// batch's seats share its group, the deal) analysed together, the work
// shared between them (review.Holds.AnalyseDeal). It fails only when
// ctx ends while it waits for the budget.
func (a *Analyser) shareDeals(ctx context.Context, holes []*Hole) error {
	if len(holes) < 2 {
		return nil
	}
	byDeal := map[string][]*review.Hole{}
	var order []string
	for _, h := range holes {
		k := fmt.Sprintf("%s:%x", h.Variant, h.Seed[:])
		if byDeal[k] == nil {
			order = append(order, k)
		}
		byDeal[k] = append(byDeal[k], &h.Hole)
	}
	for _, k := range order {
		hs := byDeal[k]
		if err := a.run(ctx, func() { a.holds.AnalyseDeal(ctx, hs) }); err != nil {
			return err
		}
	}
	return nil
}

// work analyses one hole.
func (a *Analyser) work(ctx context.Context, h *Hole) error {
	var stored bool
	var err error
	if werr := a.run(ctx, func() { stored, err = a.holds.Analyse(ctx, h.Hole) }); werr != nil {
		return werr
	}
	if err != nil {
		return err
	}
	if stored && h.Marks && a.marks != nil {
		a.marks(ctx, h.Report.Room, h.Tournament)
	}
	return nil
}
