package seedpool_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/seedpool"
	"golfsolitaire/solverpool"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

const solveNodes, rateNodes = 200_000, 40_000

// winnable is a one-hole winnable-only Golf round, kings wrapping (quick
// to clear).
func winnable() match.Settings {
	set := match.DefaultSettings()
	set.Variant = golf.Variant{Game: golf.GolfGame, Options: golf.GolfGame.Defaults()}
	set.Variant.Options.Kings = golf.Wrap
	set.Format, set.Seats, set.Holes, set.WinnableOnly = match.Stroke, 1, 1, true
	return set
}

// TestName: the settings that do not decide the deals (undo, seats,
// holes) share a pool; winnableOnly and each difficulty have their own.
func TestName(t *testing.T) {
	t.Parallel()
	set := winnable()
	other := set
	other.Variant.Options.Undo = !set.Variant.Options.Undo
	other.Seats, other.Holes = 4, 9
	if seedpool.Name(set) != seedpool.Name(other) {
		t.Errorf("undo, seats and holes change the pool: %s, %s", seedpool.Name(set), seedpool.Name(other))
	}
	if !strings.HasPrefix(seedpool.Name(set), "golf:") || !strings.HasSuffix(seedpool.Name(set), ":winnable") {
		t.Errorf("Name = %q, want golf:…:winnable", seedpool.Name(set))
	}
	hard := set
	hard.Difficulty = 3
	if n := seedpool.Name(hard); n == seedpool.Name(set) || !strings.HasSuffix(n, ":d3") {
		t.Errorf("difficulty 3's pool is %q", n)
	}
	if got, want := seedpool.Entry(golf.Seed{1}, 3), (golf.Seed{1}).String()+":3"; got != want {
		t.Errorf("Entry = %q, want %q", got, want)
	}
}

// TestPopShortThenFilled: a pool too short fails with store.ErrPoolShort
// and asks the filler for it; once the filler has made the deals, Pop
// takes clearable ones.
func TestPopShortThenFilled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := memstore.NewSeedPools()
	solver := solverpool.New(solverpool.Options{Workers: 1})
	defer solver.Close()
	var filled atomic.Int32
	p := seedpool.New(seedpool.Options{Store: st, Size: 2, SolveNodes: solveNodes, RateNodes: rateNodes, Solver: solver,
		Filled: func() { filled.Add(1) }})
	defer p.Stop()
	set := winnable()
	if _, err := p.Pop(ctx, set); !errors.Is(err, store.ErrPoolShort) {
		t.Fatalf("Pop on an empty pool: %v, want store.ErrPoolShort", err)
	}
	p.Start(1)
	for {
		n, err := st.SeedPoolLen(ctx, seedpool.Name(set))
		if err != nil {
			t.Fatal(err)
		}
		if n >= 2 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the filler made %d deals of 2", n)
		case <-time.After(10 * time.Millisecond):
		}
	}
	deals, err := p.Pop(ctx, set)
	if err != nil || len(deals) != 1 {
		t.Fatalf("Pop = %v, %v; want one deal", deals, err)
	}
	check := match.NewAnalyzer(solveNodes, rateNodes)
	if !check.Clearable(set.Variant, deals[0]) {
		t.Errorf("deal %s from the filler does not clear", deals[0])
	}
	if filled.Load() < 2 {
		t.Errorf("Filled called %d times, want at least 2", filled.Load())
	}
}
