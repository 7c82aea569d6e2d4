package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"golfsolitaire/store"
)

// RunSeedPools runs the contract of store.SeedPools. newPools returns two
// handles on one set of pools (two instances on one Redis; for a store of
// one process the same value twice); pools from different calls must not
// share data.
func RunSeedPools(t *testing.T, newPools func(t *testing.T) (a, b store.SeedPools)) {
	tests := []struct {
		name string
		run  func(t *testing.T, ctx context.Context, a, b store.SeedPools)
	}{
		{"FIFO", testSeedsFIFO},
		{"Short", testSeedsShort},
		{"Cap", testSeedsCap},
		{"Separate", testSeedsSeparate},
		{"OnceEach", testSeedsOnceEach},
		{"BadNames", testSeedsBadNames},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			a, b := newPools(t)
			tt.run(t, ctx, a, b)
		})
	}
}

func entries(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%03d", prefix, i)
	}
	return out
}

func mustLen(t *testing.T, ctx context.Context, p store.SeedPools, pool string, want int) {
	t.Helper()
	n, err := p.SeedPoolLen(ctx, pool)
	if err != nil || n != want {
		t.Fatalf("SeedPoolLen(%s) = %d, %v; want %d", pool, n, err, want)
	}
}

// testSeedsFIFO: entries come out oldest first, across instances.
func testSeedsFIFO(t *testing.T, ctx context.Context, a, b store.SeedPools) {
	mustLen(t, ctx, a, "p", 0)
	if n, err := a.PushSeeds(ctx, "p", entries("x", 5), 100); err != nil || n != 5 {
		t.Fatalf("PushSeeds = %d, %v", n, err)
	}
	if n, err := b.PushSeeds(ctx, "p", entries("y", 2), 100); err != nil || n != 7 {
		t.Fatalf("PushSeeds on the other instance = %d, %v", n, err)
	}
	got, err := b.PopSeeds(ctx, "p", 3)
	if err != nil || !slices.Equal(got, entries("x", 3)) {
		t.Fatalf("PopSeeds(3) = %q, %v", got, err)
	}
	got, err = a.PopSeeds(ctx, "p", 4)
	if want := append(entries("x", 5)[3:], entries("y", 2)...); err != nil || !slices.Equal(got, want) {
		t.Fatalf("PopSeeds(4) = %q, %v; want %q", got, err, want)
	}
	mustLen(t, ctx, b, "p", 0)
	if got, err := a.PopSeeds(ctx, "p", 0); err != nil || len(got) != 0 {
		t.Fatalf("PopSeeds(0) = %q, %v", got, err)
	}
}

// testSeedsShort: asking for more than the pool holds takes nothing.
func testSeedsShort(t *testing.T, ctx context.Context, a, b store.SeedPools) {
	if _, err := a.PopSeeds(ctx, "p", 1); !errors.Is(err, store.ErrPoolShort) {
		t.Fatalf("PopSeeds of an empty pool = %v, want ErrPoolShort", err)
	}
	if _, err := a.PushSeeds(ctx, "p", entries("x", 17), 100); err != nil {
		t.Fatal(err)
	}
	if got, err := b.PopSeeds(ctx, "p", 18); !errors.Is(err, store.ErrPoolShort) || got != nil {
		t.Fatalf("PopSeeds(18) of 17 = %q, %v; want ErrPoolShort", got, err)
	}
	mustLen(t, ctx, a, "p", 17)
	if got, err := b.PopSeeds(ctx, "p", 17); err != nil || !slices.Equal(got, entries("x", 17)) {
		t.Fatalf("PopSeeds(17) = %q, %v", got, err)
	}
}

// testSeedsCap: a push keeps at most max entries, dropping the newest.
func testSeedsCap(t *testing.T, ctx context.Context, a, b store.SeedPools) {
	if n, err := a.PushSeeds(ctx, "p", entries("x", 4), 6); err != nil || n != 4 {
		t.Fatalf("PushSeeds = %d, %v", n, err)
	}
	if n, err := b.PushSeeds(ctx, "p", entries("y", 4), 6); err != nil || n != 6 {
		t.Fatalf("PushSeeds past the cap = %d, %v; want 6", n, err)
	}
	if n, err := a.PushSeeds(ctx, "p", entries("z", 1), 6); err != nil || n != 6 {
		t.Fatalf("PushSeeds into a full pool = %d, %v; want 6", n, err)
	}
	got, err := a.PopSeeds(ctx, "p", 6)
	if want := append(entries("x", 4), entries("y", 2)...); err != nil || !slices.Equal(got, want) {
		t.Fatalf("PopSeeds = %q, %v; want %q", got, err, want)
	}
	if _, err := a.PushSeeds(ctx, "p", entries("x", 1), -1); err == nil {
		t.Fatal("a negative cap was accepted")
	}
}

// testSeedsSeparate: pools do not share entries.
func testSeedsSeparate(t *testing.T, ctx context.Context, a, b store.SeedPools) {
	if _, err := a.PushSeeds(ctx, "golf:d1", entries("one", 2), 10); err != nil {
		t.Fatal(err)
	}
	if _, err := a.PushSeeds(ctx, "golf:d2", entries("two", 3), 10); err != nil {
		t.Fatal(err)
	}
	mustLen(t, ctx, b, "golf:d1", 2)
	mustLen(t, ctx, b, "golf:d2", 3)
	if got, err := b.PopSeeds(ctx, "golf:d2", 3); err != nil || !slices.Equal(got, entries("two", 3)) {
		t.Fatalf("PopSeeds = %q, %v", got, err)
	}
	mustLen(t, ctx, a, "golf:d1", 2)
}

// testSeedsOnceEach: concurrent pops from both instances hand every entry
// out exactly once.
func testSeedsOnceEach(t *testing.T, ctx context.Context, a, b store.SeedPools) {
	const total = 120
	if _, err := a.PushSeeds(ctx, "p", entries("x", total), total); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for i := range 8 {
		p := a
		if i%2 == 1 {
			p = b
		}
		wg.Go(func() {
			for {
				got, err := p.PopSeeds(ctx, "p", 3)
				if errors.Is(err, store.ErrPoolShort) {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, e := range got {
					seen[e]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != total {
		t.Fatalf("%d distinct entries popped, want %d", len(seen), total)
	}
	for e, n := range seen {
		if n != 1 {
			t.Fatalf("entry %s popped %d times", e, n)
		}
	}
}

// testSeedsBadNames: names with braces (or none) are refused.
func testSeedsBadNames(t *testing.T, ctx context.Context, a, _ store.SeedPools) {
	for _, name := range []string{"", "a{b", "x}"} {
		if _, err := a.PushSeeds(ctx, name, entries("x", 1), 5); err == nil {
			t.Errorf("PushSeeds(%q) accepted", name)
		}
		if _, err := a.PopSeeds(ctx, name, 1); err == nil || errors.Is(err, store.ErrPoolShort) {
			t.Errorf("PopSeeds(%q) = %v", name, err)
		}
		if _, err := a.SeedPoolLen(ctx, name); err == nil {
			t.Errorf("SeedPoolLen(%q) accepted", name)
		}
	}
}
