package cli

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/limit"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

func TestRedisOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       serveConfig
		addrs   int
		master  string
		db      int
		mode    redisstore.Mode
		wantErr bool
	}{
		{name: "single node", c: serveConfig{redisURL: "redis://127.0.0.1:6379/2"}, addrs: 1, db: 2},
		{name: "cluster", c: serveConfig{redisAddrs: "10.0.0.1:6379, 10.0.0.2:6379,10.0.0.3:6379"}, addrs: 3},
		{name: "cluster from one seed", c: serveConfig{redisAddrs: "10.0.0.1:6379", redisMode: "cluster"}, addrs: 1, mode: redisstore.ModeCluster},
		{name: "sentinel", c: serveConfig{redisAddrs: "s1:26379,s2:26379", redisMaster: "golf", redisURL: "redis://:pw@x:1/1"}, addrs: 2, master: "golf", db: 1},
		{name: "sentinel mode", c: serveConfig{redisAddrs: "s1:26379", redisMaster: "golf", redisMode: "sentinel", redisSentinelPassword: "spw"}, addrs: 1, master: "golf", mode: redisstore.ModeSentinel},
		{name: "cluster has no database 3", c: serveConfig{redisURL: "redis://h:1/3", redisAddrs: "a:1,b:1"}, wantErr: true},
		{name: "cluster mode has no database 3", c: serveConfig{redisURL: "redis://h:1/3", redisMode: "cluster"}, wantErr: true},
		{name: "bad url", c: serveConfig{redisURL: "http://nope"}, wantErr: true},
		{name: "bad mode", c: serveConfig{redisURL: "redis://h:1", redisMode: "mesh"}, wantErr: true},
		{name: "sentinel without master", c: serveConfig{redisAddrs: "s1:1", redisMode: "sentinel"}, wantErr: true},
		{name: "single with two nodes", c: serveConfig{redisAddrs: "a:1,b:1", redisMode: "single"}, wantErr: true},
		{name: "master name in cluster mode", c: serveConfig{redisAddrs: "a:1", redisMode: "cluster", redisMaster: "m"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := redisConfig(tt.c)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if len(cfg.Addrs) != tt.addrs || cfg.MasterName != tt.master || cfg.DB != tt.db || cfg.Mode != tt.mode {
				t.Errorf("got %d addrs, master %q, db %d, mode %q", len(cfg.Addrs), cfg.MasterName, cfg.DB, cfg.Mode)
			}
			if cfg.SentinelPassword != tt.c.redisSentinelPassword {
				t.Errorf("sentinel password %q, want %q", cfg.SentinelPassword, tt.c.redisSentinelPassword)
			}
		})
	}
}

// TestServeStoreName starts serve on each Redis topology, given ONE
// address (a Cluster seed node, or one Sentinel), and checks that the
// start-up log names the store it built and that the store works: with one
// Cluster node, serve used to build a single-node client, which fails with
// MOVED on most rooms, and the log said "memory".
func TestServeStoreName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tp   redistest.Topology
		want string
	}{
		{redistest.All[0], `"store":"redis"`},
		{redistest.All[1], `"store":"redis-cluster"`},
		{redistest.All[2], `"store":"redis-sentinel"`},
	} {
		t.Run(tt.tp.Name, func(t *testing.T) {
			t.Parallel()
			cfg := tt.tp.Config(t)
			prefix := tt.tp.Prefix(t, "serve")
			vars := map[string]string{
				"GOLF_REDIS_ADDRS": cfg.Addrs[0], "GOLF_REDIS_MASTER": cfg.MasterName,
				"GOLF_REDIS_PREFIX": prefix, "GOLF_ADDR": "127.0.0.1:0",
			}
			var stderr syncBuffer
			e := env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return vars[k] }}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- runServe(ctx, nil, e) }()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("serve: %v", err)
				}
			}()
			addr := ""
			deadline := time.Now().Add(20 * time.Second)
			for addr == "" {
				for _, line := range strings.Split(stderr.String(), "\n") {
					if strings.Contains(line, `"msg":"listening"`) {
						if !strings.Contains(line, tt.want) {
							t.Fatalf("start-up log %s, want %s", line, tt.want)
						}
						var rec struct{ Addr string }
						if err := json.Unmarshal([]byte(line), &rec); err != nil {
							t.Fatal(err)
						}
						addr = rec.Addr
					}
				}
				if time.Now().After(deadline) {
					t.Fatalf("serve did not start: %s", stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			// Rooms land on every shard: each must be created.
			api := &client.API{BaseURL: "http://" + addr}
			for i := range 8 {
				if _, err := api.CreateRoom(ctx, nil, "Ada"); err != nil {
					t.Fatalf("room %d: %v", i, err)
				}
			}
		})
	}
}

// TestServerLimits: the limit flags as the server gets them: N/DURATION,
// off, 0 for no cap; a malformed one is a usage error naming the flag.
func TestServerLimits(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	c := serveConfig{limits: map[string]*string{"limit-rooms": str("20/1m"), "limit-hints": str("off")}, socketsPerClient: 32, spectators: 0, maxConns: 100}
	l, err := c.serverLimits()
	if err != nil {
		t.Fatal(err)
	}
	if l.Rooms != (limit.Rate{PerSecond: 20.0 / 60, Burst: 20}) || l.Hints.PerSecond != limit.Unlimited ||
		l.SocketsPerClient != 32 || l.SpectatorsPerRoom != limit.Unlimited || l.Connections != 100 {
		t.Errorf("limits %+v", l)
	}
	c.limits["limit-bots"] = str("lots")
	if _, err := c.serverLimits(); err == nil || !strings.Contains(err.Error(), "--limit-bots") {
		t.Errorf("bad flag: %v", err)
	}
}

// TestServeBadSchedule: a malformed --schedule stops serve with a usage
// error saying what is expected, before anything is opened.
func TestServeBadSchedule(t *testing.T) {
	t.Parallel()
	r := runCmd(t, "", "serve", "--addr", "127.0.0.1:0", "--schedule", "hourly,monthly")
	if r.code != 2 || !strings.Contains(r.err+r.stderr, "--schedule") || !strings.Contains(r.err+r.stderr, "hourly, daily and weekly") {
		t.Errorf("exit %d, err %q, stderr %q; want a usage error naming --schedule", r.code, r.err, r.stderr)
	}
}

// TestExitCodes: a wrong command line is a usage error (2) and nothing is
// opened; a dependency that cannot be reached is exit 3, so a supervisor
// can tell "fix the configuration" from "wait and retry" (docs/deploy.md).
// (Before, serve exited 2 when Redis was unreachable.)
func TestExitCodes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown command", []string{"serv"}, ExitUsage, "unknown command"},
		{"unknown flag", []string{"serve", "--nope"}, ExitUsage, ""},
		{"bad log level", []string{"serve", "--addr", "127.0.0.1:0", "--log-level", "loud"}, ExitUsage, "--log-level"},
		{"bad schedule", []string{"serve", "--addr", "127.0.0.1:0", "--schedule", "fortnightly"}, ExitUsage, "--schedule"},
		{"negative fair-play workers", []string{"serve", "--addr", "127.0.0.1:0", "--fairplay-workers", "-1"}, ExitUsage, "--fairplay-workers"},
		{"fair-play CPU over the whole", []string{"serve", "--addr", "127.0.0.1:0", "--fairplay-cpu", "1.5"}, ExitUsage, "--fairplay-cpu"},
		{"fair-play CPU not a number", []string{"serve", "--addr", "127.0.0.1:0", "--fairplay-cpu", "NaN"}, ExitUsage, "--fairplay-cpu"},
		{"unknown fair-play analysis", []string{"serve", "--addr", "127.0.0.1:0", "--fairplay-analysis", "fast"}, ExitUsage, "--fairplay-analysis"},
		{"unknown fair-play escalation", []string{"serve", "--addr", "127.0.0.1:0", "--fairplay-escalation", "on"}, ExitUsage, "--fairplay-escalation"},
		{"bad redis url", []string{"serve", "--addr", "127.0.0.1:0", "--redis", "http://nope"}, ExitUsage, "--redis"},
		{"redis unreachable", []string{"serve", "--addr", "127.0.0.1:0", "--redis", "redis://127.0.0.1:1/0"}, ExitUnavailable, "serve:"},
		{"database unreachable", []string{"serve", "--addr", "127.0.0.1:0", "--database", "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=2"}, ExitUnavailable, "--database"},
		{"worker database unreachable", []string{"worker", "--database", "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=2"}, ExitUnavailable, "--database"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runCmd(t, "", tt.args...)
			if r.code != tt.code || !strings.Contains(r.err+r.stderr, tt.want) {
				t.Errorf("exit %d, error %q; want exit %d mentioning %q", r.code, r.err, tt.code, tt.want)
			}
		})
	}
}
