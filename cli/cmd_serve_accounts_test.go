package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/store/redisstore/redistest"
)

// startServe runs `serve` on a free port with the given environment and
// returns its base URL, its log and a function that stops it.
func startServe(t *testing.T, vars map[string]string) (string, *syncBuffer, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"--addr", "127.0.0.1:0"}, env{stdout: io.Discard, stderr: log, getenv: func(k string) string { return vars[k] }})
	}()
	stop := func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}
	// Generous: under -race on a loaded two-core machine the server's
	// start (migrations, the dummy password hash) took over 30 s.
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(log.String(), "\n") {
			var rec struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "listening" {
				return "http://" + rec.Addr, log, stop
			}
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s", err, log)
		case <-time.After(20 * time.Millisecond):
		}
	}
	stop()
	t.Fatalf("serve did not start:\n%s", log)
	return "", nil, nil
}

func post(t *testing.T, c *http.Client, url, body string) int {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeWithoutDatabase: accounts work in memory and the log says they
// are not kept.
func TestServeWithoutDatabase(t *testing.T) {
	t.Parallel()
	base, log, stop := startServe(t, nil)
	defer stop()
	if !strings.Contains(log.String(), "kept in memory and lost when the server stops") {
		t.Errorf("the log does not say accounts are not kept:\n%s", log)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if st := post(t, c, base+"/api/account/signup", `{"name":"Ana","password":"correct horse"}`); st != http.StatusCreated {
		t.Errorf("signup = %d", st)
	}
}

// TestServeDatabaseRestart: with --database (DATABASE_URL) the migrations
// run at start, and an account, its session and a login survive a
// restart of the server.
func TestServeDatabaseRestart(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": pgtest.Database(t, "serve")}
	base, log, stop := startServe(t, vars)
	if !strings.Contains(log.String(), `"migration applied"`) || !strings.Contains(log.String(), "00003_archive.sql") {
		t.Errorf("no migrations in the log:\n%s", log)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	if st := post(t, c, base+"/api/account/signup", `{"name":"Ana","password":"correct horse"}`); st != http.StatusCreated {
		t.Fatalf("signup = %d", st)
	}
	stop()

	base2, log2, stop2 := startServe(t, vars)
	defer stop2()
	if strings.Contains(log2.String(), `"migration applied"`) {
		t.Errorf("migrations applied twice:\n%s", log2)
	}
	// The cookie jar is keyed by host; the port changed, so carry the
	// cookie over by hand, as a browser would for the same site.
	req, _ := http.NewRequest("GET", base2+"/api/account", nil)
	for _, ck := range jar.Cookies(mustURL(t, base+"/")) {
		req.AddCookie(ck)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"name":"Ana"`) {
		t.Errorf("session after restart: %d %s", resp.StatusCode, body)
	}
	if st := post(t, &http.Client{}, base2+"/api/account/login", `{"name":"ana","password":"correct horse"}`); st != http.StatusOK {
		t.Errorf("login after restart = %d", st)
	}
	if st, body := get(t, &http.Client{}, base2+"/api/players/ANA"); st != http.StatusOK || !strings.Contains(body, `"rating":{}`) {
		t.Errorf("player after restart = %d %s", st, body)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// whoAmI is GET /api/account with the cookies a browser has for base
// (the jar is keyed by host, so they go to every port of it, as a
// browser's would for the same site behind one name).
func whoAmI(t *testing.T, jar http.CookieJar, base string) (int, string) {
	t.Helper()
	return get(t, &http.Client{Jar: jar}, base+"/api/account")
}

// TestServeRedisSessions: with Redis, login sessions are in Redis: a
// login on one instance works on another, survives a restart of the
// instance, and a logout on one ends it on all.
func TestServeRedisSessions(t *testing.T) {
	t.Parallel()
	tp := redistest.All[0]
	tp.Config(t)
	vars := map[string]string{"DATABASE_URL": pgtest.Database(t, "serveredis"), "REDIS_URL": os.Getenv("REDIS_URL"),
		"GOLF_REDIS_PREFIX": tp.Prefix(t, "serve")}
	a, logA, stopA := startServe(t, vars)
	b, _, stopB := startServe(t, vars)
	defer stopB()
	if !strings.Contains(logA.String(), "login sessions in Redis") {
		t.Errorf("the log does not say where sessions are:\n%s", logA)
	}
	jar, _ := cookiejar.New(nil)
	if st := post(t, &http.Client{Jar: jar}, a+"/api/account/signup", `{"name":"Ana","password":"correct horse"}`); st != http.StatusCreated {
		t.Fatalf("signup = %d", st)
	}
	if st, body := whoAmI(t, jar, b); st != http.StatusOK || !strings.Contains(body, `"name":"Ana"`) {
		t.Errorf("the session on another instance: %d %s", st, body)
	}
	stopA()
	c, _, stopC := startServe(t, vars)
	defer stopC()
	if st, body := whoAmI(t, jar, c); st != http.StatusOK || !strings.Contains(body, `"name":"Ana"`) {
		t.Errorf("the session after a restart: %d %s", st, body)
	}
	if st := post(t, &http.Client{Jar: jar}, c+"/api/account/logout", ``); st != http.StatusNoContent {
		t.Errorf("logout = %d", st)
	}
	if st, _ := whoAmI(t, jar, b); st != http.StatusUnauthorized {
		t.Errorf("after logging out on one instance, another says %d", st)
	}
}

// TestServeRedisSessionsMemoryAccounts: sessions in Redis outlive
// accounts kept in memory; after a restart the in-memory store numbers
// accounts from 1 again, and an old session must not log its browser in
// as whoever now has its account's number.
func TestServeRedisSessionsMemoryAccounts(t *testing.T) {
	t.Parallel()
	tp := redistest.All[0]
	tp.Config(t)
	vars := map[string]string{"REDIS_URL": os.Getenv("REDIS_URL"), "GOLF_REDIS_PREFIX": tp.Prefix(t, "serve")}
	a, _, stopA := startServe(t, vars)
	jar, _ := cookiejar.New(nil)
	if st := post(t, &http.Client{Jar: jar}, a+"/api/account/signup", `{"name":"Ana","password":"correct horse"}`); st != http.StatusCreated {
		t.Fatalf("signup = %d", st)
	}
	stopA()
	b, _, stopB := startServe(t, vars)
	defer stopB()
	other, _ := cookiejar.New(nil)
	if st := post(t, &http.Client{Jar: other}, b+"/api/account/signup", `{"name":"Bob","password":"battery staple"}`); st != http.StatusCreated {
		t.Fatalf("signup = %d", st)
	}
	if st, body := whoAmI(t, jar, b); st != http.StatusUnauthorized {
		t.Errorf("Ana's old session on a restarted memory store: %d %s, want 401", st, body)
	}
}
