package server

import (
	"context"
	"net/http"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/challenges"
	"golfsolitaire/server/identity"
	"golfsolitaire/server/moderation"
	"golfsolitaire/tourney"
)

// The feature packages (challenges, moderation, identity) stand beside this core: each
// mounts its routes with a Mount function and is given the narrow
// interfaces it declares, never the Server. ports implements them over
// the server.
type ports struct{ s *Server }

// challengeRoutes mounts package challenges: challenges between accounts
// and the daily challenge.
func (s *Server) challengeRoutes(m *http.ServeMux) {
	p := ports{s}
	challenges.Mount(m, challenges.Options{Rooms: p, Players: p, Tournaments: p, Answers: p,
		Store: s.store, Owner: s.id, Now: s.now, Logger: s.log})
}

// loadDaily is the day's daily challenge as package challenges records
// it (store.ErrNotFound when nobody has made it yet).
func (s *Server) loadDaily(ctx context.Context, day time.Time) (protocol.Daily, error) {
	return challenges.LoadDaily(ctx, s.store, day)
}

// Rooms.

func (p ports) CreateRoom(ctx context.Context, set match.Settings, host string) (protocol.SeatGrant, error) {
	return p.s.create(ctx, set, host)
}

func (p ports) LoadRoom(ctx context.Context, code string) (*match.Room, error) {
	return p.s.loadRoom(ctx, code)
}

func (p ports) RoomLink(r *http.Request, code string) string { return p.s.link(r, code) }

// Players.

func (p ports) Account(r *http.Request) (accounts.Account, error) { return p.s.currentAccount(r) }

func (p ports) ByKey(ctx context.Context, key string) (accounts.Account, error) {
	return p.s.acct.store.ByKey(ctx, key)
}

func (p ports) RatedCheck(r *http.Request, a accounts.Account) error { return p.s.ratedCheck(r, a) }

func (p ports) RefuseLinked(ctx context.Context, a accounts.Account, other string) error {
	return p.s.refuseLinked(ctx, a, other)
}

// Tournaments.

func (p ports) NewTournament(ctx context.Context, set tourney.Settings) (protocol.TournamentGrant, error) {
	return p.s.newTournament(ctx, set, "")
}

func (p ports) TournamentLink(r *http.Request, id string) string { return p.s.tournamentLink(r, id) }

// Answers.

func (p ports) AllowRoom(w http.ResponseWriter, r *http.Request) bool {
	return p.s.allow(w, r, limitRooms)
}

func (p ports) Fail(w http.ResponseWriter, err error) { p.s.fail(w, err) }

// Moderation.

// newModeration is the moderators' side of fair play (package
// moderation); token empty: review off, its routes answer 404.
func (s *Server) newModeration(token string) *moderation.Moderation {
	p := ports{s}
	return moderation.New(moderation.Options{Token: token, Sessions: s.opts.Sessions, SecureCookies: s.secureCookies(),
		BaseURL: s.opts.BaseURL, Limits: p, Flags: p, Reviews: p, Evidence: p, Answers: p, Logger: s.log})
}

// moderation is the moderators' side, nil when fair play is off.
func (s *Server) moderation() *moderation.Moderation {
	if s.fair == nil {
		return nil
	}
	return s.fair.mod
}

// fairplayRoutes mounts package moderation: the moderators' API and
// page.
func (s *Server) fairplayRoutes(m *http.ServeMux) { s.moderation().Mount(m) }

func (p ports) TokenAllowed(r *http.Request) (bool, time.Duration) {
	ok, retry := p.s.peek(r.Context(), clientOf(r, p.s.opts.Limits.TrustedHeader), limitModerator)
	if ok {
		return true, retry
	}
	return false, roundUp(retry)
}

func (p ports) TokenFailed(r *http.Request) {
	p.s.take(context.WithoutCancel(r.Context()), clientOf(r, p.s.opts.Limits.TrustedHeader), limitModerator)
}

func (p ports) Flags(ctx context.Context) ([]fairplay.Flag, error) { return p.s.fair.store.Flags(ctx) }

func (p ports) Review(ctx context.Context, player string, st fairplay.Status) (review.Outcome, error) {
	return p.s.fair.holds.Review(ctx, player, st, p.s.syncReviewed) // held.go
}

func (p ports) Links(ctx context.Context, flags []fairplay.Flag) (map[string][]protocol.AccountLink, error) {
	return p.s.flagLinks(ctx, flags) // linked.go
}

func (p ports) Scouting(ctx context.Context, flags []fairplay.Flag) (map[string][]review.Scouted, map[string]string, error) {
	return p.s.flagScouting(ctx, flags) // scouting.go
}

func (p ports) Status(err error) (int, string) {
	_, status := errorCode(err)
	return status, errorMessage(err)
}

// Identity.

// newIdentity is the accounts' HTTP side (package identity) over the
// account service and the players' sessions.
func (s *Server) newIdentity(svc *accounts.Service) *identity.Identity {
	p := ports{s}
	return identity.New(identity.Options{Store: s.acct.store, Service: svc, Sessions: s.acct.sessions,
		BaseURL: s.opts.BaseURL, SecureCookies: s.secureCookies(), ProofBits: s.opts.ProofBits,
		Limits: p, Sightings: p, Answers: p, Logger: s.log, Now: s.now})
}

// identityLimits are the server's limits of package identity's budgets.
var identityLimits = map[identity.Limit]action{
	identity.Logins:      limitLogins,
	identity.LoginClient: limitLoginClient,
	identity.LoginName:   limitLoginName,
	identity.Proofs:      limitProofs,
	identity.Signups:     limitSignups,
}

func (p ports) Client(r *http.Request) string { return clientOf(r, p.s.opts.Limits.TrustedHeader) }

func (p ports) Peek(ctx context.Context, key string, l identity.Limit) (bool, time.Duration) {
	ok, retry := p.s.peek(ctx, key, identityLimits[l])
	if ok {
		return true, retry
	}
	return false, roundUp(retry)
}

func (p ports) Take(ctx context.Context, key string, l identity.Limit) (bool, time.Duration) {
	ok, retry := p.s.take(ctx, key, identityLimits[l])
	if ok {
		return true, retry
	}
	return false, roundUp(retry)
}

func (p ports) See(r *http.Request, a accounts.Account) error { return p.s.see(r, a) } // linked.go

func (p ports) Retry(err error, after time.Duration) error {
	return &retryError{err: err, after: after}
}
