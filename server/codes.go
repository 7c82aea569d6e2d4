package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"golfsolitaire/golf"
	"golfsolitaire/roomcode"
)

// codeAlphabet and codeLen are roomcode's.
const (
	codeAlphabet = roomcode.Alphabet
	codeLen      = roomcode.Len
)

// newRoomCode returns a fresh unguessable room code, e.g. "K7R-4MP-9TW".
func newRoomCode() string {
	var b [codeLen]byte
	rand.Read(b[:])
	var s strings.Builder
	for i, x := range b {
		if i > 0 && i%3 == 0 {
			s.WriteByte('-')
		}
		s.WriteByte(codeAlphabet[x&31])
	}
	return s.String()
}

// normalizeCode is roomcode.Normalize: the canonical code of what a
// person typed, or "" when it cannot be a code.
func normalizeCode(in string) string { return roomcode.Normalize(in) }

// newToken returns a seat token: 128 random bits, URL-safe.
func newToken() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// hashToken is what the room stores of a token.
func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// newSeed draws a round seed from the operating system's secure generator.
func newSeed() *golf.Seed {
	var s golf.Seed
	rand.Read(s[:])
	return &s
}

// newID returns a short random identifier (connections, tickets).
func newID() string {
	var b [9]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
