package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/load"
)

// loadConfig is the load command's command line.
type loadConfig struct {
	url        string
	serve      string
	rooms      int
	players    int
	holes      int
	duration   time.Duration
	think      time.Duration
	rate       float64
	playerRate float64
	idle       int
	baseline   bool
	json       bool
	pprofAddr  string
	cpuProfile string
	memProfile string
	// selfProfile is where the load generator writes its own CPU
	// profile (--self-cpuprofile).
	selfProfile string
	// serverProcs is the server process's GOMAXPROCS (0: the default).
	serverProcs int
	// serverCPU is the CPU the server process runs on (-1: any).
	serverCPU   int
	fairplayCPU float64
	// fairplayMetrics are the base URLs of `golf worker` metrics
	// listeners whose analyses count in the fairplay report (--url).
	fairplayMetrics []string
	// serverWait reads how long the server's threads have waited for a
	// CPU (with --serve).
	serverWait func() (time.Duration, error)
	// redisServer is the redis-server binary started for --serve redis.
	redisServer string
	fairplay    bool
	quietStart  bool
	selfGCLimit int64
	timeline    time.Duration
	seed        uint64
	tournament  int // entrants of a tournament run (cmd_load_tournament.go)
	watchers    int
	attackers   int    // attackers of each kind (--attack) in the attacker mix
	attack      string // comma-separated attack kinds
}

// attackHeader is the header the attacker mix puts each simulated client's
// address in; the server must trust it (--trusted-proxy-header).
const attackHeader = "X-Forwarded-For"

// loadReport is the load command's output (--json).
type loadReport struct {
	Store    string       `json:"store"`
	Server   *load.Result `json:"server"`
	Baseline *load.Result `json:"baseline,omitempty"`
	// Ratio is the server's moves a second over the baseline's.
	Ratio float64 `json:"ratio,omitempty"`
	// CPURatio is the server process's CPU a move per recipient over the
	// baseline process's (cpuMicrosPerMovePerRecipient, --serve only);
	// CPURatioWithStore counts the private redis-server's CPU too.
	CPURatio          float64 `json:"cpuRatio,omitempty"`
	CPURatioWithStore float64 `json:"cpuRatioWithStore,omitempty"`
	// Fairplay is the server's fair-play analysis of the run's holes,
	// when its detector is on.
	Fairplay *fairplayReport `json:"fairplay,omitempty"`
	// ServerMoves is the server's own histogram of a move's arrival to
	// its ack over the run (golf_move_seconds): its part of Server.Ack.
	ServerMoves *serverMoves `json:"serverMoves,omitempty"`
	// ServerSched is the server's Go scheduler over the run
	// (go_sched_latencies_seconds): how long its goroutines waited to
	// run; Server.SchedLatency is the load generator's.
	ServerSched *serverSched `json:"serverSched,omitempty"`
	// UnderAttack is the same honest traffic again, run while the
	// attackers (--attackers) attack; Server is then the run before they
	// started. Attacks is what each kind of attacker met.
	UnderAttack *load.Result        `json:"underAttack,omitempty"`
	Attacks     []load.AttackResult `json:"attacks,omitempty"`
	// ServerCPU is, against --url, the server process's CPU seconds
	// (process_cpu_seconds_total from its /metrics) during each run of
	// the attacker mix, setup included: alone, then under attack.
	ServerCPU []float64 `json:"serverCpuSeconds,omitempty"`
}

func runLoad(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c loadConfig
	c.flags(fs)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("load: unexpected argument %q", fs.Arg(0))
	}
	kinds, err := c.validate()
	if err != nil {
		return err
	}
	if c.selfProfile != "" {
		stopProfile, err := startCPUProfile(c.selfProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	rep := loadReport{Store: "external"}
	serverCPU, storeCPU, stopTarget, err := c.target(ctx, e, &rep)
	if err != nil {
		return err
	}
	stop := sync.OnceFunc(stopTarget)
	defer stop()

	memory := metricsMemory(c.url)
	if c.tournament > 0 {
		return runTournamentLoad(ctx, c, e, rep.Store, memory)
	}
	cfg := load.Config{
		URL: c.url, Rooms: c.rooms, Players: c.players, Holes: c.holes, Duration: c.duration,
		Think: c.think, Rate: c.rate, PlayerRate: c.playerRate, Idle: c.idle, Seed: c.seed,
		ServerCPU: serverCPU, StoreCPU: storeCPU, Memory: memory, QuietStart: c.quietStart, ServerWait: c.serverWait, CollectorLimit: c.selfGCLimit << 20,
		Timeline: c.timeline, Warming: metricsWarming(c.url),
	}
	if c.attackers > 0 {
		return runAttackMix(ctx, c, cfg, kinds, rep, e)
	}
	cfg.Settle = true
	if !c.json {
		fmt.Fprintf(e.stderr, "load: %d rooms x %d players against %s (%s store) for %s...\n", c.rooms, c.players, c.url, rep.Store, c.duration)
	}
	fw := watchFairplay(ctx, c.url, c.fairplayMetrics, fairplayWindowPoll)
	moves0, _ := readHistogram(ctx, c.url, "golf_move_seconds")
	sched0, _ := readHistogram(ctx, c.url, "go_sched_latencies_seconds")
	res, err := load.Run(ctx, cfg)
	if err != nil {
		fw.stop()
		return err
	}
	rep.Server = res
	if moves1, err := readHistogram(ctx, c.url, "golf_move_seconds"); err == nil {
		rep.ServerMoves = movesSummary(moves0, moves1)
	}
	if sched1, err := readHistogram(ctx, c.url, "go_sched_latencies_seconds"); err == nil {
		rep.ServerSched = schedSummary(sched0, sched1)
	}
	rep.Fairplay = fw.finish(ctx, fairplayCatchUp)
	if c.baseline {
		// The server stops first: the baseline's process takes its place
		// (its CPU, with --server-cpu).
		stop()
		base, err := runBaseline(ctx, c, cfg, e)
		if err != nil {
			return err
		}
		rep.Baseline = base
		if base.MovesPerSec > 0 {
			rep.Ratio = res.MovesPerSec / base.MovesPerSec
		}
		if b := base.CPUMicrosPerMovePerRecipient; b > 0 && res.CPUMicrosPerMovePerRecipient > 0 {
			rep.CPURatio = res.CPUMicrosPerMovePerRecipient / b
			if res.Store != nil {
				rep.CPURatioWithStore = (res.CPUMicrosPerMovePerRecipient + res.Store.CPUMicrosPerMovePerRecipient) / b
			}
		}
	}
	if c.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printLoad(e.stdout, rep)
	return nil
}

// flags registers load's flags into c.
func (c *loadConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.url, "url", "", "base URL of a running server on a loopback address, e.g. http://127.0.0.1:8080")
	fs.StringVar(&c.serve, "serve", "", "start the server as a process of its own instead (this program's load-server), with the memory or redis store, and measure its CPU")
	fs.StringVar(&c.redisServer, "redis-server", "redis-server", "with --serve redis: start a private redis-server from this program (looked up in PATH) on a free loopback port and measure its CPU too; empty: use REDIS_URL (default redis://127.0.0.1:6379/0), whose CPU is not measured")
	fs.IntVar(&c.serverProcs, "server-procs", 0, "with --serve: the server process's GOMAXPROCS (cores it may use at once); 0: all")
	fs.IntVar(&c.serverCPU, "server-cpu", -1, "with --serve: run the server process on this CPU only, and this process on the others (Linux: sched_setaffinity); -1: anywhere")
	fs.Float64Var(&c.fairplayCPU, "fairplay-cpu", 0, "with --fairplay: the server's --fairplay-cpu, the share of its GOMAXPROCS the analyses may take (0: serve's default)")
	fs.Func("fairplay-metrics", "with --url: comma-separated base URLs of golf worker metrics listeners (their --metrics-addr, e.g. http://127.0.0.1:9091) whose analyses count in the fairplay report, when the server leaves its holes to them (serve --queue-work=false)", func(v string) error {
		for u := range strings.SplitSeq(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				c.fairplayMetrics = append(c.fairplayMetrics, strings.TrimSuffix(u, "/"))
			}
		}
		return nil
	})
	fs.BoolVar(&c.fairplay, "fairplay", false, "with --serve: turn the server's fair-play detector on (serve's default) and report its analyses")
	fs.IntVar(&c.rooms, "rooms", 10, "matches played at once")
	fs.IntVar(&c.players, "players", 2, "players a room: 2 play match play, more stroke play")
	fs.IntVar(&c.holes, "holes", 9, "holes a round")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long to measure, after setup")
	fs.DurationVar(&c.think, "think", 0, "mean pause before each move of each player (before its first move in a room a random part of it, later between half and one and a half times it, as a person's pauses vary, so that players do not move in step)")
	fs.DurationVar(&c.timeline, "timeline", 0, "also report the acks of each slice of the window this long (ackTimeline in --json): when the tail happened; 0: not")
	fs.Int64Var(&c.selfGCLimit, "self-gc-limit", -1, "MiB: keep this process's own collector off during the window (not with --tournament) unless its memory nears this much, so that its pauses are not in the acks it measures; 0: collect as usual; -1: with --think a quarter of the machine's memory, at most 4 GiB, and 0 without (flat out, a heap that only grows costs the load generator a third more CPU a move in fresh pages)")
	fs.BoolVar(&c.quietStart, "quiet-start", false, "with --serve: open the window only once the server has solved the first holes' best scores (golf_best_warm_queue 0) and then gone quiet after setup, as when rooms start one by one rather than all at once")
	fs.Float64Var(&c.rate, "rate", 0, "cap on moves a second over all players; 0 for none")
	fs.Float64Var(&c.playerRate, "player-rate", -1, "cap on each connection's messages a second; default 9 (under the server's flood limit of 10/s), none with --serve (which lifts the limit)")
	fs.IntVar(&c.idle, "idle", 0, "extra idle spectator connections; reports the server's memory per connection")
	fs.BoolVar(&c.baseline, "baseline", false, "also run the same traffic against a bare WebSocket broadcast server and report the ratio")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	fs.StringVar(&c.pprofAddr, "pprof", "", "with --serve, serve net/http/pprof on this loopback address")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "with --serve, write a CPU profile of the server process to the file")
	fs.StringVar(&c.selfProfile, "self-cpuprofile", "", "write a CPU profile of the load generator itself (this process, setup included) to the file: what its own floor is made of")
	fs.StringVar(&c.memProfile, "memprofile", "", "with --serve, write an allocation profile of the server process to the file when it stops")
	fs.Uint64Var(&c.seed, "seed", 0, "seed of the random moves; 0 for random")
	fs.IntVar(&c.tournament, "tournament", 0, "tournament mode: this many entrants play one stroke-play tournament (--holes, --think, --duration) while --watchers watch the leaderboard")
	fs.IntVar(&c.watchers, "watchers", 4, "tournament mode: leaderboard watchers")
	fs.IntVar(&c.attackers, "attackers", 0, "attacker mix: run the honest traffic twice, alone and then with this many attackers of each --attack kind, each client with an address of its own in "+attackHeader+" (with --url, start the server with --trusted-proxy-header "+attackHeader+")")
	fs.StringVar(&c.attack, "attack", strings.Join(load.AttackKinds, ","), "attacker mix: the attacks, comma-separated, of "+strings.Join(load.AttackKinds, ","))
}

// validate checks the flags together; it returns the attacks of
// --attack (with --attackers).
func (c *loadConfig) validate() ([]string, error) {
	var kinds []string
	if (c.url == "") == (c.serve == "") {
		return nil, usageError("load: give either --url or --serve")
	}
	if c.rooms < 1 || c.players < 1 || c.players > 8 || c.holes < 1 || c.duration <= 0 || c.idle < 0 {
		return nil, usageError("load: --rooms and --duration must be positive, --players 1 to 8, --idle not negative")
	}
	if c.attackers < 0 {
		return nil, usageError("load: --attackers must not be negative")
	}
	switch {
	case c.selfGCLimit < -1:
		return nil, usageError("load: --self-gc-limit must be a size in MiB, 0 (collect as usual) or -1 (the default)")
	case c.selfGCLimit == -1 && c.think > 0:
		c.selfGCLimit = defaultSelfGCLimit()
	case c.selfGCLimit == -1:
		c.selfGCLimit = 0
	}
	if c.quietStart && c.serve == "" {
		return nil, usageError("load: --quiet-start needs --serve (it watches the server process's CPU)")
	}
	if c.attackers > 0 {
		if c.tournament > 0 || c.baseline {
			return nil, usageError("load: --attackers goes with neither --tournament nor --baseline")
		}
		for _, k := range strings.Split(c.attack, ",") {
			if k = strings.TrimSpace(k); k == "" {
				continue
			}
			if !slices.Contains(load.AttackKinds, k) {
				return nil, usageError("load: --attack: unknown attack %q; want some of %s", k, strings.Join(load.AttackKinds, ","))
			}
			kinds = append(kinds, k)
		}
		if len(kinds) == 0 {
			return nil, usageError("load: --attack names no attack; want some of %s", strings.Join(load.AttackKinds, ","))
		}
	}
	if c.pprofAddr != "" && !isLoopback(c.pprofAddr) {
		return nil, usageError("load: --pprof must be a loopback address")
	}
	if c.serve == "" && (c.cpuProfile != "" || c.memProfile != "" || c.pprofAddr != "" || c.serverProcs != 0 || c.fairplay || c.serverCPU >= 0) {
		return nil, usageError("load: --cpuprofile, --memprofile, --pprof, --server-procs, --server-cpu and --fairplay go with --serve")
	}
	if c.serverProcs < 0 {
		return nil, usageError("load: --server-procs must not be negative")
	}
	if c.serverCPU < -1 {
		return nil, usageError("load: --server-cpu must be a CPU's number, or -1 for any")
	}
	if !(c.fairplayCPU >= 0 && c.fairplayCPU <= 1) || (c.fairplayCPU > 0 && !c.fairplay) {
		return nil, usageError("load: --fairplay-cpu is a share, 0 to 1, and goes with --fairplay")
	}
	if len(c.fairplayMetrics) > 0 && c.url == "" {
		return nil, usageError("load: --fairplay-metrics goes with --url (a server --serve starts analyses its own holes)")
	}
	return kinds, nil
}

// target starts the server with --serve (its CPU, and its store's, are
// then measured) or checks --url; stop stops what it started.
func (c *loadConfig) target(ctx context.Context, e env, rep *loadReport) (serverCPU, storeCPU func() (time.Duration, error), stop func(), err error) {
	stop = func() {}
	if c.serve != "" {
		srv, err := startLoadServer(ctx, *c, e)
		if err != nil {
			return nil, nil, stop, err
		}
		c.url, rep.Store = srv.url, c.serve
		serverCPU, storeCPU, c.serverWait = srv.srv.cpu, srv.storeCPU(), srv.srv.runDelay
		if c.playerRate < 0 {
			c.playerRate = 0
		}
		return serverCPU, storeCPU, srv.close, nil
	}
	u, err := url.Parse(c.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "ws") || !isLoopback(u.Host) {
		return nil, nil, stop, usageError("load: --url must be http:// on a loopback address (127.0.0.1, ::1 or localhost)")
	}
	if u.Scheme == "ws" {
		u.Scheme = "http"
	}
	u.Path = strings.TrimSuffix(u.Path, "/ws")
	c.url = strings.TrimRight(u.String(), "/")
	if c.playerRate < 0 {
		c.playerRate = 9
	}
	return nil, nil, stop, nil
}

// runBaseline runs the same traffic against a load.Baseline on loopback,
// in a process of its own with --serve (load-server --store baseline,
// whose CPU is measured as the server's is), in this one otherwise. Idle
// connections are not repeated.
func runBaseline(ctx context.Context, c loadConfig, cfg load.Config, e env) (*load.Result, error) {
	cfg.Idle, cfg.Memory, cfg.StoreCPU = 0, nil, nil
	if c.serve != "" {
		ch, err := startChild(ctx, []string{"--store", "baseline", "--players", strconv.Itoa(cfg.Players), "--holes", strconv.Itoa(cfg.Holes)}, childCPUs{procs: c.serverProcs, cpu: c.serverCPU}, e)
		if err != nil {
			return nil, err
		}
		defer ch.stop()
		cfg.URL, cfg.ServerCPU = ch.url, ch.cpu
	} else {
		b, err := load.NewBaseline(cfg.Players, cfg.Holes)
		if err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		hs := &http.Server{Handler: b, ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			hs.Shutdown(sctx)
			hs.Close()
		}()
		cfg.URL, cfg.ServerCPU = "http://"+ln.Addr().String(), nil
	}
	if !c.json {
		fmt.Fprintf(e.stderr, "load: the same against the baseline at %s...\n", cfg.URL)
	}
	return load.Run(ctx, cfg)
}

// loadServer is the server a load run started as a child process
// (load-server), with the private redis-server it started for it, if any.
type loadServer struct {
	url   string
	srv   *child
	redis *child
}

func (l *loadServer) close() {
	l.srv.stop()
	if l.redis != nil {
		l.redis.stop()
	}
}

// storeCPU reads the private redis-server's CPU, when there is one.
func (l *loadServer) storeCPU() func() (time.Duration, error) {
	if l.redis == nil {
		return nil
	}
	return l.redis.cpu
}

func startLoadServer(ctx context.Context, c loadConfig, e env) (*loadServer, error) {
	args := []string{"--store", c.serve}
	l := &loadServer{}
	switch c.serve {
	case "memory":
	case "redis":
		redisURL := envDefault(e, "REDIS_URL", "redis://127.0.0.1:6379/0")
		if c.redisServer != "" {
			r, err := startRedis(ctx, c.redisServer, e)
			if err != nil {
				return nil, err
			}
			l.redis, redisURL = r, r.url
		}
		args = append(args, "--redis-url", redisURL)
	default:
		return nil, usageError("load: --serve must be memory or redis")
	}
	if c.attackers > 0 {
		args = append(args, "--trusted-proxy-header", attackHeader)
	}
	if c.fairplay {
		args = append(args, "--fairplay")
		if c.fairplayCPU > 0 {
			args = append(args, "--fairplay-cpu", strconv.FormatFloat(c.fairplayCPU, 'g', -1, 64))
		}
	}
	if c.pprofAddr != "" {
		args = append(args, "--pprof", c.pprofAddr)
	}
	if c.cpuProfile != "" {
		args = append(args, "--cpuprofile", c.cpuProfile)
	}
	if c.memProfile != "" {
		args = append(args, "--memprofile", c.memProfile)
	}
	srv, err := startChild(ctx, args, childCPUs{procs: c.serverProcs, cpu: c.serverCPU}, e)
	if err != nil {
		if l.redis != nil {
			l.redis.stop()
		}
		return nil, err
	}
	l.srv, l.url = srv, srv.url
	return l, nil
}

// deleteRedisPrefix removes every key of a load run.
func deleteRedisPrefix(redisURL, prefix string) {
	opt, err := redis.ParseURL(redisURL)
	if err != nil {
		return
	}
	rc := redis.NewClient(opt)
	defer rc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	iter := rc.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		if keys = append(keys, iter.Val()); len(keys) >= 500 {
			rc.Unlink(ctx, keys...)
			keys = keys[:0]
		}
	}
	if len(keys) > 0 {
		rc.Unlink(ctx, keys...)
	}
}

// isLoopback reports whether host[:port] names this machine only.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serverCPU reads a server's process_cpu_seconds_total from its /metrics.
func serverCPU(ctx context.Context, base string) (float64, error) {
	return readMetric(ctx, base, "process_cpu_seconds_total")
}

// metricsWarming reads how many deals a server still has to solve ahead
// (golf_best_warm_queue) from its /metrics.
func metricsWarming(base string) func(context.Context) (int, error) {
	return func(ctx context.Context) (int, error) {
		v, err := readMetric(ctx, base, "golf_best_warm_queue")
		return int(v), err
	}
}

// readMetric reads one metric without labels from a server's /metrics.
func readMetric(ctx context.Context, base, name string) (float64, error) {
	body, err := getMetrics(ctx, base, name)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	vals, err := parseMetrics(body, name)
	if err != nil {
		return 0, err
	}
	v, ok := vals[name]
	if !ok {
		return 0, errors.New("/metrics has no " + name)
	}
	return v, nil
}

// metricsMemory reads a server's memory from its /metrics.
func metricsMemory(base string) func(context.Context) (load.Memory, error) {
	return func(ctx context.Context) (load.Memory, error) {
		names := []string{"process_resident_memory_bytes", "go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes"}
		body, err := getMetrics(ctx, base, names...)
		if err != nil {
			return load.Memory{}, err
		}
		defer body.Close()
		vals, err := parseMetrics(body, names...)
		if err != nil {
			return load.Memory{}, err
		}
		if _, ok := vals["process_resident_memory_bytes"]; !ok {
			return load.Memory{}, errors.New("/metrics has no process_resident_memory_bytes")
		}
		return load.Memory{
			RSS: uint64(vals["process_resident_memory_bytes"]),
			Go:  uint64(vals["go_memstats_heap_inuse_bytes"] + vals["go_memstats_stack_inuse_bytes"]),
		}, nil
	}
}

// parseMetrics reads the named label-less samples of a Prometheus text
// exposition.
func parseMetrics(r io.Reader, names ...string) (map[string]float64, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !want[f[0]] {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("metric %s: %w", f[0], err)
		}
		out[f[0]] = v
	}
	return out, sc.Err()
}

// runAttackMix runs the honest traffic alone, then again with the
// attackers, and reports both and what the attackers met.
func runAttackMix(ctx context.Context, c loadConfig, cfg load.Config, kinds []string, rep loadReport, e env) error {
	cfg.ClientHeader = attackHeader
	// The server's own CPU around each run, from its /metrics.
	cpu := func() float64 {
		v, err := serverCPU(ctx, c.url)
		if err != nil {
			return -1
		}
		return v
	}
	cpu0 := cpu()
	if !c.json {
		fmt.Fprintf(e.stderr, "load: %d rooms x %d players against %s (%s store) for %s, alone...\n", c.rooms, c.players, c.url, rep.Store, c.duration)
	}
	res, err := load.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Server = res
	cpu1 := cpu()
	if !c.json {
		fmt.Fprintf(e.stderr, "load: the same with %d attackers of each of %s...\n", c.attackers, strings.Join(kinds, ","))
	}
	atk, err := load.StartAttack(ctx, load.AttackConfig{URL: c.url, Attackers: c.attackers, Kinds: kinds, ClientHeader: attackHeader})
	if err != nil {
		return err
	}
	res, err = load.Run(ctx, cfg)
	rep.Attacks = atk.Stop()
	if err != nil {
		return err
	}
	rep.UnderAttack = res
	if cpu2 := cpu(); cpu0 >= 0 && cpu1 >= 0 && cpu2 >= 0 {
		rep.ServerCPU = []float64{cpu1 - cpu0, cpu2 - cpu1}
	}
	if c.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printLoad(e.stdout, rep)
	return nil
}

func printLoad(w io.Writer, rep loadReport) {
	show := func(name string, r *load.Result) {
		fmt.Fprintf(w, "%s: %d rooms x %d players, %d connections, %.1fs\n", name, r.Rooms, r.Players, r.Connections, r.Seconds)
		fmt.Fprintf(w, "  moves         %d (%.0f/s), %d rounds finished, %d dials\n", r.Moves, r.MovesPerSec, r.RoundsFinished, r.Dials)
		fmt.Fprintf(w, "  cpu           %.1fs of this process, %.1fs of it after the window until it went quiet (%.0f moves per CPU second)\n", r.CPUSeconds, r.SettleCPUSeconds, r.MovesPerCPUSec)
		fmt.Fprintf(w, "  move->ack     p50 %.2fms  p95 %.2fms  p99 %.2fms  max %.2fms\n", r.Ack.P50, r.Ack.P95, r.Ack.P99, r.Ack.Max)
		fmt.Fprintf(w, "  (ack read)    p50 %.2fms  p95 %.2fms  p99 %.2fms  max %.2fms\n", r.AckRead.P50, r.AckRead.P95, r.AckRead.P99, r.AckRead.Max)
		fmt.Fprintf(w, "  move->update  p50 %.2fms  p95 %.2fms  p99 %.2fms  max %.2fms  (%d updates)\n", r.Update.P50, r.Update.P95, r.Update.P99, r.Update.Max, r.Update.N)
		fmt.Fprintf(w, "  wire          %.0f bytes per move per recipient (%d bytes received)\n", r.BytesPerMovePerRecipient, r.Bytes)
		fmt.Fprintf(w, "  errors        %d\n", r.Errors)
		for _, s := range r.ErrorSamples {
			fmt.Fprintf(w, "    %s\n", s)
		}
	}
	if rep.UnderAttack != nil {
		show("server ("+rep.Store+" store), no attackers", rep.Server)
		show("server ("+rep.Store+" store), under attack", rep.UnderAttack)
		fmt.Fprintf(w, "attackers (refused by a limit: 429, rate_limited or solver_busy; other codes as the server answered):\n")
		for _, a := range rep.Attacks {
			fmt.Fprintf(w, "  %s\n", a)
			for _, s := range a.Samples {
				fmt.Fprintf(w, "    %s\n", s)
			}
		}
		fmt.Fprintf(w, "honest move->ack: p50 %.2fms -> %.2fms, p99 %.2fms -> %.2fms under attack\n",
			rep.Server.Ack.P50, rep.UnderAttack.Ack.P50, rep.Server.Ack.P99, rep.UnderAttack.Ack.P99)
		if len(rep.ServerCPU) == 2 {
			fmt.Fprintf(w, "server cpu: %.1fs alone, %.1fs under attack (its /metrics, setup included)\n", rep.ServerCPU[0], rep.ServerCPU[1])
		}
		return
	}
	show("server ("+rep.Store+" store)", rep.Server)
	if m := rep.ServerMoves; m != nil {
		fmt.Fprintf(w, "  server's part  p50 <= %gms  p99 <= %gms  %.2f%% within 50ms  (its golf_move_seconds, %d moves)\n", m.P50AtMostMs, m.P99AtMostMs, 100*m.Within50Ms, m.N)
	}
	if m := rep.ServerSched; m != nil {
		fmt.Fprintf(w, "  server sched  mean %.2fms  %.3f%% over 10ms  %.3f%% over 100ms  (its goroutines' waits to run, %d)\n", m.MeanMs, 100*m.Over10Ms, 100*m.Over100Ms, m.N)
	}
	if l := rep.Server.SchedLatency; l.N > 0 {
		fmt.Fprintf(w, "  load sched    p50 <= %.3gms  p99 <= %.3gms  max <= %.3gms  (this process's goroutines' waits to run)\n", l.P50, l.P99, l.Max)
	}
	if m := rep.Server.ServerMemory; m != nil {
		fmt.Fprintf(w, "  server memory RSS %.0f MiB, Go heap+stacks %.0f MiB as the window ended\n", float64(m.RSS)/(1<<20), float64(m.Go)/(1<<20))
	}
	if i := rep.Server.Idle; i != nil {
		fmt.Fprintf(w, "  idle          %d connections: RSS %+.1f MiB (%.1f KiB each), Go heap+stacks %+.1f MiB (%.1f KiB each)\n",
			i.Conns, (float64(i.After.RSS)-float64(i.Before.RSS))/(1<<20), i.RSSPerConn/1024,
			(float64(i.After.Go)-float64(i.Before.Go))/(1<<20), i.GoPerConn/1024)
	}
	if rep.Baseline != nil {
		show("baseline (bare WebSocket broadcast)", rep.Baseline)
		fmt.Fprintf(w, "ratio: %.2f of the baseline's moves/s; %.2f of its moves per CPU second\n", rep.Ratio, rep.CPURatio)
	}
}
