package tournaments

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"time"

	"golfsolitaire/server/internal/codes"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// scheduleEvery is how often the schedule is checked for slots to create
// (besides once at start).
func (ts *Tournaments) scheduleEvery() time.Duration {
	return min(time.Minute, 12*ts.o.ResyncEvery)
}

// startSchedule creates the schedule's tournaments ahead of their start
// (Options.Schedule): once now, so that a fresh server already lists the
// next ones, then every scheduleEvery. Every instance runs it; each slot
// is created once across them because its id is derived from the slot
// (scheduledID) and the store's Create refuses a key that exists.
func (ts *Tournaments) startSchedule() {
	if len(ts.o.Schedule) == 0 {
		return
	}
	ts.o.Go(func(ctx context.Context) {
		done := map[string]time.Time{} // slots this instance knows exist, by key
		tick := time.NewTicker(ts.scheduleEvery())
		defer tick.Stop()
		for {
			ts.createScheduled(ctx, done)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
}

// createScheduled creates the slots due to exist now that this instance
// has not yet seen created.
func (ts *Tournaments) createScheduled(ctx context.Context, done map[string]time.Time) {
	now := ts.o.Now()
	for k, starts := range done {
		if !starts.After(now) {
			delete(done, k)
		}
	}
	for _, slot := range ts.o.Schedule.Upcoming(now) {
		if _, ok := done[slot.Key()]; ok {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		id, created, err := ts.createSlot(cctx, slot)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				ts.o.Outage.Warn(ts.o.Logger, "scheduled tournament not created", err, "slot", slot.Key())
			}
			continue
		}
		if created {
			ts.o.Logger.Info("scheduled tournament created", "tournament", id, "slot", slot.Key(), "starts", slot.Starts)
		}
		done[slot.Key()] = slot.Starts
	}
}

// scheduledID is the tournament id of a slot: "T" and nine characters of
// the code alphabet from a hash of the slot's key, the same on every
// instance.
func scheduledID(slot tourney.Slot) string {
	sum := sha256.Sum256([]byte("golf scheduled tournament " + slot.Key()))
	b := []byte{'T'}
	for _, x := range sum[:9] {
		b = append(b, codes.Alphabet[x&31])
	}
	return string(b)
}

// createSlot stores the slot's tournament under its id unless it exists
// (created by this or another instance: created is false), then loads its
// hub, which lists it and puts its start on the clock.
func (ts *Tournaments) createSlot(ctx context.Context, slot tourney.Slot) (id string, created bool, err error) {
	id = scheduledID(slot)
	set := slot.Settings()
	// Nobody holds the host's token: a scheduled tournament starts and
	// closes by the clock only.
	ev := tourney.Event{Kind: tourney.KindCreate, ID: id, At: ts.o.Now(), Settings: &set, Host: codes.HashToken(codes.NewToken())}
	for range set.Rounds() {
		ev.Seeds = append(ev.Seeds, *codes.NewSeed())
	}
	t, err := tourney.New(ev)
	if err != nil {
		return id, false, err
	}
	snap, err := t.Encode()
	if err != nil {
		return id, false, err
	}
	data, _ := json.Marshal(ev)
	switch err := ts.o.Store.Create(ctx, id, snap, data); {
	case err == nil:
		created = true
		ts.o.Results.PrepareDeals(id, set, ev.Seeds)
		if err := ts.o.Store.Expire(ctx, id, ts.o.TTL); err != nil {
			return id, true, err
		}
	case errors.Is(err, store.ErrExists):
	default:
		return id, false, err
	}
	// Listed by its hub (also when the instance that created it stopped
	// before listing it).
	h, err := ts.acquire(ctx, id)
	if err != nil {
		return id, created, err
	}
	ts.reg.Release(h)
	return id, created, nil
}
