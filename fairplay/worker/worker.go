// Package worker runs background jobs on one goroutine from a bounded
// queue ordered by priority: the server's default for the fair-play
// analyses of finished holes (rated play first), which must never block a
// room's loop nor pile up without bound.
package worker

import (
	"context"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// Worker runs jobs submitted from anywhere on one goroutine, from a
// bounded queue ordered by priority (lower first), first come first served
// within one (the server's fair-play Submitter).
// When the queue is full a job of a more urgent priority takes the place
// of the newest of the least urgent; otherwise the new job is refused.
type Worker struct {
	mu      sync.Mutex
	queue   []queuedJob // by priority, then by arrival
	size    int
	stopped bool
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	dropped prometheus.Counter // may be nil
}

type queuedJob struct {
	priority int
	job      func()
}

// New starts a worker with a queue of size jobs; dropped, if
// not nil, counts the jobs refused or pushed out.
func New(size int, dropped prometheus.Counter) *Worker {
	w := &Worker{size: max(size, 1), wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), dropped: dropped}
	go w.run()
	return w
}

func (w *Worker) run() {
	defer close(w.done)
	for {
		w.mu.Lock()
		var job func()
		if len(w.queue) > 0 && !w.stopped {
			job = w.queue[0].job
			w.queue = slices.Delete(w.queue, 0, 1)
		}
		w.mu.Unlock()
		if job != nil {
			job()
			continue
		}
		select {
		case <-w.stop:
			return
		case <-w.wake:
		}
	}
}

// Submit queues job at priority; it never blocks.
func (w *Worker) Submit(ctx context.Context, priority int, job func()) bool {
	w.mu.Lock()
	ok := !w.stopped
	if ok && len(w.queue) >= w.size {
		// Full: push out the newest of the least urgent, if less urgent.
		if last := w.queue[len(w.queue)-1]; last.priority > priority {
			w.queue = w.queue[:len(w.queue)-1]
			w.count()
		} else {
			ok = false
		}
	}
	if ok {
		i := len(w.queue)
		for i > 0 && w.queue[i-1].priority > priority {
			i--
		}
		w.queue = slices.Insert(w.queue, i, queuedJob{priority: priority, job: job})
	}
	w.mu.Unlock()
	if !ok {
		w.count()
		return false
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return true
}

func (w *Worker) count() {
	if w.dropped != nil {
		w.dropped.Inc()
	}
}

// Close stops the worker after the job in hand; queued jobs are dropped.
func (w *Worker) Close() {
	w.once.Do(func() {
		w.mu.Lock()
		w.stopped, w.queue = true, nil
		w.mu.Unlock()
		close(w.stop)
	})
	<-w.done
}
