package fairplay

import (
	"fmt"
	"strconv"
	"time"
)

// Escalation analyses a player's hole with a deeper setting (Deep) while
// the evidence against them, as it stood before the hole was analysed,
// is at or above Level; below it, with the operator's setting (the base:
// DefaultConfig or FullConfig). The zero Escalation is none: every hole
// has the base setting.
//
// Why the bound holds. Under honest play each hole's factor has
// expectation 1 whatever setting analyses it, as long as the setting is
// fixed before the hole's own outcome is known: the real stock order is
// then still one more uniform sample among the K+1 orders that setting
// scores. The choice here reads only the evidence of holes that finished
// before this one (Evidence.Before), never this hole's analysis: a hole
// is analysed once, with the setting chosen first, and never again
// because its analysis looked suspicious (that would choose the larger
// of two factors, whose expectation is above 1). So every factor still
// has conditional expectation 1 given the past, the score is still a
// test martingale, and Ville's inequality still bounds the chance that
// an honest player is ever flagged by Alpha. What escalation changes is
// the cost: the deep setting runs only on the holes of players whose
// evidence is already high, which honest players seldom are (their
// score drifts down), so the typical hole costs what the base costs.
type Escalation struct {
	// Level is the score (Evidence.Score, nats) from which a hole is
	// analysed with Deep.
	Level float64 `json:"level"`
	// Deep is the deeper setting (its Key is always the base's).
	Deep Config `json:"deep"`
}

// DeepConfig is the setting of an escalated hole: every decision is
// scored, the opening stretches on 8 orders, those played with at most
// 6 cards in the stock or begun with at most 24 cards on the tableau on
// 24. It costs several times DefaultConfig's CPU a hole, and finds more
// of the evidence of a player who knows the stock on few holes
// (docs/fairplay.md).
var DeepConfig = Config{Samples: 24, OpeningSamples: 8, OpeningStock: 6, OpeningCards: 24, Nodes: 30000, MaxSolves: 20000}

// DefaultEscalation is the server's and the simulator's: DeepConfig from
// a score of 1 nat (a likelihood ratio of e) on.
var DefaultEscalation = Escalation{Level: 1, Deep: DeepConfig}

// On reports whether the escalation ever changes the setting.
func (e Escalation) On() bool { return e.Deep.Nodes > 0 }

// Escalates reports whether a hole of a player with the evidence ev (of
// the holes before it) is analysed with Deep.
func (e Escalation) Escalates(ev Evidence) bool {
	return e.On() && ev.Score() >= e.Level
}

// Choose is the setting of a hole of a player with the evidence ev (of
// the holes before it: never of the hole itself), the base or Deep, and
// whether it is Deep.
func (e Escalation) Choose(base Config, ev Evidence) (Config, bool) {
	if !e.Escalates(ev) {
		return base, false
	}
	deep := e.Deep
	deep.Key, deep.Yield, deep.Solvers = base.Key, base.Yield, base.Solvers
	return deep, true
}

// ChooseAll is the setting of a batch of holes of one deal analysed
// together (AnalyseHoles), given each seat's evidence before it: Deep if
// any seat escalates (each seat's choice still reads only the past), and
// how many do.
func (e Escalation) ChooseAll(base Config, evs []Evidence) (Config, int) {
	cfg, n := base, 0
	for _, ev := range evs {
		if c, deep := e.Choose(base, ev); deep {
			cfg = c
			n++
		}
	}
	return cfg, n
}

// EscalationNamed is the escalation an operator names (serve's and
// worker's --fairplay-escalation): "default" (DefaultEscalation), "off"
// (none), or a level in nats (DeepConfig from that score on).
func EscalationNamed(name string) (Escalation, error) {
	switch name {
	case "default", "":
		return DefaultEscalation, nil
	case "off":
		return Escalation{}, nil
	}
	x, err := strconv.ParseFloat(name, 64)
	if err != nil || x < 0 || x != x || x > 1e6 {
		return Escalation{}, fmt.Errorf("%q is not an escalation; want default, off or a score in nats (at least 0)", name)
	}
	return Escalation{Level: x, Deep: DeepConfig}, nil
}

// Before is the evidence of the holes that finished before at: ev, less
// the kept reports (the player's latest) of holes that finished at or
// after it (analysed first because the queue ran them first). The
// escalation reads it, so a hole's setting never depends on how the
// player did on a later hole.
func (e Evidence) Before(reports []HoleReport, at time.Time) Evidence {
	out := e.clone()
	for i := len(reports) - 1; i >= 0; i-- { // the latest first (Combination.Undo)
		if r := reports[i]; !r.At.Before(at) {
			out.remove(r.Analysis)
		}
	}
	return out
}

// remove takes a hole added with Add out of the evidence, with the
// current combination's factor (Combination.Undo; the latest hole first
// when there are several). A hole added under an earlier combination
// (before Lambda, Slip or Shares changed) is taken out with the current
// factor, not the one it was added with: the escalation reads the result
// only to choose a setting, which stays a choice made before the hole.
func (e *Evidence) remove(h Hole) {
	if e.Holes == 0 {
		return
	}
	e.Holes--
	e.Decisions -= h.Decisions
	for _, g := range h.Segments {
		if g.Informative() {
			e.Segments--
			e.Expected -= g.P
			if g.Least {
				e.Least--
			}
		}
	}
	for _, d := range h.Discriminating {
		e.Discriminating--
		switch d.Pick {
		case PickClairvoyant:
			e.Clairvoyant--
		case PickVisible:
			e.Visible--
		}
	}
	DefaultCombination().Undo(&e.Wealth, h.LogLR())
}
