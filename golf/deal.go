package golf

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Seed is 32 bytes from which a deal is derived (deals.md). Its text form is
// 64 lowercase hex digits.
type Seed [32]byte

// ErrBadSeed is returned when a seed's text is not 64 hex digits.
var ErrBadSeed = errors.New("golf: bad seed")

// ParseSeed parses 64 hex digits.
func ParseSeed(s string) (Seed, error) {
	var seed Seed
	if len(s) != 64 {
		return seed, fmt.Errorf("%w: want 64 hex digits, got %d characters", ErrBadSeed, len(s))
	}
	if _, err := hex.Decode(seed[:], []byte(s)); err != nil {
		return seed, fmt.Errorf("%w: %v", ErrBadSeed, err)
	}
	return seed, nil
}

// String returns the seed as 64 lowercase hex digits.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// MarshalText writes the hex form.
func (s Seed) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads the hex form.
func (s *Seed) UnmarshalText(b []byte) error {
	v, err := ParseSeed(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Commitment is hex(SHA-256(seed)), shown before play so the seed, revealed
// afterwards, can be checked.
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// Verify reports whether the seed matches the commitment (hex, any case).
func (s Seed) Verify(commitment string) bool {
	c, err := hex.DecodeString(commitment)
	if err != nil || len(c) != sha256.Size {
		return false
	}
	h := sha256.Sum256(s[:])
	return string(h[:]) == string(c)
}

// derive returns SHA-256(prefix ‖ label ‖ decimal n), with no allocation.
func derive(prefix []byte, label string, n int) Seed {
	var buf [32 + 16 + 20]byte
	b := append(buf[:0], prefix...)
	b = append(b, label...)
	b = strconv.AppendInt(b, int64(n), 10)
	return sha256.Sum256(b)
}

// NumberedSeed is the seed of numbered deal n: SHA-256("golf-deal:" ‖ n).
func NumberedSeed(n int) Seed { return derive(nil, "golf-deal:", n) }

// HoleSeed is the seed of hole h of a round: SHA-256(round ‖ "hole:" ‖ h).
func (s Seed) HoleSeed(h int) Seed { return derive(s[:], "hole:", h) }

// AgainSeed is the k-th replacement seed (k >= 1) for a deal skipped as
// unclearable: SHA-256(seed ‖ "again:" ‖ k).
func (s Seed) AgainSeed(k int) Seed { return derive(s[:], "again:", k) }

// maxPack is the largest pack: two packs and two jokers.
const maxPack = 2*52 + 2

// Deal is the cards of one deal, before any move: the tableau by position,
// the stock in turn order and the starting waste (or foundation) card.
type Deal struct {
	Variant Variant
	Seed    Seed

	layout  *Layout
	tableau [maxPositions]Card
	stock   [maxPack]Card
	nStock  uint8
	start   Card // first waste or foundation card; NoCard if it starts empty
}

// Layout returns the deal's tableau layout.
func (d *Deal) Layout() *Layout { return d.layout }

// At returns the card dealt to a position.
func (d *Deal) At(p int) Card { return d.tableau[p] }

// Stock returns the stock in turn order (the first card is turned next).
func (d *Deal) Stock() []Card { return append([]Card(nil), d.stock[:d.nStock]...) }

// StockLen is len(d.Stock()), without the copy.
func (d *Deal) StockLen() int { return int(d.nStock) }

// Start returns the first waste (or foundation) card, or NoCard.
func (d *Deal) Start() Card { return d.start }

// Tableau returns the piles, each from the deepest card to the free one.
func (d *Deal) Tableau() [][]Card {
	l := d.layout
	out := make([][]Card, l.Piles())
	for p := 0; p < l.Positions; p++ {
		i := l.PileOf(p)
		out[i] = append(out[i], d.tableau[p])
	}
	return out
}

// pack fills dst with the unshuffled pack: for each pack clubs, diamonds,
// hearts, spades, each A to K; then the jokers. It returns the count.
func pack(dst *[maxPack]Card, v Variant) int {
	n := 0
	for p := 0; p < v.Packs(); p++ {
		for s := Clubs; s <= Spades; s++ {
			for r := 1; r <= 13; r++ {
				dst[n] = NewCard(r, s)
				n++
			}
		}
	}
	for j := 0; j < v.Options.Jokers; j++ {
		dst[n] = Joker
		n++
	}
	return n
}

// uniform returns a uniform integer in [0, m) from the generator, exactly as
// deals.md specifies (rejection below (2^64 - m) mod m).
func uniform(g *rand.ChaCha8, m uint64) uint64 {
	for {
		x := g.Uint64()
		// The threshold t = (2^64 - m) mod m is below m, so any x >= m passes
		// without computing it: one division per draw instead of two.
		if x >= m || x >= -m%m {
			return x % m
		}
	}
}

// Shuffle performs the contract's Fisher-Yates shuffle of cards, driven by
// ChaCha8 keyed with the seed.
func Shuffle(seed Seed, cards []Card) {
	g := rand.NewChaCha8(seed) // its one allocation is the deal's only one
	for i := len(cards) - 1; i >= 1; i-- {
		j := uniform(g, uint64(i+1))
		cards[i], cards[j] = cards[j], cards[i]
	}
}

// NewDeal deals the variant from the seed, exactly as deals.md says. The
// variant must be valid (see NewVariant).
func NewDeal(v Variant, seed Seed) Deal {
	d := Deal{Variant: v, Seed: seed, layout: v.Layout()}
	var cards [maxPack]Card
	n := pack(&cards, v)
	Shuffle(seed, cards[:n])
	l := d.layout
	rest := cards[:n]
	switch v.Game {
	case BlackHole:
		// The first ace of spades leaves the pack to be the foundation; the
		// other 51 keep their order.
		as := NewCard(Ace, Spades)
		k := 0
		for ; k < n && cards[k] != as; k++ {
		}
		d.start = as
		copy(cards[k:], cards[k+1:n])
		rest = cards[:n-1]
	}
	for k := 0; k < l.Positions; k++ {
		d.tableau[l.pos[k]] = rest[k]
	}
	rest = rest[l.Positions:]
	if v.hasStock() && !v.Options.FreeStart && len(rest) > 0 {
		d.start, rest = rest[0], rest[1:]
	}
	d.nStock = uint8(copy(d.stock[:], rest))
	return d
}

// dealJSON is the printed form of a deal (deals.md).
type dealJSON struct {
	Game       Game           `json:"game"`
	Options    orderedOptions `json:"options"`
	Seed       Seed           `json:"seed"`
	Tableau    [][]Card       `json:"tableau"`
	Stock      []Card         `json:"stock"`
	Waste      *[]Card        `json:"waste,omitempty"`
	Foundation *[]Card        `json:"foundation,omitempty"`
}

// MarshalJSON prints the deal as deals.md describes: tableau piles from the
// deepest card to the free one, the stock in turn order, and the waste (or,
// for Black Hole and All in a Row, the foundation).
func (d Deal) MarshalJSON() ([]byte, error) {
	j := dealJSON{
		Game: d.Variant.Game, Options: orderedOptions{d.Variant.Game, d.Variant.Options},
		Seed: d.Seed, Tableau: d.Tableau(), Stock: d.Stock(),
	}
	start := []Card{}
	if d.start != NoCard {
		start = []Card{d.start}
	}
	if d.Variant.hasStock() {
		j.Waste = &start
	} else {
		j.Foundation = &start
	}
	if j.Stock == nil {
		j.Stock = []Card{}
	}
	return json.Marshal(j)
}
