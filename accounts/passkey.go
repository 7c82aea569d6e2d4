package accounts

import (
	"encoding/json"
	"errors"
	"time"
)

// Passkey is a WebAuthn credential registered to an account: the account
// logs in with it instead of a password.
type Passkey struct {
	// ID is the credential's id, unique among all passkeys.
	ID      []byte `json:"-"`
	Account ID     `json:"-"`
	// Credential is the verifier's record of the credential (public key,
	// signature counter, flags), opaque here: the server keeps
	// github.com/go-webauthn/webauthn's Credential as JSON.
	Credential json.RawMessage `json:"-"`
	Created    time.Time       `json:"created"`
	// LastUsed is the last login with it (zero: never).
	LastUsed time.Time `json:"lastUsed"`
}

// ErrPasskeyTaken refuses a second registration of the same credential.
var ErrPasskeyTaken = errors.New("accounts: that passkey is registered already")

// MaxPasskeys is how many passkeys one account may register.
const MaxPasskeys = 20
