package golf

import "math/bits"

// table is the solver's transposition table: buckets of four 16-byte
// entries (one cache line), each entry the tableau present-set and a word
// packing the rest of the key (stock position, top rank: 31 bits), the
// value and a generation stamp, so that reusing the table for another
// solve costs nothing. Every solve starts on a small prefix of the
// allocation (few cache and TLB misses for the many easy deals) and
// doubles it while it is more than half full, up to maxTableSize entries;
// then it replaces the entry with the fewest cards on the tableau (the
// cheapest to search again). It is only a cache: losing an entry costs
// time, never correctness.
//
// Keys whose second part does not fit in 31 bits (with redeals it holds a
// hash of the waste) go to wide, a table of 24-byte entries holding the
// whole second key.
type table struct {
	e    []ttEntry
	mask uint64 // entries in use - 1
	used int
	gen  uint64
	tmp  []ttEntry
	sink uint64 // what touch loads
	wide wideTable
}

type ttEntry struct {
	k1 uint64
	// w: gen (bits 0-15), lower+32768 (16-31), exact (32), k2 (33-63).
	w uint64
}

const (
	minTableSize = 1 << 13
	maxTableSize = 1 << 22
	ways         = 4
	narrowK2     = 1 << 31
)

// bytes is the memory the table holds.
func (t *table) bytes() int {
	return cap(t.e)*16 + cap(t.tmp)*16 + cap(t.wide.e)*24
}

func (t *table) reset() {
	t.wide.reset()
	t.gen++
	if t.gen == 1<<16 || t.e == nil {
		clear(t.e)
		t.gen = 1
	}
	if t.e == nil {
		t.e = make([]ttEntry, minTableSize)
	}
	t.mask = minTableSize - 1
	t.used = 0
}

func ttHash(k1, k2 uint64) uint64 {
	h := k1*0x9e3779b97f4a7c15 ^ k2*0xc2b2ae3d27d4eb4f
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

// find returns the stored value of the key: a lower bound on the best
// score, whether it is exact, and whether there was one; and the key's
// hash, for store.
func (t *table) find(k1, k2 uint64) (int, bool, bool, uint64) {
	if k2 >= narrowK2 {
		l, e, ok := t.wide.find(k1, k2)
		return l, e, ok, 0
	}
	h := ttHash(k1, k2)
	b := t.e[h&t.mask&^(ways-1):][:ways]
	tag := t.gen | k2<<33
	for i := range b {
		if b[i].k1 == k1 && b[i].w&^(1<<33-1<<16) == tag {
			w := b[i].w
			return int(w>>16&0xffff) - 32768, w>>32&1 == 1, true, h
		}
	}
	return 0, false, false, h
}

// touch loads the key's bucket, so that a find soon after finds it in
// the cache.
func (t *table) touch(k1, k2 uint64) {
	t.sink += t.e[ttHash(k1, k2)&t.mask&^(ways-1)].w
}

// store stores the key's value; h is its hash from find.
func (t *table) store(k1, k2, h uint64, lower int, exact bool) {
	if k2 >= narrowK2 {
		t.wide.store(k1, k2, lower, exact)
		return
	}
	if t.used*2 > int(t.mask) && int(t.mask)+1 < maxTableSize {
		t.grow()
	}
	w := t.gen | uint64(lower+32768)<<16 | k2<<33
	if exact {
		w |= 1 << 32
	}
	t.put(k1, k2, h, w)
}

func (t *table) put(k1, k2, h, w uint64) {
	b := t.e[h&t.mask&^(ways-1):][:ways]
	tag := t.gen | k2<<33
	victim, vc := 0, 65
	for i := range b {
		e := &b[i]
		if e.w&0xffff != t.gen {
			*e = ttEntry{k1, w}
			t.used++
			return
		}
		if e.k1 == k1 && e.w&^(1<<33-1<<16) == tag {
			e.w = w
			return
		}
		if c := bits.OnesCount64(e.k1); c < vc {
			victim, vc = i, c
		}
	}
	b[victim] = ttEntry{k1, w}
}

// grow doubles the part of the allocation in use, moving the live entries.
func (t *table) grow() {
	size := int(t.mask) + 1
	t.tmp = t.tmp[:0]
	for _, e := range t.e[:size] {
		if e.w&0xffff == t.gen {
			t.tmp = append(t.tmp, e)
		}
	}
	if len(t.e) < 2*size {
		t.e = make([]ttEntry, 2*size)
	}
	t.gen++
	if t.gen == 1<<16 {
		clear(t.e)
		t.gen = 1
	}
	t.mask = uint64(2*size - 1)
	t.used = 0
	for _, e := range t.tmp {
		k2 := e.w >> 33
		t.put(e.k1, k2, ttHash(e.k1, k2), e.w&^0xffff|t.gen)
	}
}

// wideTable is the table for keys with a wide second part: open
// addressing with a short linear probe.
type wideTable struct {
	e    []wideEntry
	mask uint64
	used int
	gen  uint32
}

type wideEntry struct {
	k1, k2 uint64
	gen    uint32
	lower  int16
	exact  bool
}

const probes = 4

func (t *wideTable) reset() {
	if t.e == nil {
		return // allocated on first use
	}
	t.gen++
	t.used = 0
	if t.gen == 0 {
		t.e = nil
	}
}

func (t *wideTable) find(k1, k2 uint64) (int, bool, bool) {
	if t.e == nil {
		return 0, false, false
	}
	i := ttHash(k1, k2) & t.mask
	for j := 0; j < probes; j++ {
		e := &t.e[(i+uint64(j))&t.mask]
		if e.gen != t.gen {
			return 0, false, false
		}
		if e.k1 == k1 && e.k2 == k2 {
			return int(e.lower), e.exact, true
		}
	}
	return 0, false, false
}

func (t *wideTable) store(k1, k2 uint64, lower int, exact bool) {
	if t.e == nil {
		t.e = make([]wideEntry, minTableSize)
		t.mask = minTableSize - 1
		t.gen = 1
	}
	if t.used*2 > len(t.e) && len(t.e) < maxTableSize {
		t.grow()
	}
	i := ttHash(k1, k2) & t.mask
	var slot *wideEntry
	for j := 0; j < probes; j++ {
		e := &t.e[(i+uint64(j))&t.mask]
		if e.gen != t.gen {
			slot = e
			t.used++
			break
		}
		if e.k1 == k1 && e.k2 == k2 {
			slot = e
			break
		}
	}
	if slot == nil {
		slot = &t.e[i] // replace
	}
	*slot = wideEntry{k1: k1, k2: k2, gen: t.gen, lower: int16(lower), exact: exact}
}

func (t *wideTable) grow() {
	old := t.e
	t.e = make([]wideEntry, 2*len(old))
	t.mask = uint64(len(t.e) - 1)
	t.used = 0
	for i := range old {
		e := &old[i]
		if e.gen == t.gen {
			t.store(e.k1, e.k2, int(e.lower), e.exact)
		}
	}
}
