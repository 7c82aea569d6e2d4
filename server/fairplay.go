package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/fairplay/worker"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/solverpool"
	"golfsolitaire/templates"
)

// Submitter runs background work off every room's loop. Submit returns
// false, without running job, when the work is refused (queue full or
// stopped). The shared solver pool can implement it; worker.Worker
// (fairplay/worker) is the small default.
type Submitter interface {
	Submit(ctx context.Context, priority int, job func()) bool
}

// FairplayStore keeps fair-play evidence per player, the flags and the
// results held for review: fairplay.MemoryStore, or fairplay/postgres.
type FairplayStore = fairplay.Store

var (
	_ FairplayStore = (*fairplay.MemoryStore)(nil)
	_ Submitter     = (*worker.Worker)(nil)
)

// Fairplay configures the background fair-play analysis of finished holes
// (docs/fairplay.md).
type Fairplay struct {
	// Store keeps the evidence; default an in-memory store.
	Store FairplayStore
	// Pool runs the analyses; default a worker.Worker of one goroutine
	// and a queue of QueueSize, stopped by Server.Close.
	Pool Submitter
	// QueueSize bounds the default worker's queue; default 256.
	QueueSize int
	// Config bounds each hole's analysis; default fairplay.DefaultConfig
	// (Key is always the server's secret).
	Config *fairplay.Config
	// Rule is when a player is flagged; default fairplay.DefaultRule.
	Rule *fairplay.Rule
	// ModeratorToken guards GET /api/fairplay/flags; empty disables it.
	ModeratorToken string
}

// The priorities of fair-play analyses (lower runs first): rated play
// is analysed before casual play and tournaments.
const (
	PriorityFairplayRated = 5
	PriorityFairplay      = 10
)

// fairplayState is the server's fair-play part; nil when off.
type fairplayState struct {
	store  FairplayStore
	pool   Submitter
	own    *worker.Worker // the default worker, closed by Close
	token  string
	log    *slog.Logger
	queued prometheus.Counter
	failed prometheus.Counter
	// holds analyses the holes, flags players and keeps rated rounds
	// back while a player in them is held for review (package review).
	holds *review.Holds
}

func (s *Server) startFairplay(o *Fairplay) {
	if o == nil {
		return
	}
	f := &fairplayState{store: o.Store, pool: o.Pool, token: o.ModeratorToken, log: s.log}
	cfg, rule := fairplay.DefaultConfig, fairplay.DefaultRule
	if o.Config != nil {
		cfg = *o.Config
	}
	cfg.Key = s.secret
	if o.Rule != nil {
		rule = *o.Rule
	}
	if f.store == nil {
		f.store = fairplay.NewMemoryStore()
	}
	counter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		s.metrics.reg.MustRegister(c)
		return c
	}
	f.queued = counter("golf_fairplay_queued_total", "Finished holes queued for fair-play analysis.")
	dropped := counter("golf_fairplay_dropped_total", "Finished holes not analysed because the fair-play queue was full.")
	analysed := counter("golf_fairplay_analysed_total", "Finished holes analysed for fair play.")
	flagged := counter("golf_fairplay_flags_total", "Players flagged for review.")
	held := counter("golf_fairplay_held_total", "Rated rounds held for review (a player in them was flagged).")
	voided := counter("golf_fairplay_voided_total", "Rated rounds voided at once (a player's unfair play was confirmed).")
	f.failed = counter("golf_fairplay_failed_total", "Fair-play analyses that failed (bad record or store error).")
	if f.pool == nil {
		f.own = worker.New(cmpOr(o.QueueSize, 256), dropped)
		f.pool = f.own
	}
	f.holds = review.New(review.Options{Store: f.store, Accounts: s.acct.store, Config: cfg, Rule: rule, Logger: s.log, Now: s.now,
		Held: held, Voided: voided, Analysed: analysed, Flagged: flagged, Failed: f.failed})
	s.fair = f
}

func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

func (s *Server) stopFairplay() {
	if s.fair != nil && s.fair.own != nil {
		s.fair.own.Close()
	}
}

// fairplayJob is one finished hole to analyse, copied off the room.
type fairplayJob struct {
	hole review.Hole
	// marks: the room (or its tournament) may show held marks (held.go):
	// they are checked after the analysis.
	marks bool
}

// seatAccountKey carries, in a request's context, the account a join
// seats (joinToken reads it): set only by the handlers where the one
// seated is the one logged in.
type seatAccountKey struct{}

// withSeatAccount marks ctx's joins as the logged-in account's, if any.
func (s *Server) withSeatAccount(r *http.Request) context.Context {
	id := s.acct.sessions.GetInt64(r.Context(), sessionAccount)
	if id == 0 {
		return r.Context()
	}
	return context.WithValue(r.Context(), seatAccountKey{}, id)
}

// seatAccount is the account withSeatAccount put in ctx, 0 for none.
func seatAccount(ctx context.Context) int64 {
	id, _ := ctx.Value(seatAccountKey{}).(int64)
	return id
}

// queueFairplay queues every seat's hole that the notices say has just
// finished. Runs on the hub's goroutine: it only copies and submits.
// Solo practice (hints, undo) and bots are not analysed; rated rooms'
// holes go first (PriorityFairplayRated).
func (s *Server) queueFairplay(r *match.Room, notices []match.Notice) {
	f := s.fair
	if f == nil || (r.Settings.Solo() && r.Tournament == "") {
		return
	}
	pri := PriorityFairplay
	if r.Settings.Rated {
		pri = PriorityFairplayRated
	}
	for _, n := range notices {
		if n.Kind != match.NoticeSeatDone || n.Hole < 1 || n.Hole > len(r.Holes) || n.Seat < 0 || n.Seat >= len(r.Seats) {
			continue
		}
		h := r.Holes[n.Hole-1]
		seat := r.Seats[n.Seat]
		if n.Seat >= len(h.Games) || seat.Bot {
			continue
		}
		job := fairplayJob{hole: review.Hole{
			Variant: r.Settings.Variant, Seed: h.Seed, Moves: append([]golf.Move(nil), h.Games[n.Seat].Moves...), Rated: r.Settings.Rated && seat.Account == 0,
			Report: fairplay.HoleReport{
				Player: review.Player(r, seat), Name: seat.Name, Room: r.Code, Round: r.Round, Hole: n.Hole,
				Replay: fmt.Sprintf("/api/rooms/%s/holes/%d/replay", r.Code, n.Hole), Score: n.Score, At: s.now(),
			},
		}, marks: r.Settings.Rated || r.Tournament != ""}
		if f.pool.Submit(context.Background(), pri, func() { s.analyseInPool(job) }) {
			f.queued.Inc()
		}
	}
}

// analyseInPool runs one hole's analysis as a low-priority job of the
// server's solver pool (below best scores, hints and bots), so the
// background queue never takes a core the players' solver work needs. The
// queue's one goroutine waits for it: one analysis in flight at a time.
func (s *Server) analyseInPool(j fairplayJob) {
	err := s.solve(context.Background(), solverpool.Low, "fairplay", func() {
		if s.fair.holds.Analyse(j.hole) && j.marks {
			// held.go: a flag raised now (or a review since the last
			// hole) shows in the room's standings at once.
			s.syncHeldLater(j.hole.Report.Room)
		}
	})
	if err != nil && !errors.Is(err, solverpool.ErrClosed) {
		s.fair.failed.Inc()
		s.fair.log.Warn("fair-play analysis not run", "room", j.hole.Report.Room, "hole", j.hole.Report.Hole, "err", err)
	}
}

// moderatorAPI reports whether a review API request may go on: review is
// enabled and the request carries the moderator's token (or the page's
// cookie). Otherwise it has answered.
func (s *Server) moderatorAPI(w http.ResponseWriter, r *http.Request) bool {
	if !s.reviewEnabled(w) {
		return false
	}
	if !s.fair.moderator(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="fairplay"`)
		writeError(w, http.StatusUnauthorized, protocol.ErrCodeBadToken, "a moderator token is required (Authorization: Bearer TOKEN)")
		return false
	}
	return true
}

// getFairplayFlags serves GET /api/fairplay/flags for moderators: every
// flag with its evidence. It needs "Authorization: Bearer <moderator
// token>" (or the review page's cookie).
func (s *Server) getFairplayFlags(w http.ResponseWriter, r *http.Request) {
	if !s.moderatorAPI(w, r) {
		return
	}
	flags, err := s.fair.store.Flags(r.Context())
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.FairplayFlags{Flags: flags})
}

// moderatorCookie carries a moderator's sign-in on the review page: a
// hash of the token (any instance with the token can check it; the token
// itself is not in the cookie).
const moderatorCookie = "golf_moderator"

func moderatorProof(token string) string {
	sum := sha256.Sum256([]byte("golf moderator cookie\x00" + token))
	return hex.EncodeToString(sum[:])
}

// moderator reports whether the request is a moderator's: the token as
// "Authorization: Bearer" or the review page's cookie.
func (f *fairplayState) moderator(r *http.Request) bool {
	if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return subtle.ConstantTimeCompare([]byte(got), []byte(f.token)) == 1
	}
	c, err := r.Cookie(moderatorCookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(moderatorProof(f.token))) == 1
}

// reviewEnabled answers 404 when the server has no review.
func (s *Server) reviewEnabled(w http.ResponseWriter) bool {
	if s.fair == nil || s.fair.token == "" {
		writeError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "fair-play review is not enabled on this server")
		return false
	}
	return true
}

// postFairplayReview serves POST /api/fairplay/flags/{player}/clear and
// /confirm for moderators (the bearer token or the page's cookie).
func (s *Server) postFairplayReview(w http.ResponseWriter, r *http.Request) {
	if !s.moderatorAPI(w, r) {
		return
	}
	st, ok := reviewActions[r.PathValue("action")]
	if !ok {
		writeError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "no such review action: want clear or confirm")
		return
	}
	out, err := s.fair.holds.Review(r.Context(), r.PathValue("player"), st, s.syncReviewed)
	if errors.Is(err, fairplay.ErrNotFound) {
		writeError(w, http.StatusNotFound, protocol.ErrCodeBadMessage, "no flag for player "+strconv.Quote(r.PathValue("player")))
		return
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

var reviewActions = map[string]fairplay.Status{"clear": fairplay.StatusCleared, "confirm": fairplay.StatusConfirmed}

// moderatorCSP lets the review page submit its forms to this site and
// load nothing.
const moderatorCSP = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func (s *Server) renderModerator(w http.ResponseWriter, r *http.Request, status int, m templates.Moderator) {
	w.Header().Set("Content-Security-Policy", moderatorCSP)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := templates.ModeratorPage(m).Render(r.Context(), w); err != nil {
		s.log.Warn("moderator page", "err", err)
	}
}

// getModerator serves GET /moderator: the sign-in form, or the flags.
func (s *Server) getModerator(w http.ResponseWriter, r *http.Request) {
	if !s.reviewEnabled(w) {
		return
	}
	m := templates.Moderator{In: s.fair.moderator(r), Notice: moderatorNotices[r.URL.Query().Get("done")], Base: strings.TrimRight(s.opts.BaseURL, "/")}
	if !m.In {
		m.Notice = ""
		s.renderModerator(w, r, http.StatusOK, m)
		return
	}
	flags, err := s.fair.store.Flags(r.Context())
	if err != nil {
		s.fail(w, err)
		return
	}
	m.Flags = flags
	s.renderModerator(w, r, http.StatusOK, m)
}

var moderatorNotices = map[string]string{
	"clear":   "Cleared: held results released.",
	"confirm": "Confirmed: held results voided.",
}

// postModeratorLogin serves POST /moderator/login (form field token):
// the cookie, or the form again with an error.
func (s *Server) postModeratorLogin(w http.ResponseWriter, r *http.Request) {
	if !s.reviewEnabled(w) {
		return
	}
	got := r.PostFormValue("token")
	if subtle.ConstantTimeCompare([]byte(got), []byte(s.fair.token)) != 1 {
		s.renderModerator(w, r, http.StatusUnauthorized, templates.Moderator{Error: "That is not the moderator token."})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: moderatorCookie, Value: moderatorProof(s.fair.token), Path: "/", HttpOnly: true,
		Secure: s.secureCookies(), SameSite: http.SameSiteStrictMode, MaxAge: 12 * 3600})
	http.Redirect(w, r, "/moderator", http.StatusSeeOther)
}

// postModeratorLogout serves POST /moderator/logout.
func (s *Server) postModeratorLogout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: moderatorCookie, Value: "", Path: "/", HttpOnly: true, Secure: s.secureCookies(), SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/moderator", http.StatusSeeOther)
}

// postModeratorReview serves the page's forms, POST
// /moderator/flags/{player}/{action}: the review, then back to the page.
func (s *Server) postModeratorReview(w http.ResponseWriter, r *http.Request) {
	if !s.reviewEnabled(w) {
		return
	}
	if !s.fair.moderator(r) {
		s.renderModerator(w, r, http.StatusUnauthorized, templates.Moderator{Error: "Sign in with the moderator token first."})
		return
	}
	action := r.PathValue("action")
	st, ok := reviewActions[action]
	if !ok {
		s.renderModerator(w, r, http.StatusNotFound, templates.Moderator{In: true, Error: "No such review action: want clear or confirm."})
		return
	}
	if _, err := s.fair.holds.Review(r.Context(), r.PathValue("player"), st, s.syncReviewed); err != nil {
		status, msg := http.StatusInternalServerError, "The review was not recorded: "+err.Error()
		if errors.Is(err, fairplay.ErrNotFound) {
			status, msg = http.StatusNotFound, "No flag for player "+strconv.Quote(r.PathValue("player"))+"."
		} else if _, st := errorCode(err); st == http.StatusServiceUnavailable {
			status, msg = st, "The review was not recorded: "+errorMessage(err)+"."
			w.Header().Set("Retry-After", strconv.Itoa(int(unavailableRetry.Seconds())))
		}
		s.log.Warn("moderator review", "player", r.PathValue("player"), "err", err)
		s.renderModerator(w, r, status, templates.Moderator{In: true, Error: msg})
		return
	}
	http.Redirect(w, r, "/moderator?done="+action, http.StatusSeeOther)
}

// fairplayRoutes are the moderators' API and page.
func (s *Server) fairplayRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/fairplay/flags", s.getFairplayFlags)
	m.HandleFunc("POST /api/fairplay/flags/{player}/{action}", s.postFairplayReview)
	m.HandleFunc("GET /moderator", s.getModerator)
	m.HandleFunc("POST /moderator/login", s.postModeratorLogin)
	m.HandleFunc("POST /moderator/logout", s.postModeratorLogout)
	m.HandleFunc("POST /moderator/flags/{player}/{action}", s.postModeratorReview)
}
