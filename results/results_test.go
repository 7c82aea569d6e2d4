package results_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/jobs"
	"golfsolitaire/ratings"
	"golfsolitaire/results"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// signUp creates accounts named names and returns their ids.
func signUp(t *testing.T, st accounts.Store, names ...string) []accounts.ID {
	t.Helper()
	var ids []accounts.ID
	for _, n := range names {
		key, err := accounts.Key(n)
		if err != nil {
			t.Fatal(err)
		}
		a, err := st.Create(context.Background(), accounts.Account{Name: n, Key: key, PasswordHash: "x"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	return ids
}

// round is a finished two-player round of game id, Ana first.
func round(id string, at time.Time, accts ...accounts.ID) results.Round {
	g := accounts.Game{ID: id, Family: "golf", Format: "match", Finished: at, Players: []accounts.GamePlayer{{Name: "Ana", Place: 1}, {Name: "Bo", Place: 2}}}
	for i := range accts {
		g.Players[i].Account = accts[i]
	}
	return results.Round{Game: g, Places: []int{1, 2}, Room: "ROOM"}
}

func work(t *testing.T, r *results.Recorder, rd results.Round) error {
	t.Helper()
	j, err := results.RoundJob(rd)
	if err != nil {
		t.Fatal(err)
	}
	// Through the job's JSON, as a worker gets it.
	return r.Work(context.Background(), jobs.Job{Kind: j.Kind, Key: j.Key, Args: j.Args, Attempt: 1})
}

// TestRecordOnce: a round's job run twice (a worker that stopped before
// marking it done) moves the ratings once; seats without an account id
// are found by name; the held-marks check runs after each.
func TestRecordOnce(t *testing.T) {
	t.Parallel()
	st := inmem.New()
	ids := signUp(t, st, "Ana", "Bo")
	marks := 0
	r := results.NewRecorder(results.RecorderOptions{Accounts: st, Logger: quietLog(), Marks: func(ctx context.Context, room, tournament string) {
		if room == "ROOM" {
			marks++
		}
	}})
	rd := round("ROOM-1", time.Now(), ids[0]) // Bo by name
	for range 2 {
		if err := work(t, r, rd); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := ratings.Config{}.Round([]ratings.Rating{ratings.New(), ratings.New()}, []int{1, 2})
	for i, id := range ids {
		rs, err := st.Ratings(context.Background(), id)
		if err != nil || len(rs) != 1 || rs[0].Games != 1 || rs[0].Rating.Rating != want[i].Rating {
			t.Errorf("player %d ratings = %+v %v, want one game at %v", i, rs, err, want[i])
		}
	}
	if marks != 2 {
		t.Errorf("marks checked %d times, want 2", marks)
	}
}

// failingAccounts fails every call: the database is down.
type failingAccounts struct{ accounts.Store }

var errDown = errors.New("the database is down")

func (failingAccounts) ByKey(context.Context, string) (accounts.Account, error) {
	return accounts.Account{}, errDown
}
func (failingAccounts) RecordGame(context.Context, accounts.Game, accounts.RateFunc) (accounts.Game, error) {
	return accounts.Game{}, errDown
}

// TestRecordRetriesOutage: with the database down the job fails (and is
// retried by the queue); a player without an account drops the round
// (it can never be recorded) without failing.
func TestRecordRetriesOutage(t *testing.T) {
	t.Parallel()
	down := results.NewRecorder(results.RecorderOptions{Accounts: failingAccounts{inmem.New()}, Logger: quietLog()})
	if err := work(t, down, round("ROOM-1", time.Now(), 1, 2)); !errors.Is(err, errDown) {
		t.Errorf("Work with the database down = %v, want its error (retried)", err)
	}
	if err := work(t, down, round("ROOM-2", time.Now())); !errors.Is(err, errDown) {
		t.Errorf("Work finding accounts with the database down = %v, want its error (retried)", err)
	}
	st := inmem.New()
	signUp(t, st, "Ana")
	r := results.NewRecorder(results.RecorderOptions{Accounts: st, Logger: quietLog()})
	if err := work(t, r, round("ROOM-3", time.Now())); err != nil {
		t.Errorf("Work with a player who has no account = %v, want nil (dropped)", err)
	}
	if err := r.Work(context.Background(), jobs.Job{Kind: jobs.KindResult, Key: "result:x", Args: []byte(`[1]`)}); err != nil {
		t.Errorf("Work on unreadable args = %v, want nil (dropped)", err)
	}
}

// TestRoundJob: unique by game id, ordered by the round's end among the
// rounds of each of its players.
func TestRoundJob(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	j, err := results.RoundJob(round("ABCD-2", at, 7))
	if err != nil {
		t.Fatal(err)
	}
	if j.Kind != jobs.KindResult || j.Key != "result:ABCD-2" || !j.At.Equal(at) {
		t.Errorf("job %s %s %v", j.Kind, j.Key, j.At)
	}
	want := map[string]bool{"account:7": true, "name:ana": true, "name:bo": true}
	if len(j.Subjects) != len(want) {
		t.Errorf("subjects %v, want %v", j.Subjects, want)
	}
	for _, s := range j.Subjects {
		if !want[s] {
			t.Errorf("subjects %v, want %v", j.Subjects, want)
		}
	}
}
