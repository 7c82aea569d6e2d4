package server

import (
	"errors"
	"net/http"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// errBadToken, errSpectator and errNoSpectators are the server's own
// refusals.
var (
	errBadToken     = errors.New("server: unknown seat token")
	errSpectator    = errors.New("server: spectators cannot play")
	errNoSpectators = errors.New("server: this room does not allow spectators")
	errRoomNotFound = errors.New("server: no such room")
)

// errorCode maps an error to its wire code and HTTP status: the one place
// where domain errors meet the protocol.
func errorCode(err error) (string, int) {
	if code, status, ok := tournamentErrorCode(err); ok {
		return code, status
	}
	table := []struct {
		err    error
		code   string
		status int
	}{
		{errRoomNotFound, protocol.ErrCodeRoomNotFound, http.StatusNotFound},
		{store.ErrNotFound, protocol.ErrCodeRoomNotFound, http.StatusNotFound},
		{store.ErrUnavailable, protocol.ErrCodeUnavailable, http.StatusServiceUnavailable},
		{errBadToken, protocol.ErrCodeBadToken, http.StatusForbidden},
		{errSpectator, protocol.ErrCodeSpectator, http.StatusForbidden},
		{errNoSpectators, protocol.ErrCodeNoSpectators, http.StatusForbidden},
		{errNoHints, protocol.ErrCodeNoHints, http.StatusForbidden},
		{golf.ErrBadMove, protocol.ErrCodeBadMove, http.StatusBadRequest},
		{match.ErrWrongHole, protocol.ErrCodeWrongHole, http.StatusConflict},
		{match.ErrHoleDone, protocol.ErrCodeHoleDone, http.StatusConflict},
		{match.ErrNotPlaying, protocol.ErrCodeNotPlaying, http.StatusConflict},
		{match.ErrNotWaiting, protocol.ErrCodeNotWaiting, http.StatusConflict},
		{match.ErrNotHost, protocol.ErrCodeNotHost, http.StatusForbidden},
		{match.ErrNotReady, protocol.ErrCodeNotReady, http.StatusConflict},
		{match.ErrNotFinished, protocol.ErrCodeNotFinished, http.StatusConflict},
		{match.ErrRoomFull, protocol.ErrCodeRoomFull, http.StatusConflict},
		{match.ErrNoChange, protocol.ErrCodeNoChange, http.StatusConflict},
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
		return "the game store is unavailable; try again shortly"
	}
	return err.Error()
}
