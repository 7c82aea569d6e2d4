// Package jobstest is the contract suite every jobs.Queue passes.
package jobstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"golfsolitaire/jobs"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// New returns an empty queue of the implementation under test, with the
// options given, closed when t ends.
type New func(t *testing.T, o jobs.Options) jobs.Queue

// fast are the options of the suite: quick retries.
func fast() jobs.Options {
	return jobs.Options{Backoff: func(int) time.Duration { return 10 * time.Millisecond }, MaxAttempts: 20, JobTimeout: time.Minute}
}

// deadline is how long the suite waits for a condition: generous, for a
// loaded machine (River's scheduler moves retried jobs every few seconds).
const deadline = 90 * time.Second

// Run runs the contract suite.
func Run(t *testing.T, newQueue New) {
	t.Run("WorkedOnceWithArgs", func(t *testing.T) { t.Parallel(); testWorked(t, newQueue) })
	t.Run("DuplicatesAreNoOps", func(t *testing.T) { t.Parallel(); testDuplicates(t, newQueue) })
	t.Run("InvalidInsertsNothing", func(t *testing.T) { t.Parallel(); testInvalid(t, newQueue) })
	t.Run("FailedRetriedWithBackoff", func(t *testing.T) { t.Parallel(); testRetried(t, newQueue) })
	t.Run("PanicRetried", func(t *testing.T) { t.Parallel(); testPanic(t, newQueue) })
	t.Run("StoppedWorkerJobRetried", func(t *testing.T) { t.Parallel(); testStopped(t, newQueue) })
	t.Run("BurstLosesNothing", func(t *testing.T) { t.Parallel(); testBurst(t, newQueue) })
	t.Run("OrderedBySubject", func(t *testing.T) { t.Parallel(); testOrdered(t, newQueue) })
	t.Run("KindsHavePoolsOfTheirOwn", func(t *testing.T) { t.Parallel(); testKinds(t, newQueue) })
	t.Run("BatchedByGroupEachMemberWorked", func(t *testing.T) { t.Parallel(); testBatched(t, newQueue) })
}

// recorder counts the attempts and completions of each key.
type recorder struct {
	mu       sync.Mutex
	attempts map[string][]int
	done     map[string]int
	args     map[string]string
	changed  chan struct{}
}

func newRecorder() *recorder {
	return &recorder{attempts: map[string][]int{}, done: map[string]int{}, args: map[string]string{}, changed: make(chan struct{}, 1)}
}

func (r *recorder) handler(fail func(j jobs.Job) error) jobs.Handler {
	return jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) error {
		r.mu.Lock()
		r.attempts[j.Key] = append(r.attempts[j.Key], j.Attempt)
		r.mu.Unlock()
		var err error
		if fail != nil {
			err = fail(j)
		}
		r.mu.Lock()
		if err == nil {
			r.done[j.Key]++
			r.args[j.Key] = string(j.Args)
		}
		r.mu.Unlock()
		select {
		case r.changed <- struct{}{}:
		default:
		}
		return err
	})
}

// wait waits until cond holds (under the recorder's lock).
func (r *recorder) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	end := time.After(deadline)
	for {
		r.mu.Lock()
		ok := cond()
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.changed:
		case <-time.After(50 * time.Millisecond):
		case <-end:
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("timed out waiting for %s; attempts %v, done %v", what, r.attempts, r.done)
		}
	}
}

// run works q with the pools until the test ends (or stop is called).
func run(t *testing.T, q jobs.Queue, w jobs.Workers) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, w) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func job(kind, key string, v any) jobs.Job {
	b, _ := json.Marshal(v)
	return jobs.Job{Kind: kind, Key: key, Args: b}
}

func pending(t *testing.T, q jobs.Queue, kind string) int {
	t.Helper()
	st, err := q.Stats(context.Background())
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	for _, s := range st {
		if s.Kind == kind {
			if s.Pending > 0 && s.Oldest.IsZero() {
				t.Errorf("Stats: %d pending %s jobs and no oldest time", s.Pending, kind)
			}
			return s.Pending
		}
	}
	return 0
}

func insert(t *testing.T, q jobs.Queue, js ...jobs.Job) {
	t.Helper()
	if err := q.Insert(context.Background(), js...); err != nil {
		t.Fatalf("Insert: %v", err)
	}
}

func testWorked(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	insert(t, q, job(jobs.KindResult, "a", map[string]int{"n": 1}), job(jobs.KindResult, "b", map[string]int{"n": 2}))
	if n := pending(t, q, jobs.KindResult); n != 2 {
		t.Errorf("pending before any worker = %d, want 2", n)
	}
	r := newRecorder()
	run(t, q, jobs.Workers{jobs.KindResult: {Handler: r.handler(nil), Workers: 2}})
	r.wait(t, "both jobs", func() bool { return r.done["a"] == 1 && r.done["b"] == 1 })
	r.mu.Lock()
	if r.args["a"] != `{"n":1}` || r.args["b"] != `{"n":2}` {
		t.Errorf("args = %v, want a {\"n\":1} and b {\"n\":2}", r.args)
	}
	if got := r.attempts["a"]; len(got) != 1 || got[0] != 1 {
		t.Errorf("attempts of a = %v, want [1]", got)
	}
	r.mu.Unlock()
	waitPending(t, q, jobs.KindResult, 0)
}

// waitPending waits until Stats shows n pending jobs of kind (a job is
// marked done just after its handler returns).
func waitPending(t *testing.T, q jobs.Queue, kind string, n int) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		got := pending(t, q, kind)
		if got == n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("pending %s jobs = %d, want %d", kind, got, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func testDuplicates(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	insert(t, q, job(jobs.KindResult, "g-1", 1), job(jobs.KindResult, "g-1", 2))
	insert(t, q, job(jobs.KindResult, "g-1", 3))
	if n := pending(t, q, jobs.KindResult); n != 1 {
		t.Fatalf("pending after three inserts of one key = %d, want 1", n)
	}
	r := newRecorder()
	stop := run(t, q, jobs.Workers{jobs.KindResult: {Handler: r.handler(nil), Workers: 1}})
	r.wait(t, "the job", func() bool { return r.done["g-1"] == 1 })
	waitPending(t, q, jobs.KindResult, 0)
	stop()
	// Done: a replay of the same key is skipped too.
	insert(t, q, job(jobs.KindResult, "g-1", 4))
	if n := pending(t, q, jobs.KindResult); n != 0 {
		t.Errorf("pending after inserting a done key again = %d, want 0", n)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.args["g-1"] != "1" || len(r.attempts["g-1"]) != 1 {
		t.Errorf("worked %v with args %q, want once with the first insert's args 1", r.attempts["g-1"], r.args["g-1"])
	}
}

func testInvalid(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	bad := []jobs.Job{
		{Kind: jobs.KindResult, Args: json.RawMessage(`1`)},
		{Key: "k", Args: json.RawMessage(`1`)},
		{Kind: jobs.KindResult, Key: "k", Args: json.RawMessage(`{not json`)},
	}
	for _, b := range bad {
		err := q.Insert(context.Background(), job(jobs.KindResult, "fine", 1), b)
		if !errors.Is(err, jobs.ErrInvalid) {
			t.Errorf("Insert(%+v) = %v, want ErrInvalid", b, err)
		}
	}
	if n := pending(t, q, jobs.KindResult); n != 0 {
		t.Errorf("pending after invalid inserts = %d, want 0 (the valid job with them is not inserted)", n)
	}
}

func testRetried(t *testing.T, newQueue New) {
	o := fast()
	var mu sync.Mutex
	var waits []int
	o.Backoff = func(attempt int) time.Duration {
		mu.Lock()
		waits = append(waits, attempt)
		mu.Unlock()
		return 10 * time.Millisecond
	}
	q := newQueue(t, o)
	insert(t, q, job(jobs.KindResult, "flaky", 1))
	r := newRecorder()
	run(t, q, jobs.Workers{jobs.KindResult: {Handler: r.handler(func(j jobs.Job) error {
		if j.Attempt < 3 {
			return fmt.Errorf("attempt %d fails", j.Attempt)
		}
		return nil
	}), Workers: 1}})
	r.wait(t, "the third attempt", func() bool { return r.done["flaky"] == 1 })
	r.mu.Lock()
	got := fmt.Sprint(r.attempts["flaky"])
	r.mu.Unlock()
	if got != "[1 2 3]" {
		t.Errorf("attempts = %s, want [1 2 3]", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(waits) != "[1 2]" {
		t.Errorf("backoff asked after attempts %v, want [1 2]", waits)
	}
}

func testPanic(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	insert(t, q, job(jobs.KindFairplay, "p", 1))
	r := newRecorder()
	run(t, q, jobs.Workers{jobs.KindFairplay: {Handler: r.handler(func(j jobs.Job) error {
		if j.Attempt == 1 {
			panic("the worker crashed")
		}
		return nil
	}), Workers: 1}})
	r.wait(t, "the retry after a panic", func() bool { return r.done["p"] == 1 })
}

func testStopped(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	insert(t, q, job(jobs.KindResult, "long", 1))
	started := make(chan struct{})
	var once sync.Once
	first := jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) error {
		once.Do(func() { close(started) })
		<-ctx.Done() // the worker stops mid-job
		return ctx.Err()
	})
	stop := run(t, q, jobs.Workers{jobs.KindResult: {Handler: first, Workers: 1}})
	select {
	case <-started:
	case <-time.After(deadline):
		t.Fatal("the first worker never started the job")
	}
	stop()
	if n := pending(t, q, jobs.KindResult); n != 1 {
		t.Fatalf("pending after the worker stopped mid-job = %d, want 1", n)
	}
	r := newRecorder()
	run(t, q, jobs.Workers{jobs.KindResult: {Handler: r.handler(nil), Workers: 1}})
	r.wait(t, "another worker to retry the job", func() bool { return r.done["long"] == 1 })
}

// testBurst: a burst inserted in several batches, worked by several
// workers at once, is worked whole, each job once. Four batches of 100
// show that as well as larger ones (on River, 1,500 jobs took 40 s of the
// package's time and proved nothing more). Sixteen workers: River fetches
// at most a pool's free workers' worth of jobs a tenth of a second, so
// four took ten seconds over the 400.
func testBurst(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	const n = 400
	batch := make([]jobs.Job, 0, 100)
	for i := range n {
		batch = append(batch, job(jobs.KindFairplay, fmt.Sprintf("hole-%d", i), i))
		if len(batch) == cap(batch) {
			insert(t, q, batch...)
			batch = batch[:0]
		}
	}
	r := newRecorder()
	run(t, q, jobs.Workers{jobs.KindFairplay: {Handler: r.handler(nil), Workers: 16}})
	r.wait(t, "every job of the burst", func() bool { return len(r.done) == n })
	waitPending(t, q, jobs.KindFairplay, 0)
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, c := range r.done {
		if c != 1 {
			t.Errorf("%s done %d times, want 1", k, c)
		}
	}
}

func testKinds(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	insert(t, q, job(jobs.KindFairplay, "slow", 1), job(jobs.KindResult, "quick", 1))
	release := make(chan struct{})
	defer close(release)
	r := newRecorder()
	blocked := jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) error {
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	run(t, q, jobs.Workers{
		jobs.KindFairplay: {Handler: blocked, Workers: 1},
		jobs.KindResult:   {Handler: r.handler(nil), Workers: 1},
	})
	// The fair-play pool is busy for good: results go on.
	r.wait(t, "the result job while the fair-play pool is busy", func() bool { return r.done["quick"] == 1 })
}

// testOrdered: a player's rounds are worked in the order they ended,
// even when they are inserted out of order and the first one fails.
func testOrdered(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ordered := func(key string, at time.Time, subjects ...string) jobs.Job {
		j := job(jobs.KindResult, key, key)
		j.Subjects, j.At = subjects, at
		return j
	}
	insert(t, q,
		ordered("third", t0.Add(2*time.Second), "ann", "bob"),
		ordered("second", t0.Add(time.Second), "bob"),
		ordered("first", t0, "ann"),
		ordered("other", t0.Add(time.Second), "cat"),
	)
	var mu sync.Mutex
	var order []string
	r := newRecorder()
	run(t, q, jobs.Workers{jobs.KindResult: {Handler: r.handler(func(j jobs.Job) error {
		if j.Key == "first" && j.Attempt == 1 {
			return errors.New("the database is down")
		}
		mu.Lock()
		order = append(order, j.Key)
		mu.Unlock()
		return nil
	}), Workers: 4}})
	r.wait(t, "every job", func() bool { return len(r.done) == 4 })
	mu.Lock()
	defer mu.Unlock()
	pos := map[string]int{}
	for i, k := range order {
		pos[k] = i
	}
	if pos["first"] > pos["third"] || pos["second"] > pos["third"] {
		t.Errorf("worked in the order %v: third (ann, bob) before an earlier round of ann or bob", order)
	}
}

// failingOutbox fails OutboxDone while fail is set: a relay that dies
// after inserting its jobs and before removing their entries.
type failingOutbox struct {
	*memstore.Store
	mu   sync.Mutex
	fail bool
}

func (f *failingOutbox) OutboxDone(ctx context.Context, es ...store.OutboxEntry) error {
	f.mu.Lock()
	fail := f.fail
	f.mu.Unlock()
	if fail {
		return errors.New("the relay died")
	}
	return f.Store.OutboxDone(ctx, es...)
}

// outboxJobs writes one outbox entry for each job, each in an event of
// room.
func outboxJobs(t *testing.T, st store.Store, room string, js ...jobs.Job) {
	t.Helper()
	ctx := context.Background()
	if err := st.Create(ctx, room, []byte("s"), []byte("e")); err != nil {
		t.Fatal(err)
	}
	for i, j := range js {
		e, err := jobs.Entry(j)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AppendOutbox(ctx, room, int64(1+i), nil, []store.OutboxEntry{e}, []byte("ev")); err != nil {
			t.Fatal(err)
		}
	}
}

// testBatched: jobs with a group reach the queue in batch jobs (fewer
// jobs than holes, the members of a group together, at most MaxBatch a
// batch), and each member is worked once; a relay that died between
// inserting the batches and removing the entries, then found more
// entries, loses none (a member it batches again may be worked twice:
// the handler's recording is idempotent).
func testBatched(t *testing.T, newQueue New) {
	q := newQueue(t, fast())
	st := &failingOutbox{Store: memstore.New(memstore.Options{}), fail: true}
	defer st.Close()
	var first, second []jobs.Job
	for g := range 6 {
		for seat := range 3 {
			j := job(jobs.KindFairplay, fmt.Sprintf("hole-%d-seat-%d", g, seat), map[string]int{"deal": g, "seat": seat})
			j.Group = fmt.Sprintf("deal-%d", g)
			if g < 4 {
				first = append(first, j)
			} else {
				second = append(second, j)
			}
		}
	}
	outboxJobs(t, st, "ROOM1", first...)
	relay := jobs.NewRelay(st, q, jobs.RelayOptions{MaxBatch: 6})
	ctx := context.Background()
	if _, err := relay.Pass(ctx); err == nil {
		t.Fatal("the pass whose OutboxDone failed reported no error")
	}
	if n := pending(t, q, jobs.KindFairplay); n != 2 {
		t.Fatalf("batch jobs queued for 12 holes of 4 deals, at most 6 a batch = %d, want 2", n)
	}
	st.mu.Lock()
	st.fail = false
	st.mu.Unlock()
	outboxJobs(t, st, "ROOM2", second...)
	if n, err := relay.Pass(ctx); err != nil || n != 18 {
		t.Fatalf("second pass = %d %v, want 18 entries", n, err)
	}
	var mu sync.Mutex
	worked := map[string]int{}
	batches := 0
	run(t, q, jobs.Workers{jobs.KindFairplay: {Workers: 2, Handler: jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) error {
		ms, err := jobs.Members(j)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if jobs.Batched(j) {
			batches++
		}
		deals := map[string]bool{}
		for _, m := range ms {
			worked[m.Key]++
			var a map[string]int
			if err := json.Unmarshal(m.Args, &a); err != nil || m.Key != fmt.Sprintf("hole-%d-seat-%d", a["deal"], a["seat"]) {
				t.Errorf("member %s has args %s", m.Key, m.Args)
			}
			deals[fmt.Sprint(a["deal"])] = true
		}
		if len(ms) > 6 || len(ms) < 3 || len(deals)*3 != len(ms) {
			t.Errorf("batch %s: %d members of %d deals, want whole deals, at most 6", j.Key, len(ms), len(deals))
		}
		return nil
	})}})
	waitPending(t, q, jobs.KindFairplay, 0)
	mu.Lock()
	defer mu.Unlock()
	for _, j := range append(first, second...) {
		if worked[j.Key] < 1 || worked[j.Key] > 2 {
			t.Errorf("%s worked %d times, want 1 (2 if batched again after the relay died)", j.Key, worked[j.Key])
		}
	}
	for _, j := range second {
		if worked[j.Key] != 1 {
			t.Errorf("%s, queued once, worked %d times", j.Key, worked[j.Key])
		}
	}
	if batches == 0 || batches > 5 {
		t.Errorf("%d batch jobs worked, want 2 to 5", batches)
	}
}
