// Package dbwait bounds how long a call to PostgreSQL may wait, and says
// which failures mean the database cannot be reached (rather than that a
// request was wrong).
//
// A pool made by NewPool, or configured by Bound, gives every call its own
// deadline: acquiring a connection (and so connecting: its timeout is the
// same), each query, each statement of a transaction, each batch, copy and
// prepare. A caller's earlier deadline still wins. A database that refuses
// connections or never answers (a black hole) makes each call fail after
// at most the timeout, instead of hanging for as long as TCP does. The
// callers of the stores see the failure as Unavailable, which the server
// answers as 503 unavailable.
//
// Work that legitimately takes longer (migrations, cleanups with deadlines
// of their own) runs under a context marked with Unbounded.
package dbwait

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultTimeout is the bound of a call when none is configured
// (--db-timeout, GOLF_DB_TIMEOUT).
const DefaultTimeout = 5 * time.Second

// NewPool opens a pool on url whose every call waits at most timeout
// (DefaultTimeout when timeout is 0; no bound when it is negative).
func NewPool(ctx context.Context, url string, timeout time.Duration) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	Bound(cfg, timeout)
	return pgxpool.NewWithConfig(ctx, cfg)
}

// Bound makes every call of a pool made from cfg wait at most timeout
// (DefaultTimeout when timeout is 0; no bound when it is negative). A
// connect timeout in the URL (connect_timeout) shorter than timeout is
// kept. It replaces the configuration's tracer.
func Bound(cfg *pgxpool.Config, timeout time.Duration) {
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if timeout < 0 {
		return
	}
	if ct := cfg.ConnConfig.ConnectTimeout; ct <= 0 || ct > timeout {
		cfg.ConnConfig.ConnectTimeout = timeout
	}
	cfg.ConnConfig.Tracer = tracer{timeout: timeout}
}

type (
	unboundedKey struct{}
	cancelKey    struct{}
)

// Unbounded marks ctx so that calls made with it are not bounded by the
// pool's timeout: only by ctx's own deadline, if it has one.
func Unbounded(ctx context.Context) context.Context {
	return context.WithValue(ctx, unboundedKey{}, true)
}

// tracer implements pgx's tracer interfaces (and pgxpool's
// AcquireTracer) only to put a deadline on each call's context: the
// context the start hook returns is the one the call uses, and the end
// hook, which always follows, releases its timer.
type tracer struct{ timeout time.Duration }

var (
	_ pgx.QueryTracer       = tracer{}
	_ pgx.BatchTracer       = tracer{}
	_ pgx.CopyFromTracer    = tracer{}
	_ pgx.PrepareTracer     = tracer{}
	_ pgxpool.AcquireTracer = tracer{}
)

func (t tracer) start(ctx context.Context) context.Context {
	if ctx.Value(unboundedKey{}) != nil {
		return ctx
	}
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	return context.WithValue(ctx, cancelKey{}, cancel)
}

func end(ctx context.Context) {
	if cancel, ok := ctx.Value(cancelKey{}).(context.CancelFunc); ok {
		cancel()
	}
}

func (t tracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return t.start(ctx)
}
func (tracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryEndData) { end(ctx) }

func (t tracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return t.start(ctx)
}
func (tracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData)     {}
func (tracer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchEndData) { end(ctx) }

func (t tracer) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromStartData) context.Context {
	return t.start(ctx)
}
func (tracer) TraceCopyFromEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromEndData) {
	end(ctx)
}

func (t tracer) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	return t.start(ctx)
}
func (tracer) TracePrepareEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareEndData) { end(ctx) }

func (t tracer) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	return t.start(ctx)
}
func (tracer) TraceAcquireEnd(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireEndData) {
	end(ctx)
}

// Unavailable reports whether err means the database could not be reached
// or could not serve in time: a refused, broken or closed connection, a call past
// its deadline, a server shutting down or out of connections. Errors the
// database answered (a constraint, a syntax error, no rows) are not.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08": // connection exception
			return true
		case pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03": // shutting down, cannot connect now
			return true
		case pgErr.Code == "53300": // too many connections
			return true
		}
		return false
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || pgconn.Timeout(err) || errors.As(err, &netErr) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, pgconn.ErrConnClosed)
}
