package review

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
)

// AccountOf is the account of a fair-play player id, if it is one.
func AccountOf(player string) (accounts.ID, bool) {
	n, ok := strings.CutPrefix(player, "account:")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(n, 10, 64)
	return accounts.ID(id), err == nil && id > 0
}

// ScoutingOf returns the scouted holes among an account's latest plays
// (MaxScoutPlays), against the accounts linked to it since then (the
// zero time: ever), latest first.
func (f *Holds) ScoutingOf(ctx context.Context, id accounts.ID, since time.Time) ([]Scouted, error) {
	links, err := f.accounts.Links(ctx, id, since)
	if err != nil || len(links) == 0 {
		return []Scouted{}, err
	}
	plays, err := f.accounts.AccountPlays(ctx, id, MaxScoutPlays)
	if err != nil || len(plays) == 0 {
		return []Scouted{}, err
	}
	names := map[accounts.ID]string{}
	var ids []accounts.ID
	for _, l := range links {
		if _, ok := names[l.Account]; !ok {
			ids = append(ids, l.Account)
		}
		names[l.Account] = l.Name
	}
	others, err := f.accounts.DealPlays(ctx, dealsOf(plays), ids)
	if err != nil {
		return nil, err
	}
	return Scouting(plays, others, names), nil
}

// scout records an account's play of a finished hole, and flags for
// review each account the play shows with ScoutedHolesToFlag scouted
// holes: the player's own, or a linked account's whose play of the deal
// began after this one finished (analysed first).
func (f *Holds) scout(ctx context.Context, j Hole) error {
	id, ok := AccountOf(j.Report.Player)
	if !ok || j.Begun.IsZero() {
		return nil
	}
	p := accounts.Play{Account: id, Deal: DealKey(j.Variant, j.Seed), Room: j.Report.Room, Hole: j.Report.Hole,
		Counts: j.Counts, Begun: j.Begun, Finished: j.Report.At}
	if err := f.accounts.AddPlay(ctx, p); errors.Is(err, accounts.ErrNotFound) {
		return nil // the account is gone
	} else if err != nil {
		return fmt.Errorf("fair-play: the play of %s: %w", j.Report.Player, err)
	}
	links, err := f.accounts.Links(ctx, id, p.Begun.Add(-ScoutLinkWindow))
	if err != nil || len(links) == 0 {
		return err
	}
	ids := make([]accounts.ID, 0, len(links))
	for _, l := range links {
		ids = append(ids, l.Account)
	}
	others, err := f.accounts.DealPlays(ctx, []string{p.Deal}, ids)
	if err != nil {
		return fmt.Errorf("fair-play: the plays of %s's links: %w", j.Report.Player, err)
	}
	for _, s := range scoutSuspects(p, others) {
		if err := f.raiseScouted(ctx, s, p.Begun.Add(-ScoutLinkWindow)); err != nil {
			return err
		}
	}
	return nil
}

// raiseScouted flags an account with ScoutedHolesToFlag scouted holes
// (against the accounts linked to it since), unless it is flagged or
// reviewed already: like the detector's flag, its rated results are held
// until a moderator decides.
func (f *Holds) raiseScouted(ctx context.Context, id accounts.ID, since time.Time) error {
	player := AccountPlayer(id)
	if st, _, err := f.store.Held(ctx, player); err != nil || st != "" {
		return err
	}
	scouted, err := f.ScoutingOf(ctx, id, since)
	if err != nil {
		return fmt.Errorf("fair-play: the scouting of %s: %w", player, err)
	}
	if len(scouted) < ScoutedHolesToFlag {
		return nil
	}
	acc, err := f.accounts.ByID(ctx, id)
	if errors.Is(err, accounts.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("fair-play: the account of %s: %w", player, err)
	}
	ev, reports, err := f.store.Player(ctx, player)
	if err != nil && !errors.Is(err, fairplay.ErrNotFound) {
		return fmt.Errorf("fair-play: the evidence of %s: %w", player, err)
	}
	flag := fairplay.Flag{Player: player, Name: acc.Name, FlaggedAt: f.now(), Score: ev.Score(),
		Threshold: -math.Log(f.rule.Alpha), Evidence: ev, Holes: reports, Held: true}
	if err := f.store.SetFlag(ctx, flag); err != nil {
		f.failed.Inc()
		return fmt.Errorf("fair-play flag of %s not stored: %w", player, err)
	}
	f.flagged.Inc()
	f.log.Info("fair-play flag: scouted holes; results held for review", "player", player, "scouted", len(scouted))
	return nil
}
