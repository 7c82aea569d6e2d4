package cli

import (
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts/postgres/pgtest"
)

// privateRedis runs a redis-server of the test's own on a free port, with
// nothing saved to disk, so a restart loses everything it held. It skips
// the test without redis-server, unless CI is set.
type privateRedis struct {
	t    *testing.T
	port int
	cmd  *exec.Cmd
}

func startPrivateRedis(t *testing.T) *privateRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server not found and CI is set")
		}
		t.Skip("SKIP: redis-server not found, so the Redis restart test does not run")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &privateRedis{t: t, port: ln.Addr().(*net.TCPAddr).Port}
	ln.Close()
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *privateRedis) start() {
	r.t.Helper()
	r.cmd = exec.Command("redis-server", "--port", fmt.Sprint(r.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", r.t.TempDir())
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", r.port))
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server on %d did not start: %v", r.port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *privateRedis) stop() {
	if r.cmd != nil && r.cmd.Process != nil {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
		r.cmd = nil
	}
}

// TestServeRedisRestart: Redis is restarted empty under a running server
// (a crash with nothing persisted). Rooms and login sessions lived there
// and are gone, but accounts, ratings and the archive are in PostgreSQL:
// the player, their history and their password are intact, and once Redis
// answers again the server is ready and a new login works.
func TestServeRedisRestart(t *testing.T) {
	t.Parallel()
	rd := startPrivateRedis(t)
	vars := map[string]string{"DATABASE_URL": pgtest.Database(t, "redisrestart"), "REDIS_URL": fmt.Sprintf("redis://127.0.0.1:%d/0", rd.port)}
	base, log, stop := startServe(t, vars)
	defer stop()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if st := post(t, c, base+"/api/account/signup", `{"name":"Ana","password":"correct horse"}`); st != http.StatusCreated {
		t.Fatalf("signup = %d", st)
	}
	_, before := get(t, c, base+"/api/players/Ana")

	rd.stop()
	rd.start()
	// Ready again once the store answers.
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, _ := get(t, c, base+"/readyz")
		if st == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after Redis came back: %d\n%s", st, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st, after := get(t, c, base+"/api/players/Ana"); st != http.StatusOK || after != before {
		t.Fatalf("the player after a Redis restart: %d\n%s\nbefore:\n%s", st, after, before)
	}
	// The session was in Redis: gone, so the browser logs in again.
	if st, _ := whoAmI(t, jar, base); st != http.StatusUnauthorized {
		t.Errorf("a session outlived the Redis that held it: %d", st)
	}
	if st := post(t, c, base+"/api/account/login", `{"name":"Ana","password":"correct horse"}`); st != http.StatusOK {
		t.Fatalf("login after the restart = %d", st)
	}
	if st, body := whoAmI(t, jar, base); st != http.StatusOK || !strings.Contains(body, `"name":"Ana"`) {
		t.Errorf("after logging in again: %d %s", st, body)
	}
	// Rooms are made again.
	if st := post(t, c, base+"/api/rooms", `{"name":"Ana","settings":{"game":"golf","holes":1}}`); st != http.StatusCreated {
		t.Errorf("a room after the restart: %d", st)
	}
}
