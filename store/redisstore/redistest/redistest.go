// Package redistest gives tests the Redis topologies CI runs (.ci/run
// starts them): the single node at REDIS_URL, the Redis Cluster at
// REDIS_CLUSTER_ADDRS and the Sentinel master REDIS_SENTINEL_MASTER watched
// by the Sentinels at REDIS_SENTINEL_ADDRS. A test on a topology whose
// variable is not set is skipped with a loud log, or fails when CI is set.
// Every test gets a key prefix of its own ("golftest:<random>:"); its keys
// are deleted when it ends, on every master.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store/redisstore"
)

// Topology is one way to run Redis.
type Topology struct {
	// Name is "redis", "cluster" or "sentinel" (subtest names).
	Name string
	// Mode is the client mode.
	Mode redisstore.Mode
	// Env names the environment variable that must be set.
	Env string
}

// All are the topologies, single node first.
var All = []Topology{
	{Name: "redis", Mode: redisstore.ModeSingle, Env: "REDIS_URL"},
	{Name: "cluster", Mode: redisstore.ModeCluster, Env: "REDIS_CLUSTER_ADDRS"},
	{Name: "sentinel", Mode: redisstore.ModeSentinel, Env: "REDIS_SENTINEL_ADDRS"},
}

// Config returns the client configuration of the topology, skipping the
// test (loudly) when its environment variable is not set, or failing it
// when CI is set.
func (tp Topology) Config(t testing.TB) redisstore.ClientConfig {
	t.Helper()
	v := os.Getenv(tp.Env)
	if v == "" {
		msg := fmt.Sprintf("SKIP: %s not set, so this test does not run on Redis %s (run .ci/run, or bash .ci/redis-ha and export what it prints)", tp.Env, tp.Name)
		if os.Getenv("CI") != "" {
			t.Fatal(msg + "; CI is set: failing")
		}
		t.Log(msg)
		fmt.Fprintln(os.Stderr, "redistest: "+msg)
		t.SkipNow()
	}
	cfg := redisstore.ClientConfig{Mode: tp.Mode}
	switch tp.Mode {
	case redisstore.ModeSingle:
		opts, err := redis.ParseURL(v)
		if err != nil {
			t.Fatalf("REDIS_URL: %v", err)
		}
		cfg.Addrs = []string{opts.Addr}
		cfg.Username, cfg.Password, cfg.DB, cfg.TLS = opts.Username, opts.Password, opts.DB, opts.TLSConfig
	case redisstore.ModeCluster:
		cfg.Addrs = split(v)
		waitClusterOK(t, cfg.Addrs)
	case redisstore.ModeSentinel:
		cfg.Addrs = split(v)
		cfg.MasterName = os.Getenv("REDIS_SENTINEL_MASTER")
		if cfg.MasterName == "" {
			t.Fatal("REDIS_SENTINEL_ADDRS is set but REDIS_SENTINEL_MASTER is not")
		}
	}
	return cfg
}

func split(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// Client returns a new client of the topology, closed when the test ends.
func (tp Topology) Client(t testing.TB) redis.UniversalClient {
	t.Helper()
	return NewClient(t, tp.Config(t))
}

// NewClient returns a new client for cfg, closed when the test ends.
func NewClient(t testing.TB, cfg redisstore.ClientConfig) redis.UniversalClient {
	t.Helper()
	c, _, err := redisstore.NewClient(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Prefix returns a new key prefix "golftest:<name>:<random>:" whose keys
// are deleted, on every master, when the test ends (the cleanup is
// registered now, so it runs after the cleanups of stores and clients
// made later).
func (tp Topology) Prefix(t testing.TB, name string) string {
	t.Helper()
	cfg := tp.Config(t)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	p := "golftest:" + name + ":" + hex.EncodeToString(b) + ":"
	t.Cleanup(func() { DeletePrefix(t, cfg, p) })
	return p
}

// DeletePrefix deletes every key under prefix (on each master of a
// Cluster).
func DeletePrefix(t testing.TB, cfg redisstore.ClientConfig, prefix string) {
	c, _, err := redisstore.NewClient(context.Background(), cfg)
	if err != nil {
		t.Errorf("cleanup of %s*: %v", prefix, err)
		return
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	del := func(ctx context.Context, node redis.UniversalClient) error {
		iter := node.Scan(ctx, 0, prefix+"*", 500).Iterator()
		var keys []string
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
		if err := iter.Err(); err != nil {
			return err
		}
		// One key a command: on a Cluster they are in different slots.
		_, err := node.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, k := range keys {
				p.Unlink(ctx, k)
			}
			return nil
		})
		return err
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		var mu sync.Mutex
		var errs []string
		err = cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			if err := del(ctx, node); err != nil {
				mu.Lock()
				errs = append(errs, err.Error())
				mu.Unlock()
			}
			return nil
		})
		if err == nil && len(errs) > 0 {
			err = fmt.Errorf("%s", strings.Join(errs, "; "))
		}
	} else {
		err = del(ctx, c)
	}
	if err != nil {
		t.Errorf("cleanup of %s*: %v", prefix, err)
	}
}

// clusterWait bounds how long a test waits for the shared Cluster to be
// whole again: on a loaded machine its nodes may mark each other failing
// and elect a replica, and the Cluster answers CLUSTERDOWN meanwhile.
const clusterWait = 60 * time.Second

// waitClusterOK waits until every node of the Cluster at addrs says
// cluster_state:ok, and fails the test with what each node says of the
// Cluster when it does not within clusterWait: a down Cluster is a broken
// test machine, and the failure should say so rather than show as the
// store's errors.
func waitClusterOK(t testing.TB, addrs []string) {
	t.Helper()
	deadline := time.Now().Add(clusterWait)
	for {
		report, ok := clusterState(addrs)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Redis Cluster at %s is not ok after %v (see .ci/redis-ha):\n%s", strings.Join(addrs, ","), clusterWait, report)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// clusterState reports each node's cluster_state and its view of the
// nodes, and whether every node is ok.
func clusterState(addrs []string) (string, bool) {
	var b strings.Builder
	ok := true
	for _, a := range addrs {
		c := redis.NewClient(&redis.Options{Addr: a, MaxRetries: -1, DialTimeout: time.Second})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		info, err := c.ClusterInfo(ctx).Result()
		if err == nil && strings.Contains(info, "cluster_state:ok") {
			cancel()
			_ = c.Close()
			continue
		}
		ok = false
		nodes, _ := c.ClusterNodes(ctx).Result()
		cancel()
		_ = c.Close()
		fmt.Fprintf(&b, "%s: %v\n%s\n%s\n", a, err, firstLine(info), nodes)
	}
	return b.String(), ok
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}
