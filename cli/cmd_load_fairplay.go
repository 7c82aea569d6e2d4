package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// fairplayReport is what the server's fair-play detector did with the
// holes of a load run, from its /metrics (load --json's "fairplay").
type fairplayReport struct {
	// HolesFinished counts the holes finished during the run that were
	// due for analysis (golf_fairplay_finished_total); HolesAnalysed,
	// HolesDropped and HolesFailed what became of them by the time the
	// report was made.
	HolesFinished int64 `json:"holesFinished"`
	HolesAnalysed int64 `json:"holesAnalysed"`
	HolesDropped  int64 `json:"holesDropped"`
	HolesFailed   int64 `json:"holesFailed"`
	// MaxLagSeconds is the longest a finished hole waited for its
	// analysis to end (or to be dropped or fail), to the polls' interval
	// (fairplayWindowPoll while the window is open, fairplayPoll after):
	// for each poll, the time until as many holes had been dealt with as
	// had been finished at that poll. CaughtUp is false when the
	// analyses had still not caught up fairplayCatchUp after the run: the
	// lag is then at least MaxLagSeconds.
	MaxLagSeconds float64 `json:"maxLagSeconds"`
	CaughtUp      bool    `json:"caughtUp"`
	// CPUMsPerHole is the analyses' CPU time (golf_fairplay_cpu_seconds_total)
	// over HolesAnalysed.
	CPUMsPerHole float64 `json:"cpuMsPerHole"`
}

// fairplayCatchUp is how long load waits after the run for the analyses to
// catch up with the holes finished.
const fairplayCatchUp = 60 * time.Second

// fairplayWindowPoll is how often the server's /metrics are read while
// the window is open, with the detector on or off alike. A read cost the
// server some 3 ms of CPU (the whole page, gathered and compressed; 2 ms
// now that it asks for the fair-play counters only), all of it on one
// P: read four times a second, as it once was and with the detector on
// only, those reads alone were in the acks' 99th percentile at --rate
// 800 (docs/performance.md).
const fairplayWindowPoll = 2 * time.Second

// fairplayStartWait is how long the first reading waits for the
// workers' metrics (--fairplay-metrics) to answer.
const fairplayStartWait = 10 * time.Second

// fairplayPoll is how often the server's /metrics are read after the
// window, while load waits for the analyses to catch up.
const fairplayPoll = 250 * time.Millisecond

// fairplaySample is one reading of the fair-play counters.
type fairplaySample struct {
	at                                  time.Time
	finished, analysed, dropped, failed float64
	cpu                                 float64
}

// dealt is how many holes the detector is done with.
func (s fairplaySample) dealt() float64 { return s.analysed + s.dropped + s.failed }

var fairplayMetrics = []string{
	"golf_fairplay_finished_total", "golf_fairplay_analysed_total", "golf_fairplay_dropped_total",
	"golf_fairplay_failed_total", "golf_fairplay_cpu_seconds_total",
}

// fairplayWatch reads a server's fair-play counters every
// fairplayWindowPoll until finish, then every fairplayPoll.
type fairplayWatch struct {
	base string
	// workers: the analyses they report (golf_fairplay_analysed_total,
	// _failed_total, _cpu_seconds_total) are added to the server's.
	workers []string
	cancel  context.CancelFunc
	done    chan struct{}

	mu      sync.Mutex
	samples []fairplaySample
	// off: the server has no fair-play metrics (detector off, or
	// unreachable at the start). Its /metrics are read all the same, so
	// that a run with the detector off pays for as many reads.
	off bool
}

// watchFairplay starts reading base's /metrics, and those of workers
// (`golf worker` metrics listeners), every interval (fairplayWindowPoll).
func watchFairplay(ctx context.Context, base string, workers []string, every time.Duration) *fairplayWatch {
	ctx, cancel := context.WithCancel(ctx)
	w := &fairplayWatch{base: base, workers: workers, cancel: cancel, done: make(chan struct{})}
	first, err := w.read(ctx)
	// Workers may still be starting when the run does: the first reading
	// waits for them, up to fairplayStartWait.
	for wait := time.Now().Add(fairplayStartWait); errors.Is(err, errWorkerUnread) && ctx.Err() == nil && time.Now().Before(wait); {
		select {
		case <-ctx.Done():
		case <-time.After(fairplayPoll):
		}
		first, err = w.read(ctx)
	}
	if err == nil {
		w.samples = append(w.samples, first)
	}
	w.off = err != nil
	go func() {
		defer close(w.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if s, err := w.read(ctx); err == nil && !w.off {
				w.mu.Lock()
				w.samples = append(w.samples, s)
				w.mu.Unlock()
			}
		}
	}()
	return w
}

// errNoCounters: the server's /metrics have no fair-play counters (its
// detector is off). errWorkerUnread: a worker's (--fairplay-metrics)
// could not be read.
var (
	errNoCounters   = errors.New("the server has no fair-play counters")
	errWorkerUnread = errors.New("a worker's fair-play counters could not be read")
)

// read reads the counters of the server and its workers, added up.
func (w *fairplayWatch) read(ctx context.Context) (fairplaySample, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	vals, err := readCounters(ctx, w.base)
	if err != nil {
		return fairplaySample{}, err
	}
	if _, ok := vals["golf_fairplay_finished_total"]; !ok {
		return fairplaySample{}, errNoCounters
	}
	s := fairplaySample{at: time.Now(), finished: vals["golf_fairplay_finished_total"], analysed: vals["golf_fairplay_analysed_total"],
		dropped: vals["golf_fairplay_dropped_total"], failed: vals["golf_fairplay_failed_total"], cpu: vals["golf_fairplay_cpu_seconds_total"]}
	for _, u := range w.workers {
		// A reading without every worker's counters would look like
		// analyses going backwards: none is taken.
		wv, err := readCounters(ctx, u)
		if err != nil {
			return fairplaySample{}, fmt.Errorf("%w: %s: %v", errWorkerUnread, u, err)
		}
		s.analysed += wv["golf_fairplay_analysed_total"]
		s.failed += wv["golf_fairplay_failed_total"]
		s.cpu += wv["golf_fairplay_cpu_seconds_total"]
	}
	return s, nil
}

// readCounters reads the fair-play counters of base's /metrics.
func readCounters(ctx context.Context, base string) (map[string]float64, error) {
	body, err := getMetrics(ctx, base, fairplayMetrics...)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	return parseMetrics(body, fairplayMetrics...)
}

func (w *fairplayWatch) stop() {
	w.cancel()
	<-w.done
}

// finish stops the window's reads and then reads every fairplayPoll,
// up to wait, until the detector has dealt with every hole finished so
// far; it reports, or returns nil when the detector is off.
func (w *fairplayWatch) finish(ctx context.Context, wait time.Duration) *fairplayReport {
	w.stop()
	if w.off {
		return nil
	}
	deadline := time.Now().Add(wait)
	for ctx.Err() == nil {
		if s, err := w.read(ctx); err == nil {
			w.samples = append(w.samples, s)
		}
		last := w.samples[len(w.samples)-1]
		if last.dealt() >= last.finished || !time.Now().Before(deadline) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(fairplayPoll):
		}
	}
	return fairplaySummary(w.samples)
}

// fairplaySummary makes the report from the readings, in order.
func fairplaySummary(samples []fairplaySample) *fairplayReport {
	first, last := samples[0], samples[len(samples)-1]
	r := &fairplayReport{
		HolesFinished: int64(last.finished - first.finished), HolesAnalysed: int64(last.analysed - first.analysed),
		HolesDropped: int64(last.dropped - first.dropped), HolesFailed: int64(last.failed - first.failed),
		CaughtUp: last.dealt() >= last.finished,
	}
	if r.HolesAnalysed > 0 {
		r.CPUMsPerHole = (last.cpu - first.cpu) * 1000 / float64(r.HolesAnalysed)
	}
	// The lag of the holes finished by poll i: until the first poll j
	// with as many dealt with (or until the last poll, if none).
	j := 0
	for i, s := range samples {
		if s.dealt() >= s.finished {
			continue
		}
		j = max(j, i)
		for j < len(samples)-1 && samples[j].dealt() < s.finished {
			j++
		}
		r.MaxLagSeconds = max(r.MaxLagSeconds, samples[j].at.Sub(s.at).Seconds())
	}
	return r
}
