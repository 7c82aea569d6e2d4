package accounts

import (
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/secure/precis"
)

// Password limits, in characters.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 256
)

// ErrBadPassword is returned for a password the rules refuse at sign-up.
var ErrBadPassword = errors.New("accounts: bad password")

// Params are argon2id's costs. The zero value is not usable; RFC9106 is the
// default.
type Params struct {
	Time    uint32 // passes
	Memory  uint32 // KiB
	Threads uint8
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// RFC9106 is RFC 9106's second recommended option (section 4): argon2id
// with t=3 passes, 64 MiB of memory, 4 lanes, a 128-bit salt and a 256-bit
// tag, for memory-constrained environments.
var RFC9106 = Params{Time: 3, Memory: 64 * 1024, Threads: 4, SaltLen: 16, KeyLen: 32}

// NormalizePassword applies the PRECIS OpaqueString profile (RFC 8265
// section 4.2) so the same password typed on different keyboards hashes
// the same, and checks its length.
func NormalizePassword(pw string) (string, error) {
	n := utf8.RuneCountInString(pw)
	if n < MinPasswordLen || n > MaxPasswordLen {
		return "", fmt.Errorf("%w: %d characters (want %d to %d)", ErrBadPassword, n, MinPasswordLen, MaxPasswordLen)
	}
	s, err := precis.OpaqueString.String(pw)
	if err != nil {
		return "", fmt.Errorf("%w: it contains characters passwords may not (control characters?)", ErrBadPassword)
	}
	return s, nil
}

// Hash hashes a normalized password with a salt read from rand and returns
// it in the PHC string format:
// $argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash> (unpadded base64).
func (p Params) Hash(password string, rand io.Reader) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := io.ReadFull(rand, salt); err != nil {
		return "", fmt.Errorf("accounts: salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// ErrBadHash is returned for a stored hash that is not an argon2id PHC
// string this package wrote.
var ErrBadHash = errors.New("accounts: malformed password hash")

// Verify reports whether password matches the PHC string, comparing in
// constant time. The costs come from the string, so hashes made with older
// parameters still verify.
func Verify(password, phc string) (bool, error) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, ErrBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, ErrBadHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil || p.Time == 0 || p.Threads == 0 {
		return false, ErrBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, ErrBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, ErrBadHash
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
