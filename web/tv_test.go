package web_test

import (
	"net/http"
	"strings"
	"testing"

	"golfsolitaire/web"
)

// TestTVPages: /tv and /tv/@/{name} in both languages, the name escaped
// into the page; an empty or overlong name is a 404; every page links to
// the TV.
func TestTVPages(t *testing.T) {
	t.Parallel()
	h := web.New(web.Options{})
	tests := []struct {
		path   string
		status int
		want   []string
	}{
		{"/tv?lang=en", http.StatusOK, []string{`data-testid="tv"`, `data-player=""`, ">Golf TV<", `src="/static/tv.`}},
		{"/tv?lang=es", http.StatusOK, []string{`data-testid="tv"`, "Buscando una partida para mirar"}},
		{"/tv/@/Ana?lang=en", http.StatusOK, []string{`data-player="Ana"`, ">Following Ana<"}},
		{"/tv/@/Ana?lang=es", http.StatusOK, []string{`data-player="Ana"`, ">Siguiendo a Ana<"}},
		{"/tv/@/%3Cb%3E?lang=en", http.StatusOK, []string{`data-player="&lt;b&gt;"`, "Following &lt;b&gt;"}},
		{"/tv/@/%20", http.StatusNotFound, []string{`data-testid="notfound"`}},
		{"/tv/@/" + strings.Repeat("a", 65), http.StatusNotFound, []string{`data-testid="notfound"`}},
		{"/?lang=en", http.StatusOK, []string{`href="/tv" data-testid="nav-tv"`, `data-testid="live-board"`, `data-testid="live-leaders"`, `data-testid="live-top"`}},
	}
	for _, tc := range tests {
		res, body := get(t, h, tc.path)
		if res.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.path, res.StatusCode, tc.status)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: no %q", tc.path, w)
			}
		}
	}
}
