package identity

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	wanproto "github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"golfsolitaire/accounts"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
)

// Passkeys (WebAuthn, github.com/go-webauthn/webauthn): a logged-in
// account registers one, then logs in with it and no password. Each
// ceremony is two requests: begin (the server's options and challenge,
// kept in the session until finish) and finish (the browser's answer).

// Session keys of the ceremonies in progress.
const (
	sessionPasskeyRegister = "passkey.register"
	sessionPasskeyLogin    = "passkey.login"
)

// Passkey refusals.
var (
	ErrPasskeyFailed = errors.New("server: passkey not accepted")
	errTooManyKeys   = fmt.Errorf("%w: an account has at most %d passkeys; delete one first", match.ErrInvalid, accounts.MaxPasskeys)
)

func (s *Identity) passkeyRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/account/passkeys/begin", s.passkeyRegisterBegin)
	m.HandleFunc("POST /api/account/passkeys/finish", s.passkeyRegisterFinish)
	m.HandleFunc("GET /api/account/passkeys", s.passkeyList)
	m.HandleFunc("DELETE /api/account/passkeys/{id}", s.passkeyDelete)
	m.HandleFunc("POST /api/account/passkey-login/begin", s.passkeyLoginBegin)
	m.HandleFunc("POST /api/account/passkey-login/finish", s.passkeyLoginFinish)
}

// relyingParty is the WebAuthn relying party of a request: the site of
// --base-url, or without one the site the request was sent to (a passkey
// is bound by the browser to the site it was made on, so a request naming
// another host can only reach passkeys of that host).
func (s *Identity) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	origin := ""
	if base, err := url.Parse(s.o.BaseURL); err == nil && base.Scheme != "" && base.Host != "" {
		origin = base.Scheme + "://" + base.Host
	} else {
		scheme := "http"
		if r.TLS != nil || s.o.SecureCookies || r.Header.Get("X-Forwarded-Proto") == "https" {
			scheme = "https"
		}
		origin = scheme + "://" + r.Host
	}
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("%w: passkeys need the site's name (this request names %q)", ErrPasskeyFailed, r.Host)
	}
	wa, err := webauthn.New(&webauthn.Config{RPID: u.Hostname(), RPDisplayName: "Golf Solitaire", RPOrigins: []string{origin}})
	if err != nil {
		// An address rather than a name: WebAuthn binds passkeys to
		// domain names only.
		return nil, fmt.Errorf("%w: passkeys need the site to be reached by a domain name, not %q (%v)", ErrPasskeyFailed, u.Hostname(), err)
	}
	return wa, nil
}

// passkeyUser is an account as go-webauthn sees it. Its user handle is
// the account's id (8 bytes): opaque, stable, and never reused.
type passkeyUser struct {
	a     accounts.Account
	creds []webauthn.Credential
}

func userHandle(id accounts.ID) []byte { return binary.BigEndian.AppendUint64(nil, uint64(id)) }

func (u *passkeyUser) WebAuthnID() []byte                         { return userHandle(u.a.ID) }
func (u *passkeyUser) WebAuthnName() string                       { return u.a.Name }
func (u *passkeyUser) WebAuthnDisplayName() string                { return u.a.Name }
func (u *passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// loadPasskeyUser reads an account's passkeys as go-webauthn credentials.
func (s *Identity) loadPasskeyUser(r *http.Request, a accounts.Account) (*passkeyUser, error) {
	ps, err := s.o.Store.Passkeys(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	u := &passkeyUser{a: a}
	for _, p := range ps {
		var c webauthn.Credential
		if err := json.Unmarshal(p.Credential, &c); err != nil {
			return nil, fmt.Errorf("passkey of %s: %w", a.Name, err)
		}
		u.creds = append(u.creds, c)
	}
	return u, nil
}

// ceremony keeps a ceremony's state in the session, and takes it back
// (once: a second finish with the same challenge is refused).
func (s *Identity) putCeremony(r *http.Request, key string, sd *webauthn.SessionData) error {
	b, err := json.Marshal(sd)
	if err != nil {
		return err
	}
	s.o.Sessions.Put(r.Context(), key, b)
	return nil
}

func (s *Identity) takeCeremony(r *http.Request, key string) (webauthn.SessionData, error) {
	var sd webauthn.SessionData
	b, ok := s.o.Sessions.Pop(r.Context(), key).([]byte)
	if !ok || len(b) == 0 {
		return sd, fmt.Errorf("%w: no passkey ceremony in progress in this session (call begin first)", ErrPasskeyFailed)
	}
	if err := json.Unmarshal(b, &sd); err != nil {
		return sd, err
	}
	return sd, nil
}

// beginCeremony answers a ceremony's first step: begin's options for the
// browser, its session data kept for the finish.
func (s *Identity) beginCeremony(w http.ResponseWriter, r *http.Request, key string, begin func(*webauthn.WebAuthn) (any, *webauthn.SessionData, error)) {
	wa, err := s.relyingParty(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	options, sd, err := begin(wa)
	if err == nil {
		err = s.putCeremony(r, key, sd)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	api.WriteJSON(w, http.StatusOK, options)
}

// finishCeremony takes back the ceremony begun in this session and the
// relying party to check the browser's answer with.
func (s *Identity) finishCeremony(r *http.Request, key string) (webauthn.SessionData, *webauthn.WebAuthn, error) {
	sd, err := s.takeCeremony(r, key)
	if err != nil {
		return sd, nil, err
	}
	wa, err := s.relyingParty(r)
	return sd, wa, err
}

// passkeyFailed is a ceremony's failure in go-webauthn's words.
func passkeyFailed(err error) error {
	return fmt.Errorf("%w: %s", ErrPasskeyFailed, webauthnReason(err))
}

// userWithRoom loads a's passkey user, or errTooManyKeys when a holds as
// many passkeys as an account may (checked when a ceremony begins and
// again when it finishes).
func (s *Identity) userWithRoom(r *http.Request, a accounts.Account) (*passkeyUser, error) {
	u, err := s.loadPasskeyUser(r, a)
	if err != nil {
		return nil, err
	}
	if len(u.creds) >= accounts.MaxPasskeys {
		return nil, errTooManyKeys
	}
	return u, nil
}

// passkeyRegisterBegin is POST /api/account/passkeys/begin: the options for
// navigator.credentials.create ({"publicKey": ...}).
func (s *Identity) passkeyRegisterBegin(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	u, err := s.userWithRoom(r, a)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.beginCeremony(w, r, sessionPasskeyRegister, func(wa *webauthn.WebAuthn) (any, *webauthn.SessionData, error) {
		return wa.BeginRegistration(u,
			webauthn.WithResidentKeyRequirement(wanproto.ResidentKeyRequirementRequired),
			webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()),
			webauthn.WithAuthenticatorSelection(wanproto.AuthenticatorSelection{
				ResidentKey: wanproto.ResidentKeyRequirementRequired, RequireResidentKey: wanproto.ResidentKeyRequired(),
				UserVerification: wanproto.VerificationPreferred,
			}))
	})
}

// passkeyRegisterFinish is POST /api/account/passkeys/finish with the
// browser's PublicKeyCredential (as JSON): the passkey is kept, 201.
func (s *Identity) passkeyRegisterFinish(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	sd, wa, err := s.finishCeremony(r, sessionPasskeyRegister)
	if err != nil {
		s.fail(w, err)
		return
	}
	parsed, err := wanproto.ParseCredentialCreationResponseBody(r.Body)
	if err != nil {
		s.fail(w, passkeyFailed(err))
		return
	}
	u, err := s.userWithRoom(r, a)
	if err != nil {
		s.fail(w, err)
		return
	}
	cred, err := wa.CreateCredential(u, sd, parsed)
	if err != nil {
		s.fail(w, passkeyFailed(err))
		return
	}
	data, err := json.Marshal(cred)
	if err != nil {
		s.fail(w, err)
		return
	}
	p, err := s.o.Store.AddPasskey(r.Context(), accounts.Passkey{ID: cred.ID, Account: a.ID, Credential: data})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.o.Logger.Info("passkey registered", "name", a.Name)
	api.WriteJSON(w, http.StatusCreated, passkeyJSON(p))
}

func passkeyJSON(p accounts.Passkey) protocol.Passkey {
	out := protocol.Passkey{ID: base64.RawURLEncoding.EncodeToString(p.ID), Created: p.Created}
	if !p.LastUsed.IsZero() {
		t := p.LastUsed
		out.LastUsed = &t
	}
	return out
}

// passkeyList is GET /api/account/passkeys: the account's passkeys.
func (s *Identity) passkeyList(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	ps, err := s.o.Store.Passkeys(r.Context(), a.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := []protocol.Passkey{}
	for _, p := range ps {
		out = append(out, passkeyJSON(p))
	}
	api.WriteJSON(w, http.StatusOK, out)
}

// passkeyDelete is DELETE /api/account/passkeys/{id}: 204, or 404 when the
// account has no passkey by that id.
func (s *Identity) passkeyDelete(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	id, err := base64.RawURLEncoding.DecodeString(r.PathValue("id"))
	if err != nil || len(id) == 0 {
		s.fail(w, fmt.Errorf("%w: a passkey id is base64url without padding, not %q", match.ErrInvalid, r.PathValue("id")))
		return
	}
	if err := s.o.Store.DeletePasskey(r.Context(), a.ID, id); err != nil {
		if errors.Is(err, accounts.ErrNotFound) {
			err = fmt.Errorf("%w: you have no passkey %s", ErrPasskeyNotFound, r.PathValue("id"))
		}
		s.fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

var ErrPasskeyNotFound = errors.New("server: no such passkey")

// passkeyLoginBegin is POST /api/account/passkey-login/begin: the options
// for navigator.credentials.get ({"publicKey": ...}), with no name: the
// browser offers the passkeys it has for this site. Limited like logins.
func (s *Identity) passkeyLoginBegin(w http.ResponseWriter, r *http.Request) {
	if !s.allowPasskeyLogin(w, r) {
		return
	}
	s.beginCeremony(w, r, sessionPasskeyLogin, func(wa *webauthn.WebAuthn) (any, *webauthn.SessionData, error) {
		return wa.BeginDiscoverableLogin(webauthn.WithUserVerification(wanproto.VerificationPreferred))
	})
}

// passkeyLoginFinish is POST /api/account/passkey-login/finish with the
// browser's PublicKeyCredential (as JSON): logged in, 200 with the player.
func (s *Identity) passkeyLoginFinish(w http.ResponseWriter, r *http.Request) {
	sd, wa, err := s.finishCeremony(r, sessionPasskeyLogin)
	if err != nil {
		s.fail(w, err)
		return
	}
	parsed, err := wanproto.ParseCredentialRequestResponseBody(r.Body)
	if err != nil {
		s.fail(w, passkeyFailed(err))
		return
	}
	var who accounts.Account
	find := func(rawID, handle []byte) (webauthn.User, error) {
		p, err := s.o.Store.PasskeyByID(r.Context(), rawID)
		if err != nil {
			return nil, err
		}
		if string(handle) != string(userHandle(p.Account)) {
			return nil, fmt.Errorf("%w: the passkey's user handle is not its account's", ErrPasskeyFailed)
		}
		a, err := s.o.Store.ByID(r.Context(), p.Account)
		if err != nil {
			return nil, err
		}
		who = a
		return s.loadPasskeyUser(r, a)
	}
	_, cred, err := wa.ValidatePasskeyLogin(find, sd, parsed)
	if err != nil {
		if errors.Is(err, accounts.ErrNotFound) {
			err = fmt.Errorf("%w: this passkey is not registered here (it may have been deleted)", ErrPasskeyFailed)
		} else if !errors.Is(err, ErrPasskeyFailed) {
			err = passkeyFailed(err)
		}
		s.fail(w, err)
		return
	}
	if cred.Authenticator.CloneWarning {
		// The signature counter went backwards: two authenticators share
		// the key.
		s.o.Logger.Warn("passkey login refused: signature counter went backwards", "name", who.Name)
		s.fail(w, fmt.Errorf("%w: the passkey's signature counter went backwards, which a copied key does", ErrPasskeyFailed))
		return
	}
	data, err := json.Marshal(cred)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := s.o.Store.UsePasskey(r.Context(), cred.ID, data, time.Now()); err != nil {
		s.fail(w, err)
		return
	}
	if !s.startSession(w, r, who) {
		return
	}
	s.writePlayer(w, r, http.StatusOK, who)
}

// webauthnReason is go-webauthn's error in words: its Details say what
// failed.
func webauthnReason(err error) string {
	var pe *wanproto.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return pe.Details
	}
	return err.Error()
}
