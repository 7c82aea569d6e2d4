package redistest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a Redis Cluster of a test's own (3 masters, 3 replicas), for
// tests that kill its nodes: they must not share the cluster CI starts.
type Cluster struct {
	*procs
	ports []int
}

// StartCluster starts six redis-server processes on ports base..base+5
// (and their cluster bus ports, base-10000...) with a 1 s node timeout and
// makes them a cluster with redis-cli --cluster create. It skips the test
// when redis-server or redis-cli is missing, unless CI is set. Every
// process is killed when the test ends.
func StartCluster(t testing.TB, base int) *Cluster {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	cli, err2 := exec.LookPath("redis-cli")
	if err != nil || err2 != nil {
		msg := "SKIP: redis-server or redis-cli not found, so this Cluster test does not run"
		if os.Getenv("CI") != "" {
			t.Fatal(msg + "; CI is set: failing")
		}
		t.Log(msg)
		fmt.Fprintln(os.Stderr, "redistest: "+msg)
		t.SkipNow()
	}
	c := &Cluster{procs: newProcs(t, bin)}
	for i := range 6 {
		c.ports = append(c.ports, base+i)
	}
	for _, p := range c.ports {
		c.Start(p)
	}
	args := []string{"--cluster", "create"}
	args = append(args, c.Addrs()...)
	args = append(args, "--cluster-replicas", "1", "--cluster-yes")
	out, err := exec.Command(cli, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	c.WaitHealthy(30 * time.Second)
	return c
}

// Addrs are the nodes' addresses.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, p := range c.ports {
		out = append(out, "127.0.0.1:"+strconv.Itoa(p))
	}
	return out
}

// Start starts the node on port (again, after Kill: it rejoins from its
// nodes.conf), and waits until it answers.
func (c *Cluster) Start(port int) {
	c.t.Helper()
	dir := filepath.Join(c.dir, strconv.Itoa(port))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		c.t.Fatal(err)
	}
	c.start(port, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--loglevel", "warning",
		"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1000",
		// The bus port 10000 below, not above (the default): 40000 and up is
		// where Linux picks ephemeral ports, and one taken by any outgoing
		// connection would keep the node from starting.
		"--cluster-port", strconv.Itoa(port-10000),
		"--repl-diskless-sync-delay", "0") // a restarted node syncs at once
}

// MasterPort returns the port of the master that serves key now.
func (c *Cluster) MasterPort(key string) int {
	c.t.Helper()
	cl := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, err := cl.MasterForKey(ctx, key)
	if err != nil {
		c.t.Fatalf("master of %s: %v", key, err)
	}
	_, port, _ := strings.Cut(m.Options().Addr, ":")
	p, _ := strconv.Atoi(port)
	return p
}

// WaitHealthy waits until every node says cluster_state:ok, sees the six
// nodes, and every master has a replica in sync.
func (c *Cluster) WaitHealthy(within time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for {
		ok := true
		for _, p := range c.ports {
			cl := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(p), MaxRetries: -1})
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			info, err := cl.ClusterInfo(ctx).Result()
			cancel()
			cl.Close()
			// Every master has its replica in sync, so WAIT 1 is answered.
			if err != nil || !synced(p) || !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_known_nodes:6") {
				ok = false
				break
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the test's Redis Cluster is not healthy after %v", within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
