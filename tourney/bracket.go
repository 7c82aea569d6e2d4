package tourney

import "fmt"

// Bracket is a knockout draw: round 1 has Size/2 matches, each later round
// half as many, down to the final.
type Bracket struct {
	Size int `json:"size"`
	// Seeds lists entrants by seed: Seeds[0] is seed 1.
	Seeds  []int      `json:"seeds"`
	Rounds [][]*Match `json:"rounds"`
}

// Match is one head-to-head match of a bracket. A and B are entrants, -1
// while unknown (or a bye in round 1).
type Match struct {
	Round   int    `json:"round"` // 1-based
	Slot    int    `json:"slot"`  // 0-based within the round
	A       int    `json:"a"`
	B       int    `json:"b"`
	Room    string `json:"room,omitempty"`
	Decided bool   `json:"decided"`
	Winner  int    `json:"winner"` // entrant, -1 until decided
	Result  string `json:"result,omitempty"`
}

// Ready reports whether the match can be played: both sides known, no
// room yet, not decided.
func (m *Match) Ready() bool { return m.A >= 0 && m.B >= 0 && m.Room == "" && !m.Decided }

// seedOrder is the standard draw: seeds 1 and 2 can only meet in the
// final, byes go to the top seeds. For size 8: 1 8 4 5 2 7 3 6.
func seedOrder(size int) []int {
	order := []int{1}
	for n := 2; n <= size; n *= 2 {
		next := make([]int, 0, n)
		for _, s := range order {
			next = append(next, s, n+1-s)
		}
		order = next
	}
	return order
}

// newBracket draws a bracket for the entrants in seed order (best first),
// with byes for the top seeds when the field is not a power of two. Byes
// are decided at once.
func newBracket(seeds []int) *Bracket {
	size := 2
	for size < len(seeds) {
		size *= 2
	}
	b := &Bracket{Size: size, Seeds: append([]int(nil), seeds...)}
	for n, r := size/2, 1; n >= 1; n, r = n/2, r+1 {
		round := make([]*Match, n)
		for k := range round {
			round[k] = &Match{Round: r, Slot: k, A: -1, B: -1, Winner: -1}
		}
		b.Rounds = append(b.Rounds, round)
	}
	order := seedOrder(size)
	entrant := func(seed int) int {
		if seed <= len(seeds) {
			return seeds[seed-1]
		}
		return -1
	}
	for k, m := range b.Rounds[0] {
		m.A, m.B = entrant(order[2*k]), entrant(order[2*k+1])
		if m.B < 0 {
			b.decide(m, m.A, "bye")
		}
	}
	return b
}

// decide records a winner and moves them into the next round.
func (b *Bracket) decide(m *Match, winner int, result string) {
	m.Decided, m.Winner, m.Result = true, winner, result
	if m.Round == len(b.Rounds) {
		return
	}
	next := b.Rounds[m.Round][m.Slot/2]
	if m.Slot%2 == 0 {
		next.A = winner
	} else {
		next.B = winner
	}
}

// Match returns match (r, slot), or nil.
func (b *Bracket) Match(r, slot int) *Match {
	if r < 1 || r > len(b.Rounds) || slot < 0 || slot >= len(b.Rounds[r-1]) {
		return nil
	}
	return b.Rounds[r-1][slot]
}

// Final is the last match.
func (b *Bracket) Final() *Match { return b.Rounds[len(b.Rounds)-1][0] }

func (b *Bracket) roundDecided(r int) bool {
	if r < 1 || r > len(b.Rounds) {
		return false
	}
	for _, m := range b.Rounds[r-1] {
		if !m.Decided {
			return false
		}
	}
	return true
}

// ready lists the matches that can start now, as notices.
func (b *Bracket) ready(t *Tournament) []Notice {
	var out []Notice
	for _, round := range b.Rounds {
		for _, m := range round {
			if m.Ready() {
				out = append(out, Notice{Kind: NoticeMatchReady, Round: m.Round, Slot: m.Slot})
			}
		}
	}
	return out
}

// ReadyMatches lists the matches that can start now (both players known,
// no room yet).
func (t *Tournament) ReadyMatches() []*Match {
	if t.Bracket == nil || t.Status != Live {
		return nil
	}
	var out []*Match
	for _, round := range t.Bracket.Rounds {
		for _, m := range round {
			if m.Ready() {
				out = append(out, m)
			}
		}
	}
	return out
}

// MatchOfRoom returns the knockout match played in the room, or nil.
func (t *Tournament) MatchOfRoom(code string) *Match {
	if t.Bracket == nil {
		return nil
	}
	for _, round := range t.Bracket.Rounds {
		for _, m := range round {
			if m.Room == code {
				return m
			}
		}
	}
	return nil
}

func (t *Tournament) knockoutMatch(ev Event) (*Match, error) {
	if err := t.live(); err != nil {
		return nil, err
	}
	if t.Bracket == nil {
		return nil, fmt.Errorf("%w: not a knockout", ErrBadEvent)
	}
	m := t.Bracket.Match(ev.Round, ev.Slot)
	if m == nil {
		return nil, fmt.Errorf("%w: no match %d/%d", ErrBadEvent, ev.Round, ev.Slot)
	}
	return m, nil
}

func (t *Tournament) matchRoom(ev Event) error {
	m, err := t.knockoutMatch(ev)
	if err != nil {
		return err
	}
	if !m.Ready() {
		return ErrNoChange
	}
	if ev.Room == "" {
		return fmt.Errorf("%w: room code missing", ErrBadEvent)
	}
	m.Room = ev.Room
	t.byRoom[ev.Room] = -1
	return nil
}

// decided records a match's winner (an entrant of the match). A halved
// match is passed with the better seed as the winner.
func (t *Tournament) decided(ev Event) ([]Notice, error) {
	m, err := t.knockoutMatch(ev)
	if err != nil {
		return nil, err
	}
	if m.Decided {
		return nil, ErrNoChange
	}
	if m.A < 0 || m.B < 0 || (ev.Entrant != m.A && ev.Entrant != m.B) {
		return nil, fmt.Errorf("%w: entrant %d is not in match %d/%d", ErrBadEvent, ev.Entrant, ev.Round, ev.Slot)
	}
	loser := m.A
	if ev.Entrant == m.A {
		loser = m.B
	}
	t.Entrants[loser].Out = true
	t.Bracket.decide(m, ev.Entrant, ev.Result)
	notices := []Notice{{Kind: NoticeAdvanced, Round: m.Round, Slot: m.Slot}}
	if m == t.Bracket.Final() {
		t.Status, t.Closed, t.Reason = Closed, ev.At, "the final is decided"
		return append(notices, Notice{Kind: NoticeClosed}), nil
	}
	return append(notices, t.Bracket.ready(t)...), nil
}

// Champion is the winner of the final, or -1.
func (t *Tournament) Champion() int {
	if t.Bracket == nil || !t.Bracket.Final().Decided {
		return -1
	}
	return t.Bracket.Final().Winner
}

// BetterSeed returns whichever of entrants a and b has the better seed.
func (t *Tournament) BetterSeed(a, b int) int {
	if t.Entrants[b].Seed != 0 && t.Entrants[b].Seed < t.Entrants[a].Seed {
		return b
	}
	return a
}
