package cli

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"
)

// TestLogFormat: text logs for a person at a terminal, JSON for a
// machine, unless --log-format says; a bad format is refused in words.
func TestLogFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format   string
		terminal bool
		json     bool
	}{
		{"auto", true, false}, {"auto", false, true}, {"text", false, false}, {"json", true, true},
	} {
		var buf bytes.Buffer
		h, err := logHandler(&buf, tc.format, tc.terminal, slog.LevelInfo)
		if err != nil {
			t.Fatal(err)
		}
		slog.New(h).Info("listening", "addr", "[::]:8080")
		isJSON := json.Valid(bytes.TrimSpace(buf.Bytes()))
		if isJSON != tc.json || !strings.Contains(buf.String(), "listening") {
			t.Errorf("format %s, terminal %v: %q, want JSON %v", tc.format, tc.terminal, buf.String(), tc.json)
		}
	}
	if _, err := logHandler(&bytes.Buffer{}, "xml", true, slog.LevelInfo); err == nil || !strings.Contains(err.Error(), "auto, text or json") {
		t.Errorf("format xml: %v", err)
	}
	// A file is no terminal: a container's log or a redirect gets JSON.
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("a file or a buffer taken for a terminal")
	}
}

// TestSiteURL: where the terminal line says to open the site.
func TestSiteURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ addr, base, want string }{
		{"[::]:8080", "", "http://localhost:8080"},
		{"0.0.0.0:8080", "", "http://localhost:8080"},
		{":8080", "", "http://localhost:8080"},
		{"127.0.0.1:9000", "", "http://127.0.0.1:9000"},
		{"[::]:8080", "https://golf.example", "https://golf.example"},
	} {
		if got := siteURL(tc.addr, tc.base); got != tc.want {
			t.Errorf("siteURL(%q, %q) = %q, want %q", tc.addr, tc.base, got, tc.want)
		}
	}
}
