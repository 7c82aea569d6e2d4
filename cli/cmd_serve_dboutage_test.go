package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/accounts/postgres/pgtest"
)

// proxyMode is what a pgProxy does with connections.
type proxyMode int

const (
	// pass forwards both ways.
	pass proxyMode = iota
	// refuse closes the listener (new connections are refused by the
	// kernel) and every open connection.
	refuse
	// blackHole accepts connections and never answers: whatever a client
	// sends, on new connections and on those already open, is swallowed.
	blackHole
)

// pgProxy is a TCP proxy the test controls, in front of PostgreSQL.
type pgProxy struct {
	t      *testing.T
	target string
	addr   string

	mu    sync.Mutex
	mode  proxyMode
	ln    net.Listener
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func startPGProxy(t *testing.T, target string) *pgProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &pgProxy{t: t, target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.serve(ln)
	t.Cleanup(func() {
		p.set(refuse)
		p.wg.Wait()
	})
	return p
}

func (p *pgProxy) serve(ln net.Listener) {
	p.ln = ln
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.handle(c)
		}
	})
}

func (p *pgProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == refuse {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *pgProxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(p.conns, c)
	}
}

func (p *pgProxy) current() proxyMode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

func (p *pgProxy) handle(c net.Conn) {
	if !p.track(c) {
		return
	}
	p.wg.Go(func() {
		if p.current() == blackHole {
			io.Copy(io.Discard, c) // never answered
			p.untrack(c)
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil || !p.track(up) {
			p.untrack(c)
			return
		}
		var wg sync.WaitGroup
		wg.Go(func() { p.pipe(up, c) })
		wg.Go(func() { p.pipe(c, up) })
		wg.Wait()
	})
}

// pipe copies src to dst while the proxy passes; in black-hole mode what
// arrives is dropped.
func (p *pgProxy) pipe(dst, src net.Conn) {
	defer p.untrack(dst, src)
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && p.current() == pass {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// set switches the mode. Leaving pass or black-hole mode for another
// closes the open connections, except when entering black-hole mode:
// those hang.
func (p *pgProxy) set(m proxyMode) {
	p.mu.Lock()
	old := p.mode
	p.mode = m
	if m != blackHole {
		for c := range p.conns {
			c.Close()
		}
	}
	ln := p.ln
	p.mu.Unlock()
	switch {
	case m == refuse && old != refuse:
		ln.Close()
	case m != refuse && old == refuse:
		ln, err := net.Listen("tcp", p.addr)
		if err != nil {
			p.t.Fatalf("proxy: listen again on %s: %v", p.addr, err)
		}
		p.serve(ln)
	}
}

// TestServeDatabaseOutage: with PostgreSQL behind a proxy that first
// refuses connections, then accepts them and never answers, every request
// that needs the database (sign-up, login, a session, a profile, the
// archive, a leaderboard, a profile page, the fair-play flags) answers
// 503 unavailable with Retry-After, after at most about --db-timeout
// (1 s here) instead of hanging or answering 500; /readyz says the
// database is not reachable (and ?without=database is ready); once the
// database is back, the same requests work again.
func TestServeDatabaseOutage(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.Database(t, "outage")
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startPGProxy(t, u.Host)
	u.Host = proxy.addr
	base, log, stop := startServe(t, map[string]string{
		"DATABASE_URL": u.String(), "GOLF_DB_TIMEOUT": "1s", "GOLF_MODERATOR_TOKEN": "moderator-secret",
		// Every sign-up of the test comes from 127.0.0.1.
		"GOLF_LIMIT_SIGNUPS": "off",
	})
	defer stop()

	jar, _ := cookiejar.New(nil)
	// A hanging request fails the test (after far longer than the
	// deadline) rather than the test hanging.
	ana := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	// The database is up; on a loaded machine the first calls (the
	// pool's first connections, under -race) may still pass the 1 s
	// bound, and that answer is 503 as documented: try again a while.
	for began := time.Now(); ; {
		st := post(t, ana, base+"/api/account/signup", `{"name":"Ana","password":"correct horse"}`)
		if st == http.StatusCreated {
			break
		}
		if st != http.StatusServiceUnavailable || time.Since(began) > time.Minute {
			t.Fatalf("signup = %d", st)
		}
		time.Sleep(200 * time.Millisecond)
	}
	anon := &http.Client{Timeout: 60 * time.Second}
	type request struct {
		name   string
		c      *http.Client
		method string
		path   string
		body   string
		header http.Header
		up     int // the status with the database up
	}
	requests := []request{
		{"profile", anon, "GET", "/api/players/Ana", "", nil, http.StatusOK},
		{"archive", anon, "GET", "/api/games/ABCDEF-1", "", nil, http.StatusNotFound},
		{"leaderboard", anon, "GET", "/api/ratings/golf", "", nil, http.StatusOK},
		{"session", ana, "GET", "/api/account", "", nil, http.StatusOK},
		{"passkeys", ana, "GET", "/api/account/passkeys", "", nil, http.StatusOK},
		{"login", anon, "POST", "/api/account/login", `{"name":"Ana","password":"correct horse"}`, nil, http.StatusOK},
		{"signup", anon, "POST", "/api/account/signup", `{"name":"Bo","password":"correct horse"}`, nil, http.StatusCreated},
		{"fair-play flags", anon, "GET", "/api/fairplay/flags", "", http.Header{"Authorization": {"Bearer moderator-secret"}}, http.StatusOK},
		{"profile page", anon, "GET", "/@/Ana", "", nil, http.StatusOK},
		{"fair-play review", anon, "POST", "/api/fairplay/flags/account:1/clear", "", http.Header{"Authorization": {"Bearer moderator-secret"}}, http.StatusNotFound},
	}
	do := func(r request) (int, http.Header, string, time.Duration, error) {
		req, err := http.NewRequest(r.method, base+r.path, strings.NewReader(r.body))
		if err != nil {
			return 0, nil, "", 0, err
		}
		for k, v := range r.header {
			req.Header[k] = v
		}
		if r.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		start := time.Now()
		resp, err := r.c.Do(req)
		if err != nil {
			return 0, nil, "", 0, fmt.Errorf("%v (after %v)", err, time.Since(start))
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b), time.Since(start), nil
	}
	readyz := func(path string) int {
		st, _, _, _, err := do(request{name: path, c: anon, method: "GET", path: path})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return st
	}

	for _, mode := range []struct {
		name string
		m    proxyMode
	}{{"refused", refuse}, {"black hole", blackHole}} {
		proxy.set(mode.m)
		// In the black hole the requests run at once, so it costs one
		// --db-timeout, not one per request; each must still answer 503
		// with Retry-After on its own. A refused connection answers in
		// milliseconds: those run one at a time.
		var (
			mu      sync.Mutex
			slowest time.Duration
			wg      sync.WaitGroup
		)
		for _, r := range requests {
			if r.name == "signup" && mode.m == blackHole {
				r.body = `{"name":"Cy","password":"correct horse"}`
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, h, body, took, err := do(r)
				if err != nil {
					t.Errorf("%s, database %s: %v", r.name, mode.name, err)
					return
				}
				if len(body) > 200 {
					body = body[:200] + "..."
				}
				mu.Lock()
				slowest = max(slowest, took)
				mu.Unlock()
				if st != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
					t.Errorf("%s, database %s: %d (Retry-After %q) %s; want 503 with Retry-After", r.name, mode.name, st, h.Get("Retry-After"), body)
					return
				}
				if strings.HasPrefix(r.path, "/api/") {
					var e struct{ Code, Message string }
					if err := json.Unmarshal([]byte(body), &e); err != nil || e.Code != "unavailable" {
						t.Errorf("%s, database %s: body %s, want code unavailable", r.name, mode.name, body)
					}
				}
			}()
			if mode.m != blackHole {
				wg.Wait()
			}
		}
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
		t.Logf("database %s: the slowest answer took %v (--db-timeout 1s)", mode.name, slowest)
		if st := readyz("/readyz"); st != http.StatusServiceUnavailable {
			t.Errorf("database %s: /readyz = %d, want 503", mode.name, st)
		}
		if st := readyz("/readyz?without=database"); st != http.StatusOK {
			t.Errorf("database %s: /readyz?without=database = %d, want 200", mode.name, st)
		}

		proxy.set(pass)
		deadline := time.Now().Add(30 * time.Second)
		for readyz("/readyz") != http.StatusOK {
			if time.Now().After(deadline) {
				t.Fatalf("/readyz not 200 again 30 s after the database came back:\n%s", log)
			}
			time.Sleep(50 * time.Millisecond)
		}
		for _, r := range requests {
			if r.name == "signup" {
				r.body = `{"name":"` + map[proxyMode]string{refuse: "Dee", blackHole: "Eve"}[mode.m] + `","password":"correct horse"}`
			}
			if st, _, body, _, err := do(r); err != nil || st != r.up {
				t.Errorf("%s, database back after %s: %d %s (%v), want %d", r.name, mode.name, st, body, err, r.up)
			}
		}
	}
	if strings.Contains(log.String(), `"msg":"request failed"`) {
		t.Errorf("requests failed as internal errors:\n%s", log)
	}
}

// TestServeDBTimeoutFlag: a --db-timeout that is not a positive duration
// is a usage error naming the flag; nothing starts.
func TestServeDBTimeoutFlag(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"0s", "-5s"} {
		r := runCmd(t, "", "serve", "--addr", "127.0.0.1:0", "--db-timeout", v)
		if r.code != 2 || !strings.Contains(r.err, "--db-timeout") {
			t.Errorf("--db-timeout %s: %+v, want exit 2 and an error naming the flag", v, r)
		}
	}
	if r := runCmd(t, "", "serve", "--addr", "127.0.0.1:0", "--db-timeout", "soon"); r.code != 2 || !strings.Contains(r.stderr, "db-timeout") {
		t.Errorf("--db-timeout soon: %+v, want exit 2 and the flag's usage", r)
	}
}
