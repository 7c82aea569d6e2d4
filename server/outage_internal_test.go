package server

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"golfsolitaire/store"
)

// TestOutageLoggedOnce: 300 failures of an unavailable store (100 rooms,
// 3 ticks) log one line, and its end one more; other errors are logged
// each time.
func TestOutageLoggedOnce(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var o outage
	down := fmt.Errorf("redisstore: show ABCD: %w: connection refused", store.ErrUnavailable)
	for tick := range 3 {
		for room := range 100 {
			o.warn(log.With("room", room), "listing update failed", down, "tick", tick)
		}
	}
	o.ok(log)
	o.ok(log)
	o.warn(log, "listing update failed", errors.New("bad data"))
	o.warn(log, "listing update failed", errors.New("bad data"))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d log lines, want 4:\n%s", len(lines), buf.String())
	}
	if !strings.Contains(lines[0], "store unavailable") || !strings.Contains(lines[1], "store available again") || !strings.Contains(lines[1], "failures_not_logged=299") {
		t.Errorf("log:\n%s", buf.String())
	}
}
