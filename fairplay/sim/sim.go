// Package sim plays honest and clairvoyant bots on golf states, in
// process, and runs the fair-play detector on their holes: the engine of
// `go run . fairplay simulate`. It is pure (no I/O, no goroutines); the
// command spreads rounds over workers.
package sim

import (
	"fmt"
	"math/rand/v2"

	"golfsolitaire/bot"
	"golfsolitaire/fairplay"
	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// Kind names a simulated player: an honest bot level, or "clairvoyant".
type Kind string

// Clairvoyant is a player who, on the holes where it knows the stock,
// plays the solver's line for the real deal, and otherwise plays as the
// search bot.
const Clairvoyant Kind = "clairvoyant"

// Player is one simulated player.
type Player struct {
	Kind Kind
	// KnowsStock is the share of holes on which a clairvoyant player
	// knows the stock (0 for honest bots).
	KnowsStock float64
}

// Name is the label printed for the player.
func (p Player) Name() string {
	if p.Kind == Clairvoyant {
		return string(Clairvoyant)
	}
	return string(p.Kind)
}

// ClairvoyantNodes is the budget of the clairvoyant's solve of a deal.
const ClairvoyantNodes = 200_000

// Round is the outcome of one simulated round.
type Round struct {
	Holes int
	// FlaggedAt is the 1-based hole after which the player was first
	// flagged, 0 if never.
	FlaggedAt int
	// Peak is the highest score (log likelihood ratio, in nats) the
	// evidence reached after any hole with at least the default rule's
	// MinSegments informative segments: the round would be flagged by any
	// bar up to it (0 if it never had that many segments).
	Peak     float64
	Evidence fairplay.Evidence
	// Analysis is the work of the detector: holes analysed, solves, nodes.
	Solves int
	Nodes  int64
	// Knew says, hole by hole, whether the player knew the stock on it.
	Knew []bool
}

// Analyse is the analysis of one hole (fairplay.AnalyseHole with a
// config, perhaps timed by the caller), given the player's evidence of
// the holes before it (which the server's escalation reads).
type Analyse func(d *golf.Deal, moves []golf.Move, before fairplay.Evidence) (fairplay.Hole, error)

// With returns the analysis the server runs: with cfg, or with the
// escalation's deeper setting while the evidence before the hole is at
// or above its level (fairplay.Escalation.Choose; the zero Escalation:
// always cfg).
func With(cfg fairplay.Config, esc fairplay.Escalation) Analyse {
	return func(d *golf.Deal, moves []golf.Move, before fairplay.Evidence) (fairplay.Hole, error) {
		c, _ := esc.Choose(cfg, before)
		return fairplay.AnalyseHole(d, moves, c)
	}
}

// PlayRound plays holes holes of the variant for the player, from seed
// round (deals are round.HoleSeed(h)), analysing each hole and folding it
// into the player's evidence.
func PlayRound(p Player, v golf.Variant, round golf.Seed, holes int, analyse Analyse) (Round, error) {
	rng := rand.New(rand.NewChaCha8(round))
	out := Round{Holes: holes}
	for h := 1; h <= holes; h++ {
		d := golf.NewDeal(v, round.HoleSeed(h))
		knows := p.Kind == Clairvoyant && rng.Float64() < p.KnowsStock
		out.Knew = append(out.Knew, knows)
		moves, err := PlayHole(p, &d, h, knows, rng.Uint64())
		if err != nil {
			return out, err
		}
		a, err := analyse(&d, moves, out.Evidence)
		if err != nil {
			return out, err
		}
		out.Solves += a.Solves
		out.Nodes += a.Nodes
		out.Evidence.Add(a)
		if out.Evidence.Segments >= fairplay.DefaultRule.MinSegments {
			out.Peak = max(out.Peak, out.Evidence.Score())
		}
		if out.FlaggedAt == 0 && out.Evidence.Flagged() {
			out.FlaggedAt = h
		}
	}
	return out, nil
}

// PlayHole plays one hole to its end and returns the moves. knows says
// whether a clairvoyant player knows the stock on it.
func PlayHole(p Player, d *golf.Deal, hole int, knows bool, seed uint64) ([]golf.Move, error) {
	st := golf.NewState(d)
	if knows {
		sol := golf.Solve(d, &golf.SolveOptions{MaxNodes: ClairvoyantNodes})
		for i, m := range sol.Moves {
			if err := st.Apply(m); err != nil {
				return nil, fmt.Errorf("sim: the solver's line does not replay at move %d: %w", i+1, err)
			}
		}
		// Finish a line that stops before the game is over: any play only
		// lowers the score.
		for !st.Over() {
			legal := st.Legal()
			_ = st.Apply(legal[0])
		}
		return append([]golf.Move(nil), st.Moves()...), nil
	}
	level := bot.Level(p.Kind)
	if p.Kind == Clairvoyant {
		level = bot.Search
	}
	bp := bot.NewPlayer(level, seed)
	vr := d.Variant
	for !st.Over() {
		b := boardOf(st, hole)
		ms := bp.Choose(&match.View{Status: match.Playing, Settings: match.Settings{Variant: vr}, Board: b})
		if ms == "" {
			break
		}
		m, err := golf.ParseMove(ms)
		if err != nil {
			return nil, err
		}
		if err := st.Apply(m); err != nil {
			return nil, fmt.Errorf("sim: the %s bot chose an illegal move: %w", level, err)
		}
		bp.Played(hole, ms, boardOf(st, hole))
	}
	return append([]golf.Move(nil), st.Moves()...), nil
}

// boardOf draws a game as its own seat sees it, with the game's own
// function (match.BoardOf), so the bots here read what they read in play.
func boardOf(st *golf.State, hole int) *match.Board {
	b := match.BoardOf(st.Deal(), st, st.Moves(), st.Over())
	b.Hole = hole
	return b
}
