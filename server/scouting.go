package server

import (
	"context"
	"time"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
)

// flagScouting are the flagged accounts' scouted holes, against every
// account ever linked to them, by player id: for moderators, beside the
// links and the evidence (docs/fairplay.md "Scouting").
func (s *Server) flagScouting(ctx context.Context, flags []fairplay.Flag) (map[string][]review.Scouted, error) {
	out := map[string][]review.Scouted{}
	for _, f := range flags {
		id, ok := review.AccountOf(f.Player)
		if !ok {
			continue
		}
		sc, err := s.fair.holds.ScoutingOf(ctx, id, time.Time{})
		if err != nil {
			return nil, err
		}
		if len(sc) > 0 {
			out[f.Player] = sc
		}
	}
	return out, nil
}
