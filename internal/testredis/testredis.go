// Package testredis runs a redis-server process of a test's own, on a
// free port, for the tests that stop Redis under a store or a server (an
// outage, a crash, a restart) and so cannot share the suite's Redis.
//
// A private server is a child process: the inner loop (go test -short)
// skips those tests, and Start skips one when redis-server is missing,
// unless CI is set.
package testredis

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Options choose how the server keeps its data.
type Options struct {
	// Durable writes every command to an append-only file, fsynced
	// always, so the data survives a kill; otherwise nothing is saved and
	// a restart comes back empty.
	Durable bool
}

// Server is a redis-server process of the test's own.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	opts Options
	cmd  *exec.Cmd
	exit chan struct{}
}

// Start starts redis-server on a free port and kills it when the test
// ends. It skips the test under -short (a child process) and when the
// binary is missing, unless CI is set.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("a redis-server of the test's own (a child process): not in -short")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server not found (CI must install it): %v", err)
		}
		t.Skip("redis-server not found")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &Server{t: t, bin: bin, dir: t.TempDir(), port: port, opts: opts}
	s.Start()
	t.Cleanup(s.Kill)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Port is the server's port.
func (s *Server) Port() int { return s.port }

// Start starts the server again on its port (after Kill) and waits until
// it answers PING: listening is not enough, as Redis answers LOADING while
// it reads its append-only file.
func (s *Server) Start() {
	s.t.Helper()
	args := []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--save", "", "--dir", s.dir, "--loglevel", "warning"}
	if s.opts.Durable {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	s.cmd = exec.Command(s.bin, args...)
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("start redis-server: %v", err)
	}
	s.exit = make(chan struct{})
	go func(cmd *exec.Cmd, exit chan struct{}) {
		_ = cmd.Wait()
		close(exit)
	}(s.cmd, s.exit)
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.Kill()
			s.t.Fatalf("redis-server on %s not ready: %v", s.Addr(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill stops the server as a crash would (SIGKILL); a second Kill does
// nothing.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exit
	s.cmd = nil
}

// Forget drops what a killed durable server wrote (a new, empty data
// directory): the next Start comes back empty, as on a new machine.
func (s *Server) Forget() { s.dir = s.t.TempDir() }
