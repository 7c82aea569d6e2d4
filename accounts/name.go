package accounts

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/secure/precis"

	"golfsolitaire/names"
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

// ErrNameConfusable is returned by a store's Create when the new account's
// Skeleton is an existing account's (a look-alike name).
var ErrNameConfusable = errors.New("accounts: name too like an existing account's")

// Skeleton is the key two account names are told apart by: their TR39
// confusable skeletons (package names, Unicode's confusables.txt), lower
// case, so "vіctim1" (Cyrillic і), "VICTIM1" and "victiml" share
// "victim1"'s. Stores keep it unique among accounts.
func Skeleton(display string) string { return names.Skeleton(display) }

// reservedNames are the words no account name may contain, in any case
// or script: the server's bots are named "Bot (level)" and declared as
// bots, moderators and the site speak for the server.
var reservedNames = []struct{ word, keptFor string }{
	{"bot", "the bots the server adds"},
	{"moderator", "the site's moderators"},
	{"admin", "the site's administrators"},
	{"golfsolitaire", "the site itself"},
}

// compact is a name's skeletons (as typed and lower-cased first: "В" is a
// look-alike of "B" but "в" of no Latin letter) with everything but letters
// and digits left out, so "Greedy_Bot", "b0t" and "Golf-Solitaire" show
// the words they carry.
func compact(s string) []string {
	keep := func(t string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, t)
	}
	return []string{keep(names.Skeleton(s)), keep(strings.ToLower(confusables.Skeleton(s)))}
}

// The name notes of accounts created before the name rules
// (Account.NameNote): a reserved word, or a look-alike of an older
// account's name (NoteLookAlike + " " + that name).
const (
	NoteReserved  = "reserved"
	NoteLookAlike = "look-alike of"
)

// reservedWord is the reserved word a name contains, or "".
func reservedWord(display string) (word, keptFor string) {
	for _, r := range reservedNames {
		w := compact(r.word)[0]
		for _, c := range compact(display) {
			if strings.Contains(c, w) {
				return r.word, r.keptFor
			}
		}
	}
	return "", ""
}

// LegacyNote is the note of an account name kept from before the name
// rules: NoteReserved when it holds a reserved word, else "" (a look-alike
// is told by the store, which knows the older name).
func LegacyNote(display string) string {
	if w, _ := reservedWord(display); w != "" {
		return NoteReserved
	}
	return ""
}

// CheckNew checks a name for a new account and returns it as its seats
// will show it: the username rules (ParseName) after the PRECIS Nickname
// profile every seat name goes through (package names: NFKC, no invisible
// or reordering characters), so an account's name needs no change to be
// seated; and no reserved word (reservedNames) anywhere in its skeleton.
func CheckNew(name string) (display, key, skeleton string, err error) {
	cleaned, err := names.Clean(name)
	if err != nil {
		return "", "", "", fmt.Errorf("%w: %v", ErrBadName, err)
	}
	display, key, err = ParseName(cleaned)
	if err != nil {
		return "", "", "", err
	}
	if w, keptFor := reservedWord(display); w != "" {
		return "", "", "", fmt.Errorf("%w: %q contains %q, which is kept for %s; choose another name", ErrBadName, display, w, keptFor)
	}
	return display, key, Skeleton(display), nil
}
