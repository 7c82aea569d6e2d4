// Package challenges is the challenges between accounts and the daily
// challenge, over HTTP: POST /api/players/{name}/challenge, GET
// /api/account/challenges and GET /api/daily. It stands beside the
// server's core, which gives it what it needs through the narrow
// interfaces of Options (rooms, players, tournaments, answers) and the
// store's parts it uses, and mounts its routes with Mount.
package challenges

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// Rooms is what the challenges need of the server's rooms.
type Rooms interface {
	// CreateRoom makes a room of the settings with its host seated by
	// name, and returns the host's seat grant (without its link).
	CreateRoom(ctx context.Context, set match.Settings, host string) (protocol.SeatGrant, error)
	// LoadRoom reads a room (an unknown one is an error the server
	// answers with room_not_found).
	LoadRoom(ctx context.Context, code string) (*match.Room, error)
	// RoomLink is the room's invitation link, for the request.
	RoomLink(r *http.Request, code string) string
}

// Players is what the challenges need of the server's accounts.
type Players interface {
	// Account is the request's logged-in account; api.ErrNotLoggedIn
	// (wrapped or not) when there is none.
	Account(r *http.Request) (accounts.Account, error)
	// ByKey is the account of the key (accounts.Key).
	ByKey(ctx context.Context, key string) (accounts.Account, error)
	// RatedCheck refuses an account that may not play rated games yet
	// (its probation) or from where it is (its sightings).
	RatedCheck(r *http.Request, a accounts.Account) error
	// RefuseLinked refuses a rated game between the account and the
	// account named other when they are linked.
	RefuseLinked(ctx context.Context, a accounts.Account, other string) error
}

// Tournaments is what the daily challenge needs of the server's
// tournaments.
type Tournaments interface {
	// NewTournament makes a tournament of the settings, with no host
	// entrant.
	NewTournament(ctx context.Context, set tourney.Settings) (protocol.TournamentGrant, error)
	// TournamentLink is the tournament's page, for the request.
	TournamentLink(r *http.Request, id string) string
}

// Answers is how the server answers a request: the per-client budget of
// new rooms, and an error through the server's one table of codes.
type Answers interface {
	// AllowRoom takes a token of the request's client's budget of new
	// rooms; false once the refusal is answered.
	AllowRoom(w http.ResponseWriter, r *http.Request) bool
	// Fail answers the error with its code and status.
	Fail(w http.ResponseWriter, err error)
}

// Store is the part of the store the challenges use: inboxes for the
// challenges, a record and a lease for the daily challenge.
type Store interface {
	store.Inboxes
	Load(ctx context.Context, room string) (store.Snapshot, error)
	Create(ctx context.Context, room string, snapshot []byte, first []byte) error
	Expire(ctx context.Context, room string, ttl time.Duration) error
	TakeLease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	ReleaseLease(ctx context.Context, key, owner string) error
}

// Options are what Mount needs; every field is required.
type Options struct {
	Rooms       Rooms
	Players     Players
	Tournaments Tournaments
	Answers     Answers
	Store       Store
	// Owner names this instance as the owner of the daily challenge's
	// creation lease.
	Owner  string
	Now    func() time.Time
	Logger *slog.Logger
}

// challenges serves the routes.
type challenges struct{ Options }

func (c *challenges) now() time.Time { return c.Now().UTC() }

// Challenges: from a player's profile, a logged-in account challenges
// that player to a rated room. The room is private (not listed; its code
// is the invitation) and the challenger is seated; the challenged player
// finds the challenge in their inbox (GET /api/account/challenges) on any
// instance: the inbox is kept in the store's inboxes (store.Inboxes, a
// record of its own kind, never a room), a day from the last challenge.

// challengeTTL is how long a challenge stays in an inbox; maxChallenges
// how many challengers an inbox holds at once (one challenge each: a
// second from the same account replaces the first). Past it, challenges
// whose room no longer waits are dropped, and if none is, the new one is
// refused (errInboxFull).
const (
	challengeTTL  = 24 * time.Hour
	maxChallenges = 20
)

var errChallengeSelf = fmt.Errorf("%w: you cannot challenge yourself", match.ErrInvalid)

// Mount adds the routes to m.
func Mount(m *http.ServeMux, o Options) {
	s := &challenges{o}
	m.HandleFunc("POST /api/players/{name}/challenge", s.challenge)
	m.HandleFunc("GET /api/account/challenges", s.challenges)
	m.HandleFunc("GET /api/daily", s.daily) // daily.go
}

// inboxKey names an account's inbox: its key and id (an id is never
// reused, so a new account of a deleted one's name starts empty).
func inboxKey(a accounts.Account) string { return "challenges:" + a.Key + ":" + fmt.Sprint(a.ID) }

// challenge is POST /api/players/{name}/challenge {"settings": {...}}: a
// rated, private, two-seat room (match play over 9 holes of Golf unless
// the settings say otherwise) with the challenger seated, and the
// challenge in the other player's inbox. 201 with the challenger's seat
// grant.
func (s *challenges) challenge(w http.ResponseWriter, r *http.Request) {
	if !s.Answers.AllowRoom(w, r) {
		return
	}
	var req protocol.CreateRoomRequest
	if r.ContentLength != 0 {
		if err := api.DecodeBody(r, &req); err != nil {
			s.Answers.Fail(w, err)
			return
		}
	}
	me, err := s.Players.Account(r)
	if err != nil {
		if errors.Is(err, api.ErrNotLoggedIn) {
			err = fmt.Errorf("%w: log in to challenge a player", api.ErrNotLoggedIn)
		}
		s.Answers.Fail(w, err)
		return
	}
	key, err := accounts.Key(r.PathValue("name"))
	if err != nil {
		s.Answers.Fail(w, accounts.ErrNotFound)
		return
	}
	them, err := s.Players.ByKey(r.Context(), key)
	if err != nil {
		s.Answers.Fail(w, err)
		return
	}
	if them.ID == me.ID {
		s.Answers.Fail(w, errChallengeSelf)
		return
	}
	if err := s.Players.RatedCheck(r, me); err != nil { // probation, sightings
		s.Answers.Fail(w, err)
		return
	}
	if err := s.Players.RefuseLinked(r.Context(), me, them.Name); err != nil {
		s.Answers.Fail(w, err)
		return
	}
	set := match.DefaultSettings()
	set.Format = match.Matchplay
	set.Holes = 9
	if len(req.Settings) > 0 {
		if err := json.Unmarshal(req.Settings, &set); err != nil {
			s.Answers.Fail(w, err)
			return
		}
	}
	set.Rated, set.Public, set.Seats = true, false, 2
	// A full inbox refuses before any room is made.
	if err := s.inboxRoom(r.Context(), me, them); err != nil {
		s.failChallenge(w, err)
		return
	}
	grant, err := s.Rooms.CreateRoom(r.Context(), set, me.Name)
	if err != nil {
		s.Answers.Fail(w, err)
		return
	}
	grant.Link = s.Rooms.RoomLink(r, grant.Code)
	c := protocol.Challenge{From: me.Name, To: them.Name, Code: grant.Code, Link: grant.Link, Game: string(set.Variant.Game),
		Format: string(set.Format), Holes: set.Holes, At: s.now().UTC()}
	if err := s.addChallenge(r.Context(), me, them, c); err != nil {
		s.failChallenge(w, err)
		return
	}
	s.Logger.Info("challenge", "from", me.Name, "to", them.Name, "room", grant.Code)
	api.WriteJSON(w, http.StatusCreated, grant)
}

// failChallenge answers a challenge's error: inbox_full in words, or as
// any other error.
func (s *challenges) failChallenge(w http.ResponseWriter, err error) {
	var full inboxFullError
	if errors.As(err, &full) {
		api.WriteError(w, http.StatusConflict, protocol.ErrCodeInboxFull, full.Error())
		return
	}
	s.Answers.Fail(w, err)
}

// inboxFullError refuses a challenge to an inbox holding maxChallenges
// challenges whose rooms still wait (409 inbox_full), saying whose in
// words.
type inboxFullError struct{ to string }

func (e inboxFullError) Error() string {
	return fmt.Sprintf("%s has %d open challenges, the most an inbox holds; try again once one is accepted or expires (a day after it was sent)", e.to, maxChallenges)
}

// senderID is a challenger's item id in an inbox: their account, so one
// account holds one challenge there.
func senderID(a accounts.Account) string { return fmt.Sprint(a.ID) }

// inboxRoom makes room in the challenged account's inbox for a challenge
// from the account: none needed when it is not full or already holds
// one from them (replaced); else the challenges that no longer count go
// (their room taken, gone or a day old), and if none does it is full.
func (s *challenges) inboxRoom(ctx context.Context, from, to accounts.Account) error {
	items, err := s.Store.Inbox(ctx, inboxKey(to))
	if err != nil {
		return err
	}
	if len(items) < maxChallenges || slices.ContainsFunc(items, func(it store.InboxItem) bool { return it.ID == senderID(from) }) {
		return nil
	}
	var stale []string
	for _, it := range items {
		if _, ok := s.openChallenge(ctx, it); !ok {
			stale = append(stale, it.ID)
		}
	}
	if len(stale) == 0 {
		return inboxFullError{to: to.Name}
	}
	return s.Store.Withdraw(ctx, inboxKey(to), stale...)
}

// addChallenge delivers c to the account's inbox, the challenger's one
// challenge there; a full inbox (another challenger was quicker) is made
// room in once more, else refused.
func (s *challenges) addChallenge(ctx context.Context, from, to accounts.Account, c protocol.Challenge) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err := s.Store.Deliver(ctx, inboxKey(to), senderID(from), data, maxChallenges, challengeTTL)
		if !errors.Is(err, store.ErrInboxFull) {
			return err
		}
		if attempt > 0 {
			return inboxFullError{to: to.Name}
		}
		if err := s.inboxRoom(ctx, from, to); err != nil {
			return err
		}
	}
}

// openChallenge decodes an inbox item: a challenge that still counts (a
// day old at most, its room waiting for a player) and true, or false.
func (s *challenges) openChallenge(ctx context.Context, it store.InboxItem) (protocol.Challenge, bool) {
	var c protocol.Challenge
	if err := json.Unmarshal(it.Data, &c); err != nil {
		return c, false
	}
	if s.now().Sub(c.At) > challengeTTL {
		return c, false
	}
	room, err := s.Rooms.LoadRoom(ctx, c.Code)
	if err != nil || room.Status != match.Waiting || len(room.Seats) >= room.Settings.Seats {
		return c, false
	}
	return c, true
}

// challenges is GET /api/account/challenges: the challenges addressed to
// the logged-in account in the last day whose room still waits for a
// player, newest first.
func (s *challenges) challenges(w http.ResponseWriter, r *http.Request) {
	me, err := s.Players.Account(r)
	if err != nil {
		s.Answers.Fail(w, err)
		return
	}
	items, err := s.Store.Inbox(r.Context(), inboxKey(me))
	if err != nil {
		s.Answers.Fail(w, err)
		return
	}
	out := []protocol.Challenge{}
	for _, it := range items {
		if c, ok := s.openChallenge(r.Context(), it); ok {
			out = append(out, c)
		}
	}
	api.WriteJSON(w, http.StatusOK, out)
}
