// Package tournaments is the server's tournaments: the API under
// /api/tournaments, the watchers' WebSocket /ws/tournament, the hub that
// keeps each live tournament on this instance (hub.go, over the machine
// of server/internal/hubs), its leaderboards from the store's sorted sets
// (board.go, leaders.go), the results its rooms post to it (results.go),
// its clock (clock.go), the tournaments made ahead of their slot
// (schedule.go) and the held marks of its entrants (held.go).
//
// It stands beside the server's core, which gives it what it needs
// through the narrow interfaces of Options (rooms, players, results,
// fair-play holds, answers, sockets, outages) and the store's parts it
// uses; the core holds it by the few methods it calls (Mount, RoomChanged,
// SyncHeld, Leaders, Create, Link, Close).
package tournaments

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// Options is what the core gives the tournaments.
type Options struct {
	// Store is the log the tournaments (and their rooms) are kept in.
	Store Store
	// Tournaments and Leaderboards are the list of tournaments, their
	// due times and their boards.
	Tournaments  store.Tournaments
	Leaderboards store.Leaderboards
	// Hubs is what the server's hubs share (the store, the clock, the
	// resync period, the group the server's Close waits on).
	Hubs hubs.Env
	// Analyzer is the rooms' and tournaments' solver, for the
	// tournaments' views.
	Analyzer *match.Analyzer
	// TTL is how long a tournament and its rooms are kept after their
	// last event (the server's Options.TournamentTTL).
	TTL time.Duration
	// ResyncEvery is how often the clock scans and a hub sweeps.
	ResyncEvery time.Duration
	// HelloTimeout bounds the wait for a watcher's hello.
	HelloTimeout time.Duration
	// Schedule is the tournaments made ahead of their start.
	Schedule tourney.Schedule

	Rooms   Rooms
	Players Players
	Results Results
	// Holds is fair play's held marks; nil when fair play is off.
	Holds   Holds
	Answers Answers
	Sockets Sockets
	Outage  Outage
	// Go runs f as a background task of the server (its Close cancels
	// ctx and waits); false when the server is closing and f will not run.
	Go     func(f func(ctx context.Context)) bool
	Now    func() time.Time
	Logger *slog.Logger
}

// Store is the part of the store the tournaments use: the log of the
// hubs and the outbox a rated tournament's close writes to.
type Store interface {
	hubs.Store
	AppendOutbox(ctx context.Context, room string, expect int64, snapshot []byte, entries []store.OutboxEntry, events ...[]byte) (int64, error)
}

// Seat is a player seated in a tournament room: name, token hash and
// account (0 for a guest).
type Seat struct {
	Name, Token string
	Account     int64
}

// Rooms is what the tournaments need of the server's rooms.
type Rooms interface {
	// StartRoom makes a room of tournament id with the seats taken and
	// starts it on the round seed; it returns the room's code.
	StartRoom(ctx context.Context, id string, set match.Settings, seed golf.Seed, seats []Seat) (string, error)
	// LoadRoom reads a room (no hub needed).
	LoadRoom(ctx context.Context, code string) (*match.Room, error)
	// RoomLink is the room's invitation link, for the request.
	RoomLink(r *http.Request, code string) string
}

// Players is what the tournaments need of the server's accounts.
type Players interface {
	// AccountEntry is the entrant name of the request's account in an
	// accounts-only tournament, once it may enter (logged in, its
	// probation, its rated rounds).
	AccountEntry(r *http.Request, set tourney.Settings) (string, error)
	// SeatContext is the request's context with its logged-in account
	// (and that account's links) for the entry.
	SeatContext(r *http.Request) context.Context
	// SeatAccount is the account SeatContext put in ctx, 0 for none.
	SeatAccount(ctx context.Context) int64
	// LinkedEntry refuses an entry of an accounts-only tournament to an
	// account (of SeatContext) linked to an entrant.
	LinkedEntry(ctx context.Context, t *tourney.Tournament) error
}

// Results is what a tournament leaves for the job queue, and the deals
// its rounds are played on.
type Results interface {
	// Entries are the outbox entries of the change the notices come
	// from (a rated tournament closing), written with its append.
	Entries(t *tourney.Tournament, notices []tourney.Notice) []store.OutboxEntry
	// Written is told of entries once they are stored.
	Written(entries []store.OutboxEntry)
	// PrepareDeals chooses, in the background, the deals of a
	// winnable-only or difficulty tournament's rounds.
	PrepareDeals(id string, set tourney.Settings, seeds []golf.Seed)
}

// Holds is fair play's side of the held marks (fairplay/review.Holds).
type Holds interface {
	// PlayerOf is the fair-play player of an account (or of a name).
	PlayerOf(ctx context.Context, account int64, name string) (string, error)
	// Mark says whether the player is marked held: held (or confirmed)
	// now, or, over, whether the result of key is held.
	Mark(ctx context.Context, player string, over bool, key string) (bool, error)
}

// Limit is a per-client budget of the tournaments' requests.
type Limit int

// The budgets.
const (
	Creates Limit = iota // new tournaments
	Entries              // entries and plays
)

// Answers is how the server answers a request: the per-client budgets,
// and an error through the server's one table of codes.
type Answers interface {
	// Allow takes a token of the request's client's budget; false once
	// the refusal is answered.
	Allow(w http.ResponseWriter, r *http.Request, l Limit) bool
	// Fail answers the error with its code and status.
	Fail(w http.ResponseWriter, err error)
	// Describe is the error's wire code and message, for a socket.
	Describe(err error) (code, message string)
}

// Sockets is the server's WebSocket plumbing.
type Sockets interface {
	// Serve accepts the request's WebSocket (within the client's cap of
	// sockets) and runs watch with it, the socket's writer and pinger
	// beside it; the socket closes when watch returns.
	Serve(w http.ResponseWriter, r *http.Request, watch func(ctx context.Context, sock Socket))
}

// Socket is one accepted WebSocket: what it reads, and a queue of what
// it sends (a client that cannot keep up is closed, never waited on).
type Socket interface {
	Read(ctx context.Context) ([]byte, error)
	Send(msg []byte)
	// Close closes the socket after what is queued; CloseNow at once.
	Close(code websocket.StatusCode, reason string)
	CloseNow(code websocket.StatusCode, reason string)
}

// Outage logs a store outage once, and its end.
type Outage interface {
	Warn(log *slog.Logger, msg string, err error, args ...any)
	OK(log *slog.Logger)
}
