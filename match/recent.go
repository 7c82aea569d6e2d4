package match

// recent is a cache that keeps what was used at a room's latest version
// and at the version before it, and drops the rest: the settled boards
// of others (Room.Shown) and their encodings (ViewCache) are drawn anew
// as games move on, and a cache cleared only when it grew past a few
// hundred entries held every board of a room's hole (some 74 kB a
// 2-player room half-way through it), which the collector then marked
// again and again at thousands of rooms.
type recent[K comparable, V any] struct {
	version   int64
	cur, prev map[K]V
}

// at moves the cache to version: at a new version what the current one
// used becomes the previous, and what the previous used is dropped.
func (c *recent[K, V]) at(version int64) {
	if c.cur != nil && c.version == version {
		return
	}
	c.version = version
	c.prev, c.cur = c.cur, c.prev
	if c.cur == nil {
		c.cur = make(map[K]V)
	} else {
		clear(c.cur)
	}
}

// get returns k's value, keeping it for the current version if it was
// the previous one's.
func (c *recent[K, V]) get(k K) (V, bool) {
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	v, ok := c.prev[k]
	if ok && c.cur != nil {
		c.cur[k] = v
	}
	return v, ok
}

// put keeps k's value for the current version (at must have been
// called).
func (c *recent[K, V]) put(k K, v V) { c.cur[k] = v }

// len is how many entries the cache holds.
func (c *recent[K, V]) len() int { return len(c.cur) + len(c.prev) }
