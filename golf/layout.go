package golf

import "math/bits"

// maxPositions is the largest tableau any game has (Double Golf's 64), so a
// set of positions fits in one uint64.
const maxPositions = 64

// Layout is a game's tableau shape: numbered positions, which positions
// cover which, and how positions group into piles. Pile n (1-based) is what
// a move "n" names: a column or fan whose free card is its outermost
// remaining card, or a single position of a pyramid or peak.
//
// Within a pile, positions are numbered upwards from the deepest card, so
// the pile's candidate card is the highest position still present; it may
// be played only when no position that covers it is still present.
type Layout struct {
	// Positions is the number of tableau positions.
	Positions int
	// Rows is the depth of each column or fan (1 for pyramids and peaks).
	Rows int
	// Shape is "columns" or the game name for a pyramid-like layout.
	Shape string

	piles []uint64             // positions of each pile
	cover [maxPositions]uint64 // positions that cover each position
	pos   [maxPositions]uint8  // deal index -> position
	pile  [maxPositions]uint8  // position -> pile index (0-based)
	all   uint64
}

// Piles is the number of piles (columns, fans or single positions).
func (l *Layout) Piles() int { return len(l.piles) }

// PileOf returns the 0-based pile of a position.
func (l *Layout) PileOf(p int) int { return int(l.pile[p]) }

// Covers returns the set of positions that cover p.
func (l *Layout) Covers(p int) uint64 { return l.cover[p] }

// PilePositions returns the set of positions of pile i (0-based).
func (l *Layout) PilePositions(i int) uint64 { return l.piles[i] }

// DealPosition returns the position that the k-th dealt card goes to.
func (l *Layout) DealPosition(k int) int { return int(l.pos[k]) }

// top returns the candidate position of pile i given the present set, or -1.
func (l *Layout) top(i int, present uint64) int {
	return bits.Len64(present&l.piles[i]) - 1
}

func columnsLayout(cols, rows int) *Layout {
	l := &Layout{Positions: cols * rows, Rows: rows, Shape: "columns"}
	l.piles = make([]uint64, cols)
	for k := 0; k < cols*rows; k++ {
		col, row := k%cols, k/cols
		p := col*rows + row
		l.pos[k] = uint8(p)
		l.pile[p] = uint8(col)
		l.piles[col] |= 1 << p
		if row < rows-1 {
			l.cover[p] = 1 << (p + 1)
		}
	}
	l.all = allBits(l.Positions)
	return l
}

func allBits(n int) uint64 {
	if n == 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// singlesLayout is a layout of one-card piles, position k = deal index k.
func singlesLayout(n int, shape string, cover func(add func(p, by int))) *Layout {
	l := &Layout{Positions: n, Rows: 1, Shape: shape}
	l.piles = make([]uint64, n)
	for k := 0; k < n; k++ {
		l.pos[k] = uint8(k)
		l.pile[k] = uint8(k)
		l.piles[k] = 1 << k
	}
	cover(func(p, by int) { l.cover[p] |= 1 << by })
	l.all = allBits(n)
	return l
}

// tripeaksLayout follows deals.md: positions 0-2 are the tips, 3-8 the
// second row, 9-17 the third, 18-27 the bottom row.
func tripeaksLayout() *Layout {
	return singlesLayout(28, string(TriPeaks), func(add func(p, by int)) {
		const row1, row2, row3 = 3, 9, 18
		for i := 0; i < 9; i++ {
			add(row2+i, row3+i)
			add(row2+i, row3+i+1)
		}
		for q := 0; q < 6; q++ {
			p := q / 2
			add(row1+q, row2+q+p)
			add(row1+q, row2+q+p+1)
		}
		for p := 0; p < 3; p++ {
			add(p, row1+2*p)
			add(p, row1+2*p+1)
		}
	})
}

// pyramidLayout: row r (0-based) holds r+1 cards, numbered row by row from
// the apex; row r index i is covered by row r+1 indexes i and i+1.
func pyramidLayout() *Layout {
	return singlesLayout(28, string(PyramidGolf), func(add func(p, by int)) {
		start := func(r int) int { return r * (r + 1) / 2 }
		for r := 0; r < 6; r++ {
			for i := 0; i <= r; i++ {
				add(start(r)+i, start(r+1)+i)
				add(start(r)+i, start(r+1)+i+1)
			}
		}
	})
}

// layouts holds the immutable layout of every game shape, built once.
type layouts struct {
	golf7, golf6, double, blackHole, allInARow, tripeaks, pyramid *Layout
}

var shapes = layouts{
	golf7:     columnsLayout(7, 5),
	golf6:     columnsLayout(6, 5),
	double:    columnsLayout(8, 8),
	blackHole: columnsLayout(17, 3),
	allInARow: columnsLayout(13, 4),
	tripeaks:  tripeaksLayout(),
	pyramid:   pyramidLayout(),
}

// Layout returns the variant's tableau layout.
func (v Variant) Layout() *Layout {
	switch v.Game {
	case DoubleGolf:
		return shapes.double
	case BlackHole:
		return shapes.blackHole
	case AllInARow:
		return shapes.allInARow
	case TriPeaks:
		return shapes.tripeaks
	case PyramidGolf:
		return shapes.pyramid
	}
	if v.Options.Columns == 6 {
		return shapes.golf6
	}
	return shapes.golf7
}

// Packs is the number of 52-card packs the variant uses.
func (v Variant) Packs() int {
	if v.Game == DoubleGolf {
		return 2
	}
	return 1
}

// PackSize is the number of cards dealt, jokers included.
func (v Variant) PackSize() int { return 52*v.Packs() + v.Options.Jokers }

// hasStock reports whether the game has a stock and a waste (as opposed to
// Black Hole and All in a Row, which have only a foundation).
func (v Variant) hasStock() bool { return v.Game != BlackHole && v.Game != AllInARow }
