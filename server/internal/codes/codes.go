// Package codes draws the server's codes, tokens, seeds and ids, for the
// core and the feature packages alike: room codes and tournament ids of
// roomcode's alphabet, seat tokens and what the store keeps of them.
package codes

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"golfsolitaire/golf"
	"golfsolitaire/roomcode"
)

// Alphabet is roomcode's.
const Alphabet = roomcode.Alphabet

// NewRoomCode returns a fresh unguessable room code, e.g. "K7R-4MP-9TW".
func NewRoomCode() string {
	var b [roomcode.Len]byte
	rand.Read(b[:])
	var s strings.Builder
	for i, x := range b {
		if i > 0 && i%3 == 0 {
			s.WriteByte('-')
		}
		s.WriteByte(Alphabet[x&31])
	}
	return s.String()
}

// NewToken returns a seat token: 128 random bits, URL-safe.
func NewToken() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// HashToken is what a room or tournament stores of a token.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// NewSeed draws a round seed from the operating system's secure generator.
func NewSeed() *golf.Seed {
	var s golf.Seed
	rand.Read(s[:])
	return &s
}

// NewID returns a short random identifier (connections, tickets).
func NewID() string {
	var b [9]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
