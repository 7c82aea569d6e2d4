package match

// recent is a cache in two generations: what was used since the last
// turn and what was used in the turn before; a turn drops the older one.
// An entry of the older generation used again moves to the newer. The
// settled boards of others (Room.Shown) and their encodings (ViewCache)
// turn at every version of the room (at): they are drawn anew as games
// move on, and caches cleared only when they grew past a few hundred
// entries held every board of a room's hole (some 74 kB a 2-player room
// half-way through it), which the collector then marked again and again
// at thousands of rooms. The Analyzer's memo turns when its newer
// generation is full.
type recent[K comparable, V any] struct {
	version   int64
	cur, prev map[K]V
}

// turn makes the newer generation the older and drops the older.
func (c *recent[K, V]) turn() {
	c.prev, c.cur = c.cur, c.prev
	if c.cur == nil {
		c.cur = make(map[K]V)
	} else {
		clear(c.cur)
	}
}

// at turns the cache when version is not the one it last turned at.
func (c *recent[K, V]) at(version int64) {
	if c.cur != nil && c.version == version {
		return
	}
	c.version = version
	c.turn()
}

// get returns k's value, moving it to the newer generation if it was
// the older one's.
func (c *recent[K, V]) get(k K) (V, bool) {
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	v, ok := c.prev[k]
	if ok {
		c.put(k, v)
	}
	return v, ok
}

// peek is get without moving anything.
func (c *recent[K, V]) peek(k K) (V, bool) {
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	v, ok := c.prev[k]
	return v, ok
}

// put keeps k's value in the newer generation.
func (c *recent[K, V]) put(k K, v V) {
	if c.cur == nil {
		c.cur = make(map[K]V)
	}
	c.cur[k] = v
}

// len is how many entries the cache holds.
func (c *recent[K, V]) len() int { return len(c.cur) + len(c.prev) }
