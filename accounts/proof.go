package accounts

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// A login proof of work: past a name's budget of failed logins, a login
// for it carries the answer to a challenge, which costs the client about
// 2^bits SHA-256 computations and the server one. The challenge is
//
//	v1.<name key, base64url>.<expiry, Unix seconds>.<16 random bytes, base64url>
//
// and a nonce answers it when SHA-256(challenge + ":" + nonce) starts
// with bits zero bits. The server keeps no state for a challenge: it
// checks the name, the expiry (at most ProofTTL ahead) and the work, and
// refuses a challenge used once already (the caller's limiter).

// ProofTTL is how long a challenge can be answered.
const ProofTTL = 5 * time.Minute

// ErrProof is a missing, expired or wrong proof of work.
var ErrProof = errors.New("accounts: proof of work not accepted")

// NewProof returns a challenge for the name key, good until now+ProofTTL.
func NewProof(key string, now time.Time, rand io.Reader) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	return "v1." + enc.EncodeToString([]byte(key)) + "." + strconv.FormatInt(now.Add(ProofTTL).Unix(), 10) + "." + enc.EncodeToString(b[:]), nil
}

// CheckProof checks that nonce answers challenge, for the name key, with
// at least bits zero bits, and that the challenge has not expired.
func CheckProof(challenge, nonce, key string, bits int, now time.Time) error {
	parts := strings.Split(challenge, ".")
	if len(parts) != 4 || parts[0] != "v1" {
		return fmt.Errorf("%w: not a challenge this server gives", ErrProof)
	}
	name, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil || string(name) != key {
		return fmt.Errorf("%w: the challenge is for another name", ErrProof)
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return fmt.Errorf("%w: not a challenge this server gives", ErrProof)
	}
	if at := time.Unix(exp, 0); now.After(at) || at.After(now.Add(ProofTTL+time.Minute)) {
		return fmt.Errorf("%w: the challenge has expired", ErrProof)
	}
	if len(nonce) == 0 || len(nonce) > 64 {
		return fmt.Errorf("%w: the nonce is missing or too long", ErrProof)
	}
	if zeroBits(challenge, nonce) < bits {
		return fmt.Errorf("%w: the nonce does not answer the challenge", ErrProof)
	}
	return nil
}

// SolveProof finds the nonce (a decimal number) that answers challenge
// with bits zero bits, as the browser's login form does.
func SolveProof(challenge string, bits int) string {
	for n := 0; ; n++ {
		nonce := strconv.Itoa(n)
		if zeroBits(challenge, nonce) >= bits {
			return nonce
		}
	}
}

// zeroBits counts the leading zero bits of SHA-256(challenge:nonce).
func zeroBits(challenge, nonce string) int {
	sum := sha256.Sum256([]byte(challenge + ":" + nonce))
	n := 0
	for _, b := range sum {
		if b != 0 {
			return n + bits.LeadingZeros8(b)
		}
		n += 8
	}
	return n
}
