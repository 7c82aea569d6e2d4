package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// serveConfig is the server's configuration: flags, each with an
// environment variable as fallback.
type serveConfig struct {
	addr     string
	redisURL string
	logLevel string
}

// envDefault returns the environment variable's value, or def.
func envDefault(e env, key, def string) string {
	if v := e.getenv(key); v != "" {
		return v
	}
	return def
}

func runServe(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c serveConfig
	fs.StringVar(&c.addr, "addr", envDefault(e, "GOLF_ADDR", ":8080"), "listen address (env GOLF_ADDR)")
	fs.StringVar(&c.redisURL, "redis", envDefault(e, "REDIS_URL", ""), "Redis URL; empty keeps rooms in memory (env REDIS_URL)")
	fs.StringVar(&c.logLevel, "log-level", envDefault(e, "GOLF_LOG_LEVEL", "info"), "debug, info, warn or error (env GOLF_LOG_LEVEL)")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return usageError("serve: --log-level: %v", err)
	}
	log := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintln(w, "<!doctype html><title>Golf Solitaire</title><h1>Golf Solitaire</h1>")
	})
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("listening", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
