// Package review is the server's side of fair play: it analyses each
// finished hole (fairplay.AnalyseHole, with the setting the escalation
// chooses from the player's evidence before the hole: fairplay.Escalation),
// keeps the evidence and flags the
// player it convicts, holds rated rounds back while a player in them is
// held for review, and settles them when a moderator decides:
// cleared, each round in which no other player is still held is recorded
// in the ratings; confirmed, the player's held rounds are voided (and
// later ones as they end). It also says what a player's held mark in the
// standings should be (docs/fairplay.md, docs/protocol.md "held"). The
// server runs it with its fair-play store and its accounts store.
package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/ratings"
)

// Holds analyses finished holes, flags the players the evidence
// convicts, and decides and keeps the holds of rated rounds.
type Holds struct {
	store    fairplay.Store
	accounts accounts.Store
	cfg      fairplay.Config
	esc      fairplay.Escalation
	rule     fairplay.Rule
	log      *slog.Logger
	now      func() time.Time
	held     prometheus.Counter
	voided   prometheus.Counter
	analysed prometheus.Counter
	flagged  prometheus.Counter
	failed   prometheus.Counter
	deep     prometheus.Counter
}

// Options configure Holds; every field is required.
type Options struct {
	Store    fairplay.Store
	Accounts accounts.Store
	Logger   *slog.Logger
	Now      func() time.Time
	// Config bounds each hole's analysis; Rule is when a player is
	// flagged.
	Config fairplay.Config
	Rule   fairplay.Rule
	// Escalation analyses the holes of a player whose evidence (before
	// the hole) is high with a deeper setting than Config; the zero
	// value: none.
	Escalation fairplay.Escalation
	// Deep, if set, counts the holes analysed with the escalation's
	// deeper setting.
	Deep prometheus.Counter
	// Held and Voided count the rated rounds held for review and those
	// voided at once (a player's unfair play was confirmed); Analysed,
	// Flagged and Failed the holes analysed, the players flagged and the
	// analyses that failed (bad record or store error).
	Held, Voided, Analysed, Flagged, Failed prometheus.Counter
}

// New returns the holds.
func New(o Options) *Holds {
	if o.Config.Solvers == nil {
		// Hole after hole: the analyses reuse their solvers' tables.
		o.Config.Solvers = fairplay.NewSolvers()
	}
	return &Holds{store: o.Store, accounts: o.Accounts, cfg: o.Config, esc: o.Escalation, deep: o.Deep, rule: o.Rule, log: o.Logger, now: o.Now, held: o.Held, voided: o.Voided,
		analysed: o.Analysed, flagged: o.Flagged, failed: o.Failed}
}

// Hole is one finished hole to analyse, copied off the room.
type Hole struct {
	Report  fairplay.HoleReport
	Variant golf.Variant
	Seed    golf.Seed
	Moves   []golf.Move
	// Rated: the room is rated, so a seat without an account id is found
	// by its name, which is its account's.
	Rated bool
	// Begun is when the hole was dealt (zero in jobs queued before it was
	// kept: no scouting is checked); Counts that its result counts (a
	// rated room or a tournament), so scouting it gains something.
	Begun  time.Time `json:",omitzero"`
	Counts bool      `json:",omitempty"`
	// Analysis, when set, is the hole's decision walk already made
	// (AnalyseDeal, with the other seats of its deal); it is never sent.
	Analysis *fairplay.Hole `json:"-"`
	// read is the player's evidence as AnalyseDeal read it (so Analyse
	// reads it once).
	read *playerRead
}

// playerRead is a player's id (a rated seat's account found by its
// name), evidence and kept reports, as read before the hole's analysis.
type playerRead struct {
	player string
	ev     fairplay.Evidence
	kept   []fairplay.HoleReport
}

// readPlayer finds the hole's player and reads their evidence (one
// read of the store); an error means a store did not answer.
func (f *Holds) readPlayer(ctx context.Context, j *Hole) (*playerRead, error) {
	if j.read != nil {
		return j.read, nil
	}
	r := &playerRead{player: j.Report.Player}
	if j.Rated {
		// A rated seat taken without the account in the request (rated
		// quick match seats the partner): its name is its account's.
		if key, err := accounts.Key(j.Report.Name); err == nil {
			acc, err := f.accounts.ByKey(ctx, key)
			switch {
			case err == nil:
				r.player = AccountPlayer(acc.ID)
			case !errors.Is(err, accounts.ErrNotFound):
				return nil, fmt.Errorf("fair-play: the account of %s: %w", j.Report.Name, err)
			}
		}
	}
	var err error
	r.ev, r.kept, err = f.store.Player(ctx, r.player)
	if err != nil && !errors.Is(err, fairplay.ErrNotFound) {
		return nil, fmt.Errorf("fair-play: the evidence of %s: %w", r.player, err)
	}
	return r, nil
}

// prior is the player's evidence of the holes that finished before this
// one: what the escalation reads.
func (r *playerRead) prior(j *Hole) fairplay.Evidence {
	return r.ev.Before(r.kept, j.Report.At)
}

// AnalyseDeal makes the decision walks of several seats' holes on one
// deal together (fairplay.AnalyseHoles: orders drawn once, a decision
// met by several seats in the same position scored once) and sets each
// hole's Analysis, the same as Analyse would make alone, but with one
// setting for all: the deeper one if any seat's evidence before the hole
// escalates it (fairplay.Escalation.ChooseAll). It reads each seat's
// evidence once (Analyse then uses that read). Holes of other deals are
// left as they are; if a seat's moves do not replay, or a store does not
// answer, none is set and Analyse does each by itself.
func (f *Holds) AnalyseDeal(ctx context.Context, holes []*Hole) {
	if len(holes) < 2 {
		return
	}
	v, seed := holes[0].Variant, holes[0].Seed
	seats := make([][]golf.Move, 0, len(holes))
	evs := make([]fairplay.Evidence, 0, len(holes))
	for _, h := range holes {
		if h.Variant != v || h.Seed != seed {
			return
		}
		seats = append(seats, h.Moves)
	}
	for _, h := range holes {
		r, err := f.readPlayer(ctx, h)
		if err != nil {
			return
		}
		h.read = r
		evs = append(evs, r.prior(h))
	}
	cfg, escalated := f.esc.ChooseAll(f.cfg, evs)
	d := golf.NewDeal(v, seed)
	as, err := fairplay.AnalyseHoles(&d, seats, cfg)
	if err != nil {
		return
	}
	for i, h := range holes {
		h.Analysis = &as[i]
		if escalated > 0 && f.deep != nil {
			f.deep.Inc()
		}
	}
}

// Analyse runs one hole's analysis (on a worker of the job queue): the
// decision walk, the evidence, a flag. The setting is the escalation's
// choice from the player's evidence of the holes that finished before
// this one, read before the analysis. It reports whether the evidence
// was stored (then the held marks of the hole's room are to be checked:
// a flag raised now, or a review since the last hole, shows in its
// standings at once). An error means the fair-play store did not answer:
// the job is retried. A hole the player's kept reports already hold (the
// job ran before and stopped before it was marked done) is not added
// again, so each hole counts once; the flag is checked all the same.
func (f *Holds) Analyse(ctx context.Context, j Hole) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	read, err := f.readPlayer(ctx, &j)
	if err != nil {
		return false, err
	}
	j.Report.Player = read.player
	ev := read.ev
	analysed := false
	for _, r := range read.kept {
		analysed = analysed || (r.Room == j.Report.Room && r.Round == j.Report.Round && r.Hole == j.Report.Hole)
	}
	if !analysed {
		a, err := f.analysis(j, read.prior(&j))
		if err != nil {
			f.failed.Inc()
			f.log.Warn("fair-play analysis failed", "room", j.Report.Room, "hole", j.Report.Hole, "err", err)
			return false, nil
		}
		j.Report.Analysis, j.Report.LogLR = a, a.LogLR()
		if ev, err = f.store.AddHole(ctx, j.Report); err != nil {
			f.failed.Inc()
			return false, fmt.Errorf("fair-play evidence of %s not stored: %w", j.Report.Player, err)
		}
		f.analysed.Inc()
	}
	if err := f.scout(ctx, j); err != nil { // scouting.go
		f.failed.Inc()
		return true, err
	}
	if !ev.FlaggedBy(f.rule) {
		return true, nil
	}
	_, reports, err := f.store.Player(ctx, j.Report.Player)
	if err != nil {
		f.failed.Inc()
		return true, fmt.Errorf("fair-play: the reports of %s: %w", j.Report.Player, err)
	}
	flag := fairplay.Flag{
		Player: j.Report.Player, Name: j.Report.Name, FlaggedAt: f.now(), Score: ev.Score(),
		Threshold: -math.Log(f.rule.Alpha), Evidence: ev, Holes: reports, Held: true,
	}
	if err := f.store.SetFlag(ctx, flag); err != nil {
		f.failed.Inc()
		return true, fmt.Errorf("fair-play flag of %s not stored: %w", j.Report.Player, err)
	}
	f.flagged.Inc()
	f.log.Info("fair-play flag: results held for review", "player", j.Report.Player, "score", ev.Score())
	return true, nil
}

// analysis is the hole's decision walk: the one AnalyseDeal made, or
// its own, with the setting the escalation chooses from prior (the
// player's evidence of the holes before this one).
func (f *Holds) analysis(j Hole, prior fairplay.Evidence) (fairplay.Hole, error) {
	if j.Analysis != nil {
		return *j.Analysis, nil
	}
	cfg, deep := f.esc.Choose(f.cfg, prior)
	if deep && f.deep != nil {
		f.deep.Inc()
	}
	d := golf.NewDeal(j.Variant, j.Seed)
	return fairplay.AnalyseHole(&d, j.Moves, cfg)
}

// Player is the opaque id evidence is kept under: the account a
// player was logged in with when they took the seat ("account:ID"), so a
// new display name or a look-alike one neither splits nor merges
// evidence; for guests the tournament entry or the seat in the room.
func Player(r *match.Room, seat *match.Seat) string {
	switch {
	case seat.Account != 0:
		return AccountPlayer(accounts.ID(seat.Account))
	case r.Tournament != "":
		return "entrant:" + r.Tournament + ":" + seat.Name
	}
	return "seat:" + r.Code + ":" + seat.Name
}

// AccountPlayer is the fair-play id of an account.
func AccountPlayer(id accounts.ID) string { return "account:" + strconv.FormatInt(int64(id), 10) }

// heldRound is the payload of a rated round held for review: what
// the results package would have recorded.
type heldRound struct {
	Game accounts.Game `json:"game"`
	// Accounts are the players' account ids, in Game.Players order (the
	// archive does not put them in its JSON).
	Accounts []accounts.ID `json:"accounts"`
	Places   []int         `json:"places"`
}

// Hold is asked (by results.Recorder) before a rated round is
// recorded: when a player in it is held for review the round is kept
// back (fairplay.HeldResult), and moves no rating until every held player
// in it is cleared; when one is confirmed it is voided. It reports
// whether the round must not be recorded now. A store that cannot answer
// does not stop the round being recorded (it is logged).
func (f *Holds) Hold(ctx context.Context, g accounts.Game, places []int) bool {
	players := make([]string, len(g.Players))
	ids := make([]accounts.ID, len(g.Players))
	held, confirmed := false, ""
	for i, p := range g.Players {
		players[i], ids[i] = AccountPlayer(p.Account), p.Account
		st, h, err := f.store.Held(ctx, players[i])
		if err != nil {
			f.log.Error("fair-play: cannot tell whether a player is held; the rated round is recorded", "room", g.ID, "err", err)
			return false
		}
		held = held || h
		if st == fairplay.StatusConfirmed {
			confirmed = p.Name
		}
	}
	if confirmed != "" {
		f.voided.Inc()
		f.log.Info("fair-play: rated round voided (a player's unfair play is confirmed)", "room", g.ID, "player", confirmed)
		return true
	}
	if !held {
		return false
	}
	payload, err := json.Marshal(heldRound{Game: g, Accounts: ids, Places: places})
	if err == nil {
		err = f.store.HoldResult(ctx, fairplay.HeldResult{Key: "rated:" + g.ID, Players: players, At: g.Finished, Payload: payload})
	}
	if err != nil {
		f.log.Error("fair-play: rated round not held; it is recorded", "room", g.ID, "err", err)
		return false
	}
	f.held.Inc()
	f.log.Info("fair-play: rated round held for review", "room", g.ID)
	// A moderator may have cleared the last held player in between: then
	// the round is recorded now (a review settles only what it finds).
	if ok, err := f.release(ctx, fairplay.HeldResult{Key: "rated:" + g.ID, Players: players, Payload: payload}); err != nil {
		f.log.Error("fair-play: held rated round not released", "room", g.ID, "err", err)
	} else if ok {
		f.log.Info("fair-play: rated round released at once (its players were cleared meanwhile)", "room", g.ID)
	}
	return true
}

// Outcome is the answer to a review: the flag after it and what became
// of the held results.
type Outcome struct {
	Flag     fairplay.Flag `json:"flag"`
	Released int           `json:"released"`
	Voided   int           `json:"voided"`
}

// Review records a moderator's decision and settles the player's held
// results: confirmed voids them; cleared records (in the ratings) each
// one in which no other player is still held. Once the results are read,
// reviewed is given (deferred) the player's latest holes and their held
// results, whose rooms' marks are to be checked again.
func (f *Holds) Review(ctx context.Context, player string, st fairplay.Status, reviewed func([]fairplay.HoleReport, []fairplay.HeldResult)) (Outcome, error) {
	flag, err := f.store.Review(ctx, player, st, f.now())
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Flag: flag}
	results, err := f.store.Results(ctx, player)
	if err != nil {
		return out, err
	}
	_, reports, _ := f.store.Player(ctx, player) // the rooms of their latest holes (server/held.go)
	defer reviewed(append(reports, flag.Holes...), results)
	for _, r := range results {
		if st == fairplay.StatusConfirmed {
			if err := f.store.DropResult(ctx, r.Key); err != nil {
				return out, err
			}
			out.Voided++
			continue
		}
		ok, err := f.release(ctx, r)
		if err != nil {
			return out, err
		}
		if ok {
			out.Released++
		}
	}
	f.log.Info("fair-play review", "player", player, "status", st, "released", out.Released, "voided", out.Voided)
	return out, nil
}

// release records a held rated round in the ratings, and forgets it,
// when none of its players is held any more; it reports whether it did.
func (f *Holds) release(ctx context.Context, r fairplay.HeldResult) (bool, error) {
	for _, p := range r.Players {
		_, h, err := f.store.Held(ctx, p)
		if err != nil || h {
			return false, err
		}
	}
	var hr heldRound
	if err := json.Unmarshal(r.Payload, &hr); err != nil || len(hr.Accounts) != len(hr.Game.Players) {
		return false, fmt.Errorf("fair-play: held result %s is unreadable: %v", r.Key, err)
	}
	for i := range hr.Game.Players {
		hr.Game.Players[i].Account = hr.Accounts[i]
	}
	_, err := f.accounts.RecordGame(ctx, hr.Game, func(before []ratings.Rating) ([]ratings.Rating, error) {
		return ratings.Config{}.Round(before, hr.Places)
	})
	if err != nil && !errors.Is(err, accounts.ErrDuplicate) {
		return false, err
	}
	return true, f.store.DropResult(ctx, r.Key)
}

// PlayerOf is the fair-play id of a rated seat or entry: the account it
// was taken with, or else the account its name is (a rated seat's or an
// accounts-only entry's name is its account's); "" when there is none.
func (f *Holds) PlayerOf(ctx context.Context, account int64, name string) (string, error) {
	if account != 0 {
		return AccountPlayer(accounts.ID(account)), nil
	}
	key, err := accounts.Key(name)
	if err != nil {
		return "", nil
	}
	a, err := f.accounts.ByKey(ctx, key)
	if errors.Is(err, accounts.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return AccountPlayer(a.ID), nil
}

// Mark is what a player's mark should be: while the round is in play
// their hold; once it is over, whether they are held and its result (key)
// is held (a round held for another player in it marks only that one).
func (f *Holds) Mark(ctx context.Context, player string, over bool, key string) (bool, error) {
	if player == "" {
		return false, nil
	}
	_, held, err := f.store.Held(ctx, player)
	if err != nil || !held || !over {
		return held, err
	}
	rs, err := f.store.Results(ctx, player)
	if err != nil {
		return false, err
	}
	for _, r := range rs {
		if r.Key == key {
			return true, nil
		}
	}
	return false, nil
}
