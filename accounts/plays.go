package accounts

import (
	"context"
	"time"
)

// Play is one hole an account played, kept so that fair play can tell a
// hole begun after a linked account had finished the same deal (a
// scouted hole, docs/fairplay.md "Scouting").
type Play struct {
	Account ID `json:"-"`
	// Deal names the deal (its variant and seed, hashed: never the seed
	// itself); two holes with the same Deal dealt the same cards.
	Deal string `json:"deal"`
	// Room and Hole say where it was played.
	Room string `json:"room"`
	Hole int    `json:"hole"`
	// Counts: the hole's result counted (a rated room or a tournament,
	// the daily challenge among them), so scouting it gained something.
	Counts bool `json:"counts"`
	// Begun is when the hole was dealt to the account, Finished when the
	// account finished it.
	Begun    time.Time `json:"begun"`
	Finished time.Time `json:"finished"`
}

// Plays keeps the holes accounts played (Store has it).
type Plays interface {
	// AddPlay records a play. An account keeps one play per deal: the
	// one begun earliest (a later play of a deal it knew already tells
	// nothing). ErrNotFound when the account does not exist.
	AddPlay(ctx context.Context, p Play) error
	// AccountPlays returns an account's plays, latest begun first, at
	// most limit of them.
	AccountPlays(ctx context.Context, id ID, limit int) ([]Play, error)
	// DealPlays returns the plays of any of deals by any of ids, by deal
	// then earliest finished first.
	DealPlays(ctx context.Context, deals []string, ids []ID) ([]Play, error)
}
