package redisstore

import (
	"context"
	"crypto/tls"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Mode is how the servers reach Redis.
type Mode string

const (
	// ModeAuto asks the one node given whether it is a Cluster node
	// (INFO cluster); several addresses without a master name are a
	// Cluster; a master name is Sentinel.
	ModeAuto Mode = ""
	// ModeSingle is one Redis node (with or without replicas of its own).
	ModeSingle Mode = "single"
	// ModeCluster is a Redis Cluster: the addresses are seed nodes (one is
	// enough; the client learns the others).
	ModeCluster Mode = "cluster"
	// ModeSentinel is a master watched by Sentinels: the addresses are the
	// Sentinels'.
	ModeSentinel Mode = "sentinel"
)

// ParseMode reads "single", "cluster", "sentinel" or "" (auto).
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case ModeAuto, ModeSingle, ModeCluster, ModeSentinel:
		return m, nil
	case "auto":
		return ModeAuto, nil
	}
	return "", fmt.Errorf("redis mode %q: want single, cluster or sentinel", s)
}

// StoreName is how the start-up log names the store of a mode:
// "redis", "redis-cluster" or "redis-sentinel".
func (m Mode) StoreName() string {
	switch m {
	case ModeCluster:
		return "redis-cluster"
	case ModeSentinel:
		return "redis-sentinel"
	}
	return "redis"
}

// DefaultClusterReload is how often a Cluster client reloads the slot map
// while it sends commands (besides at once on MOVED, READONLY and
// connection errors).
const DefaultClusterReload = time.Second

// ClientConfig says how to reach Redis.
type ClientConfig struct {
	Mode  Mode
	Addrs []string
	// MasterName is the Sentinel master's name (Sentinel only).
	MasterName string
	// Username, Password: the Redis nodes' credentials. SentinelPassword
	// (and SentinelUsername) are the Sentinels' own, when they have one.
	Username, Password                 string
	SentinelUsername, SentinelPassword string
	// DB is the database (not on a Cluster, which has only 0).
	DB  int
	TLS *tls.Config
	// ClusterReload is how often a Cluster client reloads its slot map
	// while it is used; 0 means DefaultClusterReload.
	ClusterReload time.Duration
}

// NewClient builds the client for cfg, asking the node in ModeAuto with one
// address whether it is a Cluster node (at most detectTimeout). It returns
// the client and the mode it chose. A Cluster client reloads its slot map
// every ClusterReload while in use and at once after a MOVED, READONLY or
// connection error, so a failover costs the time Redis takes to promote a
// replica, not the client's default minute.
func NewClient(ctx context.Context, cfg ClientConfig) (redis.UniversalClient, Mode, error) {
	if len(cfg.Addrs) == 0 {
		return nil, "", fmt.Errorf("redis: no address")
	}
	mode := cfg.Mode
	if mode == ModeAuto {
		var err error
		if mode, err = detect(ctx, cfg); err != nil {
			return nil, "", err
		}
	}
	switch mode {
	case ModeSentinel:
		if cfg.MasterName == "" {
			return nil, "", fmt.Errorf("redis: Sentinel needs the master's name")
		}
		return redis.NewFailoverClient(&redis.FailoverOptions{
			MasterName: cfg.MasterName, SentinelAddrs: ownAddrs(cfg.Addrs),
			SentinelUsername: cfg.SentinelUsername, SentinelPassword: cfg.SentinelPassword,
			Username: cfg.Username, Password: cfg.Password, DB: cfg.DB, TLSConfig: cfg.TLS,
		}), mode, nil
	case ModeCluster:
		if cfg.DB != 0 {
			return nil, "", fmt.Errorf("redis: a Redis Cluster has only database 0, not %d", cfg.DB)
		}
		reload := cfg.ClusterReload
		if reload <= 0 {
			reload = DefaultClusterReload
		}
		c := redis.NewClusterClient(&redis.ClusterOptions{
			Addrs: ownAddrs(cfg.Addrs), Username: cfg.Username, Password: cfg.Password, TLSConfig: cfg.TLS,
			ClusterStateReloadInterval: reload,
		})
		c.AddHook(reloadHook{c})
		return c, mode, nil
	case ModeSingle:
		if len(cfg.Addrs) > 1 {
			return nil, "", fmt.Errorf("redis: single mode takes one address, not %d", len(cfg.Addrs))
		}
		return redis.NewClient(&redis.Options{
			Addr: cfg.Addrs[0], Username: cfg.Username, Password: cfg.Password, DB: cfg.DB, TLSConfig: cfg.TLS,
		}), mode, nil
	}
	return nil, "", fmt.Errorf("redis: unknown mode %q", mode)
}

// ownAddrs is a copy of addrs with no spare capacity, for one client
// alone. go-redis keeps the slice it is given and appends the nodes it
// learns to it; two clients made from one slice with room to spare wrote
// into the same array (a data race seen in CI).
func ownAddrs(addrs []string) []string { return slices.Clip(slices.Clone(addrs)) }

// detectTimeout bounds the INFO that tells a Cluster node from a single one.
const detectTimeout = 3 * time.Second

// detect picks the mode of an auto configuration.
func detect(ctx context.Context, cfg ClientConfig) (Mode, error) {
	switch {
	case cfg.MasterName != "":
		return ModeSentinel, nil
	case len(cfg.Addrs) > 1:
		return ModeCluster, nil
	}
	c := redis.NewClient(&redis.Options{
		Addr: cfg.Addrs[0], Username: cfg.Username, Password: cfg.Password, TLSConfig: cfg.TLS,
		MaxRetries: -1,
	})
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, detectTimeout)
	defer cancel()
	info, err := c.Info(ctx, "cluster").Result()
	if err != nil {
		return "", fmt.Errorf("redis: asking %s whether it is a Cluster node (give --redis-mode to skip this): %w", cfg.Addrs[0], err)
	}
	if strings.Contains(info, "cluster_enabled:1") {
		return ModeCluster, nil
	}
	return ModeSingle, nil
}

// reloadHook makes a Cluster client reload its slot map when a command
// fails to reach its node: go-redis reloads on MOVED and READONLY but not
// on a refused connection, and a killed master refuses connections until
// the client learns that its replica took over. ReloadState is lazy and
// rate-limited by go-redis, so a burst of failures costs one reload.
type reloadHook struct{ c *redis.ClusterClient }

// DialHook: a Cluster client dials through its nodes' clients, not its own
// hooks; a failed dial shows up as the command's error.
func (h reloadHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h reloadHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if err != nil && unavailable(err) {
			h.c.ReloadState(context.WithoutCancel(ctx))
		}
		return err
	}
}

func (h reloadHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		if err != nil && unavailable(err) {
			h.c.ReloadState(context.WithoutCancel(ctx))
		}
		return err
	}
}
