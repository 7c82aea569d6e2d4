package redistest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Sentinels is a Sentinel setup of a test's own: a master, a replica and
// three Sentinels watching them as "golftest", for tests that kill the
// master.
type Sentinels struct {
	*procs
	// Master, Replica: the nodes' ports as started (roles change with a
	// failover); SentinelPorts the Sentinels'.
	Master, Replica int
	SentinelPorts   []int
}

// SentinelMaster is the master's name the Sentinels of StartSentinels use.
const SentinelMaster = "golftest"

// StartSentinels starts the master on base, its replica on base+1 and
// Sentinels on base+10, base+11, base+12 (down after 500 ms, quorum 2).
// It skips without redis-server, unless CI is set; everything is killed
// when the test ends.
func StartSentinels(t testing.TB, base int) *Sentinels {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "SKIP: redis-server not found, so this Sentinel test does not run"
		if os.Getenv("CI") != "" {
			t.Fatal(msg + "; CI is set: failing")
		}
		t.Log(msg)
		fmt.Fprintln(os.Stderr, "redistest: "+msg)
		t.SkipNow()
	}
	s := &Sentinels{procs: newProcs(t, bin), Master: base, Replica: base + 1, SentinelPorts: []int{base + 10, base + 11, base + 12}}
	s.StartNode(s.Master)
	s.StartNode(s.Replica)
	c := redis.NewClient(&redis.Options{Addr: addr(s.Replica)})
	defer c.Close()
	if err := c.ReplicaOf(context.Background(), "127.0.0.1", strconv.Itoa(s.Master)).Err(); err != nil {
		t.Fatal(err)
	}
	for _, p := range s.SentinelPorts {
		dir := filepath.Join(s.dir, strconv.Itoa(p))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		conf := filepath.Join(dir, "sentinel.conf")
		body := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\nsentinel monitor %s 127.0.0.1 %d 2\nsentinel down-after-milliseconds %s 500\nsentinel failover-timeout %s 3000\n",
			p, dir, SentinelMaster, s.Master, SentinelMaster, SentinelMaster)
		if err := os.WriteFile(conf, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		s.start(p, conf, "--sentinel")
	}
	s.waitSynced(s.Master, 30*time.Second)
	return s
}

// Addrs are the Sentinels' addresses.
func (s *Sentinels) Addrs() []string {
	var out []string
	for _, p := range s.SentinelPorts {
		out = append(out, addr(p))
	}
	return out
}

// StartNode starts the Redis node on port (again, after Kill), as a
// replica of the node on replicaOf when that is not 0.
func (s *Sentinels) StartNode(port int, replicaOf ...int) {
	s.t.Helper()
	dir := filepath.Join(s.dir, strconv.Itoa(port))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--loglevel", "warning",
		// A restarted node syncs at once (the default waits 5 s for more
		// replicas to share a diskless transfer).
		"--repl-diskless-sync-delay", "0"}
	if len(replicaOf) > 0 && replicaOf[0] != 0 {
		args = append(args, "--replicaof", "127.0.0.1", strconv.Itoa(replicaOf[0]))
	}
	s.start(port, args...)
}

// MasterPort asks a Sentinel which port the master is on now.
func (s *Sentinels) MasterPort() int {
	s.t.Helper()
	for _, p := range s.SentinelPorts {
		c := redis.NewSentinelClient(&redis.Options{Addr: addr(p)})
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		a, err := c.GetMasterAddrByName(ctx, SentinelMaster).Result()
		cancel()
		c.Close()
		if err == nil && len(a) == 2 {
			port, _ := strconv.Atoi(a[1])
			return port
		}
	}
	s.t.Fatal("no Sentinel answers")
	return 0
}

// Promoted says whether every Sentinel names a master other than old.
// The old master is restarted only once they all agree: in a CI failure
// the client was still told the old address by some Sentinels a few
// seconds after the failover (it switched back and forth between the two
// nodes), and in a failure caught here both nodes had become replicas of
// each other, so that every write stopped.
func (s *Sentinels) Promoted(old int) bool {
	s.t.Helper()
	for _, p := range s.SentinelPorts {
		c := redis.NewSentinelClient(&redis.Options{Addr: addr(p)})
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		a, err := c.GetMasterAddrByName(ctx, SentinelMaster).Result()
		cancel()
		c.Close()
		if err != nil || len(a) != 2 || a[1] == strconv.Itoa(old) {
			return false
		}
	}
	return true
}

// WaitSynced waits until the master (as the Sentinels see it) has a
// replica in sync, so that WAIT 1 is answered.
func (s *Sentinels) WaitSynced(within time.Duration) { s.waitSynced(s.MasterPort(), within) }
