package server

import (
	"errors"
	"fmt"
	"net/http"

	"golfsolitaire/accounts"
)

// Names kept from before the name rules (docs/protocol.md "Accounts"):
// an account whose name the rules would refuse today (a reserved word
// such as "GreedyBot", or a look-alike of an older account's name) keeps
// it, logs in and plays casual rooms as before, and shows its note
// (nameNote) in its player object and to moderators; it is never seated
// in a rated game or entered in an accounts-only tournament under that
// name, so a player is never seated looking like a bot or like another
// player where it counts. It chooses a new name once (POST
// /api/account/name, checked like a sign-up's) and plays rated games.

// errNameNote refuses rated play to an account whose name carries a note.
var errNameNote = errors.New("server: rated games need a name the name rules accept")

// nameNoteCheck refuses rated play under a noted name.
func nameNoteCheck(a accounts.Account) error {
	switch a.NameNote {
	case "":
		return nil
	case accounts.NoteReserved:
		return fmt.Errorf("%w: your name %q holds a word kept for the site's bots, moderators or name, so rated games would show you as one of them. Choose a new name (POST /api/account/name); casual rooms are open as they are",
			errNameNote, a.Name)
	default:
		return fmt.Errorf("%w: your name %q is a %s, from before look-alike names were refused, so rated games would show you like that player. Choose a new name (POST /api/account/name); casual rooms are open as they are",
			errNameNote, a.Name, a.NameNote)
	}
}

// renameAccount serves POST /api/account/name {"name"}: the logged-in
// account, whose name carries a note, takes a new one (409 no_change for
// any other account; 400 invalid or 409 name_taken as at sign-up). It
// answers the player object.
func (s *Server) renameAccount(w http.ResponseWriter, r *http.Request) {
	a, err := s.currentAccount(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	a, err = s.acct.service.Rename(r.Context(), a.ID, req.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.log.Info("account renamed", "account", a.ID, "name", a.Name)
	s.writePlayer(w, r, http.StatusOK, a)
}
