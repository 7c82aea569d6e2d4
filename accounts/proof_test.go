package accounts

import (
	"crypto/rand"
	"errors"
	"testing"
	"time"
)

func TestProof(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	c, err := NewProof("ana", now, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	nonce := SolveProof(c, 12)
	if err := CheckProof(c, nonce, "ana", 12, now.Add(time.Minute)); err != nil {
		t.Fatalf("a solved proof: %v", err)
	}
	for _, tt := range []struct {
		name, challenge, nonce, key string
		at                          time.Time
	}{
		{"other name", c, nonce, "bob", now},
		{"expired", c, nonce, "ana", now.Add(ProofTTL + time.Second)},
		{"no nonce", c, "", "ana", now},
		{"garbage", "v1.x", nonce, "ana", now},
		{"far future", "v1.YW5h.9999999999.AAAA", nonce, "ana", now},
	} {
		if err := CheckProof(tt.challenge, tt.nonce, tt.key, 12, tt.at); !errors.Is(err, ErrProof) {
			t.Errorf("%s: err = %v, want ErrProof", tt.name, err)
		}
	}
	// Wrong work: some nonce below the bits is refused.
	for n := range 1000 {
		nn := string(rune('a'+n%26)) + nonce
		if zeroBits(c, nn) < 12 {
			if err := CheckProof(c, nn, "ana", 12, now); !errors.Is(err, ErrProof) {
				t.Errorf("nonce %q with too little work accepted", nn)
			}
			break
		}
	}
}

// FuzzCheckProof: no challenge or nonce makes the check panic, and what it
// accepts does answer the challenge.
func FuzzCheckProof(f *testing.F) {
	f.Add("v1.YW5h.1800000100.AAAAAAAAAAAAAAAAAAAAAA", "17", "ana")
	f.Add("v1...", "", "")
	f.Fuzz(func(t *testing.T, challenge, nonce, key string) {
		if CheckProof(challenge, nonce, key, 4, time.Unix(1_800_000_000, 0)) == nil && zeroBits(challenge, nonce) < 4 {
			t.Errorf("accepted %q %q without the work", challenge, nonce)
		}
	})
}

// BenchmarkSolveProof is a client's work for one login proof at the
// server's default 16 bits (the browser's WebCrypto is slower per hash):
// go test -run=^$ -bench=SolveProof -benchtime=50x ./accounts
func BenchmarkSolveProof(b *testing.B) {
	now := time.Unix(1_800_000_000, 0)
	for b.Loop() {
		c, err := NewProof("ana", now, rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		SolveProof(c, 16)
	}
}

// BenchmarkCheckProof is the server's work for one.
func BenchmarkCheckProof(b *testing.B) {
	now := time.Unix(1_800_000_000, 0)
	c, _ := NewProof("ana", now, rand.Reader)
	nonce := SolveProof(c, 16)
	for b.Loop() {
		if err := CheckProof(c, nonce, "ana", 16, now); err != nil {
			b.Fatal(err)
		}
	}
}
