package server

import (
	"golfsolitaire/golf"
	"golfsolitaire/roomcode"
	"golfsolitaire/server/internal/codes"
)

// The codes, tokens, seeds and ids are package server/internal/codes',
// shared with the feature packages (server/tournaments).

// newRoomCode returns a fresh unguessable room code, e.g. "K7R-4MP-9TW".
func newRoomCode() string { return codes.NewRoomCode() }

// normalizeCode is roomcode.Normalize: the canonical code of what a
// person typed, or "" when it cannot be a code.
func normalizeCode(in string) string { return roomcode.Normalize(in) }

// newToken returns a seat token: 128 random bits, URL-safe.
func newToken() string { return codes.NewToken() }

// hashToken is what the room stores of a token.
func hashToken(token string) string { return codes.HashToken(token) }

// newSeed draws a round seed from the operating system's secure generator.
func newSeed() *golf.Seed { return codes.NewSeed() }

// newID returns a short random identifier (connections, tickets).
func newID() string { return codes.NewID() }
