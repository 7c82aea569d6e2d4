package golf

// Unclearable reports whether the deal can be seen to be unclearable: no
// order of its stock could let every tableau card be played. It is the
// check behind the rooms' skipUnclearable option.
//
// The check is sound: it never calls a clearable deal unclearable. It
// computes the least set of tableau positions that could ever be played
// under the most generous assumptions:
//
//   - every stock card (and the starting waste card) is available as the
//     waste card whenever it is wanted, as if the stock could be turned in
//     any order and any number of times;
//   - a tableau card is playable once every card covering it is playable
//     and some card that it fits onto is available: a stock card, an
//     already-playable tableau card, or the empty waste when the game starts
//     with one (freeStart, All in a Row) and the card is free at the start.
//
// In any real clearing line, each played card's covers were played before
// it and the waste card it went onto was either a turned stock card, a
// tableau card played earlier or the empty start; so, by induction over the
// line, every card of the line is in the set. A card outside the set can
// never be played under any stock order, and the deal is unclearable.
// (Redeals only turn already-seen cards again, which the assumptions
// already allow.)
//
// The set is the same whatever the stock order, so one computation answers
// for every order; a deal it does not mark may still be unclearable (most
// unclearable deals depend on the stock order, and only a solver can tell).
//
// Examples (each tested in unclearable_test.go):
//
//   - Strict Golf, no jokers, all four queens in the columns, each with a
//     king somewhere above it. A king goes only on a queen; a queen goes only
//     on a jack (nothing goes on a king), but first the king above it must
//     go. No queen can reach the waste before some king has, and no king
//     before some queen: none of the eight cards is ever played. The same
//     holds with queen-on-king; with wrap the aces must be buried under the
//     kings too. One queen in the stock, or a joker anywhere it can be
//     played, breaks the cycle.
//   - Strict Golf with all four 2s under aces: an ace takes only a 2.
//   - Black Hole with every 7 lying over all four 6s and all four 8s.
//   - freeStart or All in a Row: a card free at the start may begin the
//     waste, so a king at the end of a column escapes the first example.
func (d *Deal) Unclearable() bool { return d.playable() != d.layout.all }

// playable returns the set of tableau positions that Unclearable's
// generous assumptions allow to be played: a superset of the cards any real
// line of play can play, whatever the stock order.
func (d *Deal) playable() uint64 {
	l := d.layout
	k := d.Variant.Options.Kings
	var stockFits [16]bool // by rank 0 (joker) .. 13: some available card lets it be played
	available := func(top Card) {
		for r := 0; r <= 13; r++ {
			c := NewCard(r, Clubs)
			if r == 0 {
				c = Joker
			}
			if fits(k, top, c) {
				stockFits[r] = true
			}
		}
	}
	for _, c := range d.stock[:d.nStock] {
		available(c)
	}
	if d.start != NoCard {
		available(d.start)
	}
	emptyStart := d.start == NoCard
	rankOf := func(c Card) int {
		if c == Joker {
			return 0
		}
		return c.Rank()
	}
	var possible uint64
	for changed := true; changed; {
		changed = false
		for p := 0; p < l.Positions; p++ {
			if possible>>p&1 == 1 || l.cover[p]&^possible != 0 {
				continue
			}
			c := d.tableau[p]
			ok := stockFits[rankOf(c)] || (emptyStart && l.cover[p] == 0)
			for q := 0; !ok && q < l.Positions; q++ {
				ok = possible>>q&1 == 1 && fits(k, d.tableau[q], c)
			}
			if ok {
				possible |= 1 << p
				changed = true
			}
		}
	}
	return possible
}
