package server

import (
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// compress gzips responses for clients that accept it (gzhttp: only
// bodies of 1 kB or more, only compressible content types, with Vary:
// Accept-Encoding). WebSocket upgrades are passed by untouched: the socket
// is hijacked, and its messages are not HTTP responses.
func compress(h http.Handler) http.Handler {
	gz := gzhttp.GzipHandler(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			h.ServeHTTP(w, r)
			return
		}
		gz.ServeHTTP(w, r)
	})
}
