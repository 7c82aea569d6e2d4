// Package bot plays Golf Solitaire as a practice opponent. A bot is an
// ordinary player: it connects through package client with its own seat
// token and decides from its own view only (match.View: its board, never
// the stock's order), at one of three levels:
//
//   - Random plays a uniformly random legal move.
//   - Greedy plays the card that starts the longest run of plays it can
//     see now (tableau cards onto the waste without turning the stock),
//     and turns the stock (or redeals) when nothing fits.
//   - Search asks golf.Hint, which samples stock orders consistent with
//     what the bot has seen and solves each, on a position rebuilt from
//     the bot's view (Reconstruct).
package bot

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// Level is how well a bot plays.
type Level string

// The levels.
const (
	Random Level = "random"
	Greedy Level = "greedy"
	Search Level = "search"
)

// ErrLevel is returned for an unknown level.
var ErrLevel = errors.New("bot: level must be random, greedy or search")

// ParseLevel checks a level's name.
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Random, Greedy, Search:
		return l, nil
	}
	return "", fmt.Errorf("%w, not %q", ErrLevel, s)
}

// Name is how a bot of the level is named in seats: "Bot (greedy)".
func (l Level) Name() string { return "Bot (" + string(l) + ")" }

// SearchSamples is the number of stock orders golf.Hint samples for the
// search level (and for hints in practice): a few hundred milliseconds at
// most.
const SearchSamples = 6

// Player decides moves for one seat from its views. It remembers what it
// has seen of the hole in play (the deal as first shown, its own moves and
// the cards its turns revealed), which is all Reconstruct needs.
type Player struct {
	Level Level
	// Yield, when set, is how the search level's solves give way to
	// other goroutines every few thousand nodes (golf.HintYield; nil:
	// runtime.Gosched).
	Yield func()
	rng   *rand.Rand

	hole   int
	first  *match.Board // the board before any move, nil if not seen
	moves  []golf.Move
	turned []golf.Card
}

// NewPlayer returns a player of the level; seed makes its choices
// reproducible.
func NewPlayer(l Level, seed uint64) *Player {
	return &Player{Level: l, rng: rand.New(rand.NewPCG(seed, 0x601f))}
}

// Choose returns the move to play on the view's board, or "" when there is
// nothing to do (no board, or the hole is over for the bot).
func (p *Player) Choose(v *match.View) string { return p.choose(p.Level, v) }

// ChooseGreedy is Choose at the greedy level, whatever the player's level:
// a search bot refused its turn of the solver plays greedily meanwhile.
func (p *Player) ChooseGreedy(v *match.View) string { return p.choose(Greedy, v) }

func (p *Player) choose(level Level, v *match.View) string {
	b := v.Board
	if b == nil || b.Done || v.Status != match.Playing {
		return ""
	}
	p.observe(b)
	if len(b.Playable) == 0 && !b.CanTurn && !b.CanRedeal {
		return "" // stuck: the server ends the hole
	}
	var m golf.Move
	switch level {
	case Search:
		m = p.search(v.Settings.Variant, b)
	case Greedy:
		m = p.greedy(v.Settings.Variant, b)
	default:
		m = p.random(b)
	}
	return m.String()
}

// Played tells the player that its move on the hole was applied; b is its
// board in a view at or after the move (its waste top is the card a turn
// revealed).
func (p *Player) Played(hole int, move string, b *match.Board) {
	if hole != p.hole || b == nil || b.Hole != hole {
		p.first = nil // the hole ended with the move: nothing more to rebuild
		return
	}
	m, err := golf.ParseMove(move)
	if err != nil {
		return
	}
	p.moves = append(p.moves, m)
	if m.Action == golf.Turn && len(b.Waste) > 0 {
		c, err := golf.ParseCard(b.Waste[len(b.Waste)-1])
		if err == nil {
			p.turned = append(p.turned, c)
		}
	}
}

// observe starts tracking a new hole. A hole first seen after moves were
// made (the bot's goroutine restarted) cannot be rebuilt: the search level
// then plays greedily for the rest of it.
func (p *Player) observe(b *match.Board) {
	if b.Hole == p.hole && (p.first != nil || b.Moves > 0) {
		if p.first != nil && b.Moves != len(p.moves) {
			p.first = nil // out of step (a move answered but not seen): stop rebuilding
		}
		return
	}
	p.hole, p.moves, p.turned, p.first = b.Hole, nil, nil, nil
	if b.Moves == 0 {
		p.first = b
	}
}

func (p *Player) random(b *match.Board) golf.Move {
	var legal []golf.Move
	for _, n := range b.Playable {
		legal = append(legal, golf.PlayPile(n))
	}
	if b.CanTurn {
		legal = append(legal, golf.Move{Action: golf.Turn})
	}
	if b.CanRedeal {
		legal = append(legal, golf.Move{Action: golf.Redeal})
	}
	return legal[p.rng.IntN(len(legal))]
}

func (p *Player) search(v golf.Variant, b *match.Board) golf.Move {
	st, err := p.Reconstruct(v)
	if err != nil {
		return p.greedy(v, b)
	}
	var seed [32]byte
	copy(seed[:], fmt.Sprint(p.hole, len(p.moves), p.rng.Uint64()))
	m := golf.HintYield(st, SearchSamples, rand.NewChaCha8(seed), p.Yield)
	if m == (golf.Move{}) {
		return p.greedy(v, b)
	}
	return m
}

// greedy plays the first card of the longest run of plays it can see, or
// turns the stock (redeals) when no card fits.
func (p *Player) greedy(v golf.Variant, b *match.Board) golf.Move {
	if len(b.Playable) == 0 {
		if b.CanTurn {
			return golf.Move{Action: golf.Turn}
		}
		return golf.Move{Action: golf.Redeal}
	}
	if st, err := p.Reconstruct(v); err == nil {
		best, bestRun := golf.Move{}, -1
		for _, m := range st.Legal() {
			if m.Action != golf.Play {
				continue
			}
			c := st.Clone()
			if c.Apply(m) != nil {
				continue
			}
			if r := 1 + longestRun(c, 0); r > bestRun {
				best, bestRun = m, r
			}
		}
		if bestRun > 0 {
			return best
		}
	}
	return columnsGreedy(v, b)
}

// maxRunNodes bounds the run search (a wide tableau of many equal ranks).
const maxRunNodes = 20000

// longestRun is the most tableau cards that can be played in a row from
// the state without touching the stock.
func longestRun(st *golf.State, nodes int) int {
	best := 0
	for _, m := range st.Legal() {
		if m.Action != golf.Play || nodes > maxRunNodes {
			continue
		}
		nodes++
		c := st.Clone()
		if c.Apply(m) != nil {
			continue
		}
		best = max(best, 1+longestRun(c, nodes))
	}
	return best
}

// columnsGreedy is greedy play read straight off the board, for a hole the
// player could not rebuild: in a columns layout, the free card of a pile
// is its last; it picks the playable pile whose run (following free cards
// of other piles) is longest.
func columnsGreedy(v golf.Variant, b *match.Board) golf.Move {
	best, bestRun := b.Playable[0], -1
	if b.Layout != "columns" || len(b.Waste) == 0 {
		return golf.PlayPile(best)
	}
	piles := make([][]golf.Card, len(b.Piles))
	for i, ps := range b.Piles {
		for _, s := range ps {
			c, err := golf.ParseCard(s)
			if err != nil {
				return golf.PlayPile(best)
			}
			piles[i] = append(piles[i], c)
		}
	}
	for _, n := range b.Playable {
		top := piles[n-1][len(piles[n-1])-1]
		piles[n-1] = piles[n-1][:len(piles[n-1])-1]
		r := 1 + columnsRun(v, piles, top, 0)
		piles[n-1] = append(piles[n-1], top)
		if r > bestRun {
			best, bestRun = n, r
		}
	}
	return golf.PlayPile(best)
}

func columnsRun(v golf.Variant, piles [][]golf.Card, top golf.Card, depth int) int {
	if depth > 52 {
		return 0
	}
	best := 0
	for i, pile := range piles {
		if len(pile) == 0 || !v.Fits(top, pile[len(pile)-1]) {
			continue
		}
		c := pile[len(pile)-1]
		piles[i] = pile[:len(pile)-1]
		best = max(best, 1+columnsRun(v, piles, c, depth+1))
		piles[i] = pile
		if best > 8 {
			break // long enough to choose by; keeps the search small
		}
	}
	return best
}

// Reconstruct rebuilds the hole in play as a golf.State from what the
// player has seen: the tableau and starting card as first shown, the
// cards its turns revealed (in order), and the rest of the pack in a
// canonical order standing in for the stock it has not seen; then its own
// moves. Every visible fact of the result (tableau, waste, stock count,
// unseen cards) is the real one; only the order of the unseen stock is
// made up, and golf.Hint never uses it.
func (p *Player) Reconstruct(v golf.Variant) (*golf.State, error) {
	if p.first == nil {
		return nil, errors.New("bot: the hole was not seen from its start")
	}
	b := p.first
	tableau := make([][]golf.Card, len(b.Piles))
	seen := map[golf.Card]int{}
	for i, ps := range b.Piles {
		for _, s := range ps {
			c, err := golf.ParseCard(s)
			if err != nil {
				return nil, fmt.Errorf("bot: tableau card %q: %w", s, err)
			}
			tableau[i] = append(tableau[i], c)
			seen[c]++
		}
	}
	start := golf.NoCard
	if len(b.Waste) == 1 {
		c, err := golf.ParseCard(b.Waste[0])
		if err != nil {
			return nil, err
		}
		start = c
		seen[c]++
	} else if len(b.Waste) > 1 {
		return nil, errors.New("bot: a first board with more than one waste card")
	}
	stock := append([]golf.Card(nil), p.turned...)
	for _, c := range p.turned {
		seen[c]++
	}
	pack := golf.NewDeal(v, golf.Seed{})
	all := pack.Stock()
	for _, pile := range pack.Tableau() {
		all = append(all, pile...)
	}
	if pack.Start() != golf.NoCard {
		all = append(all, pack.Start())
	}
	slices.Sort(all)
	for _, c := range all {
		if seen[c] > 0 {
			seen[c]--
			continue
		}
		stock = append(stock, c)
	}
	for c, n := range seen {
		if n > 0 {
			return nil, fmt.Errorf("bot: card %s seen more often than the pack holds it", c)
		}
	}
	d, err := golf.DealFromCards(v, tableau, stock, start)
	if err != nil {
		return nil, err
	}
	st := golf.NewState(&d)
	for i, m := range p.moves {
		if err := st.Apply(m); err != nil {
			return nil, fmt.Errorf("bot: own move %d (%s) does not replay: %w", i+1, m, err)
		}
	}
	return st, nil
}
