package identity

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
)

// Login limits (docs/protocol.md "Logins"). Only failures count: a
// client's failed logins per name (Options.LoginRate) and over every
// name (four times as many) are looked at before a login and taken after
// a failure; past either the client gets 429. A name's failed logins from
// every client (Options.LoginNameRate) never refuse a login: past that
// budget a login for the name needs a proof of work (accounts.NewProof)
// or a passkey, so guessing from many addresses costs work and the owner
// still gets in. A correct password from a client within its own budgets
// is never refused because of anyone else's failures.

// loginLimit is one login's budgets: its client, its name, and the keys of
// their buckets.
type loginLimit struct {
	s                  *Identity
	client, pair, name string
}

// allowLogin looks at the login's budgets: it answers 429 (this client's
// failures) or 401 proof_required (the name's, with no good proof) and
// returns nil, or returns the budgets to charge when the password is
// wrong.
func (s *Identity) allowLogin(w http.ResponseWriter, r *http.Request, req protocol.AccountRequest) *loginLimit {
	key, err := accounts.Key(req.Name)
	if err != nil {
		key = req.Name
	}
	client := s.o.Limits.Client(r)
	l := &loginLimit{s: s, client: client, pair: "name:" + key + "|" + client, name: "name:" + key}
	ctx := r.Context()
	if err := l.check(ctx); err != nil {
		s.fail(w, err)
		return nil
	}
	if ok, _ := s.o.Limits.Peek(ctx, l.name, LoginName); ok {
		return l
	}
	why := "too many wrong passwords have been tried for this name; log in with a passkey, or with the proof of work in this answer (the login form does it for you)"
	if p := req.Proof; p != nil {
		if err := accounts.CheckProof(p.Challenge, p.Nonce, key, s.o.ProofBits, s.now()); err != nil {
			why = err.Error() + "; answer the new challenge in this answer"
		} else if ok, _ := s.o.Limits.Take(ctx, p.Challenge, Proofs); !ok {
			why = "that proof of work has been used already; answer the new challenge in this answer"
		} else {
			return l
		}
	}
	challenge, err := accounts.NewProof(key, s.now(), rand.Reader)
	if err != nil {
		s.fail(w, err)
		return nil
	}
	api.WriteJSON(w, http.StatusUnauthorized, protocol.LoginRefusal{
		APIError: protocol.APIError{Code: protocol.ErrCodeProofRequired, Message: why},
		Proof:    &protocol.ProofChallenge{Challenge: challenge, Bits: s.o.ProofBits},
	})
	return nil
}

// check refuses a client past its failure budgets (429, Retry-After).
func (l *loginLimit) check(ctx context.Context) error {
	if ok, retry := l.s.o.Limits.Peek(ctx, l.pair, Logins); !ok {
		return l.s.o.Answers.Retry(fmt.Errorf("%w (for this name from your address): try again in %s", ErrLoginLimit, retry), retry)
	}
	if ok, retry := l.s.o.Limits.Peek(ctx, l.client, LoginClient); !ok {
		return l.s.o.Answers.Retry(fmt.Errorf("%w (from your address): try again in %s", ErrLoginLimit, retry), retry)
	}
	return nil
}

// failed charges a wrong password to every budget.
func (l *loginLimit) failed(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	l.s.o.Limits.Take(ctx, l.pair, Logins)
	l.s.o.Limits.Take(ctx, l.client, LoginClient)
	l.s.o.Limits.Take(ctx, l.name, LoginName)
}

// allowPasskeyLogin takes a token of the client's login bucket for the
// start of a passkey login, or answers 429.
func (s *Identity) allowPasskeyLogin(w http.ResponseWriter, r *http.Request) bool {
	ok, retry := s.o.Limits.Take(r.Context(), s.o.Limits.Client(r), Logins)
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(retry/time.Second)))
		s.fail(w, ErrLoginLimit)
	}
	return ok
}

// allowSignup takes a sign-up token of the client's (Options.SignupRate:
// a few a day), or answers 429 with Retry-After.
func (s *Identity) allowSignup(w http.ResponseWriter, r *http.Request) bool {
	ok, retry := s.o.Limits.Take(r.Context(), s.o.Limits.Client(r), Signups)
	if !ok {
		s.fail(w, s.o.Answers.Retry(fmt.Errorf("%w: your address has created as many accounts as it may today; try again in %s", ErrSignupLimit, retry), retry))
	}
	return ok
}
