package names_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"golfsolitaire/names"
)

func TestClean(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		err      string // part of the message; "" for no error
	}{
		{"Ana", "Ana", ""},
		{"  Ana   Bo ", "Ana Bo", ""},
		{"ＡＢＣ", "ABC", ""}, // NFKC: fullwidth letters
		{"José", "José", ""},
		{"李小龍", "李小龍", ""},
		{"🙂 x", "🙂 x", ""},
		{"", "", "a name is required"},
		{"   ", "", "a name is required"},
		{"a\u202Eb", "", "bidirectional control characters (U+202E)"},
		{"\u2067Ana", "", "bidirectional control characters (U+2067)"},
		{"An\u200Ba", "", "zero-width characters (U+200B)"},
		{"An\u200Da", "", "zero-width characters (U+200D)"},
		{"\uFEFFAna", "", "zero-width characters (U+FEFF)"},
		{"Ana\u2028Bo", "", "line and paragraph separators (U+2028)"},
		{"Ana\u2029", "", "line and paragraph separators (U+2029)"},
		{"Ana\nBo", "", "control characters"},
		{"Ana\x00", "", "control characters"},
		{"Ana\u0085", "", "line and paragraph separators"},
		{"A\uFE0F", "", "invisible characters"},
		{"\U000E0041na", "", "cannot be shown"}, // tag character
		{strings.Repeat("x", 25), "", "at most 24 characters"},
		{strings.Repeat("é", 24), strings.Repeat("é", 24), ""},
		{"\xff", "", "not valid UTF-8"},
	} {
		got, err := names.Clean(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("Clean(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !errors.Is(err, names.ErrInvalid) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Clean(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.err)
		}
	}
}

func TestCheckPerson(t *testing.T) {
	t.Parallel()
	taken := []string{"Ana", "Bot (search)", "Zoë"}
	for _, tc := range []struct {
		in  string
		err string
	}{
		{"Bo", ""},
		{"Robot", ""},
		{"Abbott", ""},
		{"Anabel", ""},
		{"Аna", "too like \"Ana\""},       // Cyrillic А
		{"Αna", "too like \"Ana\""},       // Greek Α
		{"аnа", "too like \"Ana\""},       // Cyrillic а twice
		{"ana", "too like \"Ana\""},       // case only
		{"ANA", "too like \"Ana\""},       // case only
		{"Zoe\u0308", "too like \"Zoë\""}, // decomposed
		{"Bot (search)", "kept for the bots"},
		{"Bot", "kept for the bots"},
		{"my bot", "kept for the bots"},
		{"B0T", "kept for the bots"},
		{"Воt", "kept for the bots"}, // Cyrillic В and о
		{"Ana\u202E", "bidirectional"},
	} {
		_, err := names.CheckPerson(tc.in, taken)
		if tc.err == "" {
			if err != nil {
				t.Errorf("CheckPerson(%q) = %v, want no error", tc.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("CheckPerson(%q) = %v; want an error saying %q", tc.in, err, tc.err)
		}
	}
}

// FuzzClean: a cleaned name is valid, short, stable (cleaning it again
// changes nothing), free of hidden characters and confusable with itself.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"Ana", "Аna", "a\u202Eb", "An\u200Ba", "x\u2028y", "Bot (search)", "ＡＢＣ", "Zoe\u0308", "  a  b "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := names.Clean(in)
		if err != nil {
			if !errors.Is(err, names.ErrInvalid) {
				t.Fatalf("Clean(%q): error %v does not wrap ErrInvalid", in, err)
			}
			return
		}
		if out == "" || !utf8.ValidString(out) || utf8.RuneCountInString(out) > names.MaxLen {
			t.Fatalf("Clean(%q) = %q", in, out)
		}
		if again, err := names.Clean(out); err != nil || again != out {
			t.Fatalf("Clean(Clean(%q)) = %q, %v; want %q", in, again, err, out)
		}
		for _, c := range out {
			if c == '\u202E' || c == '\u200B' || c == '\u2028' || c < 0x20 {
				t.Fatalf("Clean(%q) = %q keeps %U", in, out, c)
			}
		}
		if !names.Confusable(out, out) {
			t.Fatalf("%q is not confusable with itself", out)
		}
	})
}
