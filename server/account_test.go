package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/limit"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/redisstore"
)

// cheapPasswords keeps argon2id fast in tests; TestSignupUsesRFC9106
// checks the default.
var cheapPasswords = accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}

func withAccounts(st accounts.Store) func(*server.Options) {
	return func(o *server.Options) {
		o.Accounts = st
		o.PasswordParams = cheapPasswords
	}
}

// browser is an HTTP client with its own cookie jar.
type browser struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: base, c: &http.Client{Jar: jar}}
}

// do sends a request with a JSON body (nil for none) and extra headers,
// and decodes a JSON answer into out when out is not nil.
func (b *browser) do(method, path string, body any, out any, hdr ...string) *http.Response {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		buf, _ := json.Marshal(body)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, b.base+path, rd)
	if err != nil {
		b.t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			b.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return resp
}

func (b *browser) wantStatus(resp *http.Response, want int) {
	b.t.Helper()
	if resp.StatusCode != want {
		b.t.Fatalf("%s %s = %d, want %d", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, want)
	}
}

func (b *browser) signup(name, password string) protocol.Player {
	b.t.Helper()
	var p protocol.Player
	b.wantStatus(b.do("POST", "/api/account/signup", protocol.AccountRequest{Name: name, Password: password}, &p), http.StatusCreated)
	return p
}

func TestAccountFlow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	b := newBrowser(t, e.ts)
	p := b.signup("Ana", "correct horse")
	if p.Name != "Ana" || len(p.Rating) != 0 {
		t.Errorf("signup = %+v", p)
	}
	var me protocol.Player
	b.wantStatus(b.do("GET", "/api/account", nil, &me), http.StatusOK)
	if me.Name != "Ana" {
		t.Errorf("who am I = %+v", me)
	}
	var sess protocol.Session
	b.wantStatus(b.do("GET", "/api/session", nil, &sess), http.StatusOK)
	if sess.Name == nil || *sess.Name != "Ana" {
		t.Errorf("session = %+v, want Ana", sess)
	}
	b.wantStatus(b.do("POST", "/api/account/logout", nil, nil), http.StatusNoContent)
	var apiErr protocol.APIError
	b.wantStatus(b.do("GET", "/api/account", nil, &apiErr), http.StatusUnauthorized)
	if apiErr.Code != protocol.ErrCodeNotLoggedIn {
		t.Errorf("after logout: %+v", apiErr)
	}
	// A guest's session is null, with 200 (not an error for the browser).
	var raw json.RawMessage
	b.wantStatus(b.do("GET", "/api/session", nil, &raw), http.StatusOK)
	if got := strings.TrimSpace(string(raw)); got != `{"name":null}` {
		t.Errorf("a guest's session = %s, want {\"name\":null}", got)
	}

	// A wrong password and an unknown name get the same answer.
	var wrongPw, noName protocol.APIError
	r1 := b.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Ana", Password: "wrong horse"}, &wrongPw)
	r2 := b.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Nobody", Password: "wrong horse"}, &noName)
	if r1.StatusCode != http.StatusUnauthorized || r2.StatusCode != r1.StatusCode || wrongPw != noName || wrongPw.Code != protocol.ErrCodeBadLogin {
		t.Errorf("wrong password: %d %+v; unknown name: %d %+v; want the same 401 bad_login", r1.StatusCode, wrongPw, r2.StatusCode, noName)
	}
	b.wantStatus(b.do("GET", "/api/account", nil, nil), http.StatusUnauthorized)

	// Names are case-insensitive for login and lookup.
	b.wantStatus(b.do("POST", "/api/account/login", protocol.AccountRequest{Name: "ANA", Password: "correct horse"}, &me), http.StatusOK)
	var pub protocol.Player
	b.wantStatus(b.do("GET", "/api/players/aNa", nil, &pub), http.StatusOK)
	if pub.Name != "Ana" || pub.Rating == nil {
		t.Errorf("GET /api/players/aNa = %+v", pub)
	}
	b.wantStatus(b.do("GET", "/api/players/nobody", nil, &apiErr), http.StatusNotFound)
	if apiErr.Code != protocol.ErrCodePlayerNotFound {
		t.Errorf("unknown player: %+v", apiErr)
	}

	// Delete: the account is gone, the session with it, the name is free.
	b.wantStatus(b.do("DELETE", "/api/account", nil, nil), http.StatusNoContent)
	b.wantStatus(b.do("GET", "/api/account", nil, nil), http.StatusUnauthorized)
	b.wantStatus(b.do("GET", "/api/players/Ana", nil, nil), http.StatusNotFound)
	b.wantStatus(b.do("DELETE", "/api/account", nil, nil), http.StatusUnauthorized)
	b.signup("ana", "another horse")
}

func TestSignupRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	b := newBrowser(t, e.ts)
	b.signup("Ana", "correct horse")
	tests := []struct {
		name, password string
		status         int
		code           string
	}{
		{"ANA", "correct horse", http.StatusConflict, protocol.ErrCodeNameTaken},
		{"Ａｎａ", "correct horse", http.StatusConflict, protocol.ErrCodeNameTaken}, // fullwidth maps to Ana
		{"a b", "correct horse", http.StatusBadRequest, protocol.ErrCodeInvalid},
		{"Bob", "short", http.StatusBadRequest, protocol.ErrCodeInvalid},
	}
	for _, tt := range tests {
		var apiErr protocol.APIError
		resp := newBrowser(t, e.ts).do("POST", "/api/account/signup", protocol.AccountRequest{Name: tt.name, Password: tt.password}, &apiErr)
		if resp.StatusCode != tt.status || apiErr.Code != tt.code || apiErr.Message == "" {
			t.Errorf("signup %q/%q = %d %+v, want %d %s", tt.name, tt.password, resp.StatusCode, apiErr, tt.status, tt.code)
		}
	}
	b.wantStatus(b.do("GET", "/api/players/Bob", nil, nil), http.StatusNotFound)
}

// TestSessionCookie: the session cookie is HttpOnly and SameSite=Lax, and
// Secure when the base URL is https.
func TestSessionCookie(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		base   string
		secure bool
	}{{"", false}, {"https://golf.example", true}} {
		e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) { o.BaseURL = tt.base })
		b := newBrowser(t, e.ts)
		resp := b.do("POST", "/api/account/signup", protocol.AccountRequest{Name: "Ana", Password: "correct horse"}, nil)
		var found bool
		for _, c := range resp.Cookies() {
			if c.Name != "golf_session" {
				continue
			}
			found = true
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure != tt.secure {
				t.Errorf("base %q: session cookie %+v, want HttpOnly, SameSite=Lax, Secure=%v", tt.base, c, tt.secure)
			}
		}
		if !found {
			t.Errorf("base %q: no session cookie in %v", tt.base, resp.Header["Set-Cookie"])
		}
	}
}

// TestGuestCookie: a browser gets a guest id on its first page or API
// read, and keeps it.
func TestGuestCookie(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	b := newBrowser(t, e.ts)
	resp := b.do("GET", "/api/rooms", nil, nil)
	var id string
	for _, c := range resp.Cookies() {
		if c.Name == "golf_guest" && c.HttpOnly && c.SameSite == http.SameSiteLaxMode {
			id = c.Value
		}
	}
	if id == "" {
		t.Fatalf("no guest cookie in %v", resp.Header["Set-Cookie"])
	}
	if resp := b.do("GET", "/api/rooms", nil, nil); len(resp.Cookies()) != 0 {
		t.Errorf("second request set cookies again: %v", resp.Header["Set-Cookie"])
	}
}

// TestCrossOriginRefused: once cookies carry authority, a page on another
// site must not be able to make a logged-in browser change anything.
func TestCrossOriginRefused(t *testing.T) {
	t.Parallel()
	st := inmem.New()
	e := newEnv(t, withAccounts(st), func(o *server.Options) { o.AllowedOrigins = []string{"*.friend.example"} })
	b := newBrowser(t, e.ts)
	b.signup("Ana", "correct horse")
	tests := []struct {
		name   string
		method string
		path   string
		body   any
		hdr    []string
		status int
	}{
		{"delete from another site", "DELETE", "/api/account", nil, []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"delete, Origin only", "DELETE", "/api/account", nil, []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"create a room from another site", "POST", "/api/rooms", map[string]any{"name": "Ana"}, []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"signup from another site", "POST", "/api/account/signup", protocol.AccountRequest{Name: "Eve", Password: "correct horse"}, []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"logout from another site", "POST", "/api/account/logout", nil, []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"reads are allowed", "GET", "/api/account", nil, []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, http.StatusOK},
		{"an allowed origin", "POST", "/api/rooms", map[string]any{"name": "Ana"}, []string{"Origin", "https://play.friend.example", "Sec-Fetch-Site", "cross-site"}, http.StatusCreated},
		{"same origin", "POST", "/api/rooms", map[string]any{"name": "Ana"}, []string{"Origin", e.ts, "Sec-Fetch-Site", "same-origin"}, http.StatusCreated},
	}
	for _, tt := range tests {
		var apiErr protocol.APIError
		resp := b.do(tt.method, tt.path, tt.body, &apiErr, tt.hdr...)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %s %s = %d, want %d", tt.name, tt.method, tt.path, resp.StatusCode, tt.status)
		}
		if tt.status == http.StatusForbidden && (apiErr.Code != protocol.ErrCodeCrossOrigin || !strings.Contains(apiErr.Message, "cross-origin")) {
			t.Errorf("%s: error %+v, want cross_origin in words", tt.name, apiErr)
		}
	}
	// Nothing changed: Ana still exists and is logged in, Eve does not.
	b.wantStatus(b.do("GET", "/api/account", nil, nil), http.StatusOK)
	if _, err := st.ByKey(context.Background(), "eve"); err == nil {
		t.Error("a cross-site sign-up created an account")
	}
}

// TestLoginRateLimited: password guessing is cut off after the burst, for
// right and wrong passwords alike, with Retry-After.
func TestLoginRateLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) { o.LoginRate = limit.Rate{PerSecond: 0.001, Burst: 3} })
	newBrowser(t, e.ts).signup("Ana", "correct horse")
	b := newBrowser(t, e.ts)
	for i := range 3 {
		if resp := b.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Ana", Password: "guess " + string(rune('a'+i)) + "xxxxx"}, nil); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d = %d, want 401", i, resp.StatusCode)
		}
	}
	var apiErr protocol.APIError
	resp := b.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Ana", Password: "correct horse"}, &apiErr)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || apiErr.Code != protocol.ErrCodeRateLimited {
		t.Errorf("4th attempt = %d (Retry-After %q) %+v, want 429 rate_limited", resp.StatusCode, resp.Header.Get("Retry-After"), apiErr)
	}
	b.wantStatus(b.do("GET", "/api/account", nil, nil), http.StatusUnauthorized)
}

// TestSignupUsesRFC9106: with default options, passwords are stored as
// argon2id PHC strings with RFC 9106's second recommended parameters.
func TestSignupUsesRFC9106(t *testing.T) {
	t.Parallel()
	st := inmem.New()
	e := newEnv(t, func(o *server.Options) { o.Accounts = st; o.PasswordParams = accounts.Params{} })
	newBrowser(t, e.ts).signup("Ana", "correct horse")
	a, err := st.ByKey(context.Background(), "ana")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.PasswordHash, "$argon2id$v=19$m=65536,t=3,p=4$") || strings.Contains(a.PasswordHash, "correct horse") {
		t.Errorf("stored hash %q, want argon2id m=65536,t=3,p=4", a.PasswordHash)
	}
	if ok, err := accounts.Verify("correct horse", a.PasswordHash); !ok || err != nil {
		t.Errorf("Verify = %v, %v", ok, err)
	}
}

// TestLoginLimitKeyedLikeTheRest: the login limit counts clients like
// every other limit (here by the trusted proxy's X-Forwarded-For), so one
// client guessing passwords behind a proxy does not lock out everyone
// behind it; the refusals are counted in the metrics.
func TestLoginLimitKeyedLikeTheRest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) {
		o.Limits.TrustedHeader = "X-Forwarded-For"
		o.LoginRate = limit.Rate{PerSecond: 0.001, Burst: 2}
	})
	newBrowser(t, e.ts).do("POST", "/api/account/signup", protocol.AccountRequest{Name: "Ana", Password: "correct horse"}, nil, "X-Forwarded-For", "198.51.100.1")
	newBrowser(t, e.ts).do("POST", "/api/account/signup", protocol.AccountRequest{Name: "Bob", Password: "battery staple"}, nil, "X-Forwarded-For", "198.51.100.2")
	attacker := newBrowser(t, e.ts)
	statuses := []int{}
	for i := range 3 {
		resp := attacker.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Ana", Password: "guess " + strconv.Itoa(i) + "xxxxx"}, nil, "X-Forwarded-For", "203.0.113.9")
		statuses = append(statuses, resp.StatusCode)
	}
	if !slices.Equal(statuses, []int{http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests}) {
		t.Errorf("three guesses from one client = %v, want 401 401 429", statuses)
	}
	honest := newBrowser(t, e.ts)
	honest.wantStatus(honest.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Bob", Password: "battery staple"}, nil, "X-Forwarded-For", "203.0.113.10"), http.StatusOK)
	if got := e.metric(t, `golf_limited_total{limit="logins"}`); got != "1" {
		t.Errorf(`golf_limited_total{limit="logins"} = %q, want 1`, got)
	}
}

// TestLoginLimitAcrossInstances: with Redis, the login limit holds across
// instances: guesses spread over two instances get the burst once.
func TestLoginLimitAcrossInstances(t *testing.T) {
	t.Parallel()
	r := newTestRedis(t)
	rdb, _, err := redisstore.NewClient(context.Background(), r.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	st := inmem.New()
	var urls []string
	for range 2 {
		e := newEnv(t, withAccounts(st), func(o *server.Options) {
			o.LoginRate = limit.Rate{PerSecond: 0.001, Burst: 3}
			o.Limiter = redisstore.NewLimiter(rdb, r.prefix)
		})
		urls = append(urls, e.ts)
	}
	newBrowser(t, urls[0]).signup("Ana", "correct horse")
	tried := 0
	for i := range 10 {
		resp := newBrowser(t, urls[i%2]).do("POST", "/api/account/login", protocol.AccountRequest{Name: "Ana", Password: "guess " + strconv.Itoa(i) + "xxxxx"}, nil)
		if resp.StatusCode == http.StatusUnauthorized {
			tried++
		} else if resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("guess %d = %d", i, resp.StatusCode)
		}
	}
	if tried != 3 {
		t.Errorf("%d guesses checked through two instances, want 3", tried)
	}
}

// TestLimitByAccount: a logged-in player is counted by account as well as
// by address, so one account creating rooms from many addresses (behind a
// trusted proxy) gets no more than one address would; another account at
// the same address is not held back by it.
func TestLimitByAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) {
		o.Limits = limit.NoLimits()
		o.Limits.TrustedHeader = "X-Forwarded-For"
		o.Limits.Rooms = limit.Rate{PerSecond: 1.0 / 600, Burst: 2}
	})
	create := map[string]any{"settings": map[string]any{"seats": 2, "holes": 9}}
	ana := newBrowser(t, e.ts)
	ana.do("POST", "/api/account/signup", protocol.AccountRequest{Name: "Ana", Password: "correct horse"}, nil, "X-Forwarded-For", "198.51.100.1")
	statuses := []int{}
	var last protocol.APIError
	for i := range 3 {
		last = protocol.APIError{}
		resp := ana.do("POST", "/api/rooms", create, &last, "X-Forwarded-For", "203.0.113."+strconv.Itoa(10+i))
		statuses = append(statuses, resp.StatusCode)
	}
	if !slices.Equal(statuses, []int{http.StatusCreated, http.StatusCreated, http.StatusTooManyRequests}) {
		t.Fatalf("Ana's rooms from three addresses = %v, want 201 201 429", statuses)
	}
	if last.Code != protocol.ErrCodeRateLimited || !strings.Contains(last.Message, "your account") {
		t.Errorf("refusal %+v, want rate_limited naming the account", last)
	}
	bob := newBrowser(t, e.ts)
	bob.do("POST", "/api/account/signup", protocol.AccountRequest{Name: "Bob", Password: "battery staple"}, nil, "X-Forwarded-For", "198.51.100.2")
	bob.wantStatus(bob.do("POST", "/api/rooms", create, nil, "X-Forwarded-For", "203.0.113.12"), http.StatusCreated)
}
