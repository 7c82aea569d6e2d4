package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/server"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
	"golfsolitaire/store/redisstore"
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
	logLevel       string
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
	fs.StringVar(&c.logLevel, "log-level", envDefault(e, "GOLF_LOG_LEVEL", "info"), "debug, info, warn or error (env GOLF_LOG_LEVEL)")
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
	log := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	st, err := openStore(c)
	if err != nil {
		return usageError("serve: %v", err)
	}
	defer st.Close()
	var origins []string
	for _, o := range strings.Split(c.allowedOrigins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, o)
		}
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	srv, err := server.New(server.Options{
		Store: st, Logger: log, Pages: pages(log), AllowedOrigins: origins, BaseURL: c.baseURL, FinishedTTL: c.finishedTTL,
		SelfURL: selfURL(ln.Addr()),
	})
	if err != nil {
		ln.Close()
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	storeKind := "memory"
	if c.redisURL != "" {
		storeKind = "redis"
	}
	log.Info("listening", "addr", ln.Addr().String(), "store", storeKind)
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

// openStore returns the in-memory store, or the Redis store when a URL is
// configured.
func openStore(c serveConfig) (store.Store, error) {
	if c.redisURL == "" && c.redisAddrs == "" {
		return memstore.New(memstore.Options{RoomTTL: c.roomTTL}), nil
	}
	uo, err := redisOptions(c)
	if err != nil {
		return nil, err
	}
	client := redis.NewUniversalClient(uo)
	return redisstore.New(client, redisstore.Options{Prefix: c.redisPrefix, RoomTTL: c.roomTTL}), nil
}

// redisOptions builds the client options: a single node from --redis; a
// Cluster when --redis-addrs names several nodes; Sentinel with
// --redis-master. Credentials, database and TLS come from --redis.
func redisOptions(c serveConfig) (*redis.UniversalOptions, error) {
	uo := &redis.UniversalOptions{MasterName: c.redisMaster}
	if c.redisURL != "" {
		opt, err := redis.ParseURL(c.redisURL)
		if err != nil {
			return nil, fmt.Errorf("--redis: %v", err)
		}
		uo.Addrs = []string{opt.Addr}
		uo.Username, uo.Password, uo.DB, uo.TLSConfig = opt.Username, opt.Password, opt.DB, opt.TLSConfig
	}
	if c.redisAddrs != "" {
		uo.Addrs = nil
		for _, a := range strings.Split(c.redisAddrs, ",") {
			if a = strings.TrimSpace(a); a != "" {
				uo.Addrs = append(uo.Addrs, a)
			}
		}
	}
	if len(uo.Addrs) == 0 {
		return nil, fmt.Errorf("--redis-addrs: no address")
	}
	if len(uo.Addrs) > 1 && uo.MasterName == "" && uo.DB != 0 {
		return nil, fmt.Errorf("--redis: Redis Cluster has only database 0")
	}
	return uo, nil
}

// selfURL is where the server's own bots connect: the listen address, on
// the loopback when it listens on every interface.
func selfURL(addr net.Addr) string {
	a, ok := addr.(*net.TCPAddr)
	if !ok {
		return ""
	}
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port))
}
