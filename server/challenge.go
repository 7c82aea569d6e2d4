package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
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
// instance: the inbox is a record in the room store, kept a day.

// challengeTTL is how long an inbox keeps a challenge; maxChallenges how
// many it keeps (the newest).
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

// inboxKey names an account's inbox in the room store (a name no room
// code can have: codes are nine base32 characters).
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
	if err := s.ratedCheck(r, me); err != nil { // linked.go: probation, sightings
		s.fail(w, err)
		return
	}
	if err := s.refuseLinked(r.Context(), me, them.Name); err != nil {
		s.fail(w, err)
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
	grant, err := s.create(r.Context(), set, me.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	grant.Link = s.link(r, grant.Code)
	c := protocol.Challenge{From: me.Name, To: them.Name, Code: grant.Code, Link: grant.Link, Game: string(set.Variant.Game),
		Format: string(set.Format), Holes: set.Holes, At: s.now().UTC()}
	if err := s.addChallenge(r.Context(), them, c); err != nil {
		s.fail(w, err)
		return
	}
	s.log.Info("challenge", "from", me.Name, "to", them.Name, "room", grant.Code)
	writeJSON(w, http.StatusCreated, grant)
}

// addChallenge appends c to the account's inbox (the newest
// maxChallenges), under the store's optimistic concurrency.
func (s *Server) addChallenge(ctx context.Context, to accounts.Account, c protocol.Challenge) error {
	key := inboxKey(to)
	for attempt := 0; attempt < 5; attempt++ {
		var list []protocol.Challenge
		snap, err := s.store.Load(ctx, key)
		switch {
		case errors.Is(err, store.ErrNotFound):
			snap = store.Snapshot{}
		case err != nil:
			return err
		default:
			if err := json.Unmarshal(snap.Data, &list); err != nil {
				return err
			}
		}
		list = append(list, c)
		list = list[max(0, len(list)-maxChallenges):]
		data, err := json.Marshal(list)
		if err != nil {
			return err
		}
		ev, _ := json.Marshal(c)
		if snap.Version == 0 && snap.Data == nil {
			err = s.store.Create(ctx, key, data, ev)
			if errors.Is(err, store.ErrExists) {
				continue
			}
		} else {
			_, err = s.store.Append(ctx, key, snap.Version, data, ev)
			if errors.Is(err, store.ErrConflict) {
				continue
			}
		}
		if err != nil {
			return err
		}
		return s.store.Expire(ctx, key, challengeTTL)
	}
	return fmt.Errorf("%w: the challenge inbox is busy; try again", store.ErrUnavailable)
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
	out := []protocol.Challenge{}
	snap, err := s.store.Load(r.Context(), inboxKey(me))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.fail(w, err)
		return
	}
	var list []protocol.Challenge
	if err == nil {
		if err := json.Unmarshal(snap.Data, &list); err != nil {
			s.fail(w, err)
			return
		}
	}
	for i := len(list) - 1; i >= 0; i-- {
		c := list[i]
		if s.now().Sub(c.At) > challengeTTL {
			continue
		}
		room, err := s.loadRoom(r.Context(), c.Code)
		if err != nil || room.Status != match.Waiting || len(room.Seats) >= room.Settings.Seats {
			continue
		}
		out = append(out, c)
	}
	writeJSON(w, http.StatusOK, out)
}
