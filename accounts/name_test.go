package accounts

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
)

func TestParseName(t *testing.T) {
	tests := []struct {
		in, display, key string
		err              bool
	}{
		{in: "Ana", display: "Ana", key: "ana"},
		{in: "ANA", display: "ANA", key: "ana"},
		{in: "José_9", display: "José_9", key: "josé_9"},
		// Width mapping: fullwidth letters become their ASCII forms.
		{in: "ＡＮＡ", display: "ANA", key: "ana"},
		{in: "a.b-c", display: "a.b-c", key: "a.b-c"},
		{in: "a", err: true},
		{in: "", err: true},
		{in: "two words", err: true},
		{in: "-ana", err: true},
		{in: "ana/../x", err: true},
		{in: "ana?", err: true},
		{in: "ana\u0000", err: true},
		{in: strings.Repeat("x", 25), err: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, k, err := ParseName(tt.in)
			if tt.err {
				if !errors.Is(err, ErrBadName) {
					t.Errorf("ParseName(%q) = %q, %q, %v; want ErrBadName", tt.in, d, k, err)
				}
				return
			}
			if err != nil || d != tt.display || k != tt.key {
				t.Errorf("ParseName(%q) = %q, %q, %v; want %q, %q", tt.in, d, k, err, tt.display, tt.key)
			}
		})
	}
}

var cheap = Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestHashVerify(t *testing.T) {
	h, err := RFC9106.Hash("correct horse", bytes.NewReader(make([]byte, 16)))
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "$argon2id$v=19$m=65536,t=3,p=4$AAAAAAAAAAAAAAAAAAAAAA$"
	if !strings.HasPrefix(h, prefix) || len(h) != len(prefix)+43 {
		t.Errorf("hash = %q, want the PHC string %s<43 characters>", h, prefix)
	}
	if ok, err := Verify("correct horse", h); err != nil || !ok {
		t.Errorf("Verify of the RFC 9106 hash = %v, %v; want true", ok, err)
	}
	// Verify reads the costs from the PHC string: the wrong passwords are
	// checked against a cheap hash (each RFC 9106 one is a second of CPU).
	cheap, err := Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}.Hash("correct horse", bytes.NewReader(make([]byte, 16)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		pw   string
		want bool
	}{{"correct horse", true}, {"correct horsE", false}, {"", false}} {
		if ok, err := Verify(tt.pw, cheap); err != nil || ok != tt.want {
			t.Errorf("Verify(%q) = %v, %v; want %v", tt.pw, ok, err, tt.want)
		}
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=1,t=1,p=1$AA$AA", "$argon2id$v=18$m=1,t=1,p=1$AA$AA", "$argon2id$v=19$m=1,t=0,p=1$AA$AA", "$argon2id$v=19$m=1,t=1,p=1$!!$AA"} {
		if _, err := Verify("x", bad); !errors.Is(err, ErrBadHash) {
			t.Errorf("Verify(%q) err = %v, want ErrBadHash", bad, err)
		}
	}
}

func TestNormalizePassword(t *testing.T) {
	for _, tt := range []struct {
		in  string
		err bool
	}{{"short", true}, {"long enough", false}, {"tab\there ok", true}, {strings.Repeat("p", 257), true}} {
		if _, err := NormalizePassword(tt.in); (err != nil) != tt.err {
			t.Errorf("NormalizePassword(%q) err = %v, want error %v", tt.in, err, tt.err)
		}
	}
}

// fakeStore is just enough of a Store for the service's own rules; the
// real stores have their contract suite in accountstest.
type fakeStore struct {
	Store
	byKey map[string]Account
}

func (f *fakeStore) ByKey(_ context.Context, key string) (Account, error) {
	if a, ok := f.byKey[key]; ok {
		return a, nil
	}
	return Account{}, ErrNotFound
}

func (f *fakeStore) Create(_ context.Context, a Account) (Account, error) {
	if _, ok := f.byKey[a.Key]; ok {
		return Account{}, ErrNameTaken
	}
	a.ID = ID(len(f.byKey) + 1)
	f.byKey[a.Key] = a
	return a, nil
}

func TestServiceSignupLogin(t *testing.T) {
	ctx := context.Background()
	s, err := NewService(&fakeStore{byKey: map[string]Account{}}, cheap, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Signup(ctx, "Ana", "password one"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Signup(ctx, "aNA", "password two"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("second Ana: err = %v, want ErrNameTaken", err)
	}
	if a, err := s.Login(ctx, "ANA", "password one"); err != nil || a.Name != "Ana" {
		t.Errorf("login = %+v, %v", a, err)
	}
	for _, tt := range []struct{ name, pw string }{{"Ana", "password two"}, {"Bob", "password one"}, {"x", "password one"}, {"Ana", "short"}} {
		if _, err := s.Login(ctx, tt.name, tt.pw); !errors.Is(err, ErrLogin) {
			t.Errorf("Login(%q, %q) err = %v, want ErrLogin", tt.name, tt.pw, err)
		}
	}
}

// BenchmarkHashRFC9106 is the cost of one sign-up or login: go test
// -run=^$ -bench=HashRFC9106 ./accounts
func BenchmarkHashRFC9106(b *testing.B) {
	for b.Loop() {
		if _, err := RFC9106.Hash("correct horse", rand.Reader); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSignupRefusesReservedNames: names that pass for the server's bots,
// its moderators or the site itself are refused at sign-up, in any case
// or script; other names are not.
func TestSignupRefusesReservedNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := NewService(&fakeStore{byKey: map[string]Account{}}, cheap, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Bot", "bot", "BOT", "GreedyBot", "Greedy_bot", "b0t", "B0T-7", "ВОТ", "Воt", "Moderator", "m0derator", "rnoderator", "Admin", "the_admin",
		"GolfSolitaire", "golf.solitaire", "Golf-Solitaire"} {
		_, err := s.Signup(ctx, name, "password one")
		if !errors.Is(err, ErrBadName) || !strings.Contains(err.Error(), "kept for") {
			t.Errorf("Signup(%q) err = %v, want ErrBadName saying what the name is kept for", name, err)
		}
	}
	for _, name := range []string{"Ana", "Robin", "golfer", "Sol", "Admiral"} {
		if _, err := s.Signup(ctx, name, "password one"); err != nil {
			t.Errorf("Signup(%q): %v", name, err)
		}
	}
}

// TestSignupCanonicalName: a sign-up's name is the one its seats show:
// the PRECIS Nickname profile seats use (NFKC) after the username rules.
func TestSignupCanonicalName(t *testing.T) {
	t.Parallel()
	s, err := NewService(&fakeStore{byKey: map[string]Account{}}, cheap, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Signup(context.Background(), "ﬁsher", "password one")
	if err != nil || a.Name != "fisher" || a.Key != "fisher" || a.Skeleton != Skeleton("fisher") {
		t.Errorf("Signup(ﬁsher) = %+v, %v; want fisher with its skeleton", a, err)
	}
}
