package golf

// table is the solver's transposition table: open addressing with a short
// linear probe, entries stamped with a generation so that reusing it for
// another solve costs nothing. It grows up to maxTableSize entries, then
// replaces entries (it is only a cache: losing an entry costs time, never
// correctness).
type table struct {
	e    []ttEntry
	mask uint64
	used int
	gen  uint32
}

type ttEntry struct {
	k1, k2 uint64
	gen    uint32
	lower  int16
	exact  bool
}

const (
	minTableSize = 1 << 12
	maxTableSize = 1 << 22
	probes       = 4
)

func (t *table) reset() {
	t.gen++
	t.used = 0
	if t.e == nil || t.gen == 0 {
		t.e = make([]ttEntry, minTableSize)
		t.mask = minTableSize - 1
		t.gen = 1
	}
}

func ttHash(k1, k2 uint64) uint64 {
	h := k1*0x9e3779b97f4a7c15 ^ k2*0xc2b2ae3d27d4eb4f
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

func (t *table) find(k1, k2 uint64) *ttEntry {
	i := ttHash(k1, k2) & t.mask
	for j := 0; j < probes; j++ {
		e := &t.e[(i+uint64(j))&t.mask]
		if e.gen != t.gen {
			return nil
		}
		if e.k1 == k1 && e.k2 == k2 {
			return e
		}
	}
	return nil
}

func (t *table) store(k1, k2 uint64, lower int, exact bool) {
	if t.used*2 > len(t.e) && len(t.e) < maxTableSize {
		t.grow()
	}
	i := ttHash(k1, k2) & t.mask
	var slot *ttEntry
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
	*slot = ttEntry{k1: k1, k2: k2, gen: t.gen, lower: int16(lower), exact: exact}
}

func (t *table) grow() {
	old := t.e
	t.e = make([]ttEntry, 2*len(old))
	t.mask = uint64(len(t.e) - 1)
	t.used = 0
	for i := range old {
		e := &old[i]
		if e.gen == t.gen {
			t.store(e.k1, e.k2, int(e.lower), e.exact)
		}
	}
}
