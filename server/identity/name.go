package identity

import (
	"net/http"

	"golfsolitaire/server/internal/api"
)

// Names kept from before the name rules (docs/protocol.md "Accounts"):
// an account whose name the rules would refuse today (a reserved word
// such as "GreedyBot", or a look-alike of an older account's name) keeps
// it, logs in and plays casual rooms as before, and shows its note
// (nameNote) in its player object and to moderators; it is never seated
// in a rated game or entered in an accounts-only tournament under that
// name, so a player is never seated looking like a bot or like another
// player where it counts (the server's rated checks, nameNoteCheck). It
// chooses a new name once (POST /api/account/name, checked like a
// sign-up's) and plays rated games.

// renameAccount serves POST /api/account/name {"name"}: the logged-in
// account, whose name carries a note, takes a new one (409 no_change for
// any other account; 400 invalid or 409 name_taken as at sign-up). It
// answers the player object.
func (s *Identity) renameAccount(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := api.DecodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	a, err = s.o.Service.Rename(r.Context(), a.ID, req.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.o.Logger.Info("account renamed", "account", a.ID, "name", a.Name)
	s.writePlayer(w, r, http.StatusOK, a)
}
