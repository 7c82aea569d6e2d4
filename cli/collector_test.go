package cli

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCollectorFlags: serve's collector by default, Go's own variables
// kept when they are set, the flags and their variables over both, and
// bad values refused in words.
func TestCollectorFlags(t *testing.T) {
	t.Parallel()
	def := defaultMemoryLimitMiB()
	for _, tc := range []struct {
		name        string
		vars        map[string]string
		args        []string
		wantPercent int
		wantLimit   int64
		wantErr     string
	}{
		{"defaults", nil, nil, defaultGCPercent, def, ""},
		{"GOGC set: Go's reading of it kept", map[string]string{"GOGC": "150"}, nil, 0, def, ""},
		{"GOGC=off: the default limit still set", map[string]string{"GOGC": "off"}, nil, 0, def, ""},
		{"GOMEMLIMIT set: Go's reading of it kept", map[string]string{"GOMEMLIMIT": "1GiB"}, nil, defaultGCPercent, 0, ""},
		{"the variables of ours", map[string]string{"GOLF_GC_PERCENT": "200", "GOLF_MEMORY_LIMIT": "512"}, nil, 200, 512, ""},
		{"flags over everything", map[string]string{"GOGC": "150", "GOLF_GC_PERCENT": "200"}, []string{"--gc-percent", "300", "--memory-limit", "2048"}, 300, 2048, ""},
		{"off with a limit", nil, []string{"--gc-percent", "-1", "--memory-limit", "1024"}, -1, 1024, ""},
		{"off with GOMEMLIMIT", map[string]string{"GOMEMLIMIT": "1GiB"}, []string{"--gc-percent", "-1"}, -1, 0, ""},
		{"off without a limit", nil, []string{"--gc-percent", "-1", "--memory-limit", "0"}, -1, 0, "needs a --memory-limit"},
		{"a negative percentage", nil, []string{"--gc-percent", "-5"}, -5, def, "must be -1 (off), 0 (Go's own) or a positive percentage"},
		{"a negative limit", nil, []string{"--memory-limit", "-1"}, defaultGCPercent, -1, "must be 0 (Go's own) or a positive number of MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			c := collectorFlags(fs, env{getenv: func(k string) string { return tc.vars[k] }})
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if c.percent != tc.wantPercent || c.limitMiB != tc.wantLimit {
				t.Errorf("--gc-percent %d --memory-limit %d, want %d and %d", c.percent, c.limitMiB, tc.wantPercent, tc.wantLimit)
			}
			err := c.validate()
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("validate() = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// TestMemoryLimitOf: four fifths of the least limit that is set, of the
// cgroup's (v2, v1) and the machine's.
func TestMemoryLimitOf(t *testing.T) {
	t.Parallel()
	const gib = 1 << 30
	for _, tc := range []struct {
		name    string
		v2, v1  string
		machine int64
		want    int64
	}{
		{"the machine's", "", "", 10 * gib, 8 * 1024},
		{"cgroup v2 without a limit", "max\n", "", 10 * gib, 8 * 1024},
		{"cgroup v2 limit", "4294967296\n", "", 10 * gib, 3276},
		{"cgroup v1 limit", "", "2147483648\n", 10 * gib, 1638},
		{"cgroup v1 without a limit (a huge number)", "", "9223372036854771712\n", 10 * gib, 8 * 1024},
		{"a cgroup limit above the machine's", "21474836480", "", 10 * gib, 8 * 1024},
		{"nothing readable", "garbage", "", 0, 0},
		{"a cgroup limit alone", "1073741824", "", 0, 819},
	} {
		if got := memoryLimitOf(tc.v2, tc.v1, tc.machine); got != tc.want {
			t.Errorf("%s: memoryLimitOf(%q, %q, %d) = %d MiB, want %d", tc.name, tc.v2, tc.v1, tc.machine, got, tc.want)
		}
	}
}

// TestServeSetsCollector: serve and load-server set the process's
// collector through env.setGC, with GOGC 400 and the default limit unless
// Go's own variables are set, and say so in the log.
func TestServeSetsCollector(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		cmd         func(context.Context, []string, env) error
		args        []string
		vars        map[string]string
		wantPercent int
		wantLimit   int64
	}{
		{"serve", runServe, []string{"--addr", "127.0.0.1:0"}, nil, defaultGCPercent, defaultMemoryLimitMiB() << 20},
		{"serve with GOGC and GOMEMLIMIT", runServe, []string{"--addr", "127.0.0.1:0"}, map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}, 0, 0},
		{"load-server", runLoadServer, []string{"--store", "baseline"}, nil, defaultGCPercent, defaultMemoryLimitMiB() << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			calls := 0
			var percent int
			var limit int64
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			log, out := &syncBuffer{}, &syncBuffer{}
			stdin, closeStdin := io.Pipe() // load-server runs until its stdin closes
			defer closeStdin.Close()
			e := env{stdin: stdin, stdout: out, stderr: log, getenv: func(k string) string { return tc.vars[k] },
				setGC: func(p int, l int64) (int, int64) {
					mu.Lock()
					defer mu.Unlock()
					calls++
					percent, limit = p, l
					return 123, 456 << 20
				}}
			done := make(chan error, 1)
			go func() { done <- tc.cmd(ctx, tc.args, e) }()
			// Up: serve logs "listening", load-server prints its URL.
			deadline := time.After(2 * time.Minute)
			for !strings.Contains(log.String(), `"msg":"listening"`) && !strings.Contains(out.String(), "http://") {
				select {
				case err := <-done:
					t.Fatalf("stopped: %v\n%s", err, log)
				case <-deadline:
					t.Fatalf("did not start:\n%s", log)
				case <-time.After(10 * time.Millisecond):
				}
			}
			cancel()
			closeStdin.Close()
			<-done
			mu.Lock()
			defer mu.Unlock()
			if calls != 1 || percent != tc.wantPercent || limit != tc.wantLimit {
				t.Errorf("setGC called %d times, last with (%d, %d), want once with (%d, %d)", calls, percent, limit, tc.wantPercent, tc.wantLimit)
			}
			if tc.name != "load-server" && !logged(log.String(), "collector", 123, 456) {
				t.Errorf("the log does not say what the collector runs with (gc_percent 123, memory_limit_mib 456):\n%s", log)
			}
		})
	}
}

// logged reports whether a JSON log line has msg and the collector's
// figures.
func logged(log, msg string, percent int, limitMiB int64) bool {
	for _, line := range strings.Split(log, "\n") {
		var rec struct {
			Msg            string
			GCPercent      int   `json:"gc_percent"`
			MemoryLimitMiB int64 `json:"memory_limit_mib"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == msg && rec.GCPercent == percent && rec.MemoryLimitMiB == limitMiB {
			return true
		}
	}
	return false
}

// TestRuntimeGC: what the runtime says the process runs with, as
// setRuntimeGC returns it. (Not parallel: it sets the process's
// collector and puts it back.)
func TestRuntimeGC(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	if p, l := runtimeGC(); p != 100 || l != 0 {
		t.Errorf("runtimeGC() = %d, %d with GOGC 100 and no limit", p, l)
	}
	if p, l := setRuntimeGC(250, 3<<30); p != 250 || l != 3<<30 {
		t.Errorf("setRuntimeGC(250, 3 GiB) = %d, %d", p, l)
	}
	if p, l := setRuntimeGC(0, 0); p != 250 || l != 3<<30 {
		t.Errorf("setRuntimeGC(0, 0) changed the settings: %d, %d", p, l)
	}
	debug.SetGCPercent(-1)
	if p, _ := runtimeGC(); p != -1 {
		t.Errorf("runtimeGC() = %d with the collector off, want -1", p)
	}
}
