// Package roomcode is the form of a room code: nine characters of
// Crockford's base32 grouped by three ("K7R-4MP-9TW"), and how what a
// person typed is read as one. The browser's static/code.js does the same;
// testdata/codes.json is the table both are checked against.
package roomcode

import "strings"

// Alphabet is Crockford's base32: digits and letters without I, L, O and
// U, so a code read aloud or typed by hand is hard to get wrong.
const Alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// Len is the number of characters of a code, 5 bits each: 45 random bits.
const Len = 9

// Normalize turns what a person typed into the canonical code: upper
// case, O read as 0, I and L as 1, dashes, spaces and underscores ignored.
// It returns "" when the text cannot be a code.
func Normalize(in string) string {
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
		if c > 127 || !strings.ContainsRune(Alphabet, c) {
			return ""
		}
		raw = append(raw, byte(c))
	}
	if len(raw) != Len {
		return ""
	}
	return string(raw[0:3]) + "-" + string(raw[3:6]) + "-" + string(raw[6:9])
}
