package golf

import (
	"errors"
	"fmt"
	"strings"
)

// Card is a playing card packed into one byte: the suit in the high nibble
// and the rank (1 = ace ... 13 = king) in the low nibble. The zero value is
// NoCard. Jokers have rank 0 and suit 4.
type Card uint8

// Suit is a card's suit, in the pack order of deals.md.
type Suit uint8

// The suits in the order the unshuffled pack lists them.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
	jokerSuit
)

// Rank values of the named ranks.
const (
	Ace   = 1
	Jack  = 11
	Queen = 12
	King  = 13
)

// NoCard is the zero Card: no card at all (an empty waste, say).
const NoCard Card = 0

// Joker is the wild card. Both jokers of a pack are the same Card.
const Joker Card = Card(jokerSuit << 4)

// ErrBadCard is returned when a card's text cannot be parsed.
var ErrBadCard = errors.New("golf: bad card")

// NewCard returns the card of the given rank (1-13) and suit.
func NewCard(rank int, suit Suit) Card {
	return Card(uint8(suit)<<4 | uint8(rank))
}

// Rank is 1 (ace) to 13 (king); 0 for a joker or NoCard.
func (c Card) Rank() int {
	if c.IsJoker() {
		return 0
	}
	return int(c & 0x0f)
}

// Suit returns the card's suit. It is meaningless for jokers.
func (c Card) Suit() Suit { return Suit(c >> 4) }

// IsJoker reports whether c is a joker.
func (c Card) IsJoker() bool { return c == Joker }

// Valid reports whether c is a real card (a joker or a rank and suit).
func (c Card) Valid() bool {
	if c == Joker {
		return true
	}
	r, s := c&0x0f, c>>4
	return r >= 1 && r <= 13 && s <= 3
}

const rankChars = "?A23456789TJQK"
const suitChars = "CDHS"

var suitSymbols = [4]string{"♣", "♦", "♥", "♠"}

// String returns the card's code: rank then suit, upper case ("AS", "TD"),
// "JK" for a joker and "--" for NoCard.
func (c Card) String() string { return cardNames[c] }

// cardNames are the names of every Card value, made once: a view names
// every card of every board on every move.
var cardNames = func() (names [256]string) {
	for i := range names {
		c := Card(i)
		switch {
		case c == Joker:
			names[i] = "JK"
		case !c.Valid():
			names[i] = "--"
		default:
			names[i] = string([]byte{rankChars[c.Rank()], suitChars[c.Suit()]})
		}
	}
	return names
}()

// Symbol returns the display form with a suit symbol ("A♠", "10♦"), and
// "🃏" for a joker.
func (c Card) Symbol() string {
	if c == Joker {
		return "🃏"
	}
	if !c.Valid() {
		return "--"
	}
	r := string(rankChars[c.Rank()])
	if c.Rank() == 10 {
		r = "10"
	}
	return r + suitSymbols[c.Suit()]
}

// Name returns the card's English name for screen readers ("ace of spades").
func (c Card) Name() string {
	if c == Joker {
		return "joker"
	}
	if !c.Valid() {
		return "no card"
	}
	ranks := [...]string{"", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"}
	suits := [...]string{"clubs", "diamonds", "hearts", "spades"}
	return ranks[c.Rank()] + " of " + suits[c.Suit()]
}

// Red reports whether the card is a diamond or a heart (display only).
func (c Card) Red() bool { return !c.IsJoker() && (c.Suit() == Diamonds || c.Suit() == Hearts) }

// MarshalText encodes the card as its code.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("%w: %#x", ErrBadCard, uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText parses a card code (see ParseCard).
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCard parses a card: a code ("AS", "TD", "JK"), case-insensitive, with
// "10" accepted for ten and a suit symbol accepted for the suit letter
// ("10♦", "Q♠").
func ParseCard(s string) (Card, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "JK" || t == "🃏" || t == "JOKER" {
		return Joker, nil
	}
	var rank int
	var rest string
	switch {
	case strings.HasPrefix(t, "10"):
		rank, rest = 10, t[2:]
	case len(t) > 0:
		rank = strings.IndexByte(rankChars, t[0])
		rest = t[1:]
		if rank < 1 {
			return NoCard, fmt.Errorf("%w: %q: unknown rank", ErrBadCard, s)
		}
	default:
		return NoCard, fmt.Errorf("%w: empty", ErrBadCard)
	}
	suit := -1
	if len(rest) == 1 {
		suit = strings.IndexByte(suitChars, rest[0])
	} else {
		for i, sym := range suitSymbols {
			if rest == sym || rest == sym+"\ufe0f" {
				suit = i
			}
		}
	}
	if suit < 0 {
		return NoCard, fmt.Errorf("%w: %q: unknown suit", ErrBadCard, s)
	}
	return NewCard(rank, Suit(suit)), nil
}

// formatCards prints cards as space-separated codes.
func formatCards(cs []Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}
