// Package api is what the server's packages share to answer HTTP
// requests: JSON answers and errors, request bodies decoded within a
// bound, and the errors more than one of them refuses with. It holds no
// table of codes: server/errors.go maps every error, these included, to
// its wire code and status, in one place.
package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// MaxBody bounds API request bodies.
const MaxBody = 16 << 10

// UnavailableRetry is the Retry-After of a 503 that names no wait of its
// own: a backend (the store, the database) did not answer.
const UnavailableRetry = 5 * time.Second

// Errors shared by the server's packages.
var (
	// ErrTooLarge: a request body over MaxBody.
	ErrTooLarge = fmt.Errorf("the request body is larger than %d KiB", MaxBody>>10)
	// ErrNotLoggedIn: the request needs a logged-in account.
	ErrNotLoggedIn = errors.New("server: log in first")
)

// WriteJSON answers with v as JSON, never cached.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// WriteError answers with an error of the code; a 503 says when to try
// again (UnavailableRetry, unless a Retry-After is set already).
func WriteError(w http.ResponseWriter, status int, code, msg string) {
	if status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", strconv.Itoa(int(UnavailableRetry/time.Second)))
	}
	WriteJSON(w, status, protocol.APIError{Code: code, Message: msg})
}

// DecodeBody decodes a request's JSON body into v: unknown fields, a
// body over MaxBody (ErrTooLarge) or one that came too slowly are
// refused (match.ErrInvalid).
func DecodeBody(r *http.Request, v any) error {
	d := json.NewDecoder(io.LimitReader(r.Body, MaxBody+1))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return ErrTooLarge
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			return fmt.Errorf("%w: the request body came too slowly", match.ErrInvalid)
		}
		return fmt.Errorf("%w: request body: %v", match.ErrInvalid, err)
	}
	return nil
}
