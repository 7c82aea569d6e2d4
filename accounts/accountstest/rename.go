package accountstest

import (
	"context"
	"errors"
	"testing"

	"golfsolitaire/accounts"
)

// testRename: an account takes a new name (its note goes); the old name
// is free again; a taken or look-alike name is refused; an unknown
// account is not found. A note given at creation is kept.
func testRename(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana := create(t, s, "Ana")
	legacy, err := s.Create(ctx, accounts.Account{Name: "GreedyBot", Key: "greedybot", PasswordHash: "x", NameNote: accounts.NoteReserved})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.ByID(ctx, legacy.ID); err != nil || got.NameNote != accounts.NoteReserved {
		t.Errorf("the legacy account's note = %q, %v; want %q", got.NameNote, err, accounts.NoteReserved)
	}
	to := func(name string) accounts.Account {
		display, key, skel, err := accounts.CheckNew(name)
		if err != nil {
			t.Fatal(err)
		}
		return accounts.Account{Name: display, Key: key, Skeleton: skel}
	}
	if _, err := s.Rename(ctx, legacy.ID, to("ANA")); !errors.Is(err, accounts.ErrNameTaken) {
		t.Errorf("Rename to ANA = %v, want ErrNameTaken", err)
	}
	if _, err := s.Rename(ctx, legacy.ID, to("Αna")); !errors.Is(err, accounts.ErrNameConfusable) { // Greek Alpha
		t.Errorf("Rename to a look-alike of Ana = %v, want ErrNameConfusable", err)
	}
	if _, err := s.Rename(ctx, legacy.ID+1000, to("Greta")); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("Rename of an unknown account = %v, want ErrNotFound", err)
	}
	got, err := s.Rename(ctx, legacy.ID, to("Greta"))
	if err != nil || got.Name != "Greta" || got.Key != "greta" || got.NameNote != "" || got.ID != legacy.ID {
		t.Fatalf("Rename to Greta = %+v, %v", got, err)
	}
	if a, err := s.ByKey(ctx, "greta"); err != nil || a.ID != legacy.ID || a.NameNote != "" {
		t.Errorf("ByKey(greta) = %+v, %v", a, err)
	}
	if _, err := s.ByKey(ctx, "greedybot"); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("the old name still finds the account: %v", err)
	}
	// Its own name in another case is no clash; the old one is free.
	if _, err := s.Rename(ctx, ana.ID, to("ANA")); err != nil {
		t.Errorf("Rename(Ana to ANA) = %v", err)
	}
	create(t, s, "GreedyBoat")
}
