package cli

import (
	"context"
	crand "crypto/rand"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"golfsolitaire/accounts/postgres"
	"golfsolitaire/fairplay"
	fpostgres "golfsolitaire/fairplay/postgres"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/results"
	"golfsolitaire/server"
	"golfsolitaire/store/redisstore"
)

// workerConfig is `golf worker`'s configuration: flags with environment
// fallbacks, named as serve's.
type workerConfig struct {
	serve           serveConfig // the database and Redis parts
	resultWorkers   int
	fairplayWorkers int
	fairplay        bool
	metricsAddr     string
	logLevel        string
}

// runWorker is `golf worker`: it works the job queue that every `golf
// serve` instance writes to (rated results to record, finished holes to
// analyse for fair play), so that analysis can run on machines of its
// own. It needs the servers' database; with their Redis it also relays
// the rooms' outbox and asks the servers to update held marks.
func runWorker(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c workerConfig
	fs.StringVar(&c.serve.databaseURL, "database", envDefault(e, "DATABASE_URL", ""), "the servers' PostgreSQL URL, where the job queue, accounts and fair-play evidence are (required) (env DATABASE_URL)")
	fs.StringVar(&c.serve.redisURL, "redis", envDefault(e, "REDIS_URL", ""), "the servers' Redis URL: relay their outbox and update held marks from here too; empty: the servers do (env REDIS_URL)")
	fs.StringVar(&c.serve.redisAddrs, "redis-addrs", envDefault(e, "GOLF_REDIS_ADDRS", ""), "comma-separated Redis Cluster nodes or Sentinels, as for serve (env GOLF_REDIS_ADDRS)")
	fs.StringVar(&c.serve.redisMaster, "redis-master", envDefault(e, "GOLF_REDIS_MASTER", ""), "Sentinel master name (env GOLF_REDIS_MASTER)")
	fs.StringVar(&c.serve.redisPrefix, "redis-prefix", envDefault(e, "GOLF_REDIS_PREFIX", "golf:"), "prefix of every Redis key, as the servers' (env GOLF_REDIS_PREFIX)")
	fs.StringVar(&c.serve.redisMode, "redis-mode", envDefault(e, "GOLF_REDIS_MODE", ""), "single, cluster or sentinel, as for serve (env GOLF_REDIS_MODE)")
	fs.StringVar(&c.serve.redisSentinelPassword, "redis-sentinel-password", envDefault(e, "GOLF_REDIS_SENTINEL_PASSWORD", ""), "the Sentinels' own password (env GOLF_REDIS_SENTINEL_PASSWORD)")
	fs.BoolVar(&c.fairplay, "fairplay", envDefault(e, "GOLF_FAIRPLAY", "true") != "false", "analyse finished holes for fair play (env GOLF_FAIRPLAY=false: record results only)")
	fs.StringVar(&c.serve.fairplayAnalysis, "fairplay-analysis", envDefault(e, "GOLF_FAIRPLAY_ANALYSIS", "default"), "the fair-play analysis setting, as the servers': default or full (env GOLF_FAIRPLAY_ANALYSIS)")
	fs.StringVar(&c.serve.fairplayEscalation, "fairplay-escalation", envDefault(e, "GOLF_FAIRPLAY_ESCALATION", "default"), "the fair-play escalation, as the servers': default, off, or the level in nats (env GOLF_FAIRPLAY_ESCALATION)")
	fs.IntVar(&c.fairplayWorkers, "fairplay-workers", envInt(e, "GOLF_FAIRPLAY_WORKERS", 0), "holes analysed at once (env GOLF_FAIRPLAY_WORKERS; default 0: GOMAXPROCS-1, at least 1)")
	fs.IntVar(&c.resultWorkers, "result-workers", envInt(e, "GOLF_RESULT_WORKERS", 2), "rated results recorded at once (env GOLF_RESULT_WORKERS)")
	fs.StringVar(&c.metricsAddr, "metrics-addr", envDefault(e, "GOLF_METRICS_ADDR", ""), "serve /metrics on this address, e.g. 127.0.0.1:9091; empty: none (env GOLF_METRICS_ADDR)")
	fs.StringVar(&c.logLevel, "log-level", envDefault(e, "GOLF_LOG_LEVEL", "info"), "debug, info, warn or error (env GOLF_LOG_LEVEL)")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("worker: unexpected argument %q", fs.Arg(0))
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return usageError("worker: --log-level: %v", err)
	}
	switch {
	case c.serve.databaseURL == "":
		return usageError("worker: --database is required: the job queue is in the servers' PostgreSQL")
	case c.fairplayWorkers < 0:
		return usageError("worker: --fairplay-workers: %d is negative; want 0 (the default) or more", c.fairplayWorkers)
	case c.resultWorkers < 1:
		return usageError("worker: --result-workers: %d; want 1 or more", c.resultWorkers)
	case analysisFlagsErr(c.serve) != nil:
		return usageError("worker: %v", analysisFlagsErr(c.serve))
	}
	log := slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	acct, err := postgres.Open(octx, c.serve.databaseURL, log)
	if err != nil {
		return unavailableError(fmt.Errorf("worker: --database: %w", err))
	}
	defer acct.Close()
	q, err := openQueue(ctx, acct, log)
	if err != nil {
		return unavailableError(fmt.Errorf("worker: %w", err))
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	o := results.PipelineOptions{Queue: q, Work: true, Accounts: acct, ResultWorkers: c.resultWorkers,
		FairplayWorkers: server.FairplayWorkers(c.fairplayWorkers), Registerer: reg, Logger: log}
	if c.serve.redisURL != "" || c.serve.redisAddrs != "" {
		cfg, err := redisConfig(c.serve)
		if err != nil {
			return usageError("worker: %v", err)
		}
		client, _, err := redisstore.NewClient(ctx, cfg)
		if err != nil {
			return unavailableError(fmt.Errorf("worker: --redis: %w", err))
		}
		defer client.Close()
		st := redisstore.New(client, redisstore.Options{Prefix: c.serve.redisPrefix})
		defer st.Close()
		o.Outbox = st
		o.Marks = func(ctx context.Context, room, tournament string) {
			// The servers hold the rooms: one of them checks the marks.
			if err := st.Notify(ctx, server.HeldMarksTopic, []byte(server.HeldMarksNotice(room, tournament))); err != nil {
				log.Warn("held marks: the servers were not told", "room", room, "tournament", tournament, "err", err)
			}
		}
	}
	if c.fairplay {
		fst, err := fpostgres.New(octx, acct.Pool(), log)
		if err != nil {
			return fmt.Errorf("worker: --database: %w", err)
		}
		o.Holds, o.Measure = workerHolds(reg, fst, acct, c.serve.fairplayAnalysis, c.serve.fairplayEscalation, log)
	}
	if c.metricsAddr != "" {
		ln, err := net.Listen("tcp", c.metricsAddr)
		if err != nil {
			return fmt.Errorf("worker: --metrics-addr: %w", err)
		}
		ms := &http.Server{Handler: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), ReadHeaderTimeout: 5 * time.Second}
		go ms.Serve(ln)
		defer ms.Close()
		log.Info("metrics", "addr", ln.Addr().String())
	}
	log.Info("working the job queue", "fairplay", c.fairplay, "fairplayWorkers", o.FairplayWorkers, "resultWorkers", c.resultWorkers, "relay", o.Outbox != nil)
	results.NewPipeline(o).Run(ctx)
	log.Info("worker stopped")
	if err := ctx.Err(); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// workerHolds are the fair-play holds of a worker, with the metrics the
// servers have (docs/deploy.md), and a key of its own for the analysis's
// sampler; and how each analysis is run, its CPU time counted.
func workerHolds(reg prometheus.Registerer, st fairplay.Store, acct *postgres.Store, analysis, escalation string, log *slog.Logger) (*review.Holds, func(func()) time.Duration) {
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		reg.MustRegister(c)
		return c
	}
	cfg, _ := fairplay.ConfigNamed(analysis) // checked with the flags
	crand.Read(cfg.Key[:])
	esc, _ := fairplay.EscalationNamed(escalation) // checked with the flags
	cpu := prometheus.NewCounter(prometheus.CounterOpts{Name: server.FairplayCPUMetric, Help: server.FairplayCPUHelp})
	reg.MustRegister(cpu)
	return review.New(review.Options{Store: st, Accounts: acct, Config: cfg, Escalation: esc, Rule: fairplay.DefaultRule, Logger: log, Now: func() time.Time { return time.Now().UTC() },
		Held:     counter("golf_fairplay_held_total", "Rated rounds held for review (a player in them was flagged)."),
		Voided:   counter("golf_fairplay_voided_total", "Rated rounds voided at once (a player's unfair play was confirmed)."),
		Analysed: counter("golf_fairplay_analysed_total", "Finished holes analysed for fair play."),
		Flagged:  counter("golf_fairplay_flags_total", "Players flagged for review."),
		Failed:   counter("golf_fairplay_failed_total", "Fair-play analyses that failed (bad record or store error)."),
		Deep:     counter("golf_fairplay_escalated_total", "Finished holes analysed with the escalation's deeper setting (the player's evidence before the hole was at or above its level)."),
	}), server.MeasureAnalysis(cpu)
}
