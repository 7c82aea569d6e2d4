package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// result is what a command did: its exit code, its output and the message
// main would print for its error.
type result struct {
	code           int
	stdout, stderr string
	err            string
}

// syncBuffer is a bytes.Buffer safe for the server goroutines an
// in-process command (load --serve) may still have logging as it returns.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// runCmd runs the command in-process, as main would, with the given stdin.
func runCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut syncBuffer
	err := run(context.Background(), args, env{
		stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut,
		getenv: func(string) string { return "" },
	})
	r := result{stdout: out.String(), stderr: errOut.String()}
	if err != nil {
		r.code = 1
		var ee *exitError
		if errors.As(err, &ee) {
			r.code = ee.code
		}
		if ee == nil || ee.err != nil {
			r.err = err.Error()
		}
	}
	return r
}

// golden compares the command's result with testdata/cli/NAME.golden.
func golden(t *testing.T, name string, r result) {
	t.Helper()
	var b strings.Builder
	b.WriteString("exit " + string(rune('0'+r.code)) + "\n")
	b.WriteString("--- stdout\n" + r.stdout)
	b.WriteString("--- stderr\n" + r.stderr)
	b.WriteString("--- error\n" + r.err + "\n")
	got := b.String()
	path := filepath.Join("testdata", "cli", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	if r := runCmd(t, "", "golf-swing"); r.code != 2 || !strings.Contains(r.err, "unknown command") {
		t.Errorf("got %+v, want exit 2 naming the unknown command", r)
	}
}
