package cli

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/internal/testredis"
)

// TestServeRedisRestart: Redis is restarted empty under a running server
// (a crash with nothing persisted). Rooms and login sessions lived there
// and are gone, but accounts, ratings and the archive are in PostgreSQL:
// the player, their history and their password are intact, and once Redis
// answers again the server is ready and a new login works.
func TestServeRedisRestart(t *testing.T) {
	t.Parallel()
	rd := testredis.Start(t, testredis.Options{})
	vars := map[string]string{"DATABASE_URL": pgtest.Database(t, "redisrestart"), "REDIS_URL": fmt.Sprintf("redis://127.0.0.1:%d/0", rd.Port())}
	base, log, stop := startServe(t, vars)
	defer stop()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if st := post(t, c, base+"/api/account/signup", `{"name":"Ana","password":"correct horse"}`); st != http.StatusCreated {
		t.Fatalf("signup = %d", st)
	}
	_, before := get(t, c, base+"/api/players/Ana")

	rd.Kill()
	rd.Start()
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
