package main

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
	queueWork       bool

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

func envDuration(e env, key string, def time.Duration) time.Duration {
	if v := e.getenv(key); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}

func runServe(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c serveConfig
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
	fs.DurationVar(&c.pingEvery, "ws-ping", envDuration(e, "GOLF_WS_PING", 30*time.Second), "WebSocket ping interval; a socket whose pong is that late is closed (env GOLF_WS_PING)")
	fs.StringVar(&c.metricsAddr, "metrics-addr", envDefault(e, "GOLF_METRICS_ADDR", ""), "serve /metrics on this address only (e.g. 127.0.0.1:9090); empty: on --addr (env GOLF_METRICS_ADDR)")
	fs.IntVar(&c.maxDelayed, "spectator-queue", envInt(e, "GOLF_SPECTATOR_QUEUE", 2000), "messages a room holds back for its spectator delay (env GOLF_SPECTATOR_QUEUE)")
	fs.StringVar(&c.databaseURL, "database", envDefault(e, "DATABASE_URL", ""), "PostgreSQL URL for accounts, ratings, sessions and the archive, e.g. postgres://golf@127.0.0.1:5432/golf; empty keeps them in memory (env DATABASE_URL)")
	fs.DurationVar(&c.dbTimeout, "db-timeout", envDuration(e, "GOLF_DB_TIMEOUT", dbwait.DefaultTimeout), "how long one database call may wait (connecting included) before the request gets 503 unavailable (env GOLF_DB_TIMEOUT)")
	fs.BoolVar(&c.fairplay, "fairplay", envDefault(e, "GOLF_FAIRPLAY", "true") != "false", "analyse finished holes for fair play in the background (env GOLF_FAIRPLAY=false turns it off)")
	fs.IntVar(&c.fairplayWorkers, "fairplay-workers", envInt(e, "GOLF_FAIRPLAY_WORKERS", 0), "holes analysed for fair play at once by this process (env GOLF_FAIRPLAY_WORKERS; default 0: GOMAXPROCS-1, at least 1, leaving a core for rooms)")
	fs.BoolVar(&c.queueWork, "queue-work", envDefault(e, "GOLF_QUEUE_WORK", "true") != "false", "record rated results and analyse holes from the job queue here too; false leaves that to golf worker processes (env GOLF_QUEUE_WORK=false)")
	fs.StringVar(&c.moderatorToken, "moderator-token", envDefault(e, "GOLF_MODERATOR_TOKEN", ""), "token for GET /api/fairplay/flags (fairplay review); empty disables it (env GOLF_MODERATOR_TOKEN)")
	fs.StringVar(&c.redisMode, "redis-mode", envDefault(e, "GOLF_REDIS_MODE", ""), "single, cluster or sentinel; empty: sentinel with --redis-master, cluster with several --redis-addrs, else asks the one node (env GOLF_REDIS_MODE)")
	fs.StringVar(&c.redisSentinelPassword, "redis-sentinel-password", envDefault(e, "GOLF_REDIS_SENTINEL_PASSWORD", ""), "the Sentinels' own password, if they have one (env GOLF_REDIS_SENTINEL_PASSWORD)")
	fs.IntVar(&c.redisWaitReplicas, "redis-wait-replicas", envCount(e, "GOLF_REDIS_WAIT_REPLICAS", 0), "acknowledge a move only once this many replicas have it (Redis WAIT); 0: no WAIT (env GOLF_REDIS_WAIT_REPLICAS)")
	fs.DurationVar(&c.redisClusterReload, "redis-cluster-reload", envDuration(e, "GOLF_REDIS_CLUSTER_RELOAD", redisstore.DefaultClusterReload), "how often a Cluster client reloads the slot map while in use (also at once on MOVED and connection errors) (env GOLF_REDIS_CLUSTER_RELOAD)")
	fs.StringVar(&c.signupRate, "limit-signups", envDefault(e, "GOLF_LIMIT_SIGNUPS", "3/24h"), "accounts a client (address) may create, N/DURATION or off (env GOLF_LIMIT_SIGNUPS)")
	fs.BoolVar(&c.allowLinkedAccounts, "allow-linked-accounts", envDefault(e, "GOLF_ALLOW_LINKED_ACCOUNTS", "false") == "true", "let accounts that share a recent address or browser take seats of one rated game (a household behind one address, a private server); by default the second is refused (env GOLF_ALLOW_LINKED_ACCOUNTS=true)")
	fs.DurationVar(&c.ratedProbation, "rated-probation", envDuration(e, "GOLF_RATED_PROBATION", 24*time.Hour), "a new account plays rated games after 3 finished casual rounds or this long after sign-up; 0 turns the probation off (env GOLF_RATED_PROBATION)")
	solver := solverFlags(fs, e)
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("serve: unexpected argument %q", fs.Arg(0))
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return usageError("serve: --log-level: %v", err)
	}
	signups, err := limit.ParseRate(c.signupRate)
	if err != nil {
		return usageError("serve: --limit-signups: %v", err)
	}
	onTerminal := isTerminal(e.stderr)
	handler, err := logHandler(e.stderr, c.logFormat, onTerminal, level)
	if err != nil {
		return usageError("serve: --log-format: %v", err)
	}
	log := slog.New(handler)
	fs.Visit(func(f *flag.Flag) {
		if u, err := url.Parse(f.Value.String()); f.Name == "redis" && err == nil && u.User != nil {
			if _, has := u.User.Password(); !has {
				return
			}
			log.Warn("--redis carries a password, which every user of the machine can read in the process list; set REDIS_URL instead")
		}
	})

	limits, err := c.serverLimits()
	if err != nil {
		return usageError("serve: %v", err)
	}
	schedule, err := tourney.ParseSchedule(c.schedule)
	if err != nil {
		return usageError("serve: --schedule: %v", err)
	}
	if c.dbTimeout <= 0 {
		return usageError("serve: --db-timeout: %v is not a positive duration", c.dbTimeout)
	}
	st, storeKind, closeStore, err := openStore(ctx, c)
	if err != nil {
		return usageError("serve: %v", err)
	}
	defer closeStore()
	if m, ok := st.(interface {
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
	limiter, sockets, closeLimiter, err := openLimiter(ctx, c)
	if err != nil {
		return usageError("serve: %v", err)
	}
	defer closeLimiter()
	var origins []string
	for _, o := range strings.Split(c.allowedOrigins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	acct, sessions, closeAccounts, err := openAccounts(ctx, c, log)
	if err != nil {
		return err
	}
	defer closeAccounts()
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	var fair *server.Fairplay
	if c.fairplay {
		if fair, err = openFairplay(ctx, c, acct, log); err != nil {
			ln.Close()
			return err
		}
	}
	opts := server.Options{
		SignupRate: signups, AllowLinkedAccounts: c.allowLinkedAccounts, RatedProbation: c.ratedProbation,
		Store: st, Logger: log, Pages: pages(log, acct, st), AllowedOrigins: origins, BaseURL: c.baseURL, FinishedTTL: c.finishedTTL,
		ReadyWithin: c.readyWithin, TournamentTTL: c.tournamentTTL, Schedule: schedule,
		Accounts: acct, Sessions: sessions,
		Limits: limits, Limiter: limiter, Sockets: sockets, MetricsElsewhere: c.metricsAddr != "", MaxDelayed: c.maxDelayed, PingEvery: c.pingEvery,
		HTTP: server.HTTPTimeouts{ReadHeader: c.readHeaderTimeout, Read: c.readTimeout, Write: c.writeTimeout, Idle: c.idleTimeout},
	}
	solver.apply(&opts)
	opts.Fairplay = fair
	if c.fairplayWorkers < 0 {
		ln.Close()
		return usageError("serve: --fairplay-workers: %d is negative; want 0 (the default) or more", c.fairplayWorkers)
	}
	opts.FairplayWorkers, opts.NoQueueWork = c.fairplayWorkers, !c.queueWork
	if opts.Queue, err = openQueue(ctx, acct, log); err != nil {
		ln.Close()
		return err
	}
	srv, err := server.New(opts)
	if err != nil {
		ln.Close()
		return err
	}
	hs := srv.HTTPServer()
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	if c.metricsAddr != "" {
		mln, err := net.Listen("tcp", c.metricsAddr)
		if err != nil {
			ln.Close()
			return err
		}
		ms := &http.Server{Handler: srv.MetricsHandler(), ReadHeaderTimeout: 5 * time.Second, ErrorLog: hs.ErrorLog}
		go ms.Serve(mln)
		defer ms.Close()
		log.Info("metrics", "addr", mln.Addr().String())
	}
	log.Info("listening", "addr", ln.Addr().String(), "store", storeKind)
	if onTerminal {
		fmt.Fprintf(e.stderr, "\nGolf Solitaire is running. Open %s in your browser. Press Ctrl+C to stop it.\n\n", siteURL(ln.Addr().String(), c.baseURL))
	}
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

// openAccounts opens the PostgreSQL store (applying its migrations) when
// --database is set, otherwise accounts live in memory and the log says
// so; and the session store: Redis when Redis is configured (a login
// survives a restart and works on every instance), else PostgreSQL with
// --database, else memory.
func openAccounts(ctx context.Context, c serveConfig, log *slog.Logger) (accounts.Store, scs.Store, func(), error) {
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
			return nil, nil, nil, fmt.Errorf("serve: --database: %w", err)
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
	if c.redisURL != "" || c.redisAddrs != "" {
		cfg, err := redisConfig(c)
		if err == nil {
			var client redis.UniversalClient
			if client, _, err = redisstore.NewClient(ctx, cfg); err == nil {
				closers = append(closers, func() { client.Close() })
				sessions = redissession.New(client, c.redisPrefix)
				log.Info("login sessions in Redis")
			}
		}
		if err != nil {
			closeAll()
			return nil, nil, nil, fmt.Errorf("serve: sessions in Redis: %w", err)
		}
	}
	return acct, sessions, closeAll, nil
}

// openStore returns the in-memory store, or the Redis store when a URL or
// addresses are configured, the store's name for the start-up log
// ("memory", "redis", "redis-cluster" or "redis-sentinel"), and what closes
// it: the store and, for Redis, its client (redisstore.Store.Close leaves
// the client open; a client left open keeps its pool's and Sentinel's
// goroutines running).
func openStore(ctx context.Context, c serveConfig) (store.Store, string, func(), error) {
	if c.redisURL == "" && c.redisAddrs == "" {
		st := memstore.New(memstore.Options{RoomTTL: c.roomTTL, Replay: fold.Replay})
		return st, "memory", func() { st.Close() }, nil
	}
	cfg, err := redisConfig(c)
	if err != nil {
		return nil, "", nil, err
	}
	if c.redisWaitReplicas < 0 {
		return nil, "", nil, fmt.Errorf("--redis-wait-replicas: %d is negative", c.redisWaitReplicas)
	}
	client, mode, err := redisstore.NewClient(ctx, cfg)
	if err != nil {
		return nil, "", nil, err
	}
	st := redisstore.New(client, redisstore.Options{Prefix: c.redisPrefix, RoomTTL: c.roomTTL, WaitReplicas: c.redisWaitReplicas, Replay: fold.Replay})
	return st, mode.StoreName(), func() {
		st.Close()
		client.Close()
	}, nil
}

// openLimiter returns the shared (Redis) rate limiter and socket counter
// when Redis is configured, or nils: the server's own, in memory.
func openLimiter(ctx context.Context, c serveConfig) (limit.Limiter, limit.SocketCounter, func(), error) {
	if c.redisURL == "" && c.redisAddrs == "" {
		return nil, nil, func() {}, nil
	}
	cfg, err := redisConfig(c)
	if err != nil {
		return nil, nil, nil, err
	}
	client, _, err := redisstore.NewClient(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	return redisstore.NewLimiter(client, c.redisPrefix), redisstore.NewSockets(client, c.redisPrefix, 0), func() { client.Close() }, nil
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
