package server

import (
	"context"
	"net/http"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/challenges"
	"golfsolitaire/tourney"
)

// The feature packages (challenges, ...) stand beside this core: each
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
