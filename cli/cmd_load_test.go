package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golfsolitaire/load"
)

func TestLoad(t *testing.T) {
	childProcess(t)
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		baseline bool
		// selfProfile: the run writes the load generator's own CPU
		// profile (--self-cpuprofile).
		selfProfile bool
	}{
		// The stroke-play run has the detector off (no fair-play
		// report); the match-play run has it on, long enough for holes to
		// finish (3 s at 100 moves a second finish some 7 holes, each
		// analysed: about half a CPU-second a hole under -race, which is
		// why the run is no longer). One run of each: every run is a
		// server process of its own, the dearest part of the tests.
		{"stroke play with the baseline and the load generator's profile", []string{"--rooms", "2", "--players", "3", "--baseline"}, true, true},
		{"match play, rounds of one hole, the detector on", []string{"--rooms", "2", "--players", "2", "--holes", "1", "--fairplay", "--duration", "3s", "--rate", "100"}, false, false},
	}
	if runtime.NumCPU() >= 2 {
		// Both children on CPU 1: the baseline's starts after the
		// server's has stopped and given this process its CPUs back.
		tests[0].name += ", each server pinned to a CPU"
		tests[0].args = append(tests[0].args, "--server-cpu", "1")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Paced: the checks need moves, not as many as two cores
			// can make (which would slow every test running beside it).
			args := append([]string{"load", "--serve", "memory", "--duration", "2s", "--rate", "60", "--json"}, tt.args...)
			var profile string
			if tt.selfProfile {
				profile = filepath.Join(t.TempDir(), "load.prof")
				args = append(args, "--self-cpuprofile", profile)
			}
			r := runCmd(t, "", args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s\n%s", r.code, r.err, r.stderr)
			}
			if tt.selfProfile {
				// A profile is gzipped protocol buffers.
				if b, err := os.ReadFile(profile); err != nil || len(b) < 100 || b[0] != 0x1f || b[1] != 0x8b {
					t.Errorf("the load generator's profile: %d bytes, %v", len(b), err)
				}
			}
			var rep loadReport
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("report: %v\n%s", err, r.stdout)
			}
			s := rep.Server
			if s == nil || s.Moves == 0 || s.Errors != 0 || s.Ack.N == 0 || s.Update.N == 0 || s.AckRead.N != s.Ack.N || s.AckRead.P50 > s.Ack.P50 || s.AckRead.Max > s.Ack.Max {
				t.Fatalf("server run: %+v", s)
			}
			if want := float64(s.Bytes) / float64(s.Moves) / float64(s.Players); s.Bytes == 0 || s.BytesPerMovePerRecipient != want {
				t.Errorf("bytes per move per recipient %v, want %d bytes / %d moves / %d players = %v", s.BytesPerMovePerRecipient, s.Bytes, s.Moves, s.Players, want)
			}
			if s.SettleCPUSeconds < 0 || s.SettleCPUSeconds > s.CPUSeconds {
				t.Errorf("settle CPU %v s, not part of the run's %v s", s.SettleCPUSeconds, s.CPUSeconds)
			}
			// The server is a process of its own, its CPU read from /proc.
			if s.ServerCPUSeconds <= 0 || s.CPUMicrosPerMove <= 0 || math.Abs(s.CPUMicrosPerMovePerRecipient*float64(s.Players)-s.CPUMicrosPerMove) > 1e-6*s.CPUMicrosPerMove {
				t.Errorf("server CPU %v s, %v µs a move, %v µs a move a recipient", s.ServerCPUSeconds, s.CPUMicrosPerMove, s.CPUMicrosPerMovePerRecipient)
			}
			// Its memory as the window ended, from its /metrics.
			if m := s.ServerMemory; m == nil || m.RSS == 0 || m.Go == 0 {
				t.Errorf("server memory %+v", m)
			}
			if fp := rep.Fairplay; slices.Contains(tt.args, "--fairplay") {
				if fp == nil || fp.HolesFinished == 0 || fp.HolesAnalysed+fp.HolesDropped+fp.HolesFailed > fp.HolesFinished || fp.MaxLagSeconds < 0 {
					t.Errorf("fairplay: %+v", fp)
				} else if fp.HolesAnalysed > 0 && fp.CPUMsPerHole <= 0 {
					t.Errorf("fairplay: %d holes analysed with %v ms of CPU a hole", fp.HolesAnalysed, fp.CPUMsPerHole)
				}
			} else if fp != nil {
				t.Errorf("fairplay %+v with the detector off", fp)
			}
			if !tt.baseline {
				return
			}
			b := rep.Baseline
			if b == nil || b.Moves == 0 || b.Errors != 0 || rep.Ratio <= 0 {
				t.Fatalf("baseline run: %+v, ratio %v", b, rep.Ratio)
			}
			if b.CPUMicrosPerMovePerRecipient <= 0 || rep.CPURatio != s.CPUMicrosPerMovePerRecipient/b.CPUMicrosPerMovePerRecipient {
				t.Errorf("baseline %v µs a move a recipient, server %v: cpuRatio %v", b.CPUMicrosPerMovePerRecipient, s.CPUMicrosPerMovePerRecipient, rep.CPURatio)
			}
			// The baseline sends each move's event with the whole view;
			// the server a patch of the view sent before.
			if s.BytesPerMovePerRecipient >= b.BytesPerMovePerRecipient/2 {
				t.Errorf("the server sends %.0f bytes a move a recipient, the baseline (whole views) %.0f: patches should be far smaller", s.BytesPerMovePerRecipient, b.BytesPerMovePerRecipient)
			}
		})
	}
}

// TestLoadAttackMix: the attacker mix against the default limits, every
// client with an address of its own in the trusted header: every kind of
// attack runs; no more rooms are created and sockets held than the limits
// allow (20 rooms a minute in bursts of 20, 32 sockets), every other
// answer being the limit's refusal; and the honest players, whose
// addresses differ, play on without an error. (How many requests the
// attackers make depends on the machine's load: the refusals are
// asserted when they made more than the limit allows.)
func TestLoadAttackMix(t *testing.T) {
	childProcess(t)
	t.Parallel()
	// The honest players are paced (the attackers are not): the checks
	// need their moves, not as many as two cores can make.
	r := runCmd(t, "", "load", "--serve", "memory", "--duration", "2s", "--rooms", "2", "--holes", "1", "--attackers", "1", "--rate", "100", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.err, r.stderr)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, r.stdout)
	}
	for name, s := range map[string]*load.Result{"alone": rep.Server, "under attack": rep.UnderAttack} {
		if s == nil || s.Moves == 0 || s.Errors != 0 || s.Ack.N == 0 {
			t.Fatalf("honest players %s: %+v", name, s)
		}
	}
	kinds := map[string]load.AttackResult{}
	for _, a := range rep.Attacks {
		kinds[a.Kind] = a
		if a.Attackers != 1 {
			t.Errorf("%s: %+v", a.Kind, a)
		}
	}
	if len(kinds) != len(load.AttackKinds) {
		t.Errorf("attacks %v, want every one of %v", rep.Attacks, load.AttackKinds)
	}
	// The rooms bucket: 20, then one every 3 s (setup included).
	most := int64(21 + (rep.UnderAttack.Seconds+10)/3)
	c := kinds["create"]
	if c.Requests == 0 || c.Accepted > most || c.Accepted+c.Codes["rate_limited"] != c.Requests || (c.Requests > most && c.Refused == 0) {
		t.Errorf("create: %v; want at most %d accepted, the rest rate_limited", c, most)
	}
	s := kinds["sockets"]
	if s.Requests == 0 || s.Accepted > 32 || s.Accepted+s.Codes["429"] != s.Requests || (s.Requests > 32 && s.Refused == 0) {
		t.Errorf("sockets: %v; want at most 32 held, the rest refused with 429", s)
	}
}

func TestLoadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no target", nil, "either --url or --serve"},
		{"both targets", []string{"--url", "http://127.0.0.1:1", "--serve", "memory"}, "either --url or --serve"},
		{"not loopback", []string{"--url", "http://example.com:8080"}, "loopback"},
		{"bad store", []string{"--serve", "disk"}, "memory or redis"},
		{"no rooms", []string{"--serve", "memory", "--rooms", "0"}, "must be positive"},
		{"unknown attack", []string{"--serve", "memory", "--attackers", "1", "--attack", "create,flood"}, `unknown attack "flood"`},
		{"no attack", []string{"--serve", "memory", "--attackers", "1", "--attack", ","}, "names no attack"},
		{"negative attackers", []string{"--serve", "memory", "--attackers", "-1"}, "must not be negative"},
		{"negative collector limit", []string{"--serve", "memory", "--self-gc-limit", "-2"}, "--self-gc-limit must be a size in MiB"},
		{"quiet start without a server process", []string{"--url", "http://127.0.0.1:1", "--quiet-start"}, "--quiet-start needs --serve"},
		{"server CPU without a server process", []string{"--url", "http://127.0.0.1:1", "--server-cpu", "1"}, "go with --serve"},
		{"fair-play CPU without the detector", []string{"--serve", "memory", "--fairplay-cpu", "0.5"}, "goes with --fairplay"},
		{"fair-play CPU over the whole", []string{"--serve", "memory", "--fairplay", "--fairplay-cpu", "2"}, "0 to 1"},
		{"attackers in a tournament", []string{"--serve", "memory", "--attackers", "1", "--tournament", "4"}, "neither --tournament"},
		{"workers' metrics with a server process", []string{"--serve", "memory", "--fairplay", "--fairplay-metrics", "http://127.0.0.1:9091"}, "--fairplay-metrics goes with --url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"load"}, tt.args...)...)
			if r.code != 2 || !strings.Contains(r.err, tt.want) {
				t.Errorf("load %q: exit %d, %q; want exit 2 and %q", tt.args, r.code, r.err, tt.want)
			}
		})
	}
}

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.5.0.1", true},
		{"[::1]:80", true},
		{"localhost:8080", true},
		{"10.0.0.1:8080", false},
		{"example.com", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isLoopback(tt.in); got != tt.want {
			t.Errorf("isLoopback(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseMetrics(t *testing.T) {
	in := "# HELP process_resident_memory_bytes x\nprocess_resident_memory_bytes 1.2e+07\ngo_memstats_heap_inuse_bytes 4096\nother{a=\"b\"} 3\n"
	got, err := parseMetrics(strings.NewReader(in), "process_resident_memory_bytes", "go_memstats_heap_inuse_bytes")
	if err != nil {
		t.Fatal(err)
	}
	if got["process_resident_memory_bytes"] != 1.2e7 || got["go_memstats_heap_inuse_bytes"] != 4096 || len(got) != 2 {
		t.Errorf("parseMetrics = %v", got)
	}
}

// TestServeWarnsOfPasswordInFlag: a password in --redis (readable in the
// process list) is warned of, naming REDIS_URL, and never written out.
// (Before, from the issue: nothing said so.) Redis is not reachable at
// port 1, so serve stops right after.
func TestServeWarnsOfPasswordInFlag(t *testing.T) {
	r := runCmd(t, "", "serve", "--addr", "127.0.0.1:0", "--redis", "redis://:secret@127.0.0.1:1/0")
	if r.code == 0 || !strings.Contains(r.stderr, "--redis carries a password") || !strings.Contains(r.stderr, "REDIS_URL") {
		t.Errorf("exit %d, stderr %q; want the warning", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "secret") || strings.Contains(r.err, "secret") {
		t.Errorf("the password is in the output: %q %q", r.stderr, r.err)
	}
}

// TestParseProcStat reads a process's CPU time from /proc/PID/stat lines,
// command names with spaces and parentheses included.
func TestParseProcStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line string
		want       time.Duration
		bad        bool
	}{
		{"plain", "1234 (golf) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 12 0 100 1000 100", 3250 * time.Millisecond, false},
		{"spaces and parentheses in the name", "77 (a (b) c) R 1 77 77 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 1 1 1", 30 * time.Millisecond, false},
		{"no name", "1234 golf S 1", 0, true},
		{"too short", "1 (x) S 1 2 3", 0, true},
		{"not a number", "1 (x) S 1 1 1 0 -1 0 0 0 0 0 x 2 0", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseProcStat(tt.line)
			if (err != nil) != tt.bad || got != tt.want {
				t.Errorf("parseProcStat = %v, %v; want %v (error: %v)", got, err, tt.want, tt.bad)
			}
		})
	}
	// This process's own line parses.
	if _, err := procCPU(os.Getpid()); err != nil {
		t.Errorf("procCPU(self): %v", err)
	}
}

// TestFairplaySummary: the report's counts are the differences between
// the first and last readings, and the lag is how long the holes finished
// by one reading waited until as many had been dealt with.
func TestFairplaySummary(t *testing.T) {
	t.Parallel()
	at := func(s float64) time.Time { return time.Unix(1000, 0).Add(time.Duration(s * float64(time.Second))) }
	tests := []struct {
		name    string
		samples []fairplaySample
		want    fairplayReport
	}{
		{"nothing finished", []fairplaySample{{at: at(0), finished: 5, analysed: 5}, {at: at(1), finished: 5, analysed: 5}},
			fairplayReport{CaughtUp: true}},
		{"analysed at once", []fairplaySample{{at: at(0)}, {at: at(0.25), finished: 2, analysed: 2, cpu: 0.5}},
			fairplayReport{HolesFinished: 2, HolesAnalysed: 2, CaughtUp: true, CPUMsPerHole: 250}},
		{"a backlog caught up", []fairplaySample{
			{at: at(0)},
			{at: at(1), finished: 4, analysed: 1},
			{at: at(2), finished: 6, analysed: 3, dropped: 1},
			{at: at(5), finished: 6, analysed: 5, dropped: 1, cpu: 1},
		}, fairplayReport{HolesFinished: 6, HolesAnalysed: 5, HolesDropped: 1, MaxLagSeconds: 3, CaughtUp: true, CPUMsPerHole: 200}},
		{"never caught up", []fairplaySample{
			{at: at(0)},
			{at: at(1), finished: 3, analysed: 1, failed: 1},
			{at: at(3), finished: 3, analysed: 1, failed: 1, cpu: 0.1},
		}, fairplayReport{HolesFinished: 3, HolesAnalysed: 1, HolesFailed: 1, MaxLagSeconds: 2, CPUMsPerHole: 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fairplaySummary(tt.samples)
			got.CPUMsPerHole = float64(int(got.CPUMsPerHole*1000+0.5)) / 1000
			if *got != tt.want {
				t.Errorf("fairplaySummary = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// TestFairplayWatchReadsAlike: while the window is open the server's
// /metrics are read at the same interval whether its detector is on or
// off, so that the reads cost both runs alike; after it, finish reads
// until the analyses have caught up.
func TestFairplayWatchReadsAlike(t *testing.T) {
	t.Parallel()
	var unfiltered atomic.Bool
	serve := func(detector bool) (*httptest.Server, *atomic.Int64) {
		var reads atomic.Int64
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := reads.Add(1)
			if !slices.Contains(r.URL.Query()["name[]"], "golf_fairplay_finished_total") {
				unfiltered.Store(true) // the whole page, for a few counters
			}
			fmt.Fprintln(w, "golf_moves_total 7")
			if detector {
				// 20 holes finished, analysed one a read
				fmt.Fprintf(w, "golf_fairplay_finished_total 20\ngolf_fairplay_analysed_total %d\n", min(n, 20))
			}
		}))
		t.Cleanup(ts.Close)
		return ts, &reads
	}
	window := func(detector bool) (int64, *fairplayReport) {
		ts, reads := serve(detector)
		w := watchFairplay(t.Context(), ts.URL, nil, 5*time.Millisecond)
		for deadline := time.Now().Add(5 * time.Second); reads.Load() < 4 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		inWindow := reads.Load()
		return inWindow, w.finish(t.Context(), 10*time.Second)
	}
	on, rep := window(true)
	off, none := window(false)
	if off < 4 || on < 4 {
		t.Errorf("%d reads in the window with the detector on, %d off: want both read every 5 ms", on, off)
	}
	if none != nil {
		t.Errorf("detector off: report %+v, want none", *none)
	}
	if unfiltered.Load() {
		t.Error("a reading asked for every metric, not the fair-play counters (name[])")
	}
	if rep == nil || !rep.CaughtUp {
		t.Fatalf("detector on: report %+v, want the analyses caught up", rep)
	}
}

// TestFairplayWatchWorkers: with the server's holes analysed by `golf
// worker` processes, their counters are added to the server's, and the
// report waits until they have caught up.
func TestFairplayWatchWorkers(t *testing.T) {
	t.Parallel()
	metrics := func(body func(n int64) string) string {
		var reads atomic.Int64
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, body(reads.Add(1)))
		}))
		t.Cleanup(ts.Close)
		return ts.URL
	}
	// The server finished 20 holes and analyses none; two workers
	// analyse them, one a reading each, up to 10 each, 5 ms of CPU each.
	srv := metrics(func(int64) string {
		return "golf_fairplay_finished_total 20\ngolf_fairplay_analysed_total 0\ngolf_fairplay_cpu_seconds_total 0\n"
	})
	worker := func(n int64) string {
		a := min(n-1, 10)
		return fmt.Sprintf("golf_fairplay_analysed_total %d\ngolf_fairplay_cpu_seconds_total %g\n", a, 0.005*float64(a))
	}
	w := watchFairplay(t.Context(), srv, []string{metrics(worker), metrics(worker)}, time.Hour)
	rep := w.finish(t.Context(), 10*time.Second)
	if rep == nil || !rep.CaughtUp || rep.HolesAnalysed != 20 || math.Abs(rep.CPUMsPerHole-5) > 1e-9 {
		t.Fatalf("report %+v, want 20 holes analysed by the workers, caught up, 5 ms a hole", rep)
	}
	// A worker still starting is waited for.
	var late atomic.Bool
	slow := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !late.Load() {
			http.Error(rw, "starting", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(rw, "golf_fairplay_analysed_total 20\ngolf_fairplay_cpu_seconds_total 0.1\n")
	}))
	t.Cleanup(slow.Close)
	time.AfterFunc(300*time.Millisecond, func() { late.Store(true) })
	w = watchFairplay(t.Context(), srv, []string{slow.URL}, time.Hour)
	if rep := w.finish(t.Context(), 0); rep == nil || !rep.CaughtUp {
		t.Errorf("report %+v with a worker that answered late, want one caught up", rep)
	}
	// A worker that cannot be read makes no reading: nothing is reported
	// as analysed that was not.
	ctx, cancel := context.WithTimeout(t.Context(), 600*time.Millisecond)
	defer cancel()
	w = watchFairplay(ctx, srv, []string{"http://127.0.0.1:1"}, time.Hour)
	if rep := w.finish(ctx, 0); rep != nil {
		t.Errorf("report %+v with a worker unreachable, want none", *rep)
	}
}

// TestSelfGCLimitDefault: the load generator's collector is kept out of
// the window by default only at a person's pace (--think); flat out, or
// with 0, it collects as usual, and a size given is kept.
func TestSelfGCLimitDefault(t *testing.T) {
	tests := []struct {
		args []string
		want int64
	}{
		{nil, 0},
		{[]string{"--think", "4s"}, defaultSelfGCLimit()},
		{[]string{"--think", "4s", "--self-gc-limit", "0"}, 0},
		{[]string{"--self-gc-limit", "512"}, 512},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("load", flag.ContinueOnError)
		var c loadConfig
		c.flags(fs)
		if err := fs.Parse(append([]string{"--serve", "memory"}, tt.args...)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.validate(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if c.selfGCLimit != tt.want {
			t.Errorf("%q: --self-gc-limit %d MiB, want %d", tt.args, c.selfGCLimit, tt.want)
		}
	}
}
