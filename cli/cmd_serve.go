package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/alexedwards/scs/v2"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/accounts/redissession"
	"golfsolitaire/fold"
	"golfsolitaire/internal/dbwait"
	"golfsolitaire/jobs"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/server"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/tourney"
)

// serveConfig is the server's configuration: flags, each with an
// environment variable as fallback.
type serveConfig struct {
	addr           string
	redisURL       string
	redisAddrs     string
	redisMaster    string
	redisPrefix    string
	allowedOrigins string
	baseURL        string
	roomTTL        time.Duration
	finishedTTL    time.Duration
	readyWithin    time.Duration
	tournamentTTL  time.Duration
	schedule       string
	logLevel       string
	logFormat      string
	databaseURL    string
	dbTimeout      time.Duration
	fairplay       bool
	moderatorToken string
	// The job queue (docs/deploy.md, "Results and fair play").
	fairplayWorkers int
	fairplayCPU     float64
	// fairplayAnalysis names the analysis setting (fairplay.ConfigNamed).
	fairplayAnalysis string
	// fairplayEscalation names the escalation (fairplay.EscalationNamed).
	fairplayEscalation string
	queueWork          bool

	// How Redis is reached and how durable an acknowledged move is.
	redisMode             string
	redisSentinelPassword string
	redisWaitReplicas     int
	redisClusterReload    time.Duration

	// perimeter: per-client limits, caps, timeouts (docs/deploy.md
	// "Limits and timeouts").
	limits                                 map[string]*string
	trustedHeader                          string
	socketsPerClient, spectators, maxConns int
	readHeaderTimeout, readTimeout         time.Duration
	writeTimeout, idleTimeout, pingEvery   time.Duration
	metricsAddr                            string
	maxDelayed                             int

	// identity: sign-ups, linked accounts, the rated probation
	// (docs/deploy.md "Accounts").
	signupRate          string
	allowLinkedAccounts bool
	ratedProbation      time.Duration

	// the solver pool and the seed pools (docs/deploy.md "Solver").
	solver *solverConfig
	// collector: --gc-percent and --memory-limit (collector.go).
	collector *collectorConfig
}

// limitFlags are the token-bucket flags: name, env, default, what.
var limitFlags = []struct{ name, env, def, what string }{
	{"limit-rooms", "GOLF_LIMIT_ROOMS", "20/1m", "rooms a client may create"},
	{"limit-joins", "GOLF_LIMIT_JOINS", "60/1m", "room joins a client may make"},
	{"limit-quickmatch", "GOLF_LIMIT_QUICKMATCH", "30/1m", "quick match requests a client may make"},
	{"limit-tournaments", "GOLF_LIMIT_TOURNAMENTS", "10/1m", "tournaments a client may create"},
	{"limit-entries", "GOLF_LIMIT_ENTRIES", "60/1m", "tournament entries and plays a client may make"},
	{"limit-bots", "GOLF_LIMIT_BOTS", "30/1m", "bots a client may add"},
	{"limit-hints", "GOLF_LIMIT_HINTS", "60/1m", "hints a client may ask for"},
	{"limit-starts", "GOLF_LIMIT_STARTS", "30/1m", "rounds a client may start (start, rematch; practice included)"},
}

// serverLimits reads the limit flags.
func (c serveConfig) serverLimits() (limit.Limits, error) {
	l := limit.Limits{TrustedHeader: c.trustedHeader, SocketsPerClient: c.socketsPerClient,
		SpectatorsPerRoom: c.spectators, Connections: c.maxConns}
	dst := map[string]*limit.Rate{"limit-rooms": &l.Rooms, "limit-joins": &l.Joins, "limit-quickmatch": &l.QuickMatch,
		"limit-tournaments": &l.Tournaments, "limit-entries": &l.Entries, "limit-bots": &l.Bots, "limit-hints": &l.Hints, "limit-starts": &l.Starts}
	for name, v := range c.limits {
		r, err := limit.ParseRate(*v)
		if err != nil {
			return l, fmt.Errorf("--%s: %v", name, err)
		}
		*dst[name] = r
	}
	for _, p := range []*int{&l.SocketsPerClient, &l.SpectatorsPerRoom, &l.Connections} {
		if *p == 0 {
			*p = limit.Unlimited // 0 in a flag means no cap
		}
	}
	return l, nil
}

// envDefault returns the environment variable's value, or def.
func envDefault(e env, key, def string) string {
	if v := e.getenv(key); v != "" {
		return v
	}
	return def
}

// envFloat returns the environment variable's number, or def.
func envFloat(e env, key string, def float64) float64 {
	if v := e.getenv(key); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	}
	return def
}

func envDuration(e env, key string, def time.Duration) time.Duration {
	if v := e.getenv(key); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}

// serveFlags declares serve's flags on fs, each with its environment
// variable as fallback, and returns the configuration they fill.
func serveFlags(fs *flag.FlagSet, e env) *serveConfig {
	c := &serveConfig{}
	fs.StringVar(&c.addr, "addr", envDefault(e, "GOLF_ADDR", ":8080"), "listen address (env GOLF_ADDR)")
	fs.StringVar(&c.redisURL, "redis", envDefault(e, "REDIS_URL", ""), "Redis URL, e.g. redis://127.0.0.1:6379/0; empty keeps rooms in memory (env REDIS_URL)")
	fs.StringVar(&c.redisAddrs, "redis-addrs", envDefault(e, "GOLF_REDIS_ADDRS", ""), "comma-separated Redis Cluster nodes or Sentinels (with --redis-master); overrides the host of --redis (env GOLF_REDIS_ADDRS)")
	fs.StringVar(&c.redisMaster, "redis-master", envDefault(e, "GOLF_REDIS_MASTER", ""), "Sentinel master name (env GOLF_REDIS_MASTER)")
	fs.StringVar(&c.redisPrefix, "redis-prefix", envDefault(e, "GOLF_REDIS_PREFIX", "golf:"), "prefix of every Redis key (env GOLF_REDIS_PREFIX)")
	fs.StringVar(&c.allowedOrigins, "allowed-origins", envDefault(e, "GOLF_ALLOWED_ORIGINS", ""), "comma-separated host patterns allowed to open WebSockets besides our own origin (env GOLF_ALLOWED_ORIGINS)")
	fs.StringVar(&c.baseURL, "base-url", envDefault(e, "GOLF_BASE_URL", ""), "public URL for invite links; default from the request (env GOLF_BASE_URL)")
	fs.DurationVar(&c.roomTTL, "room-ttl", envDuration(e, "GOLF_ROOM_TTL", 24*time.Hour), "how long an idle room is kept (env GOLF_ROOM_TTL)")
	fs.DurationVar(&c.finishedTTL, "finished-ttl", envDuration(e, "GOLF_FINISHED_TTL", 24*time.Hour), "how long a finished room is kept (env GOLF_FINISHED_TTL)")
	fs.DurationVar(&c.readyWithin, "ready-within", envDuration(e, "GOLF_READY_WITHIN", match.ReadyWithin), "how long a player who joins a public room has to say ready before the seat is released (env GOLF_READY_WITHIN)")
	fs.StringVar(&c.schedule, "schedule", envDefault(e, "GOLF_SCHEDULE", tourney.DefaultSchedule), "tournaments created ahead on a schedule (UTC): off, or a list of hourly[@:MM], daily[@HH:MM], weekly[@DAY-HH:MM] (env GOLF_SCHEDULE)")
	fs.DurationVar(&c.tournamentTTL, "tournament-ttl", envDuration(e, "GOLF_TOURNAMENT_TTL", 30*24*time.Hour), "how long a tournament, its rooms and its leaderboard are kept after it closes (env GOLF_TOURNAMENT_TTL)")
	fs.StringVar(&c.logLevel, "log-level", envDefault(e, "GOLF_LOG_LEVEL", "info"), "debug, info, warn or error (env GOLF_LOG_LEVEL)")
	fs.StringVar(&c.logFormat, "log-format", envDefault(e, "GOLF_LOG_FORMAT", "auto"), "auto (text on a terminal, else JSON), text or json (env GOLF_LOG_FORMAT)")
	c.limits = map[string]*string{}
	for _, f := range limitFlags {
		c.limits[f.name] = fs.String(f.name, envDefault(e, f.env, f.def), "per client: "+f.what+", as N/DURATION or off (env "+f.env+")")
	}
	fs.StringVar(&c.trustedHeader, "trusted-proxy-header", envDefault(e, "GOLF_TRUSTED_PROXY_HEADER", ""), "header a trusted proxy puts the client's address in (e.g. X-Forwarded-For); empty: the connection's address (env GOLF_TRUSTED_PROXY_HEADER)")
	fs.IntVar(&c.socketsPerClient, "max-sockets-per-client", envInt(e, "GOLF_MAX_SOCKETS_PER_CLIENT", 32), "open WebSockets per client (with Redis, over every instance sharing it); 0: no cap (env GOLF_MAX_SOCKETS_PER_CLIENT)")
	fs.IntVar(&c.spectators, "max-spectators", envInt(e, "GOLF_MAX_SPECTATORS", 500), "spectators per room on this instance; 0: no cap (env GOLF_MAX_SPECTATORS)")
	fs.IntVar(&c.maxConns, "max-connections", envInt(e, "GOLF_MAX_CONNECTIONS", 20000), "open WebSockets on this instance; 0: no cap (env GOLF_MAX_CONNECTIONS)")
	fs.DurationVar(&c.readHeaderTimeout, "read-header-timeout", envDuration(e, "GOLF_READ_HEADER_TIMEOUT", 5*time.Second), "time to read a request's headers (env GOLF_READ_HEADER_TIMEOUT)")
	fs.DurationVar(&c.readTimeout, "read-timeout", envDuration(e, "GOLF_READ_TIMEOUT", 15*time.Second), "time to read a whole request, body included (env GOLF_READ_TIMEOUT)")
	fs.DurationVar(&c.writeTimeout, "write-timeout", envDuration(e, "GOLF_WRITE_TIMEOUT", 30*time.Second), "time to write a response; not WebSockets (env GOLF_WRITE_TIMEOUT)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", envDuration(e, "GOLF_IDLE_TIMEOUT", 120*time.Second), "how long an idle keep-alive connection is kept (env GOLF_IDLE_TIMEOUT)")
	fs.DurationVar(&c.pingEvery, "ws-ping", envDuration(e, "GOLF_WS_PING", 30*time.Second), "WebSocket ping interval: a socket that sent nothing for that long is pinged, and closed when its pong is that late (env GOLF_WS_PING)")
	fs.StringVar(&c.metricsAddr, "metrics-addr", envDefault(e, "GOLF_METRICS_ADDR", ""), "serve /metrics on this address only (e.g. 127.0.0.1:9090); empty: on --addr (env GOLF_METRICS_ADDR)")
	fs.IntVar(&c.maxDelayed, "spectator-queue", envInt(e, "GOLF_SPECTATOR_QUEUE", 2000), "messages a room holds back for its spectator delay (env GOLF_SPECTATOR_QUEUE)")
	fs.StringVar(&c.databaseURL, "database", envDefault(e, "DATABASE_URL", ""), "PostgreSQL URL for accounts, ratings, sessions and the archive, e.g. postgres://golf@127.0.0.1:5432/golf; empty keeps them in memory (env DATABASE_URL)")
	fs.DurationVar(&c.dbTimeout, "db-timeout", envDuration(e, "GOLF_DB_TIMEOUT", dbwait.DefaultTimeout), "how long one database call may wait (connecting included) before the request gets 503 unavailable (env GOLF_DB_TIMEOUT)")
	fs.BoolVar(&c.fairplay, "fairplay", envDefault(e, "GOLF_FAIRPLAY", "true") != "false", "analyse finished holes for fair play in the background (env GOLF_FAIRPLAY=false turns it off)")
	fs.IntVar(&c.fairplayWorkers, "fairplay-workers", envInt(e, "GOLF_FAIRPLAY_WORKERS", 0), "holes analysed for fair play at once by this process (env GOLF_FAIRPLAY_WORKERS; default 0: GOMAXPROCS-1, at least 1, leaving a core for rooms)")
	fs.StringVar(&c.fairplayAnalysis, "fairplay-analysis", envDefault(e, "GOLF_FAIRPLAY_ANALYSIS", "default"), "the fair-play analysis setting of a player's holes below the escalation's level: default, or full (every decision scored: about three times the CPU a hole; docs/fairplay.md) (env GOLF_FAIRPLAY_ANALYSIS)")
	fs.StringVar(&c.fairplayEscalation, "fairplay-escalation", envDefault(e, "GOLF_FAIRPLAY_ESCALATION", "default"), "analyse a player's holes with the deeper setting while their fair-play score before the hole is at least a level: default (1 nat), off, or the level in nats (docs/fairplay.md) (env GOLF_FAIRPLAY_ESCALATION)")
	fs.Float64Var(&c.fairplayCPU, "fairplay-cpu", envFloat(e, "GOLF_FAIRPLAY_CPU", 0), "share of GOMAXPROCS (0 to 1) that this process's fair-play analyses may take, CPU time over time; holes wait in the queue beyond it, never skipped (env GOLF_FAIRPLAY_CPU; default 0: a quarter of a core on one core, GOMAXPROCS-1 cores on more)")
	fs.BoolVar(&c.queueWork, "queue-work", envDefault(e, "GOLF_QUEUE_WORK", "true") != "false", "record rated results and analyse holes from the job queue here too; false leaves that to golf worker processes (env GOLF_QUEUE_WORK=false)")
	fs.StringVar(&c.moderatorToken, "moderator-token", envDefault(e, "GOLF_MODERATOR_TOKEN", ""), "token for GET /api/fairplay/flags (fairplay review); empty disables it (env GOLF_MODERATOR_TOKEN)")
	fs.StringVar(&c.redisMode, "redis-mode", envDefault(e, "GOLF_REDIS_MODE", ""), "single, cluster or sentinel; empty: sentinel with --redis-master, cluster with several --redis-addrs, else asks the one node (env GOLF_REDIS_MODE)")
	fs.StringVar(&c.redisSentinelPassword, "redis-sentinel-password", envDefault(e, "GOLF_REDIS_SENTINEL_PASSWORD", ""), "the Sentinels' own password, if they have one (env GOLF_REDIS_SENTINEL_PASSWORD)")
	fs.IntVar(&c.redisWaitReplicas, "redis-wait-replicas", envCount(e, "GOLF_REDIS_WAIT_REPLICAS", 0), "acknowledge a move only once this many replicas have it (Redis WAIT); 0: no WAIT (env GOLF_REDIS_WAIT_REPLICAS)")
	fs.DurationVar(&c.redisClusterReload, "redis-cluster-reload", envDuration(e, "GOLF_REDIS_CLUSTER_RELOAD", redisstore.DefaultClusterReload), "how often a Cluster client reloads the slot map while in use (also at once on MOVED and connection errors) (env GOLF_REDIS_CLUSTER_RELOAD)")
	fs.StringVar(&c.signupRate, "limit-signups", envDefault(e, "GOLF_LIMIT_SIGNUPS", "3/24h"), "accounts a client (address) may create, N/DURATION or off (env GOLF_LIMIT_SIGNUPS)")
	fs.BoolVar(&c.allowLinkedAccounts, "allow-linked-accounts", envDefault(e, "GOLF_ALLOW_LINKED_ACCOUNTS", "false") == "true", "let accounts that share a recent address or browser take seats of one rated game (a household behind one address, a private server); by default the second is refused (env GOLF_ALLOW_LINKED_ACCOUNTS=true)")
	fs.DurationVar(&c.ratedProbation, "rated-probation", envDuration(e, "GOLF_RATED_PROBATION", 24*time.Hour), "a new account plays rated games after 3 finished casual rounds or this long after sign-up; 0 turns the probation off (env GOLF_RATED_PROBATION)")
	c.solver = solverFlags(fs, e)
	c.collector = collectorFlags(fs, e)
	return c
}

// serveSettings is a validated configuration: every value parsed, every
// combination checked, before anything is opened.
type serveSettings struct {
	serveConfig
	level    slog.Level
	signups  limit.Rate
	limits   limit.Limits
	schedule tourney.Schedule
	origins  []string
	// redis is the client configuration, nil without Redis.
	redis *redisstore.ClientConfig
}

// validate checks the whole configuration in one place: the errors it
// returns are usage errors (exit 2), found before anything is opened.
func (c serveConfig) validate() (serveSettings, error) {
	s := serveSettings{serveConfig: c}
	var err error
	if err = s.level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return s, fmt.Errorf("--log-level: %v", err)
	}
	if _, err = logHandler(io.Discard, c.logFormat, false, s.level); err != nil {
		return s, fmt.Errorf("--log-format: %v", err)
	}
	if err = c.collector.validate(); err != nil {
		return s, err
	}
	if s.signups, err = limit.ParseRate(c.signupRate); err != nil {
		return s, fmt.Errorf("--limit-signups: %v", err)
	}
	if s.limits, err = c.serverLimits(); err != nil {
		return s, err
	}
	if s.schedule, err = tourney.ParseSchedule(c.schedule); err != nil {
		return s, fmt.Errorf("--schedule: %v", err)
	}
	switch {
	case c.dbTimeout <= 0:
		return s, fmt.Errorf("--db-timeout: %v is not a positive duration", c.dbTimeout)
	case c.fairplayWorkers < 0:
		return s, fmt.Errorf("--fairplay-workers: %d is negative; want 0 (the default) or more", c.fairplayWorkers)
	case !(c.fairplayCPU >= 0 && c.fairplayCPU <= 1):
		return s, fmt.Errorf("--fairplay-cpu: %v is not a share; want 0 (the default) to 1", c.fairplayCPU)
	case analysisFlagsErr(c) != nil:
		return s, analysisFlagsErr(c)
	case c.redisWaitReplicas < 0:
		return s, fmt.Errorf("--redis-wait-replicas: %d is negative", c.redisWaitReplicas)
	}
	for _, o := range strings.Split(c.allowedOrigins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			s.origins = append(s.origins, o)
		}
	}
	if c.redisURL != "" || c.redisAddrs != "" {
		cfg, err := redisConfig(c)
		if err != nil {
			return s, err
		}
		s.redis = &cfg
	}
	return s, nil
}

// runServe is the serve command: parse and validate the configuration
// (a usage error, exit 2), open what the server depends on (Redis,
// PostgreSQL: exit 3 when unreachable), then serve until ctx ends.
func runServe(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	c := serveFlags(fs, e)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: ExitUsage}
	}
	if fs.NArg() > 0 {
		return usageError("serve: unexpected argument %q", fs.Arg(0))
	}
	s, err := c.validate()
	if err != nil {
		return usageError("serve: %v", err)
	}
	onTerminal := isTerminal(e.stderr)
	handler, _ := logHandler(e.stderr, c.logFormat, onTerminal, s.level) // validated
	log := slog.New(handler)
	percent, limitMiB := c.collector.apply(e)
	log.Info("collector", "gc_percent", percent, "memory_limit_mib", limitMiB)
	fs.Visit(func(f *flag.Flag) {
		if u, err := url.Parse(f.Value.String()); f.Name == "redis" && err == nil && u.User != nil {
			if _, has := u.User.Password(); !has {
				return
			}
			log.Warn("--redis carries a password, which every user of the machine can read in the process list; set REDIS_URL instead")
		}
	})
	d, err := openDeps(ctx, s, log)
	if err != nil {
		return unavailableError(fmt.Errorf("serve: %w", err))
	}
	defer d.close()
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	srv, err := server.New(s.options(d, log))
	if err != nil {
		return err
	}
	hs := srv.HTTPServer()
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	if c.metricsAddr != "" {
		mln, err := net.Listen("tcp", c.metricsAddr)
		if err != nil {
			return err
		}
		ms := &http.Server{Handler: srv.MetricsHandler(), ReadHeaderTimeout: 5 * time.Second, ErrorLog: hs.ErrorLog}
		go ms.Serve(mln)
		defer ms.Close()
		log.Info("metrics", "addr", mln.Addr().String())
	}
	log.Info("listening", "addr", ln.Addr().String(), "store", d.storeKind)
	if onTerminal {
		fmt.Fprintf(e.stderr, "\nGolf Solitaire is running. Open %s in your browser. Press Ctrl+C to stop it.\n\n", siteURL(ln.Addr().String(), c.baseURL))
	}
	return serveUntil(ctx, srv, hs, ln, log)
}

// serveUntil serves on ln until ctx ends, then shuts down gracefully:
// WebSocket clients are told to reconnect elsewhere, requests in flight
// get up to 10 s.
func serveUntil(ctx context.Context, srv *server.Server, hs *http.Server, ln net.Listener, log *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Close() // tell WebSocket clients to reconnect elsewhere
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// deps are what the server depends on, opened: the room store, the
// shared limiter, accounts and sessions, fair play and the job queue.
type deps struct {
	st        store.Store
	storeKind string
	limiter   limit.Limiter
	sockets   limit.SocketCounter
	acct      accounts.Store
	sessions  scs.Store
	fair      *server.Fairplay
	queue     jobs.Queue
	closers   []func()
}

// close closes what openDeps opened, last first.
func (d *deps) close() {
	for i := len(d.closers) - 1; i >= 0; i-- {
		d.closers[i]()
	}
}

// openDeps opens the server's dependencies. With Redis, one client serves
// the room store, the limiter and the login sessions. Its errors mean a
// dependency is unreachable or refused us.
func openDeps(ctx context.Context, s serveSettings, log *slog.Logger) (_ *deps, err error) {
	d := &deps{}
	defer func() {
		if err != nil {
			d.close()
		}
	}()
	var client redis.UniversalClient
	if s.redis != nil {
		var mode redisstore.Mode
		if client, mode, err = redisstore.NewClient(ctx, *s.redis); err != nil {
			return nil, err
		}
		d.closers = append(d.closers, func() { client.Close() })
		d.storeKind = mode.StoreName()
		d.limiter, d.sockets = redisstore.NewLimiter(client, s.redisPrefix), redisstore.NewSockets(client, s.redisPrefix, 0)
	}
	var closeStore func()
	d.st, closeStore = newStore(s.serveConfig, client)
	d.closers = append(d.closers, closeStore)
	if client == nil {
		d.storeKind = "memory"
	}
	if m, ok := d.st.(interface {
		MigrateBots(context.Context) (int, error)
	}); ok {
		// Bots that an earlier version listed in its sets of bot rooms
		// join the due-time index (docs/deploy.md, "Upgrading").
		if n, err := m.MigrateBots(ctx); err != nil {
			log.Error("moving bots from the earlier sets of bot rooms failed; they wait for the next start", "err", err)
		} else if n > 0 {
			log.Info("bots moved from the earlier sets of bot rooms to the due-time index", "bots", n)
		}
	}
	var closeAccounts func()
	if d.acct, d.sessions, closeAccounts, err = openAccounts(ctx, s.serveConfig, client, log); err != nil {
		return nil, err
	}
	d.closers = append(d.closers, closeAccounts)
	if s.fairplay {
		if d.fair, err = openFairplay(ctx, s.serveConfig, d.acct, log); err != nil {
			return nil, err
		}
	}
	if d.queue, err = openQueue(ctx, d.acct, log); err != nil {
		return nil, err
	}
	return d, nil
}

// options are the server's options from the settings and the opened
// dependencies.
func (s serveSettings) options(d *deps, log *slog.Logger) server.Options {
	o := server.Options{
		SignupRate: s.signups, AllowLinkedAccounts: s.allowLinkedAccounts, RatedProbation: s.ratedProbation,
		Store: d.st, Logger: log, Pages: pages(log, d.acct, d.st), AllowedOrigins: s.origins, BaseURL: s.baseURL, FinishedTTL: s.finishedTTL,
		ReadyWithin: s.readyWithin, TournamentTTL: s.tournamentTTL, Schedule: s.schedule,
		Accounts: d.acct, Sessions: d.sessions,
		Limits: s.limits, Limiter: d.limiter, Sockets: d.sockets, MetricsElsewhere: s.metricsAddr != "", MaxDelayed: s.maxDelayed, PingEvery: s.pingEvery,
		HTTP:     server.HTTPTimeouts{ReadHeader: s.readHeaderTimeout, Read: s.readTimeout, Write: s.writeTimeout, Idle: s.idleTimeout},
		Fairplay: d.fair, FairplayWorkers: s.fairplayWorkers, FairplayCPU: s.fairplayCPU, NoQueueWork: !s.queueWork, Queue: d.queue,
	}
	s.solver.apply(&o)
	return o
}

// openAccounts opens the PostgreSQL store (applying its migrations) when
// --database is set, otherwise accounts live in memory and the log says
// so; and the session store: Redis (client) when Redis is configured (a login
// survives a restart and works on every instance), else PostgreSQL with
// --database, else memory.
func openAccounts(ctx context.Context, c serveConfig, client redis.UniversalClient, log *slog.Logger) (accounts.Store, scs.Store, func(), error) {
	var (
		acct     accounts.Store
		sessions scs.Store
		closers  []func()
	)
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	if c.databaseURL == "" {
		log.Warn("no --database: accounts, ratings and the archive are kept in memory and lost when the server stops")
		acct = inmem.New()
	} else {
		octx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		pg, err := postgres.OpenTimeout(octx, c.databaseURL, c.dbTimeout, log)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--database: %w", err)
		}
		log.Info("accounts in PostgreSQL")
		acct = pg
		sessions = pgxstore.NewWithCleanupInterval(pg.Pool(), 0)
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			t := time.NewTicker(5 * time.Minute)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					// Its own deadline, longer than a request's call.
					dctx, cancel := context.WithTimeout(dbwait.Unbounded(context.Background()), 30*time.Second)
					if _, err := pg.DeleteExpiredSessions(dctx); err != nil {
						log.Warn("session cleanup", "err", err)
					}
					cancel()
				}
			}
		}()
		closers = append(closers, pg.Close, func() {
			close(stop)
			<-done
		})
	}
	if client != nil {
		sessions = redissession.New(client, c.redisPrefix)
		log.Info("login sessions in Redis")
	}
	return acct, sessions, closeAll, nil
}

// openStore opens the room store alone, as load-server runs it: the
// in-memory store, or the Redis store when a URL or addresses are
// configured; the store's name for the start-up log ("memory", "redis",
// "redis-cluster" or "redis-sentinel"); and what closes it and its client.
func openStore(ctx context.Context, c serveConfig) (store.Store, string, func(), error) {
	if c.redisURL == "" && c.redisAddrs == "" {
		st, closeStore := newStore(c, nil)
		return st, "memory", closeStore, nil
	}
	cfg, err := redisConfig(c)
	if err != nil {
		return nil, "", nil, err
	}
	client, mode, err := redisstore.NewClient(ctx, cfg)
	if err != nil {
		return nil, "", nil, err
	}
	st, closeStore := newStore(c, client)
	return st, mode.StoreName(), func() {
		closeStore()
		client.Close()
	}, nil
}

// newStore is the room store: in memory when client is nil, else in
// Redis through client. Closing it leaves the client open (its owner
// closes it).
func newStore(c serveConfig, client redis.UniversalClient) (store.Store, func()) {
	if client == nil {
		st := memstore.New(memstore.Options{RoomTTL: c.roomTTL, Replay: fold.Replay})
		return st, func() { st.Close() }
	}
	st := redisstore.New(client, redisstore.Options{Prefix: c.redisPrefix, RoomTTL: c.roomTTL, WaitReplicas: c.redisWaitReplicas, Replay: fold.Replay})
	return st, func() { st.Close() }
}

// redisConfig builds the client configuration: a single node from
// --redis; a Cluster when --redis-addrs names several nodes, or one node
// that says it is a Cluster node, or with --redis-mode cluster; Sentinel
// with --redis-master. Credentials, database and TLS come from --redis.
func redisConfig(c serveConfig) (redisstore.ClientConfig, error) {
	mode, err := redisstore.ParseMode(c.redisMode)
	if err != nil {
		return redisstore.ClientConfig{}, fmt.Errorf("--redis-mode: %v", err)
	}
	cfg := redisstore.ClientConfig{
		Mode: mode, MasterName: c.redisMaster, SentinelPassword: c.redisSentinelPassword,
		ClusterReload: c.redisClusterReload,
	}
	if c.redisURL != "" {
		opt, err := redis.ParseURL(c.redisURL)
		if err != nil {
			return cfg, fmt.Errorf("--redis: %v", err)
		}
		cfg.Addrs = []string{opt.Addr}
		cfg.Username, cfg.Password, cfg.DB, cfg.TLS = opt.Username, opt.Password, opt.DB, opt.TLSConfig
	}
	if c.redisAddrs != "" {
		cfg.Addrs = nil
		for _, a := range strings.Split(c.redisAddrs, ",") {
			if a = strings.TrimSpace(a); a != "" {
				cfg.Addrs = append(cfg.Addrs, a)
			}
		}
	}
	if len(cfg.Addrs) == 0 {
		return cfg, fmt.Errorf("--redis-addrs: no address")
	}
	switch {
	case mode == redisstore.ModeSentinel && cfg.MasterName == "":
		return cfg, fmt.Errorf("--redis-mode sentinel needs --redis-master")
	case mode != redisstore.ModeSentinel && mode != redisstore.ModeAuto && cfg.MasterName != "":
		return cfg, fmt.Errorf("--redis-master is for --redis-mode sentinel, not %s", mode)
	case mode == redisstore.ModeSingle && len(cfg.Addrs) > 1:
		return cfg, fmt.Errorf("--redis-mode single takes one address, not %d", len(cfg.Addrs))
	case cfg.MasterName == "" && (mode == redisstore.ModeCluster || len(cfg.Addrs) > 1) && cfg.DB != 0:
		return cfg, fmt.Errorf("--redis: Redis Cluster has only database 0")
	}
	return cfg, nil
}

// envCount returns the environment variable's integer value, or def.
func envCount(e env, key string, def int) int {
	if v := e.getenv(key); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

// isTerminal reports whether w is a terminal (a character device), where
// a person reads the logs.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// logHandler is the server's log handler: text for a person at a
// terminal, JSON for a machine (a file, a pipe, a container's log), as
// format (auto, text, json) says.
func logHandler(w io.Writer, format string, terminal bool, level slog.Level) (slog.Handler, error) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "auto":
		if terminal {
			return slog.NewTextHandler(w, opts), nil
		}
		return slog.NewJSONHandler(w, opts), nil
	case "text":
		return slog.NewTextHandler(w, opts), nil
	case "json":
		return slog.NewJSONHandler(w, opts), nil
	}
	return nil, fmt.Errorf("%q: want auto, text or json", format)
}

// siteURL is where to open the site: the base URL when there is one, else
// the listening address, with localhost for an address that listens on
// every interface.
func siteURL(addr, baseURL string) string {
	if baseURL != "" {
		return baseURL
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
