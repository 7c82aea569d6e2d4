package dbwait_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/internal/dbwait"
)

func TestUnavailable(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"no rows", fmt.Errorf("postgres: account: %w", pgx.ErrNoRows), false},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"syntax error", &pgconn.PgError{Code: "42601"}, false},
		{"a bug", errors.New("cannot scan"), false},
		{"the client went away", context.Canceled, false},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"cannot connect now", &pgconn.PgError{Code: "57P03"}, true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true},
		{"deadline", fmt.Errorf("postgres: account: %w", context.DeadlineExceeded), true},
		{"refused", fmt.Errorf("postgres: create account: %w", refused), true},
		{"broken connection", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		// A transaction's rollback on a connection the driver closed when
		// its socket went away replaces the first error (pgx.BeginFunc).
		{"closed connection", fmt.Errorf("fairplay postgres: review: %w", pgconn.ErrConnClosed), true},
	}
	for _, tc := range tests {
		if got := dbwait.Unavailable(tc.err); got != tc.want {
			t.Errorf("%s: Unavailable(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// blackHole accepts connections and never answers.
func blackHole(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() { io.Copy(io.Discard, c) })
		}
	})
	return ln.Addr().String()
}

// TestBoundBlackHole: a database that accepts connections and never
// answers fails a call with an error Unavailable recognises, once the
// bound has passed, rather than after the caller's far later deadline.
func TestBoundBlackHole(t *testing.T) {
	t.Parallel()
	pool, err := dbwait.NewPool(context.Background(), "postgres://golf@"+blackHole(t)+"/golf?sslmode=disable", 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var one int
	err = pool.QueryRow(ctx, "SELECT 1").Scan(&one)
	if !dbwait.Unavailable(err) {
		t.Fatalf("a query to a black hole: %v, want an unavailable database", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("the query waited for the caller's deadline: %v", err)
	}
}

// TestBoundQuery: on a live connection each call has the bound (a query
// that takes longer fails as unavailable), the pool goes on working after
// it, and a call under Unbounded is only bound by its own context.
func TestBoundQuery(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := dbwait.NewPool(ctx, pgtest.Database(t, "dbwait"), 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, "SELECT pg_sleep(5)"); !dbwait.Unavailable(err) {
		t.Fatalf("a query past the bound: %v, want an unavailable database", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the query waited for the caller's deadline")
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after a timed-out query: %d, %v", n, err)
	}
	rows, err := pool.Query(ctx, "SELECT generate_series(1, 3)")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil || len(got) != 3 {
		t.Fatalf("rows: %v, %v", got, err)
	}
	if _, err := pool.Exec(dbwait.Unbounded(ctx), "SELECT pg_sleep(0.6)"); err != nil {
		t.Fatalf("an unbounded call longer than the bound: %v", err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	_, err = tx.Exec(ctx, "SELECT pg_sleep(5)")
	if !dbwait.Unavailable(err) {
		t.Fatalf("a statement of a transaction past the bound: %v", err)
	}
}
