package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"golfsolitaire/web"
)

func get(t *testing.T, h http.Handler, target string, header ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestRoutes(t *testing.T) {
	h := web.New(web.Options{})
	for _, tc := range []struct {
		path   string
		status int
		testid string
	}{
		{"/", 200, "create-form"},
		{"/r/ABC-DEF-GHJ", 200, "waiting"},
		{"/r/abc-def-ghj", 200, "big-code"},
		{"/watch/ABC-DEF-GHJ", 200, "boards"},
		{"/how-to-play", 200, "howto"},
		{"/practice", 200, "practice-form"},
		{"/nope", 404, "notfound"},
		{"/r/bad%20code!", 404, "notfound"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			res, body := get(t, h, tc.path)
			if res.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", res.StatusCode, tc.status)
			}
			if !strings.Contains(body, `data-testid="`+tc.testid+`"`) {
				t.Errorf("no data-testid=%q", tc.testid)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("Content-Type = %q", ct)
			}
		})
	}
}

func TestRoomCodeIsUpperCase(t *testing.T) {
	_, body := get(t, web.New(web.Options{}), "/r/abc-def-ghj")
	if !strings.Contains(body, `data-code="ABC-DEF-GHJ"`) {
		t.Error("the room code is not canonical upper case")
	}
}

func TestLanguage(t *testing.T) {
	h := web.New(web.Options{})
	for _, tc := range []struct {
		name, target string
		header       []string
		want         string
	}{
		{"default", "/", nil, "en"},
		{"accept-language", "/", []string{"Accept-Language", "es-ES,es;q=0.9"}, "es"},
		{"query wins", "/?lang=en", []string{"Accept-Language", "es"}, "en"},
		{"cookie", "/", []string{"Cookie", "lang=es", "Accept-Language", "en"}, "es"},
		{"unknown query", "/?lang=xx", []string{"Accept-Language", "es"}, "es"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := get(t, h, tc.target, tc.header...)
			if !strings.Contains(body, `<html lang="`+tc.want+`"`) {
				t.Errorf("page not in %s", tc.want)
			}
			if got := res.Header.Get("Content-Language"); got != tc.want {
				t.Errorf("Content-Language = %q", got)
			}
		})
	}
	res, _ := get(t, h, "/?lang=es")
	if c := res.Cookies(); len(c) != 1 || c[0].Name != web.LangCookie || c[0].Value != "es" {
		t.Errorf("?lang=es set cookies %v", c)
	}
	_, body := get(t, h, "/", "Accept-Language", "es")
	if !strings.Contains(body, "Crear sala") || !strings.Contains(body, `"home.createBtn":"Crear sala"`) {
		t.Error("the Spanish page or its script catalogue is not in Spanish")
	}
}

func TestStaticAssets(t *testing.T) {
	h := web.New(web.Options{})
	_, page := get(t, h, "/")
	m := regexp.MustCompile(`href="(/static/app\.css\?v=([0-9a-f]+))"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no hashed stylesheet link in the page")
	}
	res, body := get(t, h, m[1])
	if res.StatusCode != 200 || !strings.Contains(body, ".card") {
		t.Fatalf("stylesheet: %d", res.StatusCode)
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("hashed asset Cache-Control = %q", cc)
	}
	etag := res.Header.Get("ETag")
	if etag != `"`+m[2]+`"` {
		t.Errorf("ETag = %q, want the hash %q", etag, m[2])
	}
	res, _ = get(t, h, "/static/app.css", "If-None-Match", etag)
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", res.StatusCode)
	}
	if cc := res.Header.Get("Cache-Control"); strings.Contains(cc, "immutable") {
		t.Errorf("an unhashed URL is cached as immutable")
	}
	res, _ = get(t, h, "/static/room.js")
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("room.js Content-Type = %q", ct)
	}
	if !strings.Contains(page, `<script type="importmap">`) || !strings.Contains(page, `"/static/board.js":"/static/board.js?v=`) {
		t.Error("no import map with hashed module URLs")
	}
	res, _ = get(t, h, "/static/nope.js")
	if res.StatusCode != 404 {
		t.Errorf("missing asset: %d", res.StatusCode)
	}
}

// TestMissingRoomsAre404: with Exists, a room or tournament the store does
// not hold is a 404 page that offers the lobby; one it holds is served.
func TestMissingRoomsAre404(t *testing.T) {
	known := map[string]bool{"ABC-DEF-GHJ": true, "T123456789": true}
	h := web.New(web.Options{Exists: func(_ context.Context, id string) (bool, error) { return known[id], nil }})
	for _, tc := range []struct {
		path   string
		status int
		testid string
	}{
		{"/r/abc-def-ghj", 200, "room"},
		{"/watch/ABC-DEF-GHJ", 200, "room"},
		{"/t/T123456789", 200, "tournament"},
		{"/r/ZZZ-ZZZ-ZZZ", 404, "notfound"},
		{"/watch/ZZZ-ZZZ-ZZZ", 404, "notfound"},
		{"/t/T999999999", 404, "notfound"},
	} {
		res, body := get(t, h, tc.path)
		if res.StatusCode != tc.status || !strings.Contains(body, `data-testid="`+tc.testid+`"`) {
			t.Errorf("%s: status %d, want %d with %s", tc.path, res.StatusCode, tc.status, tc.testid)
		}
		if tc.status == 404 && !strings.Contains(body, `href="/"`) {
			t.Errorf("%s: the 404 page does not offer the lobby", tc.path)
		}
	}
}

// TestNoInlineStyle: every page's Content-Security-Policy allows styles
// from the site's stylesheet only (no 'unsafe-inline', no style-src-attr),
// and no page's markup carries a style attribute or element it would
// refuse.
func TestNoInlineStyle(t *testing.T) {
	h := web.New(web.Options{})
	styleAttr := regexp.MustCompile(`(?i)<[a-z][^>]*\sstyle=|<style[\s>]`)
	for _, path := range []string{"/", "/practice", "/how-to-play", "/r/ABC-DEF-GHJ", "/watch/ABC-DEF-GHJ", "/tournaments", "/t/abc", "/login", "/signup", "/nope"} {
		res, body := get(t, h, path)
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "style-src 'self';") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "style-src-attr") || strings.Contains(csp, "style-src-elem") {
			t.Errorf("%s: Content-Security-Policy %q allows inline style", path, csp)
		}
		if m := styleAttr.FindString(body); m != "" {
			t.Errorf("%s: inline style in the markup: %s", path, m)
		}
	}
}

// TestNotFoundLinksStayOnSite: a path that decodes to "//host" (or a
// backslash browsers read as a slash) must not become a protocol-relative
// link in the language switcher.
func TestNotFoundLinksStayOnSite(t *testing.T) {
	t.Parallel()
	h := web.New(web.Options{})
	href := regexp.MustCompile(`href="([^"]*)"`)
	for _, target := range []string{"/%2F%2Fevil.example", "/%2F%2F%2Fevil.example/x", "/%5C%5Cevil.example", "/%2f/evil.example"} {
		t.Run(target, func(t *testing.T) {
			res, body := get(t, h, target)
			if res.StatusCode != http.StatusNotFound {
				t.Fatalf("status %d, want 404", res.StatusCode)
			}
			for _, m := range href.FindAllStringSubmatch(body, -1) {
				link := m[1]
				if strings.HasPrefix(link, "//") || strings.HasPrefix(link, `/\`) {
					t.Errorf("off-site link %q", link)
				}
				if strings.Contains(link, "evil.example") && !strings.HasPrefix(link, "/%") && !strings.HasPrefix(link, "/?") {
					t.Errorf("link %q does not keep the path escaped", link)
				}
			}
		})
	}
}
