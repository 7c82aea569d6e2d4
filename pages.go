package main

import (
	"fmt"
	"log/slog"
	"net/http"
)

// pages returns the browser client's handler.
func pages(log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintln(w, "<!doctype html><title>Golf Solitaire</title><h1>Golf Solitaire</h1>")
	})
}
