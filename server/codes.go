package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"golfsolitaire/golf"
)

// codeAlphabet is Crockford's base32: digits and letters without I, L, O
// and U, so a code read aloud or typed by hand is hard to get wrong.
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// codeLen characters of 5 bits each: 45 random bits.
const codeLen = 9

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

// normalizeCode turns what a person typed into the canonical code: upper
// case, O read as 0, I and L as 1, separators ignored. It returns "" when
// the text cannot be a code.
func normalizeCode(in string) string {
	var raw []byte
	for _, c := range strings.ToUpper(in) {
		switch {
		case c == '-' || c == ' ' || c == '_':
			continue
		case c == 'O':
			c = '0'
		case c == 'I' || c == 'L':
			c = '1'
		}
		if c > 127 || !strings.ContainsRune(codeAlphabet, c) {
			return ""
		}
		raw = append(raw, byte(c))
	}
	if len(raw) != codeLen {
		return ""
	}
	return string(raw[0:3]) + "-" + string(raw[3:6]) + "-" + string(raw[6:9])
}

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
