package server_test

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"testing"

	"golfsolitaire/fairplay"
	"golfsolitaire/server"
)

func moderated(t *testing.T) *env {
	return newEnv(t, func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fairplay.NewMemoryStore(), ModeratorToken: "mod-secret"}
	})
}

// bearer is GET /api/fairplay/flags with a token, from the client.
func bearer(t *testing.T, c *http.Client, base, token string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/api/fairplay/flags", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestModeratorLogoutRevokes: the review page's cookie is a random
// server-side session: after logout the same cookie, replayed, reads
// nothing; two sign-ins get different cookies.
func TestModeratorLogoutRevokes(t *testing.T) {
	t.Parallel()
	e := moderated(t)
	signIn := func() (*http.Client, *http.Cookie) {
		jar, _ := cookiejar.New(nil)
		mod := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		if st, _, _ := page(t, mod, "POST", e.ts+"/moderator/login", url.Values{"token": {"mod-secret"}}); st != http.StatusSeeOther {
			t.Fatalf("sign-in = %d, want 303", st)
		}
		u, _ := url.Parse(e.ts)
		for _, c := range jar.Cookies(u) {
			if c.Name == "golf_moderator" {
				return mod, c
			}
		}
		t.Fatal("no moderator cookie")
		return nil, nil
	}
	mod, old := signIn()
	_, other := signIn()
	if old.Value == other.Value {
		t.Errorf("two sign-ins got the same cookie %q", old.Value)
	}
	if st, _, _ := page(t, mod, "GET", e.ts+"/api/fairplay/flags", nil); st != http.StatusOK {
		t.Fatalf("flags with the cookie = %d, want 200", st)
	}
	if st, _, _ := page(t, mod, "POST", e.ts+"/moderator/logout", url.Values{}); st != http.StatusSeeOther {
		t.Fatalf("logout = %d, want 303", st)
	}
	req, _ := http.NewRequest("GET", e.ts+"/api/fairplay/flags", nil)
	req.AddCookie(&http.Cookie{Name: old.Name, Value: old.Value})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("flags with the old cookie after logout = %d, want 401", resp.StatusCode)
	}
}

// TestModeratorTokenGuessing: wrong moderator tokens are limited per
// address, as Bearer tokens and on the sign-in form: 30 of them meet
// 429s. The right token from another address still works.
func TestModeratorTokenGuessing(t *testing.T) {
	t.Parallel()
	e := moderated(t)
	attacker := from("127.0.0.81")
	got := map[int]int{}
	for i := range 30 {
		got[bearer(t, attacker, e.ts, "guess-"+strconv.Itoa(i))]++
	}
	if got[http.StatusTooManyRequests] == 0 {
		t.Errorf("30 wrong Bearer tokens: %v, want 429s", got)
	}
	form := from("127.0.0.82")
	got = map[int]int{}
	for i := range 30 {
		st, _, _ := page(t, form, "POST", e.ts+"/moderator/login", url.Values{"token": {"guess-" + strconv.Itoa(i)}})
		got[st]++
	}
	if got[http.StatusTooManyRequests] == 0 {
		t.Errorf("30 wrong tokens on the sign-in form: %v, want 429s", got)
	}
	if st := bearer(t, from("127.0.0.83"), e.ts, "mod-secret"); st != http.StatusOK {
		t.Errorf("the right token from another address = %d, want 200", st)
	}
}

// TestMetricsNotPublic: on the main listener, /metrics is for the
// machine itself (a loopback peer with no proxy header: `go run .`) or a
// request with the moderator token; a request through a proxy, or from
// elsewhere, is refused.
func TestMetricsNotPublic(t *testing.T) {
	t.Parallel()
	e := moderated(t)
	get := func(hdr ...string) int {
		req, _ := http.NewRequest("GET", e.ts+"/metrics", nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := from("127.0.0.85").Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := get("X-Forwarded-For", "203.0.113.5"); st != http.StatusUnauthorized {
		t.Errorf("/metrics through a proxy = %d, want 401", st)
	}
	if st := get("Forwarded", "for=203.0.113.5"); st != http.StatusUnauthorized {
		t.Errorf("/metrics through a proxy (Forwarded) = %d, want 401", st)
	}
	if st := get("X-Forwarded-For", "203.0.113.5", "Authorization", "Bearer mod-secret"); st != http.StatusOK {
		t.Errorf("/metrics with the moderator token = %d, want 200", st)
	}
	if st := get(); st != http.StatusOK {
		t.Errorf("/metrics from this machine = %d, want 200", st)
	}
}
