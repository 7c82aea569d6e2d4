package challenges

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// The daily challenge: every UTC day an automatic 9-hole stroke-play
// tournament for accounts, open from 00:00 to 24:00 UTC, on a round seed
// drawn and committed like any tournament's (never the public numbered
// deal of the day), its seed revealed when it closes. The first request
// of the day, on any instance, creates it: a lease in the store lets one
// instance create it, and a record in the store names it for every
// instance.

// daily is GET /api/daily: today's daily challenge,
// {"date","id","link","closes"}.
func (s *challenges) daily(w http.ResponseWriter, r *http.Request) {
	day := s.now().UTC().Truncate(24 * time.Hour)
	d, err := s.dailyOf(r.Context(), day)
	if err != nil {
		s.Answers.Fail(w, err)
		return
	}
	d.Link = s.Tournaments.TournamentLink(r, d.ID)
	api.WriteJSON(w, http.StatusOK, d)
}

func dailyKey(day time.Time) string { return "daily:" + day.Format("2006-01-02") }

func (s *challenges) loadDaily(ctx context.Context, day time.Time) (protocol.Daily, error) {
	return LoadDaily(ctx, s.Store, day)
}

// LoadDaily reads the record of the day's daily challenge (a UTC day, as
// time.Truncate(24*time.Hour) gives): store.ErrNotFound when nobody has
// made it yet.
func LoadDaily(ctx context.Context, st interface {
	Load(ctx context.Context, room string) (store.Snapshot, error)
}, day time.Time) (protocol.Daily, error) {
	var d protocol.Daily
	snap, err := st.Load(ctx, dailyKey(day))
	if err != nil {
		return d, err
	}
	err = json.Unmarshal(snap.Data, &d)
	return d, err
}

// dailyOf returns the day's challenge, creating it when nobody has.
func (s *challenges) dailyOf(ctx context.Context, day time.Time) (protocol.Daily, error) {
	d, err := s.loadDaily(ctx, day)
	if !errors.Is(err, store.ErrNotFound) {
		return d, err
	}
	key := dailyKey(day)
	ok, err := s.Store.TakeLease(ctx, key+":create", s.Owner, 30*time.Second)
	if err != nil {
		return d, err
	}
	if !ok {
		// Another instance is creating it.
		for range 50 {
			select {
			case <-ctx.Done():
				return d, ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
			if d, err = s.loadDaily(ctx, day); !errors.Is(err, store.ErrNotFound) {
				return d, err
			}
		}
		return d, fmt.Errorf("%w: the daily challenge is being created; try again", store.ErrUnavailable)
	}
	defer s.Store.ReleaseLease(context.WithoutCancel(ctx), key+":create", s.Owner)
	if d, err = s.loadDaily(ctx, day); !errors.Is(err, store.ErrNotFound) {
		return d, err
	}
	set := tourney.DefaultSettings()
	set.Name = "Daily challenge " + day.Format("2006-01-02")
	set.Holes, set.Format, set.Accounts, set.LateEntry = 9, tourney.Stroke, true, true
	set.Starts, set.Closes = day, day.Add(24*time.Hour)
	grant, err := s.Tournaments.NewTournament(ctx, set)
	if err != nil {
		return d, err
	}
	d = protocol.Daily{Date: day.Format("2006-01-02"), ID: grant.ID, Closes: set.Closes}
	data, _ := json.Marshal(d)
	if err := s.Store.Create(ctx, key, data, data); err != nil {
		return d, err
	}
	if err := s.Store.Expire(ctx, key, 48*time.Hour); err != nil {
		return d, err
	}
	s.Logger.Info("daily challenge created", "date", d.Date, "tournament", d.ID)
	return d, nil
}
