package jobs_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/jobs"
)

// childEnv names the database a child worker process works.
const childEnv = "GOLF_JOBS_TEST_CHILD_DB"

// riverOptions are the kill tests' options: a job running longer than
// RescueAfter is taken as lost (River's rescuer looks every 30 s).
func riverOptions() jobs.RiverOptions {
	return jobs.RiverOptions{
		Options:      jobs.Options{Backoff: func(int) time.Duration { return 100 * time.Millisecond }, JobTimeout: time.Second},
		RescueAfter:  2 * time.Second,
		PollInterval: 100 * time.Millisecond,
		Logger:       slog.New(slog.DiscardHandler),
	}
}

// TestWorkerChild is the worker process TestKilledWorker kills: it works
// result jobs one at a time, says which one it started, and never
// finishes it.
func TestWorkerChild(t *testing.T) {
	db := os.Getenv(childEnv)
	if db == "" {
		t.Skip("run by TestKilledWorker")
	}
	pool, err := pgxpool.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	q, err := jobs.NewRiver(pool, riverOptions())
	if err != nil {
		t.Fatal(err)
	}
	q.Run(context.Background(), jobs.Workers{jobs.KindResult: {Workers: 1, Handler: jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) error {
		fmt.Printf("started %s\n", j.Key)
		select {} // stuck until killed
	})}})
}

// TestKilledWorker: a worker process is killed (SIGKILL) in the middle of
// a job, with more jobs queued behind it. Another worker, started after
// (as after a restart), works every job, the killed one included, each
// once to completion: nothing queued is lost.
func TestKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a worker process of its own: not in -short")
	}
	t.Parallel()
	db := pgtest.Database(t, "jobskill")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := jobs.Migrate(ctx, pool, nil); err != nil {
		t.Fatal(err)
	}
	q, err := jobs.NewRiver(pool, riverOptions())
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	var batch []jobs.Job
	for i := range n {
		batch = append(batch, jobs.Job{Kind: jobs.KindResult, Key: fmt.Sprintf("g-%d", i), Args: []byte(`{}`)})
	}
	if err := q.Insert(ctx, batch...); err != nil {
		t.Fatal(err)
	}

	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestWorkerChild$", "-test.v")
	child.Env = append(os.Environ(), childEnv+"="+db)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	started := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if key, ok := strings.CutPrefix(sc.Text(), "started "); ok {
				select {
				case started <- key:
				default:
				}
			}
		}
	}()
	var stuck string
	select {
	case stuck = <-started:
	case <-time.After(90 * time.Second):
		child.Process.Kill()
		child.Wait()
		t.Fatal("the child worker never started a job")
	}
	if err := child.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	child.Wait()

	var mu sync.Mutex
	done := map[string][]int{}
	rctx, stop := context.WithCancel(ctx)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		q.Run(rctx, jobs.Workers{jobs.KindResult: {Workers: 2, Handler: jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) error {
			mu.Lock()
			done[j.Key] = append(done[j.Key], j.Attempt)
			mu.Unlock()
			return nil
		})}})
	}()
	defer func() {
		stop()
		<-ran
	}()
	deadline := time.Now().Add(150 * time.Second)
	for {
		mu.Lock()
		got := len(done)
		mu.Unlock()
		if got == n {
			break
		}
		if time.Now().After(deadline) {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("after the kill, %d of %d jobs worked (%v); the killed one was %s", got, n, done, stuck)
		}
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for k, attempts := range done {
		if len(attempts) != 1 {
			t.Errorf("%s worked %d times after the kill, want once", k, len(attempts))
		}
	}
	if a := done[stuck]; len(a) != 1 || a[0] < 2 {
		t.Errorf("the killed job %s: attempts %v after the kill, want one retry (attempt 2 or later)", stuck, a)
	}
}
