package protocol

import (
	"time"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
)

// FairplayFlags is the body of GET /api/fairplay/flags (moderators only):
// every flagged player with the evidence (docs/fairplay.md).
type FairplayFlags struct {
	Flags []fairplay.Flag `json:"flags"`
	// Links are the flagged accounts' linked accounts (docs/protocol.md
	// "Linked accounts"), by the flag's player id; accounts with none,
	// and players who are not accounts, are left out.
	Links map[string][]AccountLink `json:"links"`
	// Scouting are the flagged accounts' scouted holes (docs/fairplay.md
	// "Scouting"): holes begun after a linked account had finished the
	// same deal, by the flag's player id; accounts with none are left out.
	Scouting map[string][]review.Scouted `json:"scouting"`
	// NameNotes are the flagged accounts' name notes (names kept from
	// before the name rules: docs/protocol.md "Accounts"), by player id;
	// accounts with none are left out.
	NameNotes map[string]string `json:"nameNotes"`
}

// AccountLink is another account seen with one of an account's addresses
// or devices.
type AccountLink struct {
	Name string `json:"name"`
	// Kind is "address" or "device".
	Kind string `json:"kind"`
	// At is the latest time both were seen with it.
	At time.Time `json:"at"`
}
