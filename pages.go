package main

import (
	"log/slog"
	"net/http"

	"golfsolitaire/web"
)

// pages returns the browser client's handler.
func pages(log *slog.Logger) http.Handler {
	return web.New(web.Options{Logger: log})
}
