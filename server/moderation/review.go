package moderation

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golfsolitaire/fairplay"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/templates"
)

// reviewEnabled answers 404 when the server has no review.
func (m *Moderation) reviewEnabled(w http.ResponseWriter) bool {
	if !m.Enabled() {
		api.WriteError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "fair-play review is not enabled on this server")
		return false
	}
	return true
}

// allowAPI reports whether a review API request may go on: review is
// enabled and the request carries the moderator's token (or the page's
// cookie). Otherwise it has answered.
func (m *Moderation) allowAPI(w http.ResponseWriter, r *http.Request) bool {
	if !m.reviewEnabled(w) {
		return false
	}
	switch status, retry := m.Of(r); status {
	case 0:
		return true
	case http.StatusTooManyRequests:
		w.Header().Set("Retry-After", strconv.Itoa(int(retry/time.Second)))
		api.WriteError(w, status, protocol.ErrCodeRateLimited, "too many wrong moderator tokens from your address; try again in "+retry.String())
		return false
	default:
		w.Header().Set("WWW-Authenticate", `Bearer realm="fairplay"`)
		api.WriteError(w, http.StatusUnauthorized, protocol.ErrCodeBadToken, "a moderator token is required (Authorization: Bearer TOKEN)")
		return false
	}
}

// getFlags serves GET /api/fairplay/flags for moderators: every flag
// with its evidence. It needs "Authorization: Bearer <moderator token>"
// (or the review page's cookie).
func (m *Moderation) getFlags(w http.ResponseWriter, r *http.Request) {
	if !m.allowAPI(w, r) {
		return
	}
	flags, err := m.o.Flags.Flags(r.Context())
	if err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	links, err := m.o.Evidence.Links(r.Context(), flags)
	if err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	scouting, notes, err := m.o.Evidence.Scouting(r.Context(), flags)
	if err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	api.WriteJSON(w, http.StatusOK, protocol.FairplayFlags{Flags: flags, Links: links, Scouting: scouting, NameNotes: notes})
}

// postReview serves POST /api/fairplay/flags/{player}/clear and /confirm
// for moderators (the bearer token or the page's cookie).
func (m *Moderation) postReview(w http.ResponseWriter, r *http.Request) {
	if !m.allowAPI(w, r) {
		return
	}
	st, ok := reviewActions[r.PathValue("action")]
	if !ok {
		api.WriteError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "no such review action: want clear or confirm")
		return
	}
	out, err := m.o.Reviews.Review(r.Context(), r.PathValue("player"), st)
	if errors.Is(err, fairplay.ErrNotFound) {
		api.WriteError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "no flag for player "+strconv.Quote(r.PathValue("player")))
		return
	}
	if err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	api.WriteJSON(w, http.StatusOK, out)
}

var reviewActions = map[string]fairplay.Status{"clear": fairplay.StatusCleared, "confirm": fairplay.StatusConfirmed}

// pageCSP lets the review page submit its forms to this site and load
// nothing.
const pageCSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func (m *Moderation) render(w http.ResponseWriter, r *http.Request, status int, p templates.Moderator) {
	w.Header().Set("Content-Security-Policy", pageCSP)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := templates.ModeratorPage(p).Render(r.Context(), w); err != nil {
		m.o.Logger.Warn("moderator page", "err", err)
	}
}

// getPage serves GET /moderator: the sign-in form, or the flags.
func (m *Moderation) getPage(w http.ResponseWriter, r *http.Request) {
	if !m.reviewEnabled(w) {
		return
	}
	status, _ := m.Of(r)
	p := templates.Moderator{In: status == 0, Notice: notices[r.URL.Query().Get("done")], Base: strings.TrimRight(m.o.BaseURL, "/")}
	if !p.In {
		p.Notice = ""
		m.render(w, r, http.StatusOK, p)
		return
	}
	flags, err := m.o.Flags.Flags(r.Context())
	if err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	p.Flags = flags
	links, err := m.o.Evidence.Links(r.Context(), flags)
	if err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	p.Links = map[string][]templates.ModeratorLink{}
	for player, ls := range links {
		for _, l := range ls {
			p.Links[player] = append(p.Links[player], templates.ModeratorLink{Name: l.Name, Kind: l.Kind, At: l.At})
		}
	}
	if p.Scouted, p.NameNotes, err = m.o.Evidence.Scouting(r.Context(), flags); err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	m.render(w, r, http.StatusOK, p)
}

var notices = map[string]string{
	"clear":   "Cleared: held results released.",
	"confirm": "Confirmed: held results voided.",
}

// postPageReview serves the page's forms, POST
// /moderator/flags/{player}/{action}: the review, then back to the page.
func (m *Moderation) postPageReview(w http.ResponseWriter, r *http.Request) {
	if !m.reviewEnabled(w) {
		return
	}
	if status, _ := m.Of(r); status != 0 {
		m.render(w, r, http.StatusUnauthorized, templates.Moderator{Error: "Sign in with the moderator token first."})
		return
	}
	action := r.PathValue("action")
	st, ok := reviewActions[action]
	if !ok {
		m.render(w, r, http.StatusNotFound, templates.Moderator{In: true, Error: "No such review action: want clear or confirm."})
		return
	}
	if _, err := m.o.Reviews.Review(r.Context(), r.PathValue("player"), st); err != nil {
		status, msg := http.StatusInternalServerError, "The review was not recorded: "+err.Error()
		if errors.Is(err, fairplay.ErrNotFound) {
			status, msg = http.StatusNotFound, "No flag for player "+strconv.Quote(r.PathValue("player"))+"."
		} else if st, text := m.o.Answers.Status(err); st == http.StatusServiceUnavailable {
			status, msg = st, "The review was not recorded: "+text+"."
			w.Header().Set("Retry-After", strconv.Itoa(int(api.UnavailableRetry.Seconds())))
		}
		m.o.Logger.Warn("moderator review", "player", r.PathValue("player"), "err", err)
		m.render(w, r, status, templates.Moderator{In: true, Error: msg})
		return
	}
	http.Redirect(w, r, "/moderator?done="+action, http.StatusSeeOther)
}
