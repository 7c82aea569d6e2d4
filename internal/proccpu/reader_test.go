package proccpu

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readDelay is RunDelay as os.ReadDir and os.ReadFile read it: the
// oracle of Reader.
func readDelay(t *testing.T, pid int) time.Duration {
	t.Helper()
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sum time.Duration
	for _, task := range tasks {
		b, err := os.ReadFile(dir + "/" + task.Name() + "/schedstat")
		if err != nil {
			t.Fatal(err)
		}
		ns, err := strconv.ParseInt(strings.Fields(string(b))[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		sum += time.Duration(ns)
	}
	return sum
}

// TestReaderMatchesFiles: a Reader reads what the files say, of a
// process that sleeps (its waits stay as they are), and reads it again
// and again with a handful of small allocations, not one file's buffer
// and directory entry each.
func TestReaderMatchesFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/task/TID/schedstat is Linux's")
	}
	// (not in parallel: it counts allocations)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	time.Sleep(100 * time.Millisecond) // let it reach its sleep
	pid := cmd.Process.Pid
	var r Reader
	for range 3 {
		want := readDelay(t, pid)
		got, err := r.RunDelay(pid)
		if err != nil || got != want {
			t.Fatalf("Reader.RunDelay(sleep) = %v, %v; the files say %v", got, err, want)
		}
	}
	threads, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() { _, _ = r.RunDelay(os.Getpid()) })
	if limit := float64(len(threads) + 8); allocs > limit {
		t.Errorf("a read of %d threads made %.0f allocations, more than %.0f", len(threads), allocs, limit)
	}
	if _, err := r.RunDelay(-1); err == nil || !strings.Contains(err.Error(), "/proc/-1/task") {
		t.Errorf("RunDelay of no process: %v, want an error naming its directory", err)
	}
}

// TestParseSchedstat: the second field, or an error that says what is
// wrong.
func TestParseSchedstat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"123 456 7\n", 456, ""},
		{"0 0 0", 0, ""},
		{"  9  10\n", 10, ""},
		{"123\n", 0, "too few fields"},
		{"", 0, "too few fields"},
		{"1 x 2\n", 0, "invalid syntax"},
		{"1 99999999999999999999 2", 0, "out of range"},
	} {
		got, err := parseSchedstat([]byte(c.in))
		if c.err == "" && (err != nil || got != c.want) {
			t.Errorf("parseSchedstat(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("parseSchedstat(%q) = %v, %v; want an error with %q", c.in, got, err, c.err)
		}
	}
}

// FuzzParseSchedstat: parseSchedstat agrees with strings.Fields and
// strconv on any text of spaces and newlines.
func FuzzParseSchedstat(f *testing.F) {
	for _, s := range []string{"123 456 7\n", "1\n2 3", "", " ", "1 -5 2", "1 +5 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseSchedstat([]byte(s))
		fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\n' })
		if len(fields) < 2 {
			if err == nil {
				t.Fatalf("parseSchedstat(%q) = %v, want an error", s, got)
			}
			return
		}
		ns, werr := strconv.ParseInt(fields[1], 10, 64)
		if (werr == nil) != (err == nil) || (err == nil && got != time.Duration(ns)) {
			t.Fatalf("parseSchedstat(%q) = %v, %v; strconv says %v, %v", s, got, err, ns, werr)
		}
	})
}
