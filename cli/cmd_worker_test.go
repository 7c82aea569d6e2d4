package cli

import (
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/golf"
	"golfsolitaire/jobs"
	"golfsolitaire/results"
)

// TestWorkerBadFlags: bad flags get a clear error and exit 2; nothing
// runs.
func TestWorkerBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"worker"}, "--database is required"},
		{[]string{"worker", "--database", "postgres://x/y", "--fairplay-workers", "-1"}, "--fairplay-workers: -1 is negative"},
		{[]string{"worker", "--database", "postgres://x/y", "--result-workers", "0"}, "--result-workers: 0"},
		{[]string{"worker", "--database", "postgres://x/y", "--fairplay-analysis", "fast"}, "--fairplay-analysis"},
		{[]string{"worker", "--database", "postgres://x/y", "--fairplay-escalation", "-2"}, "--fairplay-escalation"},
		{[]string{"worker", "extra"}, `unexpected argument "extra"`},
	} {
		r := runCmd(t, "", tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr+r.err, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, err %q; want exit 2 and %q", tc.args, r.code, r.stderr, r.err, tc.want)
		}
	}
}

// TestWorkerRecords: `golf worker` on the servers' database records a
// rated round a server queued, with no server running.
func TestWorkerRecords(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, pg, q := workerQueue(ctx, t)
	var ids []accounts.ID
	for _, n := range []string{"Ana", "Bo"} {
		key, _ := accounts.Key(n)
		a, err := pg.Create(ctx, accounts.Account{Name: n, Key: key, PasswordHash: "x"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	j, err := results.RoundJob(results.Round{Game: accounts.Game{ID: "WORK-1", Family: "golf", Format: "match", Finished: time.Now(),
		Players: []accounts.GamePlayer{{Name: "Ana", Account: ids[0], Place: 1}, {Name: "Bo", Account: ids[1], Place: 2}}}, Places: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Insert(ctx, j); err != nil {
		t.Fatal(err)
	}
	log, stop := startWorker(ctx, db, "--fairplay=false")
	deadline := time.Now().Add(90 * time.Second)
	for {
		if _, err := pg.Game(ctx, "WORK-1"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("the worker did not record the round:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Errorf("worker: %v", err)
	}
	if !strings.Contains(log.String(), "working the job queue") {
		t.Errorf("the log does not say the worker started:\n%s", log)
	}
}

// TestWorkerAnalyses: `golf worker` analyses a hole a server queued and
// reports it on its /metrics as a server does, the analysis's CPU time
// among them (golf_fairplay_cpu_seconds_total, which load
// --fairplay-metrics reads).
func TestWorkerAnalyses(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, _, q := workerQueue(ctx, t)
	v := golf.DefaultVariant()
	d := golf.NewDeal(v, golf.NumberedSeed(5))
	st := golf.NewState(&d)
	for !st.Over() {
		_ = st.Apply(st.Legal()[0])
	}
	j, err := results.HoleJob(results.Hole{Hole: review.Hole{Variant: v, Seed: d.Seed, Moves: st.Moves(),
		Report: fairplay.HoleReport{Player: "guest:w", Name: "W", Room: "WORKR", Round: 1, Hole: 1, At: time.Now()}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Insert(ctx, j); err != nil {
		t.Fatal(err)
	}
	log, stop := startWorker(ctx, db, "--metrics-addr", "127.0.0.1:0")
	addr := regexp.MustCompile(`"msg":"metrics","addr":"([0-9.:]+)"`)
	deadline := time.Now().Add(90 * time.Second)
	var vals map[string]float64
	for {
		if m := addr.FindStringSubmatch(log.String()); m != nil {
			if vals, err = readCounters(ctx, "http://"+m[1]); err == nil && vals["golf_fairplay_analysed_total"] == 1 {
				break
			}
		}
		if time.Now().After(deadline) {
			stop()
			t.Fatalf("the worker did not analyse the hole (%v):\n%s", vals, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if vals["golf_fairplay_cpu_seconds_total"] <= 0 {
		t.Errorf("golf_fairplay_cpu_seconds_total %v after an analysis, want its CPU time", vals["golf_fairplay_cpu_seconds_total"])
	}
	if err := stop(); err != nil {
		t.Errorf("worker: %v", err)
	}
}

// workerQueue is a database of the test's own with the job queue's
// tables: its URL, its store, and the queue a server writes jobs to.
func workerQueue(ctx context.Context, t *testing.T) (string, *postgres.Store, *jobs.River) {
	t.Helper()
	db := pgtest.Database(t, "worker")
	pg, err := postgres.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Close)
	if err := jobs.Migrate(ctx, pg.Pool(), nil); err != nil {
		t.Fatal(err)
	}
	q, err := jobs.NewRiver(pg.Pool(), jobs.RiverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return db, pg, q
}

// startWorker runs `golf worker args` on db; stop stops it (once) and
// returns its error.
func startWorker(ctx context.Context, db string, args ...string) (log *syncBuffer, stop func() error) {
	wctx, cancel := context.WithCancel(ctx)
	log = &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- runWorker(wctx, args, env{stdout: io.Discard, stderr: log, getenv: func(k string) string {
			if k == "DATABASE_URL" {
				return db
			}
			return ""
		}})
	}()
	return log, sync.OnceValue(func() error {
		cancel()
		return <-done
	})
}
