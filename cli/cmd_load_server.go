package cli

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/exec"
	"runtime"
	rpprof "runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/internal/proccpu"
	"golfsolitaire/limit"
	"golfsolitaire/load"
	"golfsolitaire/server"
)

// childEnv is set in the environment of a process that load starts as its
// server, so that a test binary standing in for this program (os.Executable
// in tests) runs the command instead of the tests.
const childEnv = "GOLFSOLITAIRE_LOAD_CHILD"

// servePprof serves net/http/pprof on addr until stop.
func servePprof(addr string) (stop func() error, err error) {
	pm := http.NewServeMux()
	pm.HandleFunc("/debug/pprof/", pprof.Index)
	pm.HandleFunc("/debug/pprof/profile", pprof.Profile)
	pm.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	pm.HandleFunc("/debug/pprof/trace", pprof.Trace)
	pl, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	ps := &http.Server{Handler: pm, ReadHeaderTimeout: 10 * time.Second}
	go ps.Serve(pl)
	return ps.Close, nil
}

// runLoadServer is the load-server command: the server (or the bare
// broadcast server) that load --serve starts as a process of its own, so
// that its CPU is measured apart from the load generator's. It prints its
// base URL on the first line of stdout and runs until stdin closes (the
// load command closes it, or has died) or it is interrupted.
func runLoadServer(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("load-server", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	storeName := fs.String("store", "memory", "memory, redis, or baseline (the bare WebSocket broadcast server)")
	redisURL := fs.String("redis-url", "redis://127.0.0.1:6379/0", "with --store redis, the Redis to use (its keys under a random prefix, deleted on exit)")
	players := fs.Int("players", 2, "with --store baseline, players a room")
	holes := fs.Int("holes", 9, "with --store baseline, holes a round")
	trusted := fs.String("trusted-proxy-header", "", "apply the default per-client limits, trusting this header for each client's address (the attacker mix); empty: no limits")
	fair := fs.Bool("fairplay", false, "analyse finished holes for fair play, as serve does by default")
	fairCPU := fs.Float64("fairplay-cpu", 0, "with --fairplay, serve's --fairplay-cpu: the share of GOMAXPROCS the analyses may take (0: serve's default)")
	pprofAddr := fs.String("pprof", "", "serve net/http/pprof on this loopback address")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process to the file")
	memProfile := fs.String("memprofile", "", "write an allocation profile of this process to the file on exit")
	collector := collectorFlags(fs, e)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("load-server: unexpected argument %q", fs.Arg(0))
	}
	if err := collector.validate(); err != nil {
		return usageError("load-server: %v", err)
	}
	// The server and the bare server alike run with serve's collector.
	collector.apply(e)
	if *pprofAddr != "" && !isLoopback(*pprofAddr) {
		return usageError("load-server: --pprof must be a loopback address")
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	var handler http.Handler
	var stop func()
	switch *storeName {
	case "baseline":
		b, err := load.NewBaseline(*players, *holes)
		if err != nil {
			return err
		}
		handler, stop = b, func() {}
	case "memory", "redis":
		h, s, err := newLoadServer(ctx, *storeName, *redisURL, *trusted, *fair, *fairCPU, e)
		if err != nil {
			return err
		}
		handler, stop = h, s
	default:
		return usageError("load-server: --store must be memory, redis or baseline")
	}
	defer stop()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		hs.Close()
	}()
	if *pprofAddr != "" {
		stop, err := servePprof(*pprofAddr)
		if err != nil {
			return err
		}
		defer stop()
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	if *memProfile != "" {
		defer func() {
			if f, err := os.Create(*memProfile); err == nil {
				rpprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	fmt.Fprintf(e.stdout, "http://%s\n", ln.Addr())
	gone := make(chan struct{})
	go func() {
		io.Copy(io.Discard, e.stdin)
		close(gone)
	}()
	select {
	case <-gone:
	case <-ctx.Done():
	}
	return nil
}

// newLoadServer is the server of a load run: the flood limit and the
// per-client limits lifted (the load generator is one client per seat
// making moves as fast as it may, every one from this machine's address),
// but for an attacker mix, which gives each client an address of its own
// in a header the server then trusts, and measures the defaults.
func newLoadServer(ctx context.Context, storeName, redisURL, trusted string, fair bool, fairCPU float64, e env) (http.Handler, func(), error) {
	sc := serveConfig{roomTTL: time.Hour}
	var cleanup func()
	if storeName == "redis" {
		sc.redisURL = redisURL
		var b [6]byte
		rand.Read(b[:])
		sc.redisPrefix = "golf-load-" + hex.EncodeToString(b[:]) + ":"
		cleanup = func() { deleteRedisPrefix(sc.redisURL, sc.redisPrefix) }
	}
	st, _, closeStore, err := openStore(ctx, sc)
	if err != nil {
		return nil, nil, usageError("load-server: %v", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err = st.Ping(pctx)
	cancel()
	if err != nil {
		closeStore()
		return nil, nil, fmt.Errorf("load-server: the %s store is not reachable: %w", storeName, err)
	}
	unlimited := limit.Rate{PerSecond: 1e6, Burst: 1e6}
	limits := limit.NoLimits()
	if trusted != "" {
		limits = limit.Limits{TrustedHeader: trusted}
	}
	opts := server.Options{
		Store: st, Logger: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		PlayerRate: unlimited, SpectatorRate: unlimited, Limits: limits,
	}
	if fair {
		opts.Fairplay, opts.FairplayCPU = &server.Fairplay{}, fairCPU
	}
	srv, err := server.New(opts)
	if err != nil {
		closeStore()
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/", srv)
	return mux, func() {
		srv.Close()
		closeStore()
		if cleanup != nil {
			cleanup()
		}
	}, nil
}

// child is a process load started: a server, the baseline or a
// redis-server.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string
	done  chan error
	// restore gives this process back the CPUs it had before the child
	// was pinned (startOnCPU); nil if it was not.
	restore func()
}

// cpu reads the child's CPU time (user and system, every thread) from
// /proc.
func (c *child) cpu() (time.Duration, error) { return procCPU(c.cmd.Process.Pid) }

// runDelay reads how long the child's threads have been ready to run but
// waited for a CPU (proccpu.RunDelay).
func (c *child) runDelay() (time.Duration, error) { return proccpu.RunDelay(c.cmd.Process.Pid) }

// stop asks the child to stop (its stdin closes; a redis-server is sent
// SIGTERM) and waits for it, killing it after a while.
func (c *child) stop() {
	if c.stdin != nil {
		c.stdin.Close()
	} else {
		c.cmd.Process.Signal(os.Interrupt)
	}
	select {
	case <-c.done:
	case <-time.After(15 * time.Second):
		c.cmd.Process.Kill()
		<-c.done
	}
	if c.restore != nil {
		c.restore()
	}
}

// childCPUs are where a server child runs: procs, if positive, is its
// GOMAXPROCS; cpu, if not negative, the one CPU its threads run on (and
// this process's then run on the others).
type childCPUs struct{ procs, cpu int }

// startChild starts this program as load-server with args and reads the
// URL it prints.
func startChild(ctx context.Context, args []string, cpus childCPUs, e env) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("load: cannot find this program to start the server: %w", err)
	}
	cmd := exec.Command(exe, append([]string{"load-server"}, args...)...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	if cpus.procs > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(cpus.procs))
	}
	cmd.Stderr = e.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	start := cmd.Start
	var restore func()
	if cpus.cpu >= 0 {
		start = func() (err error) {
			restore, err = startOnCPU(cmd, cpus.cpu)
			return err
		}
	}
	if err := start(); err != nil {
		if cmd.Process != nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		return nil, fmt.Errorf("load: starting the server: %w", err)
	}
	c := &child{cmd: cmd, stdin: stdin, done: make(chan error, 1), restore: restore}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, stdout)
		c.done <- cmd.Wait()
		close(c.done)
	}()
	select {
	case line, ok := <-lines:
		if ok && strings.HasPrefix(line, "http://") {
			c.url = line
			return c, nil
		}
		c.stop()
		return nil, errors.New("load: the server process stopped before it was ready (its errors are above)")
	case <-ctx.Done():
		c.stop()
		return nil, ctx.Err()
	case <-time.After(time.Minute):
		c.stop()
		return nil, errors.New("load: the server process did not start within a minute")
	}
}

// procCPU reads a process's CPU time, user and system over all its
// threads, from /proc/PID/stat (in clock ticks of 1/100 s, Linux's
// USER_HZ).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseProcStat(string(b))
}

// parseProcStat reads utime and stime (fields 14 and 15) of a
// /proc/PID/stat line. The command name (field 2) is in parentheses and may
// hold spaces and parentheses: the fields are counted after its last ")".
func parseProcStat(s string) (time.Duration, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("/proc stat: no command name")
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state): utime is field 14, stime 15.
	if len(f) < 13 {
		return 0, errors.New("/proc stat: too few fields")
	}
	var ticks int64
	for _, x := range f[11:13] {
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / 100), nil
}

// startRedis starts a private redis-server (binary bin) on a free loopback
// port, without persistence, and waits until it answers.
func startRedis(ctx context.Context, bin string, e env) (*child, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(path, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--loglevel", "warning", "--dir", os.TempDir())
	cmd.Stderr = e.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("load: starting %s: %w", bin, err)
	}
	c := &child{cmd: cmd, url: fmt.Sprintf("redis://127.0.0.1:%d/0", port), done: make(chan error, 1)}
	go func() {
		c.done <- cmd.Wait()
		close(c.done)
	}()
	rc := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port)})
	defer rc.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := rc.Ping(pctx).Err()
		cancel()
		if err == nil {
			return c, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			c.stop()
			return nil, fmt.Errorf("load: the private redis-server does not answer: %w", err)
		}
		select {
		case <-c.done:
			return nil, errors.New("load: the private redis-server stopped (its errors are above)")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// startCPUProfile writes this process's CPU profile to the file until
// the returned function is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := rpprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { rpprof.StopCPUProfile(); f.Close() }, nil
}
