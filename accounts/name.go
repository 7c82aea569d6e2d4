package accounts

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"
)

// Name limits, in characters.
const (
	MinNameLen = 2
	MaxNameLen = 24
)

// ErrBadName is returned for a username the rules refuse.
var ErrBadName = errors.New("accounts: bad username")

// ParseName checks a username by the PRECIS UsernameCasePreserved profile
// (RFC 8265) and returns it as shown (display) and its case-mapped key
// (UsernameCaseMapped), which is unique among accounts, so "Ana" and "ANA"
// are the same name. Besides PRECIS, a name is 2-24 characters of letters,
// digits, '-', '_' and '.', starting with a letter or digit, so it is
// safe in a URL path (/@/{name}).
func ParseName(s string) (display, key string, err error) {
	display, err = precis.UsernameCasePreserved.String(s)
	if err != nil {
		return "", "", fmt.Errorf("%w: %q is not allowed by the username rules (letters, digits, '-', '_' and '.')", ErrBadName, s)
	}
	n := utf8.RuneCountInString(display)
	if n < MinNameLen || n > MaxNameLen {
		return "", "", fmt.Errorf("%w: %q has %d characters (want %d to %d)", ErrBadName, s, n, MinNameLen, MaxNameLen)
	}
	for i, r := range display {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
		if !ok && i > 0 && (r == '-' || r == '_' || r == '.') {
			ok = true
		}
		if !ok {
			return "", "", fmt.Errorf("%w: %q contains %q (letters, digits, and '-', '_' or '.' after the first character)", ErrBadName, s, r)
		}
	}
	key, err = precis.UsernameCaseMapped.String(display)
	if err != nil {
		return "", "", fmt.Errorf("%w: %q: %v", ErrBadName, s, err)
	}
	return display, key, nil
}
