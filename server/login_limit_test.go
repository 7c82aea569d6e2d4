package server_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/limit"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// browserFrom is a browser whose connections leave from the loopback
// address ip: another client, as the server sees it.
func browserFrom(t *testing.T, base, ip string) *browser {
	b := newBrowser(t, base)
	jar := b.c.Jar
	b.c = from(ip)
	b.c.Jar = jar
	return b
}

// proofRefusal is a login refusal asking for a proof of work.
type proofRefusal struct {
	protocol.APIError
	Proof *protocol.ProofChallenge `json:"proof"`
}

// TestLoginNoLockOut: wrong passwords from one address (beyond its
// budget, with the default limits) never lock the owner out: the right
// password from another address logs in at once, and so does the right
// password from an address that guessed other names.
func TestLoginNoLockOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) { o.LoginRate = limit.Rate{} })
	browserFrom(t, e.ts, "127.0.0.31").signup("victim1", "correct horse")
	attacker := browserFrom(t, e.ts, "127.0.0.32")
	statuses := map[int]int{}
	for i := range 8 {
		resp := attacker.do("POST", "/api/account/login", protocol.AccountRequest{Name: "victim1", Password: "guess " + strconv.Itoa(i) + "xxxx"}, nil)
		statuses[resp.StatusCode]++
	}
	if statuses[http.StatusTooManyRequests] == 0 || statuses[http.StatusUnauthorized] == 0 {
		t.Errorf("8 guesses from one address: %v, want some 401 then 429", statuses)
	}
	owner := browserFrom(t, e.ts, "127.0.0.33")
	owner.wantStatus(owner.do("POST", "/api/account/login", protocol.AccountRequest{Name: "victim1", Password: "correct horse"}, nil), http.StatusOK)
	owner.wantStatus(owner.do("GET", "/api/account", nil, nil), http.StatusOK)
}

// TestLoginProofOfWork: past the name's budget of failures (from many
// addresses), a login needs a proof of work: without one it is refused
// with proof_required and a challenge; with one solved it goes on (the
// right password logs in); a proof is good once, for its name.
func TestLoginProofOfWork(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) {
		o.LoginNameRate = limit.Rate{PerSecond: 0.0001, Burst: 4}
	})
	browserFrom(t, e.ts, "127.0.0.41").signup("victim2", "correct horse")
	browserFrom(t, e.ts, "127.0.0.41").signup("other2", "correct horse")
	for i := range 4 {
		b := browserFrom(t, e.ts, "127.0.0."+strconv.Itoa(50+i))
		b.wantStatus(b.do("POST", "/api/account/login", protocol.AccountRequest{Name: "victim2", Password: "guess xxxxxxx"}, nil), http.StatusUnauthorized)
	}
	owner := browserFrom(t, e.ts, "127.0.0.42")
	var refusal proofRefusal
	resp := owner.do("POST", "/api/account/login", protocol.AccountRequest{Name: "victim2", Password: "correct horse"}, &refusal)
	if resp.StatusCode != http.StatusUnauthorized || refusal.Code != protocol.ErrCodeProofRequired || refusal.Proof == nil || refusal.Proof.Bits < 1 || !strings.Contains(refusal.Message, "proof of work") {
		t.Fatalf("login past the budget = %d %+v, want 401 proof_required with a challenge", resp.StatusCode, refusal)
	}
	// Other names are not affected.
	owner.wantStatus(browserFrom(t, e.ts, "127.0.0.43").do("POST", "/api/account/login", protocol.AccountRequest{Name: "other2", Password: "correct horse"}, nil), http.StatusOK)
	// A wrong nonce, and a proof for another name, are refused.
	bad := &protocol.LoginProof{Challenge: refusal.Proof.Challenge, Nonce: "x"}
	if accounts.CheckProof(bad.Challenge, bad.Nonce, "victim2", refusal.Proof.Bits, time.Now()) == nil {
		bad.Nonce = "y"
	}
	resp = owner.do("POST", "/api/account/login", protocol.AccountRequest{Name: "victim2", Password: "correct horse", Proof: bad}, &refusal)
	if resp.StatusCode != http.StatusUnauthorized || refusal.Code != protocol.ErrCodeProofRequired {
		t.Errorf("a wrong proof = %d %+v, want proof_required", resp.StatusCode, refusal.APIError)
	}
	nonce := accounts.SolveProof(refusal.Proof.Challenge, refusal.Proof.Bits)
	proof := &protocol.LoginProof{Challenge: refusal.Proof.Challenge, Nonce: nonce}
	resp = owner.do("POST", "/api/account/login", protocol.AccountRequest{Name: "other2", Password: "correct horse", Proof: proof}, nil)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a proof used for another name (not needed there) = %d, want 200", resp.StatusCode)
	}
	owner = browserFrom(t, e.ts, "127.0.0.42")
	owner.wantStatus(owner.do("POST", "/api/account/login", protocol.AccountRequest{Name: "victim2", Password: "correct horse", Proof: proof}, nil), http.StatusOK)
	owner.wantStatus(owner.do("GET", "/api/account", nil, nil), http.StatusOK)
	// The same proof again: refused.
	resp = owner.do("POST", "/api/account/login", protocol.AccountRequest{Name: "victim2", Password: "correct horse", Proof: proof}, &refusal)
	if resp.StatusCode != http.StatusUnauthorized || refusal.Code != protocol.ErrCodeProofRequired {
		t.Errorf("a proof used twice = %d %+v, want proof_required", resp.StatusCode, refusal.APIError)
	}
}

// TestSignupLimitPerDay: a few accounts per address per day (default 3),
// then 429 with a Retry-After in hours; another address is not held back.
func TestSignupLimitPerDay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) { o.SignupRate = limit.Rate{} })
	b := browserFrom(t, e.ts, "127.0.0.61")
	for i := range 3 {
		b.signup("spare"+strconv.Itoa(i), "correct horse")
	}
	var apiErr protocol.APIError
	resp := b.do("POST", "/api/account/signup", protocol.AccountRequest{Name: "spare9", Password: "correct horse"}, &apiErr)
	retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusTooManyRequests || apiErr.Code != protocol.ErrCodeRateLimited || retry < 3600 {
		t.Errorf("4th sign-up from one address = %d (Retry-After %q) %+v, want 429 for hours", resp.StatusCode, resp.Header.Get("Retry-After"), apiErr)
	}
	browserFrom(t, e.ts, "127.0.0.62").signup("spare9", "correct horse")
}

// TestSignupNames: look-alikes of existing accounts and reserved words
// are refused with invalid and a reason in words.
func TestSignupNames(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	newBrowser(t, e.ts).signup("victim1", "correct horse")
	i := 0
	for name, words := range map[string]string{"v\u0456ctim1": "looks too much like", "Bot": "kept for", "GreedyBot": "kept for", "b0t": "kept for", "Moderator": "kept for", "admin": "kept for", "GolfSolitaire": "kept for"} {
		var apiErr protocol.APIError
		i++
		resp := browserFrom(t, e.ts, "127.0.0."+strconv.Itoa(70+i)).do("POST", "/api/account/signup", protocol.AccountRequest{Name: name, Password: "correct horse"}, &apiErr)
		if resp.StatusCode != http.StatusBadRequest || apiErr.Code != protocol.ErrCodeInvalid || !strings.Contains(apiErr.Message, words) {
			t.Errorf("sign-up %q = %d %+v, want 400 invalid saying %q", name, resp.StatusCode, apiErr, words)
		}
	}
}
