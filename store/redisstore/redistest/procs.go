package redistest

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// procs are the redis-server processes of a test, by port, killed when the
// test ends.
type procs struct {
	t   testing.TB
	bin string
	dir string

	mu    sync.Mutex
	cmds  map[int]*exec.Cmd
	exits map[int]chan struct{}
}

func newProcs(t testing.TB, bin string) *procs {
	p := &procs{t: t, bin: bin, dir: t.TempDir(), cmds: map[int]*exec.Cmd{}, exits: map[int]chan struct{}{}}
	t.Cleanup(p.killAll)
	return p
}

func addr(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// start runs redis-server with args for the server on port and waits until
// it answers PING.
func (p *procs) start(port int, args ...string) {
	p.t.Helper()
	cmd := exec.Command(p.bin, args...)
	if err := cmd.Start(); err != nil {
		p.t.Fatalf("start redis-server: %v", err)
	}
	exit := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exit)
	}()
	p.mu.Lock()
	p.cmds[port], p.exits[port] = cmd, exit
	p.mu.Unlock()
	cl := redis.NewClient(&redis.Options{Addr: addr(port), MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer cl.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := cl.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("redis-server on %d not ready: %v", port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill kills the server on port as a crash would.
func (p *procs) Kill(port int) {
	p.mu.Lock()
	cmd, exit := p.cmds[port], p.exits[port]
	delete(p.cmds, port)
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-exit
}

func (p *procs) killAll() {
	p.mu.Lock()
	var ports []int
	for port := range p.cmds {
		ports = append(ports, port)
	}
	p.mu.Unlock()
	for _, port := range ports {
		p.Kill(port)
	}
}

// synced reports whether the node on port is a master with a replica, or a
// replica whose link to its master is up.
func synced(port int) bool {
	cl := redis.NewClient(&redis.Options{Addr: addr(port), MaxRetries: -1})
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	repl, err := cl.Info(ctx, "replication").Result()
	if err != nil {
		return false
	}
	return strings.Contains(repl, "role:slave") && strings.Contains(repl, "master_link_status:up") ||
		strings.Contains(repl, "role:master") && strings.Contains(repl, "state=online")
}

// waitSynced waits until the master on port has a replica in sync.
func (p *procs) waitSynced(port int, within time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(within)
	for !synced(port) {
		if time.Now().After(deadline) {
			p.t.Fatalf("the master on %d has no replica in sync after %v", port, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
