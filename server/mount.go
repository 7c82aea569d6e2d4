package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/challenges"
	"golfsolitaire/server/identity"
	"golfsolitaire/server/moderation"
	"golfsolitaire/server/tournaments"
	"golfsolitaire/store"
	"golfsolitaire/tourney"

	"github.com/coder/websocket"
)

// The feature packages (tournaments, challenges, moderation, identity) stand beside this core: each
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

// Tournaments (of the daily challenge).

func (p ports) NewTournament(ctx context.Context, set tourney.Settings) (protocol.TournamentGrant, error) {
	return p.s.tours.Create(ctx, set)
}

func (p ports) TournamentLink(r *http.Request, id string) string { return p.s.tours.Link(r, id) }

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

// Tournaments.

// tournamentFeature is what the core asks of package tournaments: its
// routes, the results and marks of its rooms, the leaders GET /api/live
// shows, a tournament made for the daily challenge, and its clock
// stopped.
type tournamentFeature interface {
	Mount(m *http.ServeMux)
	// RoomChanged is told of every event a tournament room's hub applied.
	RoomChanged(room *match.Room, notices []match.Notice)
	SyncHeld(ctx context.Context, id string, names []string)
	Leaders(ctx context.Context, id string, n int) ([]tourney.Row, error)
	Create(ctx context.Context, set tourney.Settings) (protocol.TournamentGrant, error)
	Link(r *http.Request, id string) string
	Close()
}

// newTournaments starts package tournaments over the server: its clock
// and schedule run from now.
func (s *Server) newTournaments() tournamentFeature {
	p := ports{s}
	o := tournaments.Options{Store: s.store, Tournaments: s.opts.Tournaments, Leaderboards: s.opts.Leaderboards,
		Hubs: s.hubEnv(), Analyzer: s.analyzer, TTL: s.opts.TournamentTTL, ResyncEvery: s.opts.ResyncEvery,
		HelloTimeout: s.opts.HelloTimeout, Schedule: s.opts.Schedule,
		Rooms: p, Players: p, Results: p, Answers: p, Sockets: p, Outage: p,
		Go: s.tasks.goCtx, Now: s.now, Logger: s.log}
	if s.fair != nil {
		o.Holds = s.fair.holds
	}
	return tournaments.New(o)
}

func (p ports) StartRoom(ctx context.Context, id string, set match.Settings, seed golf.Seed, seats []tournaments.Seat) (string, error) {
	return p.s.tournamentRoom(ctx, id, set, seed, seats)
}

// tournamentRoom makes a room of tournament id with the players seated
// (by their token hashes) and starts it on the round seed
// (tournaments.Rooms).
func (s *Server) tournamentRoom(ctx context.Context, id string, set match.Settings, seed golf.Seed, seats []tournaments.Seat) (string, error) {
	code, err := s.newRoomLog(ctx, set, id)
	if err != nil {
		return "", err
	}
	if err := s.store.Expire(ctx, code, s.opts.TournamentTTL); err != nil {
		return "", err
	}
	rh, err := s.rooms.Acquire(ctx, code)
	if err != nil {
		return "", err
	}
	defer s.rooms.Release(rh)
	for _, seat := range seats {
		res := rh.change(ctx, func(*match.Room) (match.Event, error) {
			// The entrant's account (if they entered logged in): fair-play
			// evidence of the room is kept under it.
			return match.Event{Kind: match.KindJoin, Name: seat.Name, Token: seat.Token, Account: seat.Account}, nil
		})
		if res.err != nil {
			return "", res.err
		}
	}
	// Winnable-only and difficulty deals are chosen here, not in the fold.
	deals, replaced, err := s.derivedDeals(ctx, id, set, seed)
	if err != nil {
		return "", err
	}
	for i := range seats {
		res := rh.change(ctx, func(*match.Room) (match.Event, error) {
			return match.Event{Kind: match.KindReady, Seat: i, Ready: true, Seed: &seed, Deals: deals, Replaced: replaced}, nil
		})
		if res.err != nil {
			return "", res.err
		}
	}
	return code, nil
}

func (p ports) AccountEntry(r *http.Request, set tourney.Settings) (string, error) {
	return p.s.accountEntry(r, set) // rated.go
}

func (p ports) SeatContext(r *http.Request) context.Context { return p.s.withSeatAccount(r) }

func (p ports) SeatAccount(ctx context.Context) int64 { return seatAccount(ctx) }

func (p ports) LinkedEntry(ctx context.Context, t *tourney.Tournament) error {
	return linkedEntry(ctx, t) // linked.go
}

func (p ports) Entries(t *tourney.Tournament, notices []tourney.Notice) []store.OutboxEntry {
	return p.s.ratedTournamentEntry(t, notices) // rated.go
}

func (p ports) Written(entries []store.OutboxEntry) { p.s.outboxWritten(entries) }

func (p ports) PrepareDeals(id string, set tourney.Settings, seeds []golf.Seed) {
	p.s.prepareTournamentDeals(id, set, seeds) // solver.go
}

// tournamentLimits are the server's limits of package tournaments'
// budgets.
var tournamentLimits = map[tournaments.Limit]action{
	tournaments.Creates: limitTournaments,
	tournaments.Entries: limitEntries,
}

func (p ports) Allow(w http.ResponseWriter, r *http.Request, l tournaments.Limit) bool {
	return p.s.allow(w, r, tournamentLimits[l])
}

func (p ports) Describe(err error) (string, string) {
	code, _ := errorCode(err)
	return code, errorMessage(err)
}

func (p ports) Warn(log *slog.Logger, msg string, err error, args ...any) {
	p.s.outage.warn(log, msg, err, args...)
}

func (p ports) OK(log *slog.Logger) { p.s.outage.ok(log) }

// Serve is a watcher's socket: accepted within the client's cap of
// sockets, its writer and pinger run beside watch (sender.go).
func (p ports) Serve(w http.ResponseWriter, r *http.Request, watch func(ctx context.Context, sock tournaments.Socket)) {
	s := p.s
	s.capSockets(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.AllowedOrigins})
		if err != nil {
			return
		}
		ws.SetReadLimit(protocol.MaxMessage)
		sock := socket{ws: ws, out: newSender(ws, s.opts.SendBuffer, s.opts.WriteTimeout, s.metrics.slowClosed.Inc)}
		serveDetached(r, func(ctx context.Context) {
			s.serveSocket(ctx, sock.out, func(ctx context.Context) { watch(ctx, sock) })
		})
	})(w, r)
}

// socket is a tournaments.Socket over the core's sockets.
type socket struct {
	ws  *websocket.Conn
	out *sender
}

func (s socket) Read(ctx context.Context) ([]byte, error) {
	_, data, err := s.ws.Read(ctx)
	if err == nil {
		s.out.hear()
	}
	return data, err
}

func (s socket) Send(msg []byte) { s.out.enqueue(msg) }

func (s socket) Close(code websocket.StatusCode, reason string) { s.out.close(code, reason) }

func (s socket) CloseNow(code websocket.StatusCode, reason string) { s.out.closeNow(code, reason) }
