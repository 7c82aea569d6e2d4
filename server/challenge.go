package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

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

func (s *Server) challengeRoutes(m *http.ServeMux) {
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
func (s *Server) challenge(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, r, limitRooms) {
		return
	}
	var req protocol.CreateRoomRequest
	if r.ContentLength != 0 {
		if err := decodeBody(r, &req); err != nil {
			s.fail(w, err)
			return
		}
	}
	me, err := s.currentAccount(r)
	if err != nil {
		if errors.Is(err, errNotLoggedIn) {
			err = fmt.Errorf("%w: log in to challenge a player", errNotLoggedIn)
		}
		s.fail(w, err)
		return
	}
	key, err := accounts.Key(r.PathValue("name"))
	if err != nil {
		s.fail(w, accounts.ErrNotFound)
		return
	}
	them, err := s.acct.store.ByKey(r.Context(), key)
	if err != nil {
		s.fail(w, err)
		return
	}
	if them.ID == me.ID {
		s.fail(w, errChallengeSelf)
		return
	}
	set := match.DefaultSettings()
	set.Format = match.Matchplay
	set.Holes = 9
	if len(req.Settings) > 0 {
		if err := json.Unmarshal(req.Settings, &set); err != nil {
			s.fail(w, err)
			return
		}
	}
	set.Rated, set.Public, set.Seats = true, false, 2
	// A full inbox refuses before any room is made.
	if err := s.inboxRoom(r.Context(), me, them); err != nil {
		s.failChallenge(w, err)
		return
	}
	grant, err := s.create(r.Context(), set, me.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant.Link = s.link(r, grant.Code)
	c := protocol.Challenge{From: me.Name, To: them.Name, Code: grant.Code, Link: grant.Link, Game: string(set.Variant.Game),
		Format: string(set.Format), Holes: set.Holes, At: s.now().UTC()}
	if err := s.addChallenge(r.Context(), me, them, c); err != nil {
		s.failChallenge(w, err)
		return
	}
	s.log.Info("challenge", "from", me.Name, "to", them.Name, "room", grant.Code)
	writeJSON(w, http.StatusCreated, grant)
}

// failChallenge answers a challenge's error: inbox_full in words, or as
// any other error.
func (s *Server) failChallenge(w http.ResponseWriter, err error) {
	var full inboxFullError
	if errors.As(err, &full) {
		writeError(w, http.StatusConflict, protocol.ErrCodeInboxFull, full.Error())
		return
	}
	s.fail(w, err)
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
func (s *Server) inboxRoom(ctx context.Context, from, to accounts.Account) error {
	items, err := s.store.Inbox(ctx, inboxKey(to))
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
	return s.store.Withdraw(ctx, inboxKey(to), stale...)
}

// addChallenge delivers c to the account's inbox, the challenger's one
// challenge there; a full inbox (another challenger was quicker) is made
// room in once more, else refused.
func (s *Server) addChallenge(ctx context.Context, from, to accounts.Account, c protocol.Challenge) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err := s.store.Deliver(ctx, inboxKey(to), senderID(from), data, maxChallenges, challengeTTL)
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
func (s *Server) openChallenge(ctx context.Context, it store.InboxItem) (protocol.Challenge, bool) {
	var c protocol.Challenge
	if err := json.Unmarshal(it.Data, &c); err != nil {
		return c, false
	}
	if s.now().Sub(c.At) > challengeTTL {
		return c, false
	}
	room, err := s.loadRoom(ctx, c.Code)
	if err != nil || room.Status != match.Waiting || len(room.Seats) >= room.Settings.Seats {
		return c, false
	}
	return c, true
}

// challenges is GET /api/account/challenges: the challenges addressed to
// the logged-in account in the last day whose room still waits for a
// player, newest first.
func (s *Server) challenges(w http.ResponseWriter, r *http.Request) {
	me, err := s.currentAccount(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	items, err := s.store.Inbox(r.Context(), inboxKey(me))
	if err != nil {
		s.fail(w, err)
		return
	}
	out := []protocol.Challenge{}
	for _, it := range items {
		if c, ok := s.openChallenge(r.Context(), it); ok {
			out = append(out, c)
		}
	}
	writeJSON(w, http.StatusOK, out)
}
