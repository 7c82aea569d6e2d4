package accountstest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"golfsolitaire/accounts"
)

// testPlays: each account keeps one play per deal, the earliest begun;
// plays are listed latest first per account and by deal then finish
// across accounts; they go with the account.
func testPlays(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bo, cy := create(t, s, "Ana"), create(t, s, "Bo"), create(t, s, "Cy")
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	play := func(a accounts.Account, deal string, begun, finished time.Duration, counts bool) accounts.Play {
		return accounts.Play{Account: a.ID, Deal: deal, Room: "R" + a.Name, Hole: len(deal), Counts: counts, Begun: t0.Add(begun), Finished: t0.Add(finished)}
	}
	add := func(p accounts.Play) {
		t.Helper()
		if err := s.AddPlay(ctx, p); err != nil {
			t.Fatalf("AddPlay(%+v): %v", p, err)
		}
	}
	anaD1, anaD2 := play(ana, "d1", 0, 5*time.Minute, true), play(ana, "d22", 10*time.Minute, 15*time.Minute, false)
	boD1 := play(bo, "d1", 20*time.Minute, 22*time.Minute, true)
	add(anaD1)
	add(anaD2)
	add(boD1)
	add(play(ana, "d1", time.Hour, 2*time.Hour, false)) // later: the first is kept
	add(play(cy, "d1", 30*time.Minute, 31*time.Minute, true))
	earlier := play(cy, "d1", -time.Hour, -50*time.Minute, false) // earlier: replaces
	add(earlier)

	got, err := s.AccountPlays(ctx, ana.ID, 10)
	if err != nil || !reflect.DeepEqual(got, []accounts.Play{anaD2, anaD1}) {
		t.Errorf("AccountPlays(Ana) = %+v, %v; want %+v", got, err, []accounts.Play{anaD2, anaD1})
	}
	if got, err := s.AccountPlays(ctx, ana.ID, 1); err != nil || !reflect.DeepEqual(got, []accounts.Play{anaD2}) {
		t.Errorf("AccountPlays(Ana, 1) = %+v, %v; want the latest", got, err)
	}
	if got, err := s.AccountPlays(ctx, cy.ID+1000, 10); err != nil || got == nil || len(got) != 0 {
		t.Errorf("AccountPlays(unknown) = %#v, %v; want an empty list", got, err)
	}
	got, err = s.DealPlays(ctx, []string{"d1", "d22", "none"}, []accounts.ID{bo.ID, cy.ID, ana.ID})
	want := []accounts.Play{earlier, anaD1, boD1, anaD2}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("DealPlays = %+v, %v;\nwant %+v", got, err, want)
	}
	if got, err := s.DealPlays(ctx, []string{"d1"}, []accounts.ID{bo.ID}); err != nil || !reflect.DeepEqual(got, []accounts.Play{boD1}) {
		t.Errorf("DealPlays(d1, Bo) = %+v, %v", got, err)
	}
	if got, err := s.DealPlays(ctx, nil, []accounts.ID{bo.ID}); err != nil || got == nil || len(got) != 0 {
		t.Errorf("DealPlays(no deals) = %#v, %v; want an empty list", got, err)
	}
	if err := s.AddPlay(ctx, play(accounts.Account{ID: cy.ID + 1000}, "d1", 0, time.Minute, true)); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("AddPlay(unknown account) = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, bo.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.DealPlays(ctx, []string{"d1"}, []accounts.ID{bo.ID}); err != nil || len(got) != 0 {
		t.Errorf("DealPlays(deleted Bo) = %+v, %v; want none", got, err)
	}
}
