package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a server started by serve or load --serve, a store's
// client, a load player, a solve worker left behind. One is let through:
// scs.New (server/account.go) starts a session memstore whose cleanup
// goroutine nothing stops (scs v2.9.0's StopCleanup races with starting
// it), one per server.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		// load --serve started this binary as its server process
		// (os.Executable): be the program, not its tests.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
		stop()
		os.Exit(code)
	}
	// Most of these tests run a command that waits on servers, sockets and
	// stores: four at once (two by default on two cores).
	testrun.AtLeastParallel(4)
	testrun.Main(m, goleak.IgnoreTopFunction("github.com/alexedwards/scs/v2/memstore.(*MemStore).startCleanup"))
}

// childProcess skips, in the inner loop (go test -short), a test that runs
// the server as a process of its own (load --serve).
func childProcess(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the server as a child process: not in -short")
	}
}

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

// TestHelp: help lists every subcommand (the list below is written out by
// hand, so a command added to or dropped from the table shows up here), one
// line each, and every name it lists reaches its command: `NAME -h` is that
// command's usage (exit 2), never "unknown command".
func TestHelp(t *testing.T) {
	t.Parallel()
	want := []string{"serve", "worker", "deal", "replay", "analyse", "verify", "solve", "load", "load-server", "healthcheck", "fairplay", "help"}
	r := runCmd(t, "", "help")
	if r.code != 0 || r.err != "" || r.stderr != "" {
		t.Fatalf("help: %+v, want exit 0 and only standard output", r)
	}
	var listed []string
	inList := false
	for _, line := range strings.Split(r.stdout, "\n") {
		switch {
		case line == "Commands:":
			inList = true
		case inList && strings.HasPrefix(line, "  "):
			listed = append(listed, strings.Fields(line)[0])
		case inList:
			inList = false
		}
	}
	if !slices.Equal(listed, want) {
		t.Fatalf("help lists %v, want %v; output:\n%s", listed, want, r.stdout)
	}
	if len(commands()) != len(want) {
		t.Fatalf("the table has %d commands, help lists %d", len(commands()), len(want))
	}
	for _, name := range listed {
		r := runCmd(t, "", name, "-h")
		if r.code != 2 || strings.Contains(r.err, "unknown command") {
			t.Errorf("%s -h: %+v, want that command's usage (exit 2)", name, r)
		}
	}
}

// TestUnknownCommand: an unknown subcommand is a usage error (exit 2) that
// names it and lists the commands there are, and runs nothing.
func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"golf-swing", "Serve", "helpp"} {
		r := runCmd(t, "", name, "--addr", "127.0.0.1:0")
		if r.code != 2 || r.stdout != "" || r.stderr != "" {
			t.Errorf("%s: %+v, want exit 2 and nothing printed but the error", name, r)
		}
		want := fmt.Sprintf("unknown command %q: the commands are serve, worker, deal, replay, analyse, verify, solve, load, load-server, healthcheck, fairplay, help", name)
		if !strings.Contains(r.err, want) {
			t.Errorf("%s: error %q, want it to contain %q", name, r.err, want)
		}
	}
}
