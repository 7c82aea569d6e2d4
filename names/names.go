// Package names checks the display names people choose (seat names in
// rooms, entrant names in tournaments). It is pure: no I/O.
//
// A name is enforced with the PRECIS Nickname profile (RFC 8266, from
// golang.org/x/text/secure/precis): Unicode normalised (NFKC), spaces
// collapsed, and no control, format or unassigned code points. Before that,
// the characters people use to disguise names get their own clear error:
// bidirectional controls (U+202E and friends), zero-width characters
// (U+200B, U+200D, U+FEFF...) and line or paragraph separators (U+2028,
// U+2029).
//
// Two names are confusable when their TR39 skeletons are equal
// (github.com/mtibben/confusables, built from Unicode's confusables.txt),
// compared both as typed and lower-cased: "Аna" with a Cyrillic А is
// confusable with "Ana", and so are "ana", "AnA" and "Ana".
//
// Words reserved for the bots a host declares: a person's name may not
// contain the word "bot" (after the same skeleton, so "B0t" and "Воt" count
// too); bots are named "Bot (level)" by the server.
package names

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/secure/precis"
)

// MaxLen is the longest name, in characters.
const MaxLen = 24

// ErrInvalid is matched (errors.Is) by every refusal, an *Error whose
// message says why in words.
var ErrInvalid = errors.New("names: invalid name")

// Error is a refusal: Reason is for people ("a name is required").
type Error struct{ Reason string }

func (e *Error) Error() string { return e.Reason }

// Is makes every *Error match ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

func refuse(format string, args ...any) error { return &Error{Reason: fmt.Sprintf(format, args...)} }

// reserved are the words only declared bots may carry.
var reserved = []string{"bot"}

// Clean returns the name as it will be shown, or an error in words.
func Clean(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", refuse("the name is not valid UTF-8")
	}
	for _, c := range name {
		if msg := hidden(c); msg != "" {
			return "", refuse("%s (U+%04X) are not allowed in names", msg, c)
		}
	}
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return "", refuse("a name is required")
	}
	out, err := precis.Nickname.String(name)
	if err != nil {
		return "", refuse("the name has characters that cannot be shown (only letters, digits, punctuation, symbols and spaces)")
	}
	if out == "" {
		return "", refuse("a name is required")
	}
	if utf8.RuneCountInString(out) > MaxLen {
		return "", refuse("a name is at most %d characters", MaxLen)
	}
	return out, nil
}

// hidden names the kind of an invisible or text-reordering character, or
// returns "" for any other.
func hidden(c rune) string {
	switch {
	case c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069):
		return "bidirectional control characters"
	case c == 0x200B || c == 0x200C || c == 0x200D || c == 0x2060 || c == 0xFEFF || c == 0x180E || c == 0x034F:
		return "zero-width characters"
	case c == 0x2028 || c == 0x2029 || c == 0x0085:
		return "line and paragraph separators"
	case c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0):
		return "control characters"
	case unicode.Is(unicode.Variation_Selector, c) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, c):
		return "invisible characters"
	}
	return ""
}

// Skeleton is the key two names are compared by: equal keys mean the names
// are confusable. Not for display.
func Skeleton(name string) string {
	return strings.ToLower(confusables.Skeleton(strings.ToLower(name)))
}

// Confusable reports whether two names could be mistaken for each other.
func Confusable(a, b string) bool {
	return confusables.Skeleton(a) == confusables.Skeleton(b) || Skeleton(a) == Skeleton(b)
}

// Reserved reports whether a name carries a word only declared bots may.
func Reserved(name string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
	}
	// Both as typed and lower-cased: "В" (Cyrillic) looks like "B" but its
	// lower case "в" looks like nothing Latin.
	words := append(split(Skeleton(name)), split(strings.ToLower(confusables.Skeleton(name)))...)
	for _, w := range words {
		for _, r := range reserved {
			if w == r {
				return true
			}
		}
	}
	return false
}

// CheckPerson is Clean for a person (not a bot) joining beside others:
// it refuses reserved words and a name confusable with one already taken.
func CheckPerson(name string, taken []string) (string, error) {
	out, err := Clean(name)
	if err != nil {
		return "", err
	}
	if Reserved(out) {
		return "", refuse("names with the word \"Bot\" are kept for the bots a host adds")
	}
	if err := Distinct(out, taken); err != nil {
		return "", err
	}
	return out, nil
}

// Distinct refuses a name confusable with one already taken.
func Distinct(name string, taken []string) error {
	for _, t := range taken {
		if Confusable(name, t) {
			return refuse("%q is too like %q, already taken here; choose another name", name, t)
		}
	}
	return nil
}
