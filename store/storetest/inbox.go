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

// RunInboxes runs the contract of store.Inboxes. newInboxes returns two
// handles on one set of inboxes (two instances on one Redis; for a store
// of one process the same value twice); inboxes from different calls
// must not share data.
func RunInboxes(t *testing.T, newInboxes func(t *testing.T) (a, b store.Inboxes)) {
	tests := []struct {
		name string
		run  func(t *testing.T, ctx context.Context, a, b store.Inboxes)
	}{
		{"NewestFirst", testInboxNewestFirst},
		{"Replace", testInboxReplace},
		{"Full", testInboxFull},
		{"Withdraw", testInboxWithdraw},
		{"Separate", testInboxSeparate},
		{"Expire", testInboxExpire},
		{"ManySenders", testInboxManySenders},
		{"BadInput", testInboxBadInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			a, b := newInboxes(t)
			tt.run(t, ctx, a, b)
		})
	}
}

const inboxTTL = time.Hour

// inboxIDs returns the inbox's ids, newest first, and checks each item's
// data is "data-<id>" (as deliver writes it).
func inboxIDs(t *testing.T, ctx context.Context, in store.Inboxes, box string) []string {
	t.Helper()
	items, err := in.Inbox(ctx, box)
	if err != nil {
		t.Fatalf("Inbox(%s): %v", box, err)
	}
	ids := []string{}
	for _, it := range items {
		if string(it.Data) != "data-"+it.ID {
			t.Fatalf("Inbox(%s): item %s holds %q", box, it.ID, it.Data)
		}
		ids = append(ids, it.ID)
	}
	return ids
}

func deliver(t *testing.T, ctx context.Context, in store.Inboxes, box, id string, max int) {
	t.Helper()
	if err := in.Deliver(ctx, box, id, []byte("data-"+id), max, inboxTTL); err != nil {
		t.Fatalf("Deliver(%s, %s): %v", box, id, err)
	}
}

func wantIDs(t *testing.T, ctx context.Context, in store.Inboxes, box string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := inboxIDs(t, ctx, in, box); !slices.Equal(got, want) {
		t.Fatalf("inbox %s = %q, want %q", box, got, want)
	}
}

// testInboxNewestFirst: items come out newest first, across instances;
// an inbox never delivered to is empty.
func testInboxNewestFirst(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	wantIDs(t, ctx, a, "x")
	deliver(t, ctx, a, "x", "one", 5)
	deliver(t, ctx, b, "x", "two", 5)
	deliver(t, ctx, a, "x", "three", 5)
	wantIDs(t, ctx, b, "x", "three", "two", "one")
}

// testInboxReplace: a delivery under an id already there replaces that
// item, which becomes the newest.
func testInboxReplace(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	deliver(t, ctx, a, "x", "ana", 5)
	deliver(t, ctx, a, "x", "bo", 5)
	if err := b.Deliver(ctx, "x", "ana", []byte("data-ana"), 5, inboxTTL); err != nil {
		t.Fatal(err)
	}
	wantIDs(t, ctx, a, "x", "ana", "bo")
}

// testInboxFull: at its bound a new id is refused with ErrInboxFull,
// changing nothing; an id already there is still replaced.
func testInboxFull(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	for i := range 3 {
		deliver(t, ctx, a, "x", fmt.Sprint("s", i), 3)
	}
	err := b.Deliver(ctx, "x", "s3", []byte("data-s3"), 3, inboxTTL)
	if !errors.Is(err, store.ErrInboxFull) {
		t.Fatalf("a fourth item in an inbox of 3: %v, want ErrInboxFull", err)
	}
	wantIDs(t, ctx, a, "x", "s2", "s1", "s0")
	deliver(t, ctx, b, "x", "s0", 3)
	wantIDs(t, ctx, a, "x", "s0", "s2", "s1")
}

// testInboxWithdraw: withdrawn items go (and make room); ids that are not
// there, and inboxes that do not exist, are not an error.
func testInboxWithdraw(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	for i := range 3 {
		deliver(t, ctx, a, "x", fmt.Sprint("s", i), 3)
	}
	if err := b.Withdraw(ctx, "x", "s1", "nobody"); err != nil {
		t.Fatal(err)
	}
	wantIDs(t, ctx, a, "x", "s2", "s0")
	deliver(t, ctx, a, "x", "s3", 3)
	wantIDs(t, ctx, b, "x", "s3", "s2", "s0")
	if err := a.Withdraw(ctx, "x", "s0", "s2", "s3"); err != nil {
		t.Fatal(err)
	}
	wantIDs(t, ctx, b, "x")
	if err := a.Withdraw(ctx, "never"); err != nil {
		t.Fatal(err)
	}
	if err := a.Withdraw(ctx, "never", "s0"); err != nil {
		t.Fatal(err)
	}
}

// testInboxSeparate: inboxes do not share items or bounds.
func testInboxSeparate(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	deliver(t, ctx, a, "x", "ana", 1)
	deliver(t, ctx, b, "y", "bo", 1)
	wantIDs(t, ctx, b, "x", "ana")
	wantIDs(t, ctx, a, "y", "bo")
}

// testInboxExpire: an inbox goes ttl after its last delivery, with every
// item (the older ones too); a delivery to it starts afresh.
func testInboxExpire(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	deliver(t, ctx, a, "x", "ana", 2)
	wantIDs(t, ctx, b, "x", "ana")
	if err := a.Deliver(ctx, "x", "bo", []byte("data-bo"), 2, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for {
		if len(inboxIDs(t, ctx, b, "x")) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the inbox did not expire")
		case <-time.After(50 * time.Millisecond):
		}
	}
	deliver(t, ctx, b, "x", "cy", 1) // not full: the old items went
	wantIDs(t, ctx, a, "x", "cy")
}

// testInboxManySenders: many deliveries at once, from both instances,
// under distinct ids: every one lands until the bound, and the bound
// holds exactly.
func testInboxManySenders(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	const n, bound = 40, 25
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			in := []store.Inboxes{a, b}[i%2]
			id := fmt.Sprint("s", i)
			errs[i] = in.Deliver(ctx, "x", id, []byte("data-"+id), bound, inboxTTL)
		})
	}
	wg.Wait()
	full := 0
	for i, err := range errs {
		switch {
		case errors.Is(err, store.ErrInboxFull):
			full++
		case err != nil:
			t.Fatalf("delivery %d: %v", i, err)
		}
	}
	got := inboxIDs(t, ctx, a, "x")
	if len(got) != bound || full != n-bound {
		t.Fatalf("%d deliveries to an inbox of %d: %d held, %d refused", n, bound, len(got), full)
	}
	for _, id := range got {
		var i int
		fmt.Sscanf(id, "s%d", &i)
		if errs[i] != nil {
			t.Fatalf("item %s is held but its delivery failed: %v", id, errs[i])
		}
	}
}

// testInboxBadInput: bad names, bounds and lifetimes are refused and
// change nothing.
func testInboxBadInput(t *testing.T, ctx context.Context, a, b store.Inboxes) {
	for _, tc := range []struct {
		box string
		max int
		ttl time.Duration
	}{{"", 1, inboxTTL}, {"a{b}", 1, inboxTTL}, {"x", 0, inboxTTL}, {"x", 1, 0}} {
		if err := a.Deliver(ctx, tc.box, "id", []byte("data-id"), tc.max, tc.ttl); err == nil || errors.Is(err, store.ErrInboxFull) {
			t.Errorf("Deliver(%q, max %d, ttl %v) = %v, want an error", tc.box, tc.max, tc.ttl, err)
		}
	}
	if _, err := b.Inbox(ctx, "a{b}"); err == nil {
		t.Error("Inbox with braces in its name: no error")
	}
	if err := b.Withdraw(ctx, "", "id"); err == nil {
		t.Error("Withdraw from an inbox without a name: no error")
	}
	wantIDs(t, ctx, a, "x")
}
