package redissession_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/alexedwards/scs/v2/memstore"
	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/accounts/redissession"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// contract checks an scs.CtxStore: what a commit stores is found until it
// expires, a later commit replaces it, a delete removes it, tokens do not
// see each other's data. advance moves a fake clock (miniredis); real
// stores are polled until the expiry has passed.
func contract(t *testing.T, st scs.CtxStore, advance func(time.Duration)) {
	t.Helper()
	ctx := context.Background()
	if _, found, err := st.FindCtx(ctx, "nobody"); err != nil || found {
		t.Errorf("Find(unknown) = found %v, %v; want not found", found, err)
	}
	if err := st.CommitCtx(ctx, "tok-a", []byte("ana"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st.CommitCtx(ctx, "tok-b", []byte("bob"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if b, found, err := st.FindCtx(ctx, "tok-a"); err != nil || !found || !bytes.Equal(b, []byte("ana")) {
		t.Errorf("Find(tok-a) = %q %v %v, want ana", b, found, err)
	}
	if err := st.CommitCtx(ctx, "tok-a", []byte("ana 2"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if b, _, _ := st.FindCtx(ctx, "tok-a"); !bytes.Equal(b, []byte("ana 2")) {
		t.Errorf("after a second commit Find(tok-a) = %q, want ana 2", b)
	}
	if b, _, _ := st.FindCtx(ctx, "tok-b"); !bytes.Equal(b, []byte("bob")) {
		t.Errorf("Find(tok-b) = %q, want bob", b)
	}
	if err := st.DeleteCtx(ctx, "tok-a"); err != nil {
		t.Fatal(err)
	}
	if _, found, err := st.FindCtx(ctx, "tok-a"); err != nil || found {
		t.Errorf("Find after Delete = found %v, %v", found, err)
	}
	if err := st.DeleteCtx(ctx, "tok-a"); err != nil {
		t.Errorf("a second Delete: %v", err)
	}
	if err := st.CommitCtx(ctx, "tok-c", []byte("short"), time.Now().Add(1500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := st.CommitCtx(ctx, "tok-d", []byte("past"), time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, found, err := st.FindCtx(ctx, "tok-d"); err != nil || found {
		t.Errorf("a session committed already expired is found: %v %v", found, err)
	}
	advance(2500 * time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, found, err := st.FindCtx(ctx, "tok-c")
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a session is still found 10 s after it expired")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if b, found, _ := st.FindCtx(ctx, "tok-b"); !found || !bytes.Equal(b, []byte("bob")) {
		t.Errorf("a live session is gone after another expired: %q %v", b, found)
	}
}

func noClock(time.Duration) {}

// TestContractSCSMemstore: the contract holds for scs's own memstore (the
// reference the Redis store follows).
func TestContractSCSMemstore(t *testing.T) {
	t.Parallel()
	contract(t, plain{memstore.NewWithCleanupInterval(0)}, noClock)
}

func TestContractMiniredis(t *testing.T) {
	t.Parallel()
	m := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { c.Close() })
	contract(t, redissession.New(c, "golf:"), m.FastForward)
}

// TestContractRedis runs the contract on every Redis topology CI runs
// (single node, Cluster, Sentinel), each under a prefix of its own.
func TestContractRedis(t *testing.T) {
	t.Parallel()
	for _, tp := range redistest.All {
		t.Run(tp.Name, func(t *testing.T) {
			t.Parallel()
			prefix := tp.Prefix(t, "sessions")
			c := tp.Client(t)
			st := redissession.New(c, prefix)
			contract(t, st, noClock)
			// The token is never a key: only its SHA-256 is.
			if err := st.CommitCtx(context.Background(), "secret-token", []byte("x"), time.Now().Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			keys, err := c.Keys(context.Background(), prefix+"*secret-token*").Result()
			if tp.Mode != redisstore.ModeCluster && (err != nil || len(keys) != 0) {
				t.Errorf("keys naming the token: %v, %v", keys, err)
			}
		})
	}
}

// plain gives a context-free scs.Store the Ctx methods.
type plain struct{ scs.Store }

func (p plain) FindCtx(_ context.Context, token string) ([]byte, bool, error) { return p.Find(token) }
func (p plain) CommitCtx(_ context.Context, token string, b []byte, expiry time.Time) error {
	return p.Commit(token, b, expiry)
}
func (p plain) DeleteCtx(_ context.Context, token string) error { return p.Delete(token) }
