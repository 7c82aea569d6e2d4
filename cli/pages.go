package cli

import (
	"log/slog"
	"net/http"

	"golfsolitaire/store"
	"golfsolitaire/web"
)

// pages returns the browser client's handler; players is the account
// store its profile pages read; it answers 404 for a room or tournament
// the store st does not have.
func pages(log *slog.Logger, players web.Players, st store.Store) http.Handler {
	return web.New(web.Options{Logger: log, Players: players, Exists: web.StoreExists(st)})
}
