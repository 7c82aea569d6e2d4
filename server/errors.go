package server

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strings"

	"golfsolitaire/golf"
	"golfsolitaire/internal/dbwait"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/server/tournaments"
	"golfsolitaire/store"
)

// errBadToken, errSpectator and errNoSpectators are the server's own
// refusals.
var (
	errBadToken     = errors.New("server: unknown seat token")
	errSpectator    = errors.New("server: spectators cannot play")
	errNoSpectators = errors.New("server: this room does not allow spectators")
	errRoomNotFound = errors.New("server: no such room")
	errCrowded      = errors.New("this room has as many spectators as it can take; try again later")
	errTooLarge     = api.ErrTooLarge
)

// errorCode maps an error to its wire code and HTTP status: the one place
// where domain errors meet the protocol.
func errorCode(err error) (string, int) {
	if code, status, ok := tournaments.ErrorCode(err); ok {
		return code, status
	}
	if code, status, ok := accountErrorCode(err); ok {
		return code, status
	}
	table := []struct {
		err    error
		code   string
		status int
	}{
		{errRoomNotFound, protocol.ErrCodeRoomNotFound, http.StatusNotFound},
		{errTooLarge, protocol.ErrCodeTooLarge, http.StatusRequestEntityTooLarge},
		{errCrowded, protocol.ErrCodeCrowded, http.StatusTooManyRequests},
		{store.ErrNotFound, protocol.ErrCodeRoomNotFound, http.StatusNotFound},
		{store.ErrUnavailable, protocol.ErrCodeUnavailable, http.StatusServiceUnavailable},
		{errBadToken, protocol.ErrCodeBadToken, http.StatusForbidden},
		{errSpectator, protocol.ErrCodeSpectator, http.StatusForbidden},
		{errNoSpectators, protocol.ErrCodeNoSpectators, http.StatusForbidden},
		{errNoHints, protocol.ErrCodeNoHints, http.StatusForbidden},
		{errSolverBusy, protocol.ErrCodeSolverBusy, http.StatusTooManyRequests},
		{errNoDeals, protocol.ErrCodeTryAgain, http.StatusServiceUnavailable},
		{golf.ErrBadMove, protocol.ErrCodeBadMove, http.StatusBadRequest},
		{match.ErrWrongHole, protocol.ErrCodeWrongHole, http.StatusConflict},
		{match.ErrHoleDone, protocol.ErrCodeHoleDone, http.StatusConflict},
		{match.ErrNotPlaying, protocol.ErrCodeNotPlaying, http.StatusConflict},
		{match.ErrNotWaiting, protocol.ErrCodeNotWaiting, http.StatusConflict},
		{match.ErrNotHost, protocol.ErrCodeNotHost, http.StatusForbidden},
		{match.ErrNotReady, protocol.ErrCodeNotReady, http.StatusConflict},
		{match.ErrNotFinished, protocol.ErrCodeNotFinished, http.StatusConflict},
		{match.ErrRoomFull, protocol.ErrCodeRoomFull, http.StatusConflict},
		{match.ErrAlreadySeated, protocol.ErrCodeAlreadySeated, http.StatusConflict},
		{match.ErrNoChange, protocol.ErrCodeNoChange, http.StatusConflict},
		{match.ErrStaleSeq, protocol.ErrCodeStaleSeq, http.StatusConflict},
		{match.ErrNoSuchSeat, protocol.ErrCodeBadToken, http.StatusForbidden},
		{match.ErrInvalid, protocol.ErrCodeInvalid, http.StatusBadRequest},
		{golf.ErrBadOption, protocol.ErrCodeInvalid, http.StatusBadRequest},
		{golf.ErrUnknownGame, protocol.ErrCodeInvalid, http.StatusBadRequest},
	}
	for _, t := range table {
		if errors.Is(err, t.err) {
			return t.code, t.status
		}
	}
	var me *golf.MoveError
	if errors.As(err, &me) {
		return protocol.ErrCodeIllegalMove, http.StatusConflict
	}
	if dbwait.Unavailable(err) {
		// PostgreSQL refused, broke the connection or did not answer
		// within --db-timeout: a backend outage, as for the store.
		return protocol.ErrCodeUnavailable, http.StatusServiceUnavailable
	}
	return protocol.ErrCodeInternal, http.StatusInternalServerError
}

// errorMessage is the text shown for an error: the domain's own words, but
// never internal details.
func errorMessage(err error) string {
	code, _ := errorCode(err)
	switch code {
	case protocol.ErrCodeInternal:
		return "internal error"
	case protocol.ErrCodeUnavailable:
		switch {
		case errors.Is(err, store.ErrUnavailable):
		case errors.Is(err, context.DeadlineExceeded):
			return "no answer in time; try again shortly"
		case dbwait.Unavailable(err):
			return "the database is unavailable; try again shortly"
		}
		return "the game store is unavailable; try again shortly"
	}
	return inWords(err.Error())
}

// inWords drops the package names Go errors start with ("match: ",
// "golf: "), which mean nothing to a player, and says what encoding/json
// reports about a request body in words instead of Go's terms.
func inWords(msg string) string {
	msg = jsonValueErr.ReplaceAllString(msg, "the body must be a JSON object")
	msg = jsonTypeErr.ReplaceAllStringFunc(msg, func(m string) string {
		sub := jsonTypeErr.FindStringSubmatch(m)
		field := sub[1]
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
		return field + " must be " + kindWords(sub[2])
	})
	msg = jsonSyntaxErr.ReplaceAllString(msg, "not valid JSON")
	msg = strings.ReplaceAll(msg, "json: unknown field", "unknown field")
	msg = strings.ReplaceAll(msg, "unexpected EOF", "the JSON ends too early")
	for _, p := range []string{"match: ", "golf: ", "server: ", "tourney: ", "store: ", "json: "} {
		msg = strings.ReplaceAll(msg, p, "")
	}
	// Only at the start: "accounts: true" is an option's words.
	return strings.TrimPrefix(msg, "accounts: ")
}

var (
	jsonTypeErr   = regexp.MustCompile(`json: cannot unmarshal \w+ into Go struct field ([\w.]+) of type ([\w.\[\]*]+)`)
	jsonValueErr  = regexp.MustCompile(`json: cannot unmarshal \w+ into Go value of type [\w.\[\]*]+`)
	jsonSyntaxErr = regexp.MustCompile(`invalid character [^:]*`)
)

// kindWords names a Go type as a JSON value.
func kindWords(t string) string {
	switch {
	case strings.Contains(t, "int"):
		return "a whole number"
	case strings.Contains(t, "float"):
		return "a number"
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	}
	return "an object"
}
