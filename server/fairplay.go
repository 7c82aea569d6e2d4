package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/golf"
	"golfsolitaire/jobs"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/results"
	"golfsolitaire/store"
	"golfsolitaire/templates"
)

// FairplayStore keeps fair-play evidence per player, the flags and the
// results held for review: fairplay.MemoryStore, or fairplay/postgres.
type FairplayStore = fairplay.Store

var _ FairplayStore = (*fairplay.MemoryStore)(nil)

// Fairplay configures the fair-play analysis of finished holes
// (docs/fairplay.md): each finished hole is a job of the job queue
// (Options.Queue), written with the hole's last event, analysed once by a
// worker of the fair-play pool (Options.FairplayWorkers, or `golf
// worker`), never on a room's goroutine.
type Fairplay struct {
	// Store keeps the evidence; default an in-memory store.
	Store FairplayStore
	// Config bounds each hole's analysis; default fairplay.DefaultConfig
	// (Key is always the server's secret).
	Config *fairplay.Config
	// Rule is when a player is flagged; default fairplay.DefaultRule.
	Rule *fairplay.Rule
	// ModeratorToken guards GET /api/fairplay/flags; empty disables it.
	ModeratorToken string
}

// fairplayState is the server's fair-play part; nil when off.
type fairplayState struct {
	store FairplayStore
	token string
	// sessions are the moderators' sessions (moderator.go).
	sessions *scs.SessionManager
	log      *slog.Logger
	queued   prometheus.Counter
	failed   prometheus.Counter
	// finished counts the holes due for analysis (queued or not);
	// cpu the CPU time the analyses took (their threads').
	finished prometheus.Counter
	cpu      prometheus.Counter
	// holds analyses the holes, flags players and keeps rated rounds
	// back while a player in them is held for review (package review).
	holds *review.Holds
}

func (s *Server) startFairplay(o *Fairplay) {
	if o == nil {
		return
	}
	f := &fairplayState{store: o.Store, token: o.ModeratorToken, log: s.log, sessions: s.newModeratorSessions()}
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
	f.queued = counter("golf_fairplay_queued_total", "Finished holes queued for fair-play analysis (written to the outbox with the hole's last event).")
	// Nothing drops a hole any more (the queue is durable and unbounded):
	// kept, at 0, for dashboards that watch it.
	counter("golf_fairplay_dropped_total", "Finished holes not analysed because the fair-play queue was full: always 0 (the job queue keeps every hole).")
	analysed := counter("golf_fairplay_analysed_total", "Finished holes analysed for fair play.")
	flagged := counter("golf_fairplay_flags_total", "Players flagged for review.")
	held := counter("golf_fairplay_held_total", "Rated rounds held for review (a player in them was flagged).")
	voided := counter("golf_fairplay_voided_total", "Rated rounds voided at once (a player's unfair play was confirmed).")
	f.failed = counter("golf_fairplay_failed_total", "Fair-play analyses that failed (bad record or store error).")
	f.finished = counter("golf_fairplay_finished_total", "Finished holes due for fair-play analysis, queued or not.")
	f.cpu = counter("golf_fairplay_cpu_seconds_total", "CPU time the fair-play analyses took, on their own threads.")
	f.holds = review.New(review.Options{Store: f.store, Accounts: s.acct.store, Config: cfg, Rule: rule, Logger: s.log, Now: s.now,
		Held: held, Voided: voided, Analysed: analysed, Flagged: flagged, Failed: f.failed})
	s.fair = f
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
	return context.WithValue(s.withLinks(r.Context(), id), seatAccountKey{}, id) // linked.go
}

// seatAccount is the account withSeatAccount put in ctx, 0 for none.
func seatAccount(ctx context.Context) int64 {
	id, _ := ctx.Value(seatAccountKey{}).(int64)
	return id
}

// fairplayEntries are the outbox entries of every seat's hole that the
// notices say has just finished: written with the event that finished
// them (hub.apply), then analysed by the queue's fair-play pool. Solo
// practice (hints, undo) and bots are not analysed.
func (s *Server) fairplayEntries(r *match.Room, notices []match.Notice) []store.OutboxEntry {
	if s.fair == nil || (r.Settings.Solo() && r.Tournament == "") {
		return nil
	}
	var out []store.OutboxEntry
	for _, n := range notices {
		if n.Kind != match.NoticeSeatDone || n.Hole < 1 || n.Hole > len(r.Holes) || n.Seat < 0 || n.Seat >= len(r.Seats) {
			continue
		}
		h := r.Holes[n.Hole-1]
		seat := r.Seats[n.Seat]
		if n.Seat >= len(h.Games) || seat.Bot {
			continue
		}
		hole := results.Hole{Hole: review.Hole{
			Variant: r.Settings.Variant, Seed: h.Seed, Moves: append([]golf.Move(nil), h.Games[n.Seat].Moves...), Rated: r.Settings.Rated && seat.Account == 0,
			Begun: h.Started, Counts: r.Settings.Rated || r.Tournament != "",
			Report: fairplay.HoleReport{
				Player: review.Player(r, seat), Name: seat.Name, Room: r.Code, Round: r.Round, Hole: n.Hole,
				Replay: fmt.Sprintf("/api/rooms/%s/holes/%d/replay", r.Code, n.Hole), Score: n.Score, At: s.now(),
			},
		}, Marks: r.Settings.Rated || r.Tournament != "", Tournament: r.Tournament}
		j, err := results.HoleJob(hole)
		var e store.OutboxEntry
		if err == nil {
			e, err = jobs.Entry(j)
		}
		s.fair.finished.Inc()
		if err != nil {
			s.log.Error("fair-play: a finished hole cannot be queued", "room", r.Code, "hole", n.Hole, "err", err)
			continue
		}
		out = append(out, e)
	}
	return out
}

// measureAnalysis runs one hole's analysis on its own OS thread and adds
// the thread's CPU time to golf_fairplay_cpu_seconds_total.
func (s *Server) measureAnalysis(run func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadCPUTime()
	defer func() { s.fair.cpu.Add((threadCPUTime() - t0).Seconds()) }()
	run()
}

// threadCPUTime is the CPU time of the calling thread (Linux:
// RUSAGE_THREAD; elsewhere the call fails and it reads 0).
func threadCPUTime() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// moderatorAPI reports whether a review API request may go on: review is
// enabled and the request carries the moderator's token (or the page's
// cookie). Otherwise it has answered.
func (s *Server) moderatorAPI(w http.ResponseWriter, r *http.Request) bool {
	if !s.reviewEnabled(w) {
		return false
	}
	switch status, retry := s.moderatorOf(r); status {
	case 0:
		return true
	case http.StatusTooManyRequests:
		w.Header().Set("Retry-After", strconv.Itoa(int(roundUp(retry)/time.Second)))
		writeError(w, status, protocol.ErrCodeRateLimited, "too many wrong moderator tokens from your address; try again in "+roundUp(retry).String())
		return false
	default:
		w.Header().Set("WWW-Authenticate", `Bearer realm="fairplay"`)
		writeError(w, http.StatusUnauthorized, protocol.ErrCodeBadToken, "a moderator token is required (Authorization: Bearer TOKEN)")
		return false
	}
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
	links, err := s.flagLinks(r.Context(), flags) // linked.go
	if err != nil {
		s.fail(w, err)
		return
	}
	scouting, notes, err := s.flagScouting(r.Context(), flags) // scouting.go
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.FairplayFlags{Flags: flags, Links: links, Scouting: scouting, NameNotes: notes})
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
	status, _ := s.moderatorOf(r)
	m := templates.Moderator{In: status == 0, Notice: moderatorNotices[r.URL.Query().Get("done")], Base: strings.TrimRight(s.opts.BaseURL, "/")}
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
	links, err := s.flagLinks(r.Context(), flags) // linked.go
	if err != nil {
		s.fail(w, err)
		return
	}
	m.Links = map[string][]templates.ModeratorLink{}
	for p, ls := range links {
		for _, l := range ls {
			m.Links[p] = append(m.Links[p], templates.ModeratorLink{Name: l.Name, Kind: l.Kind, At: l.At})
		}
	}
	if m.Scouted, m.NameNotes, err = s.flagScouting(r.Context(), flags); err != nil { // scouting.go
		s.fail(w, err)
		return
	}
	s.renderModerator(w, r, http.StatusOK, m)
}

var moderatorNotices = map[string]string{
	"clear":   "Cleared: held results released.",
	"confirm": "Confirmed: held results voided.",
}

// postModeratorReview serves the page's forms, POST
// /moderator/flags/{player}/{action}: the review, then back to the page.
func (s *Server) postModeratorReview(w http.ResponseWriter, r *http.Request) {
	if !s.reviewEnabled(w) {
		return
	}
	if status, _ := s.moderatorOf(r); status != 0 {
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
	h := func(f http.HandlerFunc) http.Handler {
		if s.fair == nil || s.fair.sessions == nil {
			return f
		}
		return s.fair.sessions.LoadAndSave(f)
	}
	m.Handle("GET /api/fairplay/flags", h(s.getFairplayFlags))
	m.Handle("POST /api/fairplay/flags/{player}/{action}", h(s.postFairplayReview))
	m.Handle("GET /moderator", h(s.getModerator))
	m.Handle("POST /moderator/login", h(s.postModeratorLogin))
	m.Handle("POST /moderator/logout", h(s.postModeratorLogout))
	m.Handle("POST /moderator/flags/{player}/{action}", h(s.postModeratorReview))
}
