package server

import (
	"context"
	"testing"
	"time"

	"golfsolitaire/solverpool"
)

// TestPoolYield: a solve on the pool's worker only lets the ready
// goroutines run once while a hint, a bot's move or a best score waits
// in the pool's queue, and waits for the rooms otherwise (nothing queued,
// or only low-priority background work); and once the server is closing,
// never waits (closingYield).
func TestPoolYield(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		queued   []solverpool.Priority // jobs queued behind the busy worker
		wantWait bool
	}{
		{"nothing queued", nil, true},
		{"a hint waits", []solverpool.Priority{solverpool.Normal}, false},
		{"a best score waits", []solverpool.Priority{solverpool.High}, false},
		{"only background work waits", []solverpool.Priority{solverpool.Low, solverpool.Low}, true},
		{"background and a bot's move wait", []solverpool.Priority{solverpool.Low, solverpool.Normal}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pool := solverpool.New(solverpool.Options{Workers: 1})
			defer pool.Close()
			release := make(chan struct{})
			defer close(release) // before Close, which waits for the running job
			started := make(chan struct{})
			go func() { _ = pool.Do(context.Background(), solverpool.High, "", func() { close(started); <-release }) }()
			<-started
			for _, pri := range tc.queued {
				go func() { _ = pool.Do(context.Background(), pri, "", func() {}) }()
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
				q := pool.Stats().Queued
				if q[solverpool.High]+q[solverpool.Normal]+q[solverpool.Low] == len(tc.queued) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("queued %v, want %d jobs", q, len(tc.queued))
				}
			}
			var gosched, waited int
			poolYield(pool, func() { gosched++ }, func() { waited++ })
			if want := map[bool]int{true: 1}[tc.wantWait]; waited != want || gosched != 1-want {
				t.Errorf("waited %d times and let others run %d times, want %d and %d", waited, gosched, want, 1-want)
			}
		})
	}
	t.Run("closing", func(t *testing.T) {
		t.Parallel()
		for _, closing := range []bool{false, true} {
			var polled, gaveWay int
			closingYield(closing, func() { polled++ }, func() { gaveWay++ })
			if closing && (polled != 1 || gaveWay != 0) || !closing && (polled != 0 || gaveWay != 1) {
				t.Errorf("closing %v: polled %d and gave way %d times", closing, polled, gaveWay)
			}
		}
	})
	t.Run("no pool", func(t *testing.T) {
		t.Parallel()
		waited := 0
		poolYield(nil, func() { t.Error("gosched without a pool") }, func() { waited++ })
		if waited != 1 {
			t.Errorf("waited %d times, want 1", waited)
		}
	})
}
