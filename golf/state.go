package golf

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
)

// Action is the kind of a move.
type Action uint8

// The actions a player can take.
const (
	// Play moves the free card of a pile onto the waste (or foundation).
	Play Action = iota
	// Turn turns the top stock card onto the waste.
	Turn
	// Redeal turns the waste over to become the stock again (option
	// redeals), then turns its top card.
	Redeal
	// Undo takes back the last action (option undo, solo play only).
	Undo
)

// Move is one action; Pile (1-based) is set for Play only.
type Move struct {
	Action Action
	Pile   uint8
}

// PlayPile returns the move that plays pile n's free card (n is 1-based).
func PlayPile(n int) Move { return Move{Action: Play, Pile: uint8(n)} }

// The moves without a pile.
var (
	TurnMove   = Move{Action: Turn}
	RedealMove = Move{Action: Redeal}
	UndoMove   = Move{Action: Undo}
)

// ErrBadMove is returned when a move's text cannot be parsed.
var ErrBadMove = errors.New("golf: bad move")

// String is the record form: the pile number, "s", "r" or "u".
func (m Move) String() string {
	switch m.Action {
	case Play:
		return strconv.Itoa(int(m.Pile))
	case Turn:
		return "s"
	case Redeal:
		return "r"
	case Undo:
		return "u"
	}
	return "?"
}

// ParseMove parses a move's record form: a pile number from 1 to 64, "s"
// (turn the stock), "r" (redeal) or "u" (undo).
func ParseMove(s string) (Move, error) {
	switch s {
	case "s", "S":
		return TurnMove, nil
	case "r", "R":
		return RedealMove, nil
	case "u", "U":
		return UndoMove, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxPositions || s[0] == '+' || s[0] == '0' {
		return Move{}, fmt.Errorf("%w: %q (want a pile number, s, r or u)", ErrBadMove, s)
	}
	return PlayPile(n), nil
}

// MarshalText writes the record form. The bytes are shared by every call
// for the same move (a room's snapshot encodes every move of its games):
// the caller may keep and append to them (their capacity is their
// length, so an append copies) but must not write into them.
func (m Move) MarshalText() ([]byte, error) {
	if i := m.textIndex(); i >= 0 {
		return moveTexts[i], nil
	}
	return []byte(m.String()), nil
}

// textIndex is m's place in moveTexts, or -1.
func (m Move) textIndex() int {
	switch m.Action {
	case Play:
		return int(m.Pile)
	case Turn, Redeal, Undo:
		return 256 + int(m.Action-Turn)
	}
	return -1
}

// moveTexts are the record forms of every play (by pile) and of the
// other actions (from 256, in Action's order), made once and never
// written.
var moveTexts = func() [259][]byte {
	var t [259][]byte
	for p := range 256 {
		b := []byte(PlayPile(p).String())
		t[p] = b[:len(b):len(b)]
	}
	for _, m := range []Move{TurnMove, RedealMove, UndoMove} {
		b := []byte(m.String())
		t[m.textIndex()] = b[:len(b):len(b)]
	}
	return t
}()

// UnmarshalText parses the record form.
func (m *Move) UnmarshalText(b []byte) error {
	v, err := ParseMove(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// The reasons a move is illegal. Apply returns one of these, wrapped in a
// *MoveError; errors.Is works on the result.
var (
	ErrNoSuchPile    = errors.New("golf: no such pile")
	ErrEmptyPile     = errors.New("golf: pile is empty")
	ErrNotFree       = errors.New("golf: card not free")
	ErrNotAdjacent   = errors.New("golf: not one rank away")
	ErrNothingOnKing = errors.New("golf: nothing goes on a king")
	ErrStockEmpty    = errors.New("golf: stock empty")
	ErrStockNotEmpty = errors.New("golf: stock not empty yet")
	ErrNoRedeal      = errors.New("golf: no redeal left")
	ErrGameOver      = errors.New("golf: game over")
	ErrUndoOff       = errors.New("golf: undo not allowed")
	ErrNothingToUndo = errors.New("golf: nothing to undo")
)

// MoveError is an illegal move and the reason for it.
type MoveError struct {
	Move Move
	Err  error // one of the Err* reasons above
	// Card and Onto name the cards involved, where it helps the reader.
	Card, Onto Card
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("move %s: %s", e.Move, e.Reason())
}

// Reason is the error without the move: the reason and, where known, the
// cards involved, as in "golf: not one rank away (4C onto 9D)".
func (e *MoveError) Reason() string {
	s := e.Err.Error()
	if e.Card != NoCard {
		s += " (" + e.Card.String()
		if e.Onto != NoCard {
			s += " onto " + e.Onto.String()
		}
		s += ")"
	}
	return s
}

func (e *MoveError) Unwrap() error { return e.Err }

// maxHistory is enough moves for any game without undo: every tableau card
// played once and every stock card turned twice.
const maxHistory = maxPositions + 2*maxPack + 2

// State is a game in progress. The zero value is not usable: use NewState.
// Copying a State copies the game (use Clone, which also copies the move
// history).
type State struct {
	deal    *Deal
	present uint64
	waste   [maxPack]Card
	nWaste  uint8
	stock   [maxPack]Card // remaining stock is stock[next:nStock]
	next    uint8
	nStock  uint8
	redeals uint8 // redeals left
	moves   []Move
}

// NewState starts a game on the deal. The deal must outlive the state.
func NewState(d *Deal) *State {
	s := &State{moves: make([]Move, 0, maxHistory)}
	s.reset(d)
	return s
}

func (s *State) reset(d *Deal) {
	s.deal = d
	s.present = d.layout.all
	s.nWaste = 0
	if d.start != NoCard {
		s.waste[0] = d.start
		s.nWaste = 1
	}
	s.nStock = uint8(copy(s.stock[:], d.stock[:d.nStock]))
	s.next = 0
	s.redeals = uint8(d.Variant.Options.Redeals)
	if !d.Variant.hasStock() {
		s.redeals = 0
	}
	s.moves = s.moves[:0]
}

// Clone returns an independent copy of the game.
func (s *State) Clone() *State {
	c := *s
	c.moves = append(make([]Move, 0, max(cap(s.moves), maxHistory)), s.moves...)
	return &c
}

// Deal returns the deal being played.
func (s *State) Deal() *Deal { return s.deal }

// Variant returns the game and options.
func (s *State) Variant() Variant { return s.deal.Variant }

// Moves returns the moves applied so far (undone moves removed). The slice
// is the state's own: do not modify it.
func (s *State) Moves() []Move { return s.moves }

// WasteTop returns the top card of the waste (or foundation), or NoCard.
func (s *State) WasteTop() Card {
	if s.nWaste == 0 {
		return NoCard
	}
	return s.waste[s.nWaste-1]
}

// Waste returns the waste from the bottom card to the top one.
func (s *State) Waste() []Card { return append([]Card(nil), s.waste[:s.nWaste]...) }

// WasteLen is the number of cards on the waste.
func (s *State) WasteLen() int { return int(s.nWaste) }

// WasteAt is the waste's i-th card from the bottom (0 <= i < WasteLen).
func (s *State) WasteAt(i int) Card { return s.waste[:s.nWaste][i] }

// Stock returns the cards still in the stock, in turn order (the first is
// turned next). The stock is face down in play: whether a player may see
// it is the caller's decision (a solver with full knowledge does).
func (s *State) Stock() []Card { return append([]Card(nil), s.stock[s.next:s.nStock]...) }

// StockLeft is the number of cards still in the stock.
func (s *State) StockLeft() int { return int(s.nStock - s.next) }

// RedealsLeft is the number of redeals still available.
func (s *State) RedealsLeft() int { return int(s.redeals) }

// CardsLeft is the number of cards still on the tableau.
func (s *State) CardsLeft() int { return bits.OnesCount64(s.present) }

// Present reports whether a tableau position still holds its card.
func (s *State) Present(p int) bool { return s.present>>p&1 == 1 }

// PresentSet returns the set of tableau positions still holding cards.
func (s *State) PresentSet() uint64 { return s.present }

// Piles returns the cards still on the tableau, pile by pile, deepest
// first. For pyramid layouts a removed position is NoCard, so positions
// keep their places.
func (s *State) Piles() [][]Card {
	l := s.deal.layout
	out := make([][]Card, l.Piles())
	for p := 0; p < l.Positions; p++ {
		i := l.PileOf(p)
		switch {
		case s.Present(p):
			out[i] = append(out[i], s.deal.tableau[p])
		case l.Rows == 1:
			out[i] = append(out[i], NoCard)
		}
		if out[i] == nil {
			out[i] = []Card{}
		}
	}
	return out
}

// PileCard returns pile n's (1-based) candidate card and whether it is
// free to play. It returns NoCard for an empty pile or a bad number.
func (s *State) PileCard(n int) (Card, bool) {
	l := s.deal.layout
	if n < 1 || n > l.Piles() {
		return NoCard, false
	}
	p := l.top(n-1, s.present)
	if p < 0 {
		return NoCard, false
	}
	return s.deal.tableau[p], s.present&l.cover[p] == 0
}

// Fits reports whether card c may be played onto waste card top under the
// variant's rules. An empty waste takes any card; a joker takes any card and
// goes on any card.
func (v Variant) Fits(top, c Card) bool { return fits(v.Options.Kings, top, c) }

func fits(k Kings, top, c Card) bool {
	if top == NoCard || top == Joker || c == Joker {
		return true
	}
	d := int(top&0x0f) - int(c&0x0f)
	if d < 0 {
		d = -d
	}
	switch k {
	case Wrap:
		return d == 1 || d == 12
	case QueenOnKing:
		return d == 1
	}
	return d == 1 && top&0x0f != King
}

// over reports whether the game has ended, without allocating.
func (s *State) over() bool {
	if s.present == 0 {
		return true
	}
	if s.next < s.nStock || (s.redeals > 0 && s.nWaste > 0) {
		return false
	}
	return !s.canPlay()
}

func (s *State) canPlay() bool {
	l := s.deal.layout
	top := s.WasteTop()
	k := s.deal.Variant.Options.Kings
	for i := range l.piles {
		p := l.top(i, s.present)
		if p >= 0 && s.present&l.cover[p] == 0 && fits(k, top, s.deal.tableau[p]) {
			return true
		}
	}
	return false
}

// Over reports whether the game has ended: holed out (the tableau is clear,
// even with stock left) or no legal move left.
func (s *State) Over() bool { return s.over() }

// Cleared reports whether every tableau card has been played.
func (s *State) Cleared() bool { return s.present == 0 }

// Score is the score as the game stands (rules.md): one stroke for every
// tableau card left; after a full clear, minus one for every card left in
// the stock unless negativeScore is off.
func (s *State) Score() int {
	if s.present != 0 {
		return bits.OnesCount64(s.present)
	}
	if s.deal.Variant.Options.NegativeScore {
		return -s.StockLeft()
	}
	return 0
}

// AppendLegal appends the legal moves (undo excluded) to dst and returns
// it: the playable piles in order, then the stock turn, then the redeal.
func (s *State) AppendLegal(dst []Move) []Move {
	if s.present == 0 {
		return dst
	}
	l := s.deal.layout
	top := s.WasteTop()
	k := s.deal.Variant.Options.Kings
	for i := range l.piles {
		p := l.top(i, s.present)
		if p >= 0 && s.present&l.cover[p] == 0 && fits(k, top, s.deal.tableau[p]) {
			dst = append(dst, PlayPile(i+1))
		}
	}
	if s.next < s.nStock {
		dst = append(dst, TurnMove)
	} else if s.redeals > 0 && s.nWaste > 0 {
		dst = append(dst, RedealMove)
	}
	return dst
}

// Legal returns the legal moves (see AppendLegal).
func (s *State) Legal() []Move { return s.AppendLegal(nil) }

// Check returns nil if the move is legal now, or a *MoveError saying why
// not. It changes nothing.
func (s *State) Check(m Move) error {
	if m.Action == Undo {
		if !s.deal.Variant.Options.Undo {
			return &MoveError{Move: m, Err: ErrUndoOff}
		}
		if len(s.moves) == 0 {
			return &MoveError{Move: m, Err: ErrNothingToUndo}
		}
		return nil
	}
	if s.over() {
		return &MoveError{Move: m, Err: ErrGameOver}
	}
	switch m.Action {
	case Play:
		l := s.deal.layout
		n := int(m.Pile)
		if n < 1 || n > l.Piles() {
			return &MoveError{Move: m, Err: ErrNoSuchPile}
		}
		p := l.top(n-1, s.present)
		if p < 0 {
			return &MoveError{Move: m, Err: ErrEmptyPile}
		}
		c := s.deal.tableau[p]
		if s.present&l.cover[p] != 0 {
			return &MoveError{Move: m, Err: ErrNotFree, Card: c}
		}
		top := s.WasteTop()
		if !fits(s.deal.Variant.Options.Kings, top, c) {
			err := ErrNotAdjacent
			if top.Rank() == King && s.deal.Variant.Options.Kings == Strict {
				err = ErrNothingOnKing
			}
			return &MoveError{Move: m, Err: err, Card: c, Onto: top}
		}
	case Turn:
		if s.next >= s.nStock {
			return &MoveError{Move: m, Err: ErrStockEmpty}
		}
	case Redeal:
		if s.redeals == 0 || s.nWaste == 0 {
			return &MoveError{Move: m, Err: ErrNoRedeal}
		}
		if s.next < s.nStock {
			return &MoveError{Move: m, Err: ErrStockNotEmpty}
		}
	default:
		return &MoveError{Move: m, Err: ErrBadMove}
	}
	return nil
}

// Apply makes the move, or returns a *MoveError and changes nothing.
func (s *State) Apply(m Move) error {
	if err := s.Check(m); err != nil {
		return err
	}
	if m.Action == Undo {
		last := len(s.moves) - 1
		history := s.moves[:last]
		s.reset(s.deal)
		for _, mv := range history {
			s.apply(mv)
		}
		s.moves = s.moves[:last]
		return nil
	}
	s.apply(m)
	return nil
}

// apply makes a move already checked to be legal.
func (s *State) apply(m Move) {
	switch m.Action {
	case Play:
		l := s.deal.layout
		p := l.top(int(m.Pile)-1, s.present)
		s.present &^= 1 << p
		s.waste[s.nWaste] = s.deal.tableau[p]
		s.nWaste++
	case Turn:
		s.waste[s.nWaste] = s.stock[s.next]
		s.nWaste++
		s.next++
	case Redeal:
		// The whole waste is turned over without shuffling: the first card
		// ever turned is now on top of the stock.
		s.nStock = uint8(copy(s.stock[:], s.waste[:s.nWaste]))
		s.next = 0
		s.nWaste = 0
		s.redeals--
		s.waste[0] = s.stock[0]
		s.nWaste = 1
		s.next = 1
	}
	s.moves = append(s.moves, m)
}
