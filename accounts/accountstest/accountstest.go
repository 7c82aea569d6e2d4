// Package accountstest is the contract suite every accounts.Store passes:
// run it with a function that returns a fresh, empty store per test.
package accountstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/ratings"
)

// Run runs the suite; open returns a new empty store for one test (and
// registers its own cleanup).
func Run(t *testing.T, open func(t *testing.T) accounts.Store) {
	tests := []struct {
		name string
		run  func(t *testing.T, s accounts.Store)
	}{
		{"CreateAndFind", testCreateAndFind},
		{"NameTakenCaseInsensitively", testNameTaken},
		{"LookAlikeNameRefused", testLookAlike},
		{"LinksBySharedAddressOrDevice", testLinks},
		{"CasualRounds", testCasualRounds},
		{"Plays", testPlays},
		{"Rename", testRename},
		{"ConcurrentSignupsOneWins", testConcurrentCreate},
		{"RecordGame", testRecordGame},
		{"RecordGameRefusals", testRecordGameRefusals},
		{"ConcurrentGamesLoseNoUpdate", testConcurrentGames},
		{"RecentGames", testRecentGames},
		{"Delete", testDelete},
		{"Leaderboard", testLeaderboard},
		{"Passkeys", testPasskeys},
		{"Stats", testStats},
		{"PasskeysGoWithTheAccount", testPasskeysDeleted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t, open(t))
		})
	}
}

func create(t *testing.T, s accounts.Store, name string) accounts.Account {
	t.Helper()
	_, key, err := accounts.ParseName(name)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Create(context.Background(), accounts.Account{Name: name, Key: key, Skeleton: accounts.Skeleton(name), PasswordHash: "$argon2id$v=19$m=64,t=1,p=1$AAAA$AAAA"})
	if err != nil {
		t.Fatalf("Create(%q): %v", name, err)
	}
	return a
}

func testCreateAndFind(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	a := create(t, s, "Ana")
	if a.ID == 0 || a.Created.IsZero() || a.Name != "Ana" || a.Key != "ana" {
		t.Fatalf("Create = %+v", a)
	}
	for _, get := range []func() (accounts.Account, error){
		func() (accounts.Account, error) { return s.ByKey(ctx, "ana") },
		func() (accounts.Account, error) { return s.ByID(ctx, a.ID) },
	} {
		got, err := get()
		if err != nil || got.ID != a.ID || got.Name != a.Name || got.PasswordHash != a.PasswordHash || !got.Created.Equal(a.Created) {
			t.Errorf("got %+v, %v; want %+v", got, err, a)
		}
	}
	if _, err := s.ByKey(ctx, "bob"); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("ByKey(bob) err = %v, want ErrNotFound", err)
	}
	if _, err := s.ByID(ctx, a.ID+1000); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("ByID(unknown) err = %v, want ErrNotFound", err)
	}
	if rs, err := s.Ratings(ctx, a.ID); err != nil || len(rs) != 0 {
		t.Errorf("Ratings of a new account = %v, %v; want none", rs, err)
	}
}

func testNameTaken(t *testing.T, s accounts.Store) {
	create(t, s, "Ana")
	_, err := s.Create(context.Background(), accounts.Account{Name: "ANA", Key: "ana", PasswordHash: "x"})
	if !errors.Is(err, accounts.ErrNameTaken) {
		t.Errorf("Create(ANA) err = %v, want ErrNameTaken", err)
	}
}

// testLookAlike: a name whose confusable skeleton is an existing
// account's is refused (ErrNameConfusable), however its key differs;
// accounts without a skeleton (created before skeletons were kept) never
// clash.
func testLookAlike(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	create(t, s, "victim1")
	for _, name := range []string{"v\u0456ctim1", "VICTIM1", "victiml"} {
		_, key, err := accounts.ParseName(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Create(ctx, accounts.Account{Name: name, Key: key, Skeleton: accounts.Skeleton(name), PasswordHash: "x"})
		if key == "victim1" {
			if !errors.Is(err, accounts.ErrNameTaken) {
				t.Errorf("Create(%q) err = %v, want ErrNameTaken", name, err)
			}
			continue
		}
		if !errors.Is(err, accounts.ErrNameConfusable) {
			t.Errorf("Create(%q) err = %v, want ErrNameConfusable", name, err)
		}
		if _, err := s.ByKey(ctx, key); !errors.Is(err, accounts.ErrNotFound) {
			t.Errorf("refused %q was created: %v", name, err)
		}
	}
	for _, name := range []string{"legacy1", "legacy2"} {
		if _, err := s.Create(ctx, accounts.Account{Name: name, Key: name, PasswordHash: "x"}); err != nil {
			t.Errorf("Create(%q) without a skeleton: %v", name, err)
		}
	}
}

// testLinks: accounts seen with the same address or device are linked,
// both ways, by kind, with the later of the two sightings' first common
// time; old sightings (before since) link nothing; a deleted account's
// sightings go with it.
func testLinks(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bo, cy := create(t, s, "Ana"), create(t, s, "Bo"), create(t, s, "Cy")
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	seen := func(a accounts.Account, kind, value string, at time.Time) {
		t.Helper()
		if err := s.Seen(ctx, a.ID, kind, value, at); err != nil {
			t.Fatalf("Seen(%s, %s): %v", a.Name, kind, err)
		}
	}
	seen(ana, accounts.SeenAddress, "a1", t0)
	seen(ana, accounts.SeenAddress, "a1", t0.Add(time.Hour)) // again: the latest counts
	seen(bo, accounts.SeenAddress, "a1", t0.Add(30*time.Minute))
	seen(ana, accounts.SeenDevice, "d1", t0)
	seen(cy, accounts.SeenDevice, "d1", t0.Add(-48*time.Hour)) // long ago
	seen(cy, accounts.SeenAddress, "a2", t0)
	links, err := s.Links(ctx, ana.ID, t0.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 || links[0].Account != bo.ID || links[0].Name != "Bo" || links[0].Kind != accounts.SeenAddress || !links[0].At.Equal(t0.Add(30*time.Minute)) {
		t.Errorf("Ana's recent links = %+v, want Bo by address at %v", links, t0.Add(30*time.Minute))
	}
	links, err = s.Links(ctx, ana.ID, time.Time{})
	if err != nil || len(links) != 2 || links[1].Account != cy.ID || links[1].Kind != accounts.SeenDevice {
		t.Errorf("Ana's links ever = %+v, %v; want Bo by address and Cy by device", links, err)
	}
	if links, err := s.Links(ctx, bo.ID, t0.Add(-time.Hour)); err != nil || len(links) != 1 || links[0].Account != ana.ID {
		t.Errorf("Bo's links = %+v, %v; want Ana", links, err)
	}
	if err := s.Seen(ctx, ana.ID+1000, accounts.SeenAddress, "a1", t0); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("Seen(unknown account) = %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, bo.ID); err != nil {
		t.Fatal(err)
	}
	if links, err := s.Links(ctx, ana.ID, t0.Add(-time.Hour)); err != nil || len(links) != 0 {
		t.Errorf("Ana's links after Bo was deleted = %+v, %v; want none", links, err)
	}
}

// testCasualRounds: finished casual rounds are counted per account
// (unknown accounts are skipped), for the rated probation.
func testCasualRounds(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bo := create(t, s, "Ana"), create(t, s, "Bo")
	for range 2 {
		if err := s.AddCasualRound(ctx, []accounts.ID{ana.ID, bo.ID, bo.ID + 1000}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddCasualRound(ctx, []accounts.ID{ana.ID}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		a    accounts.Account
		want int
	}{{ana, 3}, {bo, 2}} {
		got, err := s.ByID(ctx, tt.a.ID)
		if err != nil || got.CasualRounds != tt.want {
			t.Errorf("%s: %d casual rounds, %v; want %d", tt.a.Name, got.CasualRounds, err, tt.want)
		}
		if got, err := s.ByKey(ctx, tt.a.Key); err != nil || got.CasualRounds != tt.want {
			t.Errorf("%s by key: %d casual rounds, %v; want %d", tt.a.Name, got.CasualRounds, err, tt.want)
		}
	}
}

func testConcurrentCreate(t *testing.T, s accounts.Store) {
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = s.Create(context.Background(), accounts.Account{Name: "Same", Key: "same", PasswordHash: "x"})
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, accounts.ErrNameTaken):
			t.Errorf("err = %v, want nil or ErrNameTaken", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d concurrent sign-ups with one name succeeded, want 1", ok, n)
	}
}

func game(id string, family ratings.Family, players ...accounts.Account) accounts.Game {
	g := accounts.Game{
		ID: id, Family: family, Format: "match",
		Settings:   json.RawMessage(`{"holes":9,"format":"match"}`),
		Commitment: "c0ffee", Seed: "5eed",
		Holes:     json.RawMessage(`[{"hole":1,"scores":[3,5]}]`),
		Standings: json.RawMessage(`{"leader":0}`),
		Finished:  time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC),
	}
	for i, p := range players {
		g.Players = append(g.Players, accounts.GamePlayer{Account: p.ID, Name: p.Name, Place: i + 1})
	}
	return g
}

// rate is the production update: the players' places from the game.
func rate(g accounts.Game) accounts.RateFunc {
	return func(before []ratings.Rating) ([]ratings.Rating, error) {
		places := make([]int, len(g.Players))
		for i, p := range g.Players {
			places[i] = p.Place
		}
		return ratings.Config{}.Round(before, places)
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

func testRecordGame(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bob := create(t, s, "Ana"), create(t, s, "Bob")
	g := game("ROOM1", "golf", ana, bob)
	got, err := s.RecordGame(ctx, g, rate(g))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ratings.Config{}.Round([]ratings.Rating{ratings.New(), ratings.New()}, []int{1, 2})
	if got.Players[0].Before != ratings.New() || got.Players[0].After != want[0] || got.Players[1].After != want[1] {
		t.Errorf("RecordGame players = %+v, want before 1500/350 and after %v", got.Players, want)
	}
	for i, a := range []accounts.Account{ana, bob} {
		rs, err := s.Ratings(ctx, a.ID)
		if err != nil || len(rs) != 1 || rs[0].Family != "golf" || rs[0].Rating != want[i] || rs[0].Games != 1 {
			t.Errorf("Ratings(%s) = %+v, %v; want golf %v after 1 game", a.Name, rs, err, want[i])
		}
		h, err := s.History(ctx, a.ID, "golf")
		if err != nil || len(h) != 1 || h[0].Rating != want[i] || h[0].GameID != "ROOM1" || !h[0].At.Equal(g.Finished) {
			t.Errorf("History(%s) = %+v, %v", a.Name, h, err)
		}
		if h, _ := s.History(ctx, a.ID, "tripeaks"); len(h) != 0 {
			t.Errorf("History(%s, tripeaks) = %+v, want none", a.Name, h)
		}
	}
	// A second family is rated apart.
	g2 := game("ROOM2", "tripeaks", bob, ana)
	if _, err := s.RecordGame(ctx, g2, rate(g2)); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.Ratings(ctx, ana.ID); len(rs) != 2 || rs[0].Family != "golf" || rs[1].Family != "tripeaks" || rs[1].Rating != want[1] {
		t.Errorf("Ratings(Ana) = %+v, want golf and tripeaks (%v)", rs, want[1])
	}
	arch, err := s.Game(ctx, "ROOM1")
	if err != nil {
		t.Fatal(err)
	}
	if arch.Family != "golf" || arch.Format != "match" || arch.Commitment != "c0ffee" || arch.Seed != "5eed" || !arch.Finished.Equal(g.Finished) ||
		!jsonEqual(arch.Settings, g.Settings) || !jsonEqual(arch.Holes, g.Holes) || !jsonEqual(arch.Standings, g.Standings) ||
		len(arch.Players) != 2 || arch.Players[0].Name != "Ana" || arch.Players[0].Account != ana.ID || arch.Players[0].Place != 1 ||
		arch.Players[1].Before != ratings.New() || arch.Players[1].After != want[1] {
		t.Errorf("Game(ROOM1) = %+v", arch)
	}
	if _, err := s.Game(ctx, "NOPE"); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("Game(NOPE) err = %v, want ErrNotFound", err)
	}
}

func testRecordGameRefusals(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bob := create(t, s, "Ana"), create(t, s, "Bob")
	g := game("ROOM1", "golf", ana, bob)
	if _, err := s.RecordGame(ctx, g, rate(g)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordGame(ctx, g, rate(g)); !errors.Is(err, accounts.ErrDuplicate) {
		t.Errorf("the same game twice: err = %v, want ErrDuplicate", err)
	}
	ghost := accounts.Account{ID: bob.ID + 1000, Name: "Ghost"}
	g2 := game("ROOM2", "golf", ana, ghost)
	if _, err := s.RecordGame(ctx, g2, rate(g2)); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("a game with no such account: err = %v, want ErrNotFound", err)
	}
	boom := errors.New("boom")
	g3 := game("ROOM3", "golf", ana, bob)
	if _, err := s.RecordGame(ctx, g3, func([]ratings.Rating) ([]ratings.Rating, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("rate failing: err = %v, want it returned", err)
	}
	// Nothing of the refused games was kept.
	for _, id := range []string{"ROOM2", "ROOM3"} {
		if _, err := s.Game(ctx, id); !errors.Is(err, accounts.ErrNotFound) {
			t.Errorf("Game(%s) err = %v, want ErrNotFound", id, err)
		}
	}
	if rs, _ := s.Ratings(ctx, ana.ID); len(rs) != 1 || rs[0].Games != 1 {
		t.Errorf("Ratings(Ana) = %+v, want one game", rs)
	}
	if h, _ := s.History(ctx, ana.ID, "golf"); len(h) != 1 {
		t.Errorf("History(Ana) has %d entries, want 1", len(h))
	}
}

// testConcurrentGames records games between the same two players at once:
// each game's "before" must be another game's "after" (no lost update).
func testConcurrentGames(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bob := create(t, s, "Ana"), create(t, s, "Bob")
	const n = 6
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			g := game(fmt.Sprintf("R%d", i), "golf", ana, bob)
			if i%2 == 1 {
				g = game(fmt.Sprintf("R%d", i), "golf", bob, ana)
			}
			if _, err := s.RecordGame(ctx, g, rate(g)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	h, err := s.History(ctx, ana.ID, "golf")
	if err != nil || len(h) != n {
		t.Fatalf("History = %d entries, %v; want %d", len(h), err, n)
	}
	prev := ratings.New()
	for _, e := range h {
		g, err := s.Game(ctx, e.GameID)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		if g.Players[1].Account == ana.ID {
			i = 1
		}
		if g.Players[i].Before != prev {
			t.Fatalf("game %s started Ana from %v, but her previous rating was %v (a lost update)", g.ID, g.Players[i].Before, prev)
		}
		prev = g.Players[i].After
	}
	if rs, _ := s.Ratings(ctx, ana.ID); len(rs) != 1 || rs[0].Games != n || rs[0].Rating != prev {
		t.Errorf("Ratings(Ana) = %+v, want %d games and %v", rs, n, prev)
	}
}

func testRecentGames(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bob, cy := create(t, s, "Ana"), create(t, s, "Bob"), create(t, s, "Cy")
	for i, p := range [][]accounts.Account{{ana, bob}, {bob, cy}, {cy, ana}, {ana, cy}} {
		g := game(fmt.Sprintf("G%d", i), "golf", p...)
		g.Finished = g.Finished.Add(time.Duration(i) * time.Minute)
		if _, err := s.RecordGame(ctx, g, rate(g)); err != nil {
			t.Fatal(err)
		}
	}
	gs, err := s.Games(ctx, ana.ID, 2)
	if err != nil || len(gs) != 2 || gs[0].ID != "G3" || gs[1].ID != "G2" {
		t.Errorf("Games(Ana, 2) = %v, %v; want G3, G2", ids(gs), err)
	}
	if gs, _ := s.Games(ctx, ana.ID, 10); len(gs) != 3 {
		t.Errorf("Games(Ana, 10) = %v, want G3 G2 G0", ids(gs))
	}
}

func ids(gs []accounts.Game) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func testDelete(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bob := create(t, s, "Ana"), create(t, s, "Bob")
	g := game("ROOM1", "golf", ana, bob)
	if _, err := s.RecordGame(ctx, g, rate(g)); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, ana.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, ana.ID); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("second Delete err = %v, want ErrNotFound", err)
	}
	if _, err := s.ByKey(ctx, "ana"); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("ByKey after Delete err = %v", err)
	}
	if rs, _ := s.Ratings(ctx, ana.ID); len(rs) != 0 {
		t.Errorf("Ratings after Delete = %+v", rs)
	}
	if h, _ := s.History(ctx, ana.ID, "golf"); len(h) != 0 {
		t.Errorf("History after Delete = %+v", h)
	}
	arch, err := s.Game(ctx, "ROOM1")
	if err != nil || arch.Players[0].Name != "Ana" || arch.Players[0].Account != 0 || arch.Players[1].Account != bob.ID {
		t.Errorf("archive after Delete = %+v, %v; want Ana kept by name with no account", arch.Players, err)
	}
	// The name is free again.
	create(t, s, "ana")
}

func testLeaderboard(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	if l, err := s.Leaderboard(ctx, "golf", 10); err != nil || len(l) != 0 {
		t.Errorf("empty Leaderboard = %v, %v", l, err)
	}
	ana, bob, cy := create(t, s, "Ana"), create(t, s, "Bob"), create(t, s, "Cy")
	for i, p := range [][]accounts.Account{{ana, bob}, {ana, cy}} {
		g := game(fmt.Sprintf("G%d", i), "golf", p...)
		if _, err := s.RecordGame(ctx, g, rate(g)); err != nil {
			t.Fatal(err)
		}
	}
	g := game("T0", "tripeaks", cy, ana)
	if _, err := s.RecordGame(ctx, g, rate(g)); err != nil {
		t.Fatal(err)
	}
	l, err := s.Leaderboard(ctx, "golf", 10)
	if err != nil || len(l) != 3 || l[0].Name != "Ana" || l[0].Games != 2 || l[0].Family != "golf" {
		t.Fatalf("Leaderboard(golf) = %+v, %v; want Ana first with 2 games", l, err)
	}
	// Cy lost to a stronger-rated Ana than Bob did, so lost fewer points.
	if l[1].Name != "Cy" || l[2].Name != "Bob" || l[1].Rating.Rating <= l[2].Rating.Rating {
		t.Errorf("Leaderboard(golf) = %+v", l)
	}
	if l, _ := s.Leaderboard(ctx, "golf", 1); len(l) != 1 || l[0].Name != "Ana" {
		t.Errorf("Leaderboard(golf, 1) = %+v", l)
	}
	if l, _ := s.Leaderboard(ctx, "tripeaks", 10); len(l) != 2 || l[0].Name != "Cy" {
		t.Errorf("Leaderboard(tripeaks) = %+v", l)
	}
}

func testPasskeys(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bob := create(t, s, "Ana"), create(t, s, "Bob")
	if ps, err := s.Passkeys(ctx, ana.ID); err != nil || len(ps) != 0 {
		t.Fatalf("Passkeys of a new account = %v, %v; want none", ps, err)
	}
	cred := json.RawMessage(`{"id":"AQID","publicKey":"pk","authenticator":{"signCount":0}}`)
	p, err := s.AddPasskey(ctx, accounts.Passkey{ID: []byte{1, 2, 3}, Account: ana.ID, Credential: cred})
	if err != nil || p.Created.IsZero() || !p.LastUsed.IsZero() || string(p.ID) != "\x01\x02\x03" || p.Account != ana.ID {
		t.Fatalf("AddPasskey = %+v, %v", p, err)
	}
	if _, err := s.AddPasskey(ctx, accounts.Passkey{ID: []byte{1, 2, 3}, Account: bob.ID, Credential: cred}); !errors.Is(err, accounts.ErrPasskeyTaken) {
		t.Errorf("the same credential for another account: err = %v, want ErrPasskeyTaken", err)
	}
	if _, err := s.AddPasskey(ctx, accounts.Passkey{ID: []byte{9}, Account: bob.ID + 1000, Credential: cred}); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("a passkey for no account: err = %v, want ErrNotFound", err)
	}
	if _, err := s.AddPasskey(ctx, accounts.Passkey{ID: []byte{4}, Account: ana.ID, Credential: json.RawMessage(`{"id":"BA"}`)}); err != nil {
		t.Fatal(err)
	}
	ps, err := s.Passkeys(ctx, ana.ID)
	if err != nil || len(ps) != 2 || string(ps[0].ID) != "\x01\x02\x03" || string(ps[1].ID) != "\x04" || string(ps[0].Credential) != string(cred) {
		t.Fatalf("Passkeys(ana) = %+v, %v; want [1 2 3] then [4] with their credentials", ps, err)
	}
	if ps, err := s.Passkeys(ctx, bob.ID); err != nil || len(ps) != 0 {
		t.Errorf("Passkeys(bob) = %v, %v; want none", ps, err)
	}
	got, err := s.PasskeyByID(ctx, []byte{1, 2, 3})
	if err != nil || got.Account != ana.ID || string(got.Credential) != string(cred) || !got.Created.Equal(p.Created) {
		t.Errorf("PasskeyByID = %+v, %v; want %+v", got, err, p)
	}
	if _, err := s.PasskeyByID(ctx, []byte{7}); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("PasskeyByID(unknown) err = %v, want ErrNotFound", err)
	}
	used := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	moved := `{"id":"AQID","publicKey":"pk","authenticator":{"signCount":7}}`
	if err := s.UsePasskey(ctx, []byte{1, 2, 3}, []byte(moved), used); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PasskeyByID(ctx, []byte{1, 2, 3}); err != nil || string(got.Credential) != moved || !got.LastUsed.Equal(used) {
		t.Errorf("after UsePasskey: %s used %v, %v; want %s used %v", got.Credential, got.LastUsed, err, moved, used)
	}
	if err := s.UsePasskey(ctx, []byte{7}, []byte(moved), used); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("UsePasskey(unknown) err = %v, want ErrNotFound", err)
	}
	if err := s.DeletePasskey(ctx, bob.ID, []byte{4}); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("bob deleting ana's passkey: err = %v, want ErrNotFound", err)
	}
	if err := s.DeletePasskey(ctx, ana.ID, []byte{4}); err != nil {
		t.Fatal(err)
	}
	if ps, err := s.Passkeys(ctx, ana.ID); err != nil || len(ps) != 1 {
		t.Errorf("after DeletePasskey: %d passkeys, %v; want 1", len(ps), err)
	}
	if _, err := s.PasskeyByID(ctx, []byte{4}); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("deleted passkey still found: %v", err)
	}
}

func testPasskeysDeleted(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana := create(t, s, "Ana")
	if _, err := s.AddPasskey(ctx, accounts.Passkey{ID: []byte("k"), Account: ana.ID, Credential: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, ana.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PasskeyByID(ctx, []byte("k")); !errors.Is(err, accounts.ErrNotFound) {
		t.Errorf("a deleted account's passkey: err = %v, want ErrNotFound", err)
	}
	again := create(t, s, "Ana")
	if _, err := s.AddPasskey(ctx, accounts.Passkey{ID: []byte("k"), Account: again.ID, Credential: json.RawMessage(`{}`)}); err != nil {
		t.Errorf("registering the freed credential again: %v", err)
	}
}

func testStats(t *testing.T, s accounts.Store) {
	ctx := context.Background()
	ana, bob, cy := create(t, s, "Ana"), create(t, s, "Bob"), create(t, s, "Cy")
	if st, err := s.Stats(ctx, ana.ID); err != nil || len(st) != 0 {
		t.Fatalf("Stats of a new account = %+v, %v; want none", st, err)
	}
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	record := func(id string, family ratings.Family, players []accounts.GamePlayer) {
		t.Helper()
		g := game(id, family)
		g.Players = players
		g.Finished = at
		at = at.Add(time.Minute)
		if _, err := s.RecordGame(ctx, g, rate(g)); err != nil {
			t.Fatal(err)
		}
	}
	p := func(a accounts.Account, place, total, toPar, holes, clears int) accounts.GamePlayer {
		return accounts.GamePlayer{Account: a.ID, Name: a.Name, Place: place, Total: total, ToPar: toPar, Holes: holes, Clears: clears}
	}
	// Ana: wins G1 (alone first), ties first in G2 (not a win), second in
	// G3; G4 is tripeaks.
	record("G1", "golf", []accounts.GamePlayer{p(ana, 1, 30, -6, 9, 4), p(bob, 2, 40, 4, 9, 1)})
	record("G2", "golf", []accounts.GamePlayer{p(bob, 1, 36, 0, 9, 2), p(ana, 1, 36, 0, 9, 3), p(cy, 3, 50, 14, 9, 0)})
	record("G3", "golf", []accounts.GamePlayer{p(cy, 1, 20, -16, 9, 7), p(ana, 2, 30, -6, 9, 5)})
	record("G4", "tripeaks", []accounts.GamePlayer{p(ana, 1, 10, 1, 3, 0), p(cy, 2, 12, 3, 3, 0)})
	got, err := s.Stats(ctx, ana.ID)
	want := []accounts.FamilyStats{
		{Family: "golf", Games: 3, Won: 1, Holes: 27, Clears: 12, SumToPar: -12, BestToPar: -6, BestGame: "G1"},
		{Family: "tripeaks", Games: 1, Won: 1, Holes: 3, Clears: 0, SumToPar: 1, BestToPar: 1, BestGame: "G4"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Stats(Ana) = %+v, %v\nwant %+v", got, err, want)
	}
	got, _ = s.Stats(ctx, cy.ID)
	if len(got) != 2 || got[0].Games != 2 || got[0].Won != 1 || got[0].BestGame != "G3" || got[0].BestToPar != -16 {
		t.Errorf("Stats(Cy) = %+v", got)
	}
	arch, err := s.Game(ctx, "G1")
	if err != nil || arch.Players[0].Total != 30 || arch.Players[0].ToPar != -6 || arch.Players[0].Holes != 9 || arch.Players[0].Clears != 4 {
		t.Errorf("Game(G1) players = %+v, %v; want the round kept", arch.Players, err)
	}
}
