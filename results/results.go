package results

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/jobs"
	"golfsolitaire/ratings"
)

// Round is a finished rated round (or rated tournament) to record, as its
// job carries it: the archive, each player's account and the places.
type Round struct {
	Game accounts.Game `json:"game"`
	// Accounts are the players' accounts in Game.Players order (0: found
	// by the player's name, which a rated seat's is its account's).
	Accounts []accounts.ID `json:"accounts"`
	Places   []int         `json:"places"`
	// Room or Tournament is where the round was played: their held marks
	// are checked once it is recorded.
	Room       string `json:"room,omitempty"`
	Tournament string `json:"tournament,omitempty"`
}

// RoundJob is the job of a finished round: unique by game id, ordered by
// when it ended among the rounds of each of its players.
func RoundJob(r Round) (jobs.Job, error) {
	r.Accounts = make([]accounts.ID, len(r.Game.Players))
	subjects := make([]string, 0, 2*len(r.Game.Players))
	for i, p := range r.Game.Players {
		r.Accounts[i] = p.Account
		if p.Account != 0 {
			subjects = append(subjects, "account:"+fmt.Sprint(p.Account))
		}
		if key, err := accounts.Key(p.Name); err == nil {
			subjects = append(subjects, "name:"+key)
		}
	}
	args, err := json.Marshal(r)
	if err != nil {
		return jobs.Job{}, err
	}
	return jobs.Job{Kind: jobs.KindResult, Key: "result:" + r.Game.ID, Args: args, Subjects: subjects, At: r.Game.Finished}, nil
}

// Marks checks the held marks of a room or tournament (one of them is
// set) after its round is recorded or a hole analysed.
type Marks func(ctx context.Context, room, tournament string)

// Recorder records rounds: a jobs.Handler for KindResult.
type Recorder struct {
	accounts accounts.Store
	holds    *review.Holds
	log      *slog.Logger
	marks    Marks
	recorded prometheus.Counter
	failed   prometheus.Counter
}

// RecorderOptions configure a Recorder.
type RecorderOptions struct {
	// Accounts records the games (required).
	Accounts accounts.Store
	// Holds keeps rounds of held players back; nil when fair play is off.
	Holds *review.Holds
	// Marks, when set, is called once a round is recorded or held.
	Marks Marks
	// Logger; default slog.Default.
	Logger *slog.Logger
	// Recorded counts the rounds recorded (or held, or refused as
	// already recorded); Failed the attempts that failed and are retried.
	Recorded, Failed prometheus.Counter
}

// NewRecorder returns a recorder.
func NewRecorder(o RecorderOptions) *Recorder {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Recorder{accounts: o.Accounts, holds: o.Holds, log: o.Logger, marks: o.Marks, recorded: o.Recorded, failed: o.Failed}
}

var _ jobs.Handler = (*Recorder)(nil)

// Work implements jobs.Handler: it records the round once. An error (the
// database is down) has the job retried; a round that can never be
// recorded (unreadable, a player without an account) is logged and
// dropped.
func (r *Recorder) Work(ctx context.Context, j jobs.Job) error {
	var rd Round
	if err := json.Unmarshal(j.Args, &rd); err != nil {
		r.log.Error("rated round not recorded: its job is unreadable", "key", j.Key, "err", err)
		return nil
	}
	g := rd.Game
	g.Players = append([]accounts.GamePlayer(nil), g.Players...)
	for i := range g.Players {
		if i < len(rd.Accounts) {
			g.Players[i].Account = rd.Accounts[i]
		}
	}
	err := r.record(ctx, g, rd.Places)
	if err != nil {
		inc(r.failed)
		return err
	}
	inc(r.recorded)
	if r.marks != nil {
		r.marks(ctx, rd.Room, rd.Tournament)
	}
	return nil
}

func inc(c prometheus.Counter) {
	if c != nil {
		c.Inc()
	}
}

// errNoAccount: a player of the round has no account (deleted since).
var errNoAccount = errors.New("results: a player has no account")

// record fills the players' accounts, holds the round back when a player
// is held for review, or records it.
func (r *Recorder) record(ctx context.Context, g accounts.Game, places []int) error {
	if name, err := fillAccounts(ctx, r.accounts, &g); err != nil {
		if errors.Is(err, errNoAccount) {
			r.log.Warn("rated round not recorded: a player has no account", "game", g.ID, "player", name)
			return nil
		}
		return err
	}
	if r.holds != nil && r.holds.Hold(ctx, g, places) {
		return nil // fairplay/review: a held player's round waits for review
	}
	rec, err := r.accounts.RecordGame(ctx, g, func(before []ratings.Rating) ([]ratings.Rating, error) {
		return ratings.Config{}.Round(before, places)
	})
	switch {
	case errors.Is(err, accounts.ErrDuplicate):
		return nil // recorded already (this job ran before, or another copy)
	case errors.Is(err, accounts.ErrNotFound):
		r.log.Warn("rated round not recorded: a player's account is gone", "game", g.ID, "err", err)
		return nil
	case err != nil:
		return fmt.Errorf("results: record %s: %w", g.ID, err)
	}
	for _, p := range rec.Players {
		r.log.Info("rating", "game", g.ID, "player", p.Name, "before", p.Before.String(), "after", p.After.String())
	}
	return nil
}

// fillAccounts sets the account of each player of g that has none from
// its name (a rated seat's or entrant's name is its account's). On an
// error it returns the name; errNoAccount when there is no such account.
func fillAccounts(ctx context.Context, store accounts.Store, g *accounts.Game) (string, error) {
	for i := range g.Players {
		if g.Players[i].Account != 0 {
			continue
		}
		key, err := accounts.Key(g.Players[i].Name)
		if err != nil {
			return g.Players[i].Name, fmt.Errorf("%w: %v", errNoAccount, err)
		}
		a, err := store.ByKey(ctx, key)
		if errors.Is(err, accounts.ErrNotFound) {
			return g.Players[i].Name, fmt.Errorf("%w: %v", errNoAccount, err)
		}
		if err != nil {
			return g.Players[i].Name, err
		}
		g.Players[i].Account = a.ID
	}
	return "", nil
}
