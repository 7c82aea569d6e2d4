package web

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"

	"golfsolitaire/templates"
)

// maxFollowName bounds the name in /tv/@/{name}: longer than any seat
// name, so such a page is a 404.
const maxFollowName = 64

// tvPages are the TV: /tv, the featured game, and /tv/@/{name}, one
// player's games.
func (h *handler) tvPages(m *http.ServeMux) {
	m.HandleFunc("GET /tv", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.TV(p, ""), http.StatusOK
	}, "tv.title"))
	m.HandleFunc("GET /tv/@/{name}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		name := strings.TrimSpace(r.PathValue("name"))
		if name == "" || utf8.RuneCountInString(name) > maxFollowName || !utf8.ValidString(name) {
			return templates.NotFound(p), http.StatusNotFound
		}
		return templates.TV(p, name), http.StatusOK
	}, "tv.title"))
}
