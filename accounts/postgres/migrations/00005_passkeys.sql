-- Passkeys: WebAuthn credentials an account logs in with. credential is
-- the verifier's record (github.com/go-webauthn/webauthn's Credential as
-- JSON: public key, signature counter, flags).

-- +goose Up
CREATE TABLE passkeys (
    id         BYTEA PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    credential JSON NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_used  TIMESTAMPTZ
);
CREATE INDEX passkeys_account ON passkeys (account_id, created_at);

-- +goose Down
DROP TABLE passkeys;
