package results

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/jobs"
)

// Pipeline is what every `golf serve` instance and every `golf worker`
// runs: the relay from the room store's outbox to the job queue, and (when
// it works the queue) the pools that record rounds and analyse holes.
type Pipeline struct {
	o       PipelineOptions
	relay   *jobs.Relay
	metrics *metrics
}

// PipelineOptions configure a Pipeline.
type PipelineOptions struct {
	// Queue is the job queue (required).
	Queue jobs.Queue
	// Outbox is the room store's outbox; nil: no relay here.
	Outbox jobs.Outbox
	// Work says whether this process works the queue (Accounts required).
	Work bool
	// Accounts records the rounds.
	Accounts accounts.Store
	// Holds analyses holes and holds rounds for review; nil: fair play is
	// off (fair-play jobs are left to processes that have it).
	Holds *review.Holds
	// Marks checks held marks after a round is recorded or a hole
	// analysed; nil: none.
	Marks Marks
	// Measure, when set, runs each hole's analysis and returns the CPU
	// time it took (its thread's); nil: run as is.
	Measure func(run func()) time.Duration
	// FairplayBudget, when set, keeps the analyses of this process within
	// its CPU-seconds a second (jobs.Budget), so that they never take the
	// cores the rooms need: holes wait in the queue instead (late, never
	// skipped). Nil: no limit but the pool's size.
	FairplayBudget *jobs.Budget
	// ResultWorkers and FairplayWorkers size the pools (default 2 and 1).
	ResultWorkers, FairplayWorkers int
	// Registerer gets the pipeline's metrics (docs/deploy.md); nil: none.
	Registerer prometheus.Registerer
	Logger     *slog.Logger
}

// NewPipeline returns a pipeline; Run runs it.
func NewPipeline(o PipelineOptions) *Pipeline {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	p := &Pipeline{o: o}
	m := newMetrics(o.Registerer, o.Queue, o.Outbox)
	if o.Outbox != nil {
		p.relay = jobs.NewRelay(o.Outbox, o.Queue, jobs.RelayOptions{Logger: o.Logger,
			Relayed: func(n int) { m.relayed.Add(float64(n)) }, Failed: func(n int) { m.relayFailed.Add(float64(n)) }})
	}
	p.o.Registerer = nil
	p.metrics = m
	return p
}

// Kick has the relay look at the outbox now (an entry was just written).
func (p *Pipeline) Kick() {
	if p.relay != nil {
		p.relay.Kick()
	}
}

// Run relays and works until ctx ends; then the jobs being worked are
// left to be retried (by this process's next start or another).
func (p *Pipeline) Run(ctx context.Context) {
	var wg sync.WaitGroup
	if p.relay != nil {
		wg.Go(func() { p.relay.Run(ctx) })
	}
	if p.o.Work {
		w := jobs.Workers{jobs.KindResult: {Workers: max(p.o.ResultWorkers, 2), Handler: NewRecorder(RecorderOptions{
			Accounts: p.o.Accounts, Holds: p.o.Holds, Marks: p.o.Marks, Logger: p.o.Logger,
			Recorded: p.metrics.recorded, Failed: p.metrics.recordFailed,
		})}}
		if p.o.Holds != nil {
			w[jobs.KindFairplay] = jobs.Pool{Workers: max(p.o.FairplayWorkers, 1), Handler: newAnalyser(p.o.Holds, p.o.Marks, p.o.Logger).WithMeasure(p.o.Measure).WithBudget(p.o.FairplayBudget)}
		}
		wg.Go(func() {
			if err := p.o.Queue.Run(ctx, w); err != nil {
				p.o.Logger.Error("job queue stopped", "err", err)
			}
		})
	}
	wg.Wait()
}

// metrics are the pipeline's counters and, read when scraped, the
// outbox's and the queue's backlog.
type metrics struct {
	recorded, recordFailed prometheus.Counter
	relayed, relayFailed   prometheus.Counter
}

func newMetrics(reg prometheus.Registerer, q jobs.Queue, outbox jobs.Outbox) *metrics {
	c := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	}
	m := &metrics{
		recorded:     c("golf_results_recorded_total", "Rated rounds and tournaments recorded by this process (or held for review, or found recorded already)."),
		recordFailed: c("golf_results_failed_total", "Attempts to record a rated round that failed and will be retried (the database did not answer)."),
		relayed:      c("golf_outbox_relayed_total", "Outbox entries this process moved into the job queue."),
		relayFailed:  c("golf_outbox_relay_failed_total", "Relay passes that failed (the store or the queue did not answer; the entries wait), and unreadable entries dropped."),
	}
	if reg != nil {
		reg.MustRegister(m.recorded, m.recordFailed, m.relayed, m.relayFailed, backlog{q: q, outbox: outbox})
	}
	return m
}

// backlog reads the outbox and the queue when scraped.
type backlog struct {
	q      jobs.Queue
	outbox jobs.Outbox
}

var (
	outboxPendingDesc = prometheus.NewDesc("golf_outbox_pending", "Outbox entries (round results, holes to analyse) not yet moved into the job queue.", nil, nil)
	outboxAgeDesc     = prometheus.NewDesc("golf_outbox_oldest_age_seconds", "Age of the oldest outbox entry not yet moved into the job queue (0 when none).", nil, nil)
	jobsPendingDesc   = prometheus.NewDesc("golf_jobs_pending", "Jobs queued and not done yet (waiting, running or to be retried), by kind.", []string{"kind"}, nil)
	jobsAgeDesc       = prometheus.NewDesc("golf_jobs_oldest_age_seconds", "Age of the oldest job not done yet, by kind (0 when none).", []string{"kind"}, nil)
)

func (b backlog) Describe(ch chan<- *prometheus.Desc) {
	ch <- outboxPendingDesc
	ch <- outboxAgeDesc
	ch <- jobsPendingDesc
	ch <- jobsAgeDesc
}

func (b backlog) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	now := time.Now()
	age := func(t time.Time) float64 {
		if t.IsZero() {
			return 0
		}
		return max(now.Sub(t).Seconds(), 0)
	}
	if b.outbox != nil {
		if n, oldest, err := b.outbox.OutboxStats(ctx); err == nil {
			ch <- prometheus.MustNewConstMetric(outboxPendingDesc, prometheus.GaugeValue, float64(n))
			ch <- prometheus.MustNewConstMetric(outboxAgeDesc, prometheus.GaugeValue, age(oldest))
		}
	}
	st, err := b.q.Stats(ctx)
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, s := range st {
		seen[s.Kind] = true
		ch <- prometheus.MustNewConstMetric(jobsPendingDesc, prometheus.GaugeValue, float64(s.Pending), s.Kind)
		ch <- prometheus.MustNewConstMetric(jobsAgeDesc, prometheus.GaugeValue, age(s.Oldest), s.Kind)
	}
	for _, k := range []string{jobs.KindResult, jobs.KindFairplay} {
		if !seen[k] {
			ch <- prometheus.MustNewConstMetric(jobsPendingDesc, prometheus.GaugeValue, 0, k)
			ch <- prometheus.MustNewConstMetric(jobsAgeDesc, prometheus.GaugeValue, 0, k)
		}
	}
}
