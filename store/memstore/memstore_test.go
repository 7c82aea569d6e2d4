package memstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/storetest"
)

// TestContract runs the suite with the suite's fake clock.
func TestContract(t *testing.T) {
	t.Parallel()
	storetest.RunBackend(t, storetest.Backend{
		New: func(t *testing.T, c storetest.Config) store.Store {
			return memstore.New(memstore.Options{HistoryLen: c.HistoryLen, Now: c.Now, Replay: c.Replay, SnapshotEvery: c.SnapshotEvery})
		},
		Configurable: true,
		Advance:      func(*testing.T, time.Duration) {}, // the store reads the suite's clock
	})
}

// TestContractRealTime runs the suite with the defaults and real time.
func TestContractRealTime(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(*testing.T) store.Store { return memstore.New(memstore.Options{}) })
}

// TestSweep checks that Create removes expired rooms it does not touch.
func TestSweep(t *testing.T) {
	now := time.Unix(1e9, 0)
	s := memstore.New(memstore.Options{RoomTTL: time.Hour, Now: func() time.Time { return now }})
	defer s.Close()
	ctx := context.Background()
	for i := range 10 {
		if err := s.Create(ctx, fmt.Sprint("old", i), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(2 * time.Hour)
	if err := s.Create(ctx, "new", nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := s.Len(); n != 1 {
		t.Fatalf("%d rooms kept after the sweep, want 1", n)
	}
}

func BenchmarkAppend(b *testing.B) {
	s := memstore.New(memstore.Options{})
	defer s.Close()
	ctx := context.Background()
	if err := s.Create(ctx, "BENCH", []byte("snap"), []byte("first")); err != nil {
		b.Fatal(err)
	}
	snap, ev := make([]byte, 512), make([]byte, 64)
	v := int64(1)
	for b.Loop() {
		var err error
		if v, err = s.Append(ctx, "BENCH", v, snap, ev); err != nil {
			b.Fatal(err)
		}
	}
}
