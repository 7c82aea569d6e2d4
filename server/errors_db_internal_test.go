package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"golfsolitaire/accounts"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// TestDatabaseErrorsUnavailable: a database that cannot be reached or did
// not answer in time is 503 unavailable, in words; what the database
// answered (a constraint, no such account) keeps its own code.
func TestDatabaseErrorsUnavailable(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := []struct {
		name   string
		err    error
		code   string
		status int
		msg    string
	}{
		{"refused", fmt.Errorf("postgres: account: %w", refused), protocol.ErrCodeUnavailable, http.StatusServiceUnavailable, "the database is unavailable; try again shortly"},
		{"shutting down", fmt.Errorf("postgres: account: %w", &pgconn.PgError{Code: "57P01"}), protocol.ErrCodeUnavailable, http.StatusServiceUnavailable, "the database is unavailable; try again shortly"},
		{"no answer", fmt.Errorf("postgres: games: %w", context.DeadlineExceeded), protocol.ErrCodeUnavailable, http.StatusServiceUnavailable, "no answer in time; try again shortly"},
		{"the store", fmt.Errorf("redisstore: load: %w", store.ErrUnavailable), protocol.ErrCodeUnavailable, http.StatusServiceUnavailable, "the game store is unavailable; try again shortly"},
		{"no such account", fmt.Errorf("postgres: %w", accounts.ErrNotFound), protocol.ErrCodePlayerNotFound, http.StatusNotFound, ""},
		{"a bug", fmt.Errorf("postgres: create account: %w", &pgconn.PgError{Code: "42601"}), protocol.ErrCodeInternal, http.StatusInternalServerError, "internal error"},
	}
	for _, tc := range tests {
		code, status := errorCode(tc.err)
		if code != tc.code || status != tc.status {
			t.Errorf("%s: %s %d, want %s %d", tc.name, code, status, tc.code, tc.status)
		}
		if msg := errorMessage(tc.err); tc.msg != "" && msg != tc.msg {
			t.Errorf("%s: message %q, want %q", tc.name, msg, tc.msg)
		}
	}
}
