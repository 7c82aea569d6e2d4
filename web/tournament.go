package web

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/a-h/templ"

	"golfsolitaire/templates"
)

// tournamentID is what a tournament id in a path may look like; the server
// decides whether the tournament exists.
var tournamentID = regexp.MustCompile(`^[Tt][0-9A-Za-z]{9}$`)

// tournamentPages adds GET /tournaments (the list and the create form) and
// GET /t/{id} (a tournament's page).
func (h *handler) tournamentPages(m *http.ServeMux) {
	m.HandleFunc("GET /tournaments", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		return templates.Tournaments(p), http.StatusOK
	}, "tour.listTitle"))
	m.HandleFunc("GET /t/{id}", h.page(func(p templates.Page, r *http.Request) (templ.Component, int) {
		id := r.PathValue("id")
		if !tournamentID.MatchString(id) || !h.exists(r.Context(), strings.ToUpper(id)) {
			return templates.NotFound(p), http.StatusNotFound
		}
		return templates.Tournament(p, strings.ToUpper(id)), http.StatusOK
	}, "tour.listTitle"))
}
