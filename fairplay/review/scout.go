package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/golf"
)

// Scouting (docs/fairplay.md "Scouting"): one person with two accounts
// plays a shared deal (the daily challenge, a tournament's deal, a room's
// deal) first with one account, then again with the other, knowing the
// cards. A hole an account began after a linked account (one that shares
// an address or a device with it, docs/protocol.md "Linked accounts")
// had finished the same deal is a scouted hole, and an account with
// ScoutedHolesToFlag of them, in holes whose results count, is flagged
// for review like one the detector flags.

// ScoutedHolesToFlag is how many scouted holes flag an account.
const ScoutedHolesToFlag = 3

// ScoutLinkWindow is how far back from a hole a shared address or device
// links its player to another account for the flag (the rated seats'
// window). The moderators see every link, however old.
const ScoutLinkWindow = 30 * 24 * time.Hour

// MaxScoutPlays is how many of an account's latest plays are looked at.
const MaxScoutPlays = 1000

// DealKey names a hole's deal for the plays store: a hash of the variant
// and the seed, never the seed itself (a tournament's seeds are secret
// until it closes). Two holes with the same key dealt the same cards.
func DealKey(v golf.Variant, seed golf.Seed) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "golf deal\x00%s\x00%+v\x00%x", v.Game, v.Options, seed[:]))
	return hex.EncodeToString(sum[:16])
}

// Scouted is a hole an account began after a linked account had finished
// the same deal.
type Scouted struct {
	// Room and Hole are the account's hole, Begun when it was dealt.
	Room  string    `json:"room"`
	Hole  int       `json:"hole"`
	Begun time.Time `json:"begun"`
	// By is the linked account that had finished the deal first (the
	// earliest), in ByRoom at hole ByHole, at ByFinished.
	By         string    `json:"by"`
	ByRoom     string    `json:"byRoom"`
	ByHole     int       `json:"byHole"`
	ByFinished time.Time `json:"byFinished"`
}

// Scouting returns the scouted holes among plays (one account's): each
// play whose result counted that began after a play of the same deal in
// others (the linked accounts' plays) had finished, naming the earliest
// such play (names are the linked accounts', by id). The plays' order is
// kept.
func Scouting(plays, others []accounts.Play, names map[accounts.ID]string) []Scouted {
	out := []Scouted{}
	for _, p := range plays {
		if !p.Counts {
			continue
		}
		var first *accounts.Play
		for i, o := range others {
			if o.Deal != p.Deal || o.Account == p.Account || !o.Finished.Before(p.Begun) {
				continue
			}
			if first == nil || o.Finished.Before(first.Finished) {
				first = &others[i]
			}
		}
		if first != nil {
			out = append(out, Scouted{Room: p.Room, Hole: p.Hole, Begun: p.Begun,
				By: names[first.Account], ByRoom: first.Room, ByHole: first.Hole, ByFinished: first.Finished})
		}
	}
	return out
}

// scoutSuspects are the accounts a new play p may have raised to
// ScoutedHolesToFlag: p's own when a linked account had finished the
// deal before p began, and any linked account whose counted play of the
// deal began after p finished (its hole was analysed first).
func scoutSuspects(p accounts.Play, others []accounts.Play) []accounts.ID {
	var out []accounts.ID
	for _, o := range others {
		if o.Deal != p.Deal || o.Account == p.Account {
			continue
		}
		if p.Counts && o.Finished.Before(p.Begun) && !slices.Contains(out, p.Account) {
			out = append(out, p.Account)
		}
		if o.Counts && p.Finished.Before(o.Begun) && !slices.Contains(out, o.Account) {
			out = append(out, o.Account)
		}
	}
	return out
}

// dealsOf are the plays' deals, each once.
func dealsOf(plays []accounts.Play) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range plays {
		if !seen[p.Deal] {
			seen[p.Deal] = true
			out = append(out, p.Deal)
		}
	}
	return out
}
