package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
)

// ErrClosed is returned by calls that need the store's pub/sub connection
// after Close.
var ErrClosed = fmt.Errorf("redisstore: closed: %w", store.ErrUnavailable)

// wrap turns a go-redis error into the store's: redis.Nil is
// store.ErrNotFound, failures to reach Redis wrap store.ErrUnavailable
// (and keep the cause).
func wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, redis.Nil):
		return fmt.Errorf("redisstore: %s: %w", op, store.ErrNotFound)
	case errors.Is(err, store.ErrUnavailable), errors.Is(err, context.Canceled):
		return fmt.Errorf("redisstore: %s: %w", op, err)
	case unavailable(err):
		return fmt.Errorf("redisstore: %s: %w: %w", op, store.ErrUnavailable, err)
	default:
		return fmt.Errorf("redisstore: %s: %w", op, err)
	}
}

// unavailable reports whether err means Redis cannot be reached or cannot
// serve now, rather than that the request was wrong.
func unavailable(err error) bool {
	var netErr net.Error
	if errors.As(err, &netErr) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, redis.ErrClosed) ||
		errors.Is(err, redis.ErrPoolTimeout) ||
		errors.Is(err, redis.ErrPoolExhausted) ||
		errors.Is(err, errConnLost) {
		return true
	}
	var redisErr redis.Error
	if errors.As(err, &redisErr) {
		// Replies of a server that is starting, failing over or read-only.
		for _, prefix := range []string{"LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "MOVED ", "ASK ", "NOREPLICAS", "TRYAGAIN", "BUSY "} {
			if strings.HasPrefix(redisErr.Error(), prefix) {
				return true
			}
		}
	}
	return false
}
