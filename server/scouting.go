package server

import (
	"context"
	"errors"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
)

// flagScouting are the flagged accounts' scouted holes, against every
// account ever linked to them, and their name notes (names from before
// the name rules, linked.go), by player id: for moderators, beside
// the links and the evidence (docs/fairplay.md "Scouting").
func (s *Server) flagScouting(ctx context.Context, flags []fairplay.Flag) (map[string][]review.Scouted, map[string]string, error) {
	out, notes := map[string][]review.Scouted{}, map[string]string{}
	for _, f := range flags {
		id, ok := review.AccountOf(f.Player)
		if !ok {
			continue
		}
		sc, err := s.fair.holds.ScoutingOf(ctx, id, time.Time{})
		if err != nil {
			return nil, nil, err
		}
		if len(sc) > 0 {
			out[f.Player] = sc
		}
		a, err := s.acct.store.ByID(ctx, id)
		if err != nil && !errors.Is(err, accounts.ErrNotFound) {
			return nil, nil, err
		}
		if a.NameNote != "" {
			notes[f.Player] = a.NameNote
		}
	}
	return out, notes, nil
}
