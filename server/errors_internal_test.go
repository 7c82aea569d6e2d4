package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"golfsolitaire/accounts"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// TestErrorsInWords: what a client is told about a bad request body or a
// refused command says what was wrong in words, never in Go's terms.
func TestErrorsInWords(t *testing.T) {
	t.Parallel()
	body := func(s string, v any) error {
		err := json.Unmarshal([]byte(s), v)
		if err == nil {
			t.Fatalf("%s decoded", s)
		}
		return fmt.Errorf("%w: request body: %v", match.ErrInvalid, err)
	}
	tests := []struct {
		err  error
		want string
	}{
		{body(`{"name": 5}`, &protocol.JoinRequest{}), "name must be a string"},
		{body(`[1]`, &protocol.JoinRequest{}), "the body must be a JSON object"},
		{body(`{"name": }`, &protocol.JoinRequest{}), "not valid JSON"},
		{body(`{"settings": {}, "name": true}`, &protocol.CreateRoomRequest{}), "name must be a string"},
		{fmt.Errorf("%w: hole 2 is in play, not 3", match.ErrWrongHole), "not the hole in play: hole 2 is in play, not 3"},
		{fmt.Errorf("%w: seq 4 is not above 9", match.ErrStaleSeq), "stale seq: seq 4 is not above 9"},
		{fmt.Errorf("%w: Ana is not playing in a public game now", accounts.ErrNotFound), "not found: Ana is not playing"},
		{fmt.Errorf("%w: a rated tournament needs accounts: true", match.ErrInvalid), "needs accounts: true"},
	}
	for _, tc := range tests {
		got := errorMessage(tc.err)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%v: said %q, want %q", tc.err, got, tc.want)
		}
		for _, bad := range []string{"Go struct", "Go value", "unmarshal", "json:", "match:", "golf:", "invalid character", "accounts: not"} {
			if strings.Contains(got, bad) {
				t.Errorf("%q shows Go internals (%q)", got, bad)
			}
		}
	}
}
