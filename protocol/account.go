package protocol

import "time"

// Error codes of the account API.
const (
	ErrCodeBadLogin       = "bad_login"        // wrong name or password (never says which)
	ErrCodeNotLoggedIn    = "not_logged_in"    // the request needs an account session
	ErrCodePlayerNotFound = "player_not_found" // no account by that name
	ErrCodeInboxFull      = "inbox_full"       // the challenged player's inbox holds as many open challenges as it can
	ErrCodeCrossOrigin    = "cross_origin"     // a state-changing request from another site
	ErrCodeAlreadySeated  = "already_seated"   // a second seat for one account in a rated room
	ErrCodeGameNotFound   = "game_not_found"   // no archived game by that id
	ErrCodeNotEligible    = "not_eligible"     // fewer rated games than a tournament asks for
	ErrCodePasskeyTaken   = "passkey_taken"    // that passkey is registered already
	ErrCodeNoPasskey      = "no_passkey"       // the account has no passkey by that id
	ErrCodePasskeyFailed  = "passkey_failed"   // a passkey ceremony was not accepted (no ceremony started, expired, wrong signature, unknown passkey)
	ErrCodeProofRequired  = "proof_required"   // past the name's budget of failed logins, a login needs a proof of work (LoginRefusal.Proof) or a passkey
	ErrCodeLinkedAccounts = "linked_accounts"  // another account sharing your address or device is already seated or entered
)

// LoginRefusal is the body of a login refused with ErrCodeProofRequired:
// the error and the challenge to answer.
type LoginRefusal struct {
	APIError
	Proof *ProofChallenge `json:"proof,omitempty"`
}

// ProofChallenge is a proof of work to do before logging in to a name
// (docs/protocol.md "Logins"): find a nonce such that
// SHA-256(challenge + ":" + nonce) starts with Bits zero bits.
type ProofChallenge struct {
	Challenge string `json:"challenge"`
	Bits      int    `json:"bits"`
}

// LoginProof is the answer to a ProofChallenge, sent with a login.
type LoginProof struct {
	Challenge string `json:"challenge"`
	Nonce     string `json:"nonce"`
}

// Passkey is one of an account's passkeys: GET /api/account/passkeys and
// the answer to POST /api/account/passkeys/finish.
type Passkey struct {
	// ID is the credential id, base64url without padding (as the browser's
	// PublicKeyCredential.id).
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	// LastUsed is the last login with it; absent when never used.
	LastUsed *time.Time `json:"lastUsed,omitempty"`
}

// AccountRequest is the body of POST /api/account/signup and
// POST /api/account/login.
type AccountRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	// Proof answers the challenge of a proof_required refusal (logins
	// only).
	Proof *LoginProof `json:"proof,omitempty"`
}

// Session is the answer to GET /api/session: who the browser is logged
// in as.
type Session struct {
	// Name is the account's name, null for a guest.
	Name *string `json:"name"`
}

// Player is an account as anyone may see it: GET /api/account (yourself),
// GET /api/players/{name}, and the answer to sign-up and login.
type Player struct {
	Name string `json:"name"`
	// NameNote is set for an account kept from before the name rules
	// whose name they would refuse today: "reserved" (it holds a word
	// kept for the bots, the moderators or the site) or "look-alike of
	// NAME". Such an account plays rated games once it has chosen a new
	// name (POST /api/account/name).
	NameNote string    `json:"nameNote,omitempty"`
	Created  time.Time `json:"created"`
	// Rating is the current rating per game family (the game's name, as
	// in settings), for the families the player has played rated.
	Rating map[string]PlayerRating `json:"rating"`
	// Stats is the record per game family over every rated round.
	Stats map[string]PlayerStats `json:"stats"`
	// History is the rating after each rated round per game family,
	// oldest first, the last 100 at most.
	History map[string][]RatingPoint `json:"history"`
}

// PlayerStats is an account's record in one game family.
type PlayerStats struct {
	// Games is the rated rounds played; Won those placed first in alone.
	Games int `json:"games"`
	Won   int `json:"won"`
	// Holes finished and Clears (holes whose tableau was cleared).
	Holes  int `json:"holes"`
	Clears int `json:"clears"`
	// AverageToPar is the mean of the rounds' strokes to par.
	AverageToPar float64 `json:"averageToPar"`
	// BestToPar is the best round's strokes to par; BestGame its archive
	// id (GET /api/games/{id}, page /g/{id}).
	BestToPar int    `json:"bestToPar"`
	BestGame  string `json:"bestGame"`
}

// RatingPoint is a rating after one rated round.
type RatingPoint struct {
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
	GameID string    `json:"gameId"`
	At     time.Time `json:"at"`
}

// PlayerRating is a Glicko-2 rating in one game family.
type PlayerRating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
	// Provisional is true while RD is above 110; Display then ends in "?".
	Provisional bool   `json:"provisional"`
	Display     string `json:"display"`
	Games       int    `json:"games"`
}

// RatingLeaderboard is GET /api/ratings/{game}: the best-rated accounts of
// a game family, highest first.
type RatingLeaderboard struct {
	Game    string   `json:"game"`
	Leaders []Leader `json:"leaders"`
}

// Leader is one account on a rating leaderboard.
type Leader struct {
	Name string `json:"name"`
	PlayerRating
}

// Challenge is a rated room one account made for another from their
// profile: GET /api/account/challenges.
type Challenge struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Code and Link are the room's: join it to accept.
	Code   string    `json:"code"`
	Link   string    `json:"link"`
	Game   string    `json:"game"`
	Format string    `json:"format"`
	Holes  int       `json:"holes"`
	At     time.Time `json:"at"`
}

// Daily is GET /api/daily: today's daily challenge, a tournament for
// accounts (GET /api/tournaments/{id} for its view and leaderboard).
type Daily struct {
	Date   string    `json:"date"` // the UTC day, 2006-01-02
	ID     string    `json:"id"`
	Link   string    `json:"link"`
	Closes time.Time `json:"closes"`
}
