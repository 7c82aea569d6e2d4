package server_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/limit"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// authenticator is a software passkey authenticator: one ES256 key per
// credential, attestation "none", a signature counter.
type authenticator struct {
	t      *testing.T
	origin string // the page's origin, as the browser reports it
	rpID   string
	keys   map[string]*ecdsa.PrivateKey // by credential id
	users  map[string][]byte            // user handle by credential id
	count  uint32
}

func newAuthenticator(t *testing.T, origin string) *authenticator {
	rp := strings.TrimPrefix(strings.TrimPrefix(origin, "http://"), "https://")
	if i := strings.LastIndexByte(rp, ':'); i >= 0 {
		rp = rp[:i]
	}
	return &authenticator{t: t, origin: origin, rpID: rp, keys: map[string]*ecdsa.PrivateKey{}, users: map[string][]byte{}}
}

type creationOptions struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		RP        struct {
			ID string `json:"id"`
		} `json:"rp"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
		PubKeyCredParams []struct {
			Alg int `json:"alg"`
		} `json:"pubKeyCredParams"`
		ExcludeCredentials []struct {
			ID string `json:"id"`
		} `json:"excludeCredentials"`
	} `json:"publicKey"`
}

type requestOptions struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		RPID      string `json:"rpId"`
	} `json:"publicKey"`
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func (a *authenticator) clientData(kind, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": kind, "challenge": challenge, "origin": a.origin, "crossOrigin": false})
	return b
}

func (a *authenticator) authData(flags byte, attested []byte) []byte {
	h := sha256.Sum256([]byte(a.rpID))
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, a.count)
	return append(out, attested...)
}

// create answers navigator.credentials.create: a new key, attestation
// "none".
func (a *authenticator) create(opts creationOptions) (id []byte, body map[string]any) {
	a.t.Helper()
	if opts.PublicKey.RP.ID != a.rpID {
		a.t.Fatalf("registration for relying party %q, want %q", opts.PublicKey.RP.ID, a.rpID)
	}
	es256 := false
	for _, p := range opts.PublicKey.PubKeyCredParams {
		es256 = es256 || p.Alg == int(webauthncose.AlgES256)
	}
	if !es256 {
		a.t.Fatalf("the server does not offer ES256: %+v", opts.PublicKey.PubKeyCredParams)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		a.t.Fatal(err)
	}
	id = make([]byte, 16)
	rand.Read(id)
	a.keys[string(id)] = key
	handle, err := base64.RawURLEncoding.DecodeString(opts.PublicKey.User.ID)
	if err != nil {
		a.t.Fatalf("user id %q: %v", opts.PublicKey.User.ID, err)
	}
	a.users[string(id)] = handle
	ecdh, err := key.PublicKey.ECDH()
	if err != nil {
		a.t.Fatal(err)
	}
	raw := ecdh.Bytes() // 0x04 || X || Y
	cose, err := webauthncbor.Marshal(map[int64]any{
		1: int64(webauthncose.EllipticKey), 3: int64(webauthncose.AlgES256), -1: int64(webauthncose.P256),
		-2: raw[1:33], -3: raw[33:65],
	})
	if err != nil {
		a.t.Fatal(err)
	}
	attested := make([]byte, 16) // AAGUID: zero
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(id)))
	attested = append(append(attested, id...), cose...)
	// Flags: user present, user verified, attested credential data.
	ad := a.authData(0x01|0x04|0x40, attested)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": ad})
	if err != nil {
		a.t.Fatal(err)
	}
	return id, map[string]any{"id": b64(id), "rawId": b64(id), "type": "public-key",
		"response": map[string]any{"attestationObject": b64(att), "clientDataJSON": b64(a.clientData("webauthn.create", opts.PublicKey.Challenge))}}
}

// get answers navigator.credentials.get with the credential id, signed
// by key (normally its own).
func (a *authenticator) get(opts requestOptions, id []byte, key *ecdsa.PrivateKey) map[string]any {
	a.t.Helper()
	if opts.PublicKey.RPID != a.rpID {
		a.t.Fatalf("login for relying party %q, want %q", opts.PublicKey.RPID, a.rpID)
	}
	a.count++
	ad := a.authData(0x01|0x04, nil)
	cd := a.clientData("webauthn.get", opts.PublicKey.Challenge)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, key, digest[:])
	if err != nil {
		a.t.Fatal(err)
	}
	return map[string]any{"id": b64(id), "rawId": b64(id), "type": "public-key",
		"response": map[string]any{"authenticatorData": b64(ad), "clientDataJSON": b64(cd), "signature": b64(sig), "userHandle": b64(a.users[string(id)])}}
}

// localhost: WebAuthn binds passkeys to a domain name, never an address,
// so the test browser reaches the server as localhost.
func localhost(base string) string { return strings.Replace(base, "127.0.0.1", "localhost", 1) }

// TestPasskeys: a logged-in account registers a passkey (a software
// authenticator: ES256, attestation none), logs out, logs in with it and
// no password; the signature counter is kept; a wrong signature, a replayed
// answer, a finish with no begin and a deleted passkey are refused and log
// nobody in.
func TestPasskeys(t *testing.T) {
	t.Parallel()
	st := inmem.New()
	e := newEnv(t, withAccounts(st), func(o *server.Options) { o.LoginRate = limit.Rate{PerSecond: 100, Burst: 100} })
	base := localhost(e.ts)
	b := newBrowser(t, base)
	auth := newAuthenticator(t, base)

	// Registration needs a login.
	var apiErr protocol.APIError
	b.wantStatus(b.do("POST", "/api/account/passkeys/begin", nil, &apiErr), http.StatusUnauthorized)
	b.signup("Ana", "correct horse")

	var co creationOptions
	b.wantStatus(b.do("POST", "/api/account/passkeys/begin", nil, &co), http.StatusOK)
	if co.PublicKey.Challenge == "" || co.PublicKey.User.ID == "" {
		t.Fatalf("creation options %+v", co)
	}
	id, body := auth.create(co)
	var pk protocol.Passkey
	b.wantStatus(b.do("POST", "/api/account/passkeys/finish", body, &pk), http.StatusCreated)
	if pk.ID != b64(id) || pk.Created.IsZero() || pk.LastUsed != nil {
		t.Errorf("registered passkey %+v, want id %s, never used", pk, b64(id))
	}
	// The same answer again: the ceremony was used up.
	b.wantStatus(b.do("POST", "/api/account/passkeys/finish", body, &apiErr), http.StatusBadRequest)
	if apiErr.Code != protocol.ErrCodePasskeyFailed {
		t.Errorf("second finish: %+v, want passkey_failed", apiErr)
	}
	// Registering it again is refused (the server excludes it, and the
	// store refuses a duplicate).
	b.wantStatus(b.do("POST", "/api/account/passkeys/begin", nil, &co), http.StatusOK)
	if len(co.PublicKey.ExcludeCredentials) != 1 || co.PublicKey.ExcludeCredentials[0].ID != b64(id) {
		t.Errorf("exclusions %+v, want the registered passkey", co.PublicKey.ExcludeCredentials)
	}
	var list []protocol.Passkey
	b.wantStatus(b.do("GET", "/api/account/passkeys", nil, &list), http.StatusOK)
	if len(list) != 1 || list[0].ID != b64(id) {
		t.Errorf("passkeys %+v", list)
	}
	b.wantStatus(b.do("POST", "/api/account/logout", nil, nil), http.StatusNoContent)

	// Log in with it, in a fresh browser, without a name.
	fresh := newBrowser(t, base)
	var ro requestOptions
	fresh.wantStatus(fresh.do("POST", "/api/account/passkey-login/begin", nil, &ro), http.StatusOK)
	answer := auth.get(ro, id, auth.keys[string(id)])
	var me protocol.Player
	fresh.wantStatus(fresh.do("POST", "/api/account/passkey-login/finish", answer, &me), http.StatusOK)
	if me.Name != "Ana" {
		t.Errorf("passkey login = %+v, want Ana", me)
	}
	fresh.wantStatus(fresh.do("GET", "/api/account", nil, &me), http.StatusOK)
	p, err := st.PasskeyByID(context.Background(), id)
	if err != nil || p.LastUsed.IsZero() || !strings.Contains(string(p.Credential), `"signCount":1`) {
		t.Errorf("after login the stored passkey is %s (used %v), %v; want signCount 1 and a last use", p.Credential, p.LastUsed, err)
	}

	// Refusals: nobody is logged in by any of them.
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	refusals := []struct {
		name string
		run  func(b *browser) *http.Response
	}{
		{"finish without begin", func(b *browser) *http.Response {
			return b.do("POST", "/api/account/passkey-login/finish", answer, &apiErr)
		}},
		{"signed by another key", func(b *browser) *http.Response {
			b.wantStatus(b.do("POST", "/api/account/passkey-login/begin", nil, &ro), http.StatusOK)
			return b.do("POST", "/api/account/passkey-login/finish", auth.get(ro, id, other), &apiErr)
		}},
		{"a replayed answer (old challenge)", func(b *browser) *http.Response {
			b.wantStatus(b.do("POST", "/api/account/passkey-login/begin", nil, &ro), http.StatusOK)
			return b.do("POST", "/api/account/passkey-login/finish", answer, &apiErr)
		}},
		{"an unknown passkey", func(b *browser) *http.Response {
			b.wantStatus(b.do("POST", "/api/account/passkey-login/begin", nil, &ro), http.StatusOK)
			return b.do("POST", "/api/account/passkey-login/finish", auth.get(ro, []byte("not registered"), other), &apiErr)
		}},
		{"not an answer at all", func(b *browser) *http.Response {
			b.wantStatus(b.do("POST", "/api/account/passkey-login/begin", nil, &ro), http.StatusOK)
			return b.do("POST", "/api/account/passkey-login/finish", map[string]any{"id": 7}, &apiErr)
		}},
	}
	for _, tt := range refusals {
		nb := newBrowser(t, base)
		apiErr = protocol.APIError{}
		resp := tt.run(nb)
		if resp.StatusCode != http.StatusBadRequest || apiErr.Code != protocol.ErrCodePasskeyFailed || apiErr.Message == "" {
			t.Errorf("%s: %d %+v, want 400 passkey_failed in words", tt.name, resp.StatusCode, apiErr)
		}
		nb.wantStatus(nb.do("GET", "/api/account", nil, nil), http.StatusUnauthorized)
	}

	// Deleted: it logs nobody in any more.
	fresh.wantStatus(fresh.do("DELETE", "/api/account/passkeys/"+b64([]byte("nope")), nil, &apiErr), http.StatusNotFound)
	if apiErr.Code != protocol.ErrCodeNoPasskey {
		t.Errorf("deleting an unknown passkey: %+v, want no_passkey", apiErr)
	}
	fresh.wantStatus(fresh.do("DELETE", "/api/account/passkeys/"+b64(id), nil, nil), http.StatusNoContent)
	nb := newBrowser(t, base)
	nb.wantStatus(nb.do("POST", "/api/account/passkey-login/begin", nil, &ro), http.StatusOK)
	nb.wantStatus(nb.do("POST", "/api/account/passkey-login/finish", auth.get(ro, id, auth.keys[string(id)]), &apiErr), http.StatusBadRequest)
	nb.wantStatus(nb.do("GET", "/api/account", nil, nil), http.StatusUnauthorized)
}

// TestPasskeyNeedsADomain: reached by an address, the server says in words
// that passkeys need a domain name.
func TestPasskeyNeedsADomain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	b := newBrowser(t, e.ts)
	var apiErr protocol.APIError
	b.wantStatus(b.do("POST", "/api/account/passkey-login/begin", nil, &apiErr), http.StatusBadRequest)
	if apiErr.Code != protocol.ErrCodePasskeyFailed || !strings.Contains(apiErr.Message, "domain name") {
		t.Errorf("passkey by address: %+v", apiErr)
	}
}

// TestPasskeyCap: an account holds at most accounts.MaxPasskeys passkeys;
// past it a registration is refused when it begins, and one begun before
// the cap was reached is refused when it finishes.
func TestPasskeyCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	base := localhost(e.ts)
	b := newBrowser(t, base)
	auth := newAuthenticator(t, base)
	b.signup("Ana", "correct horse")
	// A second browser logged in to the same account.
	b2 := newBrowser(t, base)
	b2.wantStatus(b2.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Ana", Password: "correct horse"}, nil), http.StatusOK)
	begin := func(b *browser) map[string]any {
		t.Helper()
		var co creationOptions
		b.wantStatus(b.do("POST", "/api/account/passkeys/begin", nil, &co), http.StatusOK)
		_, body := auth.create(co)
		return body
	}
	for range accounts.MaxPasskeys - 1 {
		b.wantStatus(b.do("POST", "/api/account/passkeys/finish", begin(b), nil), http.StatusCreated)
	}
	// One short of the cap, both browsers begin; the first to finish
	// takes the last place, and the other's finish is refused.
	first, second := begin(b), begin(b2)
	b.wantStatus(b.do("POST", "/api/account/passkeys/finish", first, nil), http.StatusCreated)
	var late protocol.APIError
	b2.wantStatus(b2.do("POST", "/api/account/passkeys/finish", second, &late), http.StatusBadRequest)
	if late.Code != protocol.ErrCodeInvalid {
		t.Errorf("finish past the cap: %+v, want invalid", late)
	}

	var apiErr protocol.APIError
	b.wantStatus(b.do("POST", "/api/account/passkeys/begin", nil, &apiErr), http.StatusBadRequest)
	if apiErr.Code != protocol.ErrCodeInvalid || !strings.Contains(apiErr.Message, "at most") {
		t.Errorf("begin past the cap: %+v, want invalid saying at most", apiErr)
	}
	var list []protocol.Passkey
	b.wantStatus(b.do("GET", "/api/account/passkeys", nil, &list), http.StatusOK)
	if len(list) != accounts.MaxPasskeys {
		t.Errorf("%d passkeys, want %d", len(list), accounts.MaxPasskeys)
	}
}
